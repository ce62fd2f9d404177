"""Times as people type them, through the real discord.py client against the sandbox: the
server's time zone (/config timezone, with autocomplete), "tomorrow 19:00" read in it, a bad
time refused privately with the option named, and times shown as Discord timestamps."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64
# Friday 27 November 2026, 15:00 UTC: 16:00 in Paris
FRIDAY = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)


class FridayClock:
    """The service's clock: FRIDAY, then running with real time."""

    def __init__(self) -> None:
        self.started = datetime.now(UTC)

    def __call__(self) -> datetime:
        return FRIDAY + (datetime.now(UTC) - self.started)


async def _on_friday(fake: FakeDiscord, guild: SandboxGuild,
                     start_swissbot: Any) -> tuple[Any, Club]:
    bot = await start_swissbot()
    bot.service._clock = FridayClock()
    return bot, Club(fake, guild)


async def test_tomorrow_19_00_is_read_in_the_servers_zone(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _on_friday(fake, guild, start_swissbot)

    inter = await fake.send_autocomplete(guild, club.channel, club.owner, "config timezone",
                                         "zone", {"zone": "paris"})
    assert [c["value"] for c in (await fake.reply(inter))["choices"]] == ["Europe/Paris"]
    reply = await club.run(club.owner, "config timezone", zone="Europe/Paris")
    assert reply["flags"] & EPHEMERAL and "Time zone: **Europe/Paris**" in reply["content"]
    reply = await club.run(club.owner, "config show")
    assert "Time zone: Europe/Paris" in reply["content"]
    # a member without Manage Server cannot change it
    reply = await club.run(club.players[0], "config timezone", zone="Asia/Tokyo")
    assert reply["flags"] & EPHEMERAL
    assert (await bot.service.get_guild_settings(guild.id)).timezone == "Europe/Paris"

    reply = await club.run(club.owner, "tournament create", name="Paris Rapid", rounds=3)
    assert "Created **Paris Rapid**" in reply["content"], reply
    reply = await club.run(club.owner, "tournament timers", start_at="tomorrow 19:00",
                           round_interval="1d", deadline_minutes="1h30")
    assert "updated" in reply["content"], reply
    saturday_19_paris = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
    info = await bot.service.tournament_info(guild.id)
    assert info.settings.first_round_at == saturday_19_paris.isoformat()
    assert (info.settings.round_interval_minutes, info.settings.deadline_minutes) == (1440, 90)
    # every reader sees it in his own zone: a Discord timestamp, not UTC text
    shown = text_of(reply)
    assert f"<t:{int(saturday_19_paris.timestamp())}:F>" in shown and "UTC" not in shown
    assert "1h 30m" in shown and "every 1d" in shown
    notice = await club.wait_post(lambda m: "Round 1 of **Paris Rapid** starts" in text_of(m))
    assert f"<t:{int(saturday_19_paris.timestamp())}:" in text_of(notice)

    reply = await club.run(club.owner, "tournament timers", start_at="fri 18:30")
    assert "updated" in reply["content"], reply
    next_friday = datetime(2026, 11, 27, 17, 30, tzinfo=UTC)  # today, still to come
    assert (await bot.service.tournament_info(guild.id)).settings.first_round_at == \
        next_friday.isoformat()
    # the settings panel's direct change reads typed times the same way
    await club.configure(club.owner, first_round_at="tomorrow 20:00", deadline_minutes="2h")
    settings = (await bot.service.tournament_info(guild.id)).settings
    assert settings.first_round_at == datetime(2026, 11, 28, 19, 0, tzinfo=UTC).isoformat()
    assert settings.deadline_minutes == 120


async def test_a_bad_time_gets_a_private_error_naming_the_option(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _on_friday(fake, guild, start_swissbot)
    await club.run(club.owner, "config timezone", zone="Europe/Paris")
    await club.run(club.owner, "tournament create", name="Typo Open", rounds=3)
    before = (await bot.service.tournament_info(guild.id)).settings
    reply = await club.run(club.owner, "tournament timers", start_at="tomorow 19:00",
                           round_interval="1d")
    assert reply["flags"] & EPHEMERAL
    assert reply["content"].startswith("start_at 'tomorow 19:00':"), reply["content"]
    assert '"tomorrow 19:00"' in reply["content"]  # examples of what works
    reply = await club.run(club.owner, "tournament timers", start_at="2027-03-28 02:30",
                           round_interval="1d")
    assert reply["flags"] & EPHEMERAL and "does not exist in Europe/Paris" in reply["content"]
    reply = await club.run(club.owner, "tournament timers", deadline_minutes="90 secs")
    assert reply["flags"] & EPHEMERAL
    assert "deadline_minutes '90 secs': give whole minutes" in reply["content"]
    reply = await club.run(club.owner, "tournament settings", setting="deadline_minutes",
                           value="90 secs")
    assert reply["flags"] & EPHEMERAL
    assert "deadline_minutes '90 secs': give whole minutes" in text_of(reply)
    reply = await club.run(club.owner, "config timezone", zone="Paris")
    assert reply["flags"] & EPHEMERAL and "Unknown time zone 'Paris'" in reply["content"]
    # nothing half-made
    assert (await bot.service.tournament_info(guild.id)).settings == before
