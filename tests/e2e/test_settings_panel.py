"""The settings panel and the ratings organisers control, through the real discord.py
client: the panel shows every setting and changes a group through its form; a stale panel
is refused and replaced by the current one; a change that would rewrite round 1 is refused;
``/admin rating`` answers with the seeding it changes; ``/join rating:`` is refused when
only organisers set ratings."""

from __future__ import annotations

import copy
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, running_club, text_of

EPHEMERAL = 64


def _menu(message: dict[str, Any], kind: str) -> str:
    """The custom_id of the panel's menu ``kind`` (group, channel, role)."""
    return next(c["custom_id"] for row in message["components"] for c in row["components"]
                if c.get("custom_id", "").startswith(f"swissbot:set{kind}:"))


async def _open_form(club: Club, panel: dict[str, Any], group: str) -> tuple[str, dict]:
    """Choose ``group`` in the panel's menu: the interaction's token and the form opened."""
    inter = await club.fake.choose_in_select(panel, club.owner, _menu(panel, "group"), [group])
    return inter["token"], await club.fake.reply(inter)


async def _send_form(club: Club, token: str, values: dict[str, str]) -> dict[str, Any]:
    inter = await club.fake.submit_modal(token, club.owner, values)
    return await club.fake.reply(inter)


async def _club_with_event(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
                           name: str) -> tuple[Any, Club]:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name=name, rounds=4)
    return bot, club


def _inputs(form: dict[str, Any]) -> dict[str, str]:
    return {c["custom_id"]: c.get("value") or "" for row in form["components"]
            for c in row["components"]}


async def test_the_panel_shows_and_changes_settings_and_refuses_a_stale_one(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _club_with_event(fake, guild, start_swissbot, "Panel Open")
    panel = await club.run(club.owner, "tournament settings")
    assert panel["flags"] & EPHEMERAL
    shown = text_of(panel)
    for label in ("Capacity (players)", "Round 1 starts at", "Top cut (players)",
                  "Check-in required", "Ratings typed by", "Time to play a round"):
        assert label in shown, label
    other = copy.deepcopy(await club.run(club.owner, "tournament settings"))  # a second panel
    # the form opens filled in; sending it with two values changed saves those two
    token, form = await _open_form(club, panel, "entry")
    assert form["title"] == "Entry" and _inputs(form)["capacity"] == ""
    saved = await _send_form(club, token, {"capacity": "8", "min_rating": "1000"})
    assert "settings saved" in saved["content"] and "Capacity (players): — → 8" in \
        saved["content"], saved
    info = await bot.service.tournament_info(guild.id)
    assert (info.settings.capacity, info.settings.min_rating) == (8, 1000)
    # the second panel was shown before that change: refused, and replaced by the current one
    stale = await club.fake.choose_in_select(other, club.owner, _menu(other, "group"),
                                             ["timers"])
    answer = await club.fake.reply(stale)
    assert "changed since this panel was shown" in answer["content"]
    assert club.fake.pending_modal(club.owner) is None  # no form opened
    assert f"settings version {info.settings_version}" in text_of(answer)
    # a form opened before another change is refused when sent, and changes nothing
    token, _ = await _open_form(club, panel, "playoffs")
    await club.configure(club.owner, deadline_minutes=45)
    refused = await _send_form(club, token, {"top_cut": "4"})
    assert "changed since this panel was shown" in refused["content"]
    assert (await bot.service.tournament_info(guild.id)).settings.top_cut == 0
    # a non-organiser's click is refused
    outsider = club.players[0]
    inter = await fake.choose_in_select(refused, outsider, _menu(refused, "group"), ["event"])
    assert "Only organisers" in (await fake.reply(inter))["content"]


async def test_a_change_that_would_rewrite_round_one_is_refused(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await running_club(fake, guild, start_swissbot, "Played Open", 5, players=4)
    reply = await club.run(club.owner, "tournament settings", setting="checkin", value="on")
    assert reply["flags"] & EPHEMERAL
    assert "has started: checkin can no longer change" in reply["content"]
    panel = await club.run(club.owner, "tournament settings")
    token, form = await _open_form(club, panel, "pairing")
    assert "apply" in _inputs(form)  # after the start the form asks when the change applies
    refused = await _send_form(club, token, {"system": "monrad", "apply": "standings"})
    assert "Choose 'from the next round'" in refused["content"], refused
    assert (await bot.service.tournament_info(guild.id)).settings.system == "dutch"
    token, _ = await _open_form(club, panel, "pairing")
    saved = await _send_form(club, token, {"system": "monrad", "apply": "next-round"})
    assert "Pairing system: dutch → monrad" in saved["content"]
    assert "apply from the next round" in saved["content"]
    reply = await club.run(club.owner, "tournament settings", setting="tiebreaks",
                           value="lichess")
    assert "apply to the standings" in reply["content"]


async def test_ratings_set_by_organisers_with_the_seeding_shown(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _club_with_event(fake, guild, start_swissbot, "Rated Open")
    await club.configure(club.owner, ratings="organisers")
    ann, ben, cy = club.players[:3]
    refused = await club.run(ann, "join", rating=2850)
    assert refused["flags"] & EPHEMERAL
    assert "set by the organisers: join without a rating" in refused["content"]
    for player in (ann, ben, cy):
        await club.run(player, "join")
    await club.run(club.owner, "admin rating", player=f"<@{ben.id}>", rating=1800)
    reply = await club.run(club.owner, "admin rating", player=f"<@{cy.id}>", rating=2100)
    assert reply["flags"] & EPHEMERAL
    text = reply["content"]
    assert "0 → 2100" in text and "#3 → #1" in text, text
    assert f"{ben.display_name} #1 → #2" in text, text
    refused = await club.run(ann, "admin rating", player=f"<@{ann.id}>", rating=2850)
    assert "organiser" in refused["content"].lower()
    await club.run(club.owner, "tournament start")
    after = await club.run(club.owner, "admin rating", player=f"<@{ann.id}>", rating=1500)
    assert "pairing numbers stay" in after["content"]
    numbers = {p.user_id: p.number for p in await bot.service.list_players(guild.id)}
    assert numbers[cy.id] == 1 and numbers[ann.id] == 3


async def test_a_panel_shown_before_a_restart_still_works(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _club_with_event(fake, guild, start_swissbot, "Restart Open")
    panel = await club.run(club.owner, "tournament settings")
    await bot.close()
    restarted = await start_swissbot()
    role = guild.role("Organisers")
    inter = await fake.choose_in_select(panel, club.owner, _menu(panel, "role"), [str(role.id)])
    saved = await fake.reply(inter)
    assert "Role required to join: anyone →" in saved["content"], saved
    info = await restarted.service.tournament_info(guild.id)
    assert info.settings.required_role_id == role.id
    token, _ = await _open_form(club, saved, "extras")
    done = await _send_form(club, token, {"pictures": "on"})
    assert "Standings pictures: off → on" in done["content"]


async def test_the_panel_and_its_form_speak_the_organisers_language(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """A French organiser sees the panel, the form and the answer in French; the keys and
    the values typed back stay as they are."""
    bot, club = await _club_with_event(fake, guild, start_swissbot, "Coupe")
    club.owner.locale = "fr"
    panel = await club.run(club.owner, "tournament settings")
    shown = text_of(panel)
    assert "Réglages de Coupe" in shown and "Équilibrer les couleurs: on" in shown, shown
    token, form = await _open_form(club, panel, "pairing")
    assert form["title"] == "Appariement" and _inputs(form)["colours"] == "on"
    saved = await _send_form(club, token, {"colours": "off"})
    assert "**Coupe** : réglages enregistrés." in saved["content"], saved
    assert "Équilibrer les couleurs: on → off" in saved["content"], saved
    assert (await bot.service.tournament_info(guild.id)).settings.colours is False
