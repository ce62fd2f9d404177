"""Timers through Discord (issue 15 items 2, 3, 6): the real bot and client against the sandbox,
the service's clock moved by hand (a real clock plus an offset, so the interactions' own
timestamps stay consistent) and the bot's own background tick doing the rest.

Covers: deadline reminders pinging only the players of open games; the deadline action posting
results; a no-show claim answered with the "I am here" button, and one that becomes a forfeit;
a scheduled round 1 announced and started by the bot itself.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from sandbox import FakeDiscord, SandboxGuild, SandboxMember
from tests.e2e.fixtures import Club, stop_swissbot, text_of

EPHEMERAL = 64


class OffsetClock:
    """Real time plus an offset that the test advances."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, **delta: float) -> None:
        self.offset += timedelta(**delta)


def member(guild: SandboxGuild, user_id: int | None) -> SandboxMember:
    assert user_id is not None
    return guild.members[user_id]


def pinged(message: dict[str, Any]) -> set[int]:
    return {int(u["id"]) for u in message.get("mentions", [])}


TIMER_SETTINGS = {"noshow_grace": "noshow_grace_minutes", "start_at": "first_round_at",
                  "round_interval": "round_interval_minutes"}


async def _club(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
                **create: Any) -> tuple[Club, Any, OffsetClock]:
    bot = await start_swissbot()
    clock = OffsetClock()
    bot.service._clock = clock  # the bot's tick reads the service's clock
    club = Club(fake, guild)
    reply = await club.run(club.owner, "config organiser-role", role=guild.role("Organisers"))
    assert reply["flags"] & EPHEMERAL
    reply = await club.run(club.owner, "tournament create", name="Timed Open",
                           rounds=create.pop("rounds"))
    assert "Created **Timed Open**" in reply["content"], reply
    # the timers, through the settings (by the names of /tournament timers)
    timers = {TIMER_SETTINGS.get(k, k): v for k, v in create.items()}
    start = {"first_round_at": timers.pop("first_round_at")} if "first_round_at" in timers else {}
    await club.configure(club.owner, **timers, **start)  # a start needs its interval first
    for player in club.players[:4]:
        assert "joined" in (await club.run(player, "join"))["content"]
    return club, bot, clock


async def test_reminders_ping_only_open_games_and_the_deadline_posts_results(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    club, bot, clock = await _club(
        fake, guild, start_swissbot, rounds=2, deadline_minutes=60, reminders="15",
        deadline_action="reporter-wins", deadline_fallback="double-loss",
    )
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    done, waiting = view.games
    prompt = await club.run(member(guild, done.white.user_id), "report", result="win")
    await club.click(prompt, member(guild, done.black.user_id), "Confirm")
    waiting_prompt = await club.run(member(guild, waiting.black.user_id), "report",
                                    result="win")

    clock.advance(minutes=46)
    reminder = await club.wait_post(lambda m: "deadline" in text_of(m)
                                    and "Round 1" in text_of(m))
    assert pinged(reminder) == {waiting.white.user_id, waiting.black.user_id}
    assert reminder["mention_roles"] == []

    clock.advance(minutes=15)
    passed = await club.wait_post(lambda m: "reached its deadline" in text_of(m))
    assert "0-1" in text_of(passed) and "the report stands" in text_of(passed)
    assert pinged(passed) == set()  # nothing waits for the organisers: nobody pinged
    results = await club.wait_post(lambda m: "Round 1" in text_of(m)
                                   and "results" in text_of(m).lower())
    assert results
    game = await bot.service.get_game(guild.id, waiting.id)
    assert game.result == "0-1" and game.state == "final"
    # the deadline settled the waiting report: its prompt's buttons are disabled by the bot
    prompt = fake.messages[int(waiting_prompt["id"])]
    for _ in range(200):
        buttons = [b for row in prompt.get("components") or [] for b in row["components"]]
        if buttons and all(b.get("disabled") for b in buttons):
            break
        await asyncio.sleep(0.05)
    assert buttons and all(b.get("disabled") for b in buttons), prompt
    assert "is final" in prompt["content"] and prompt["allowed_mentions"]["parse"] == []


async def test_noshow_claim_objection_and_forfeit(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    club, bot, clock = await _club(fake, guild, start_swissbot, rounds=2, noshow_grace=5)
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    objected, forfeited = view.games

    early = await club.run(member(guild, objected.white.user_id), "report", result="noshow")
    assert early["flags"] & EPHEMERAL and "still has time" in early["content"]
    clock.advance(minutes=5)
    reply = await club.run(member(guild, objected.white.user_id), "report", result="noshow")
    assert reply["flags"] & EPHEMERAL and "No-show claimed" in reply["content"]
    claim = await club.wait_post(lambda m: "did not show up for round 1, board 1" in text_of(m))
    assert pinged(claim) == {objected.black.user_id}  # the opponent only
    # the claimant cannot object to his own claim
    refusal = await club.click(claim, member(guild, objected.white.user_id), "I am here")
    assert refusal["flags"] & EPHEMERAL
    answer = await club.click(claim, member(guild, objected.black.user_id), "I am here")
    assert answer["id"] == claim["id"] and answer["components"] == []
    await club.wait_post(lambda m: "claim of" in text_of(m) and "lapses" in text_of(m))

    await club.run(member(guild, forfeited.black.user_id), "report", result="noshow")
    clock.advance(minutes=5)
    # (the claim itself says "otherwise the game is a forfeit win for": wait for the expiry)
    await club.wait_post(lambda m: "did not show up; forfeit win for" in text_of(m))
    game = await bot.service.get_game(guild.id, forfeited.id)
    assert game.result == "--+"
    assert (await bot.service.get_game(guild.id, objected.id)).state == "pending"


async def test_scheduled_round_starts_by_itself(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    start = datetime.now(UTC) + timedelta(hours=2)
    club, bot, clock = await _club(
        fake, guild, start_swissbot, rounds=2, start_at=str(int(start.timestamp())),
        round_interval=24 * 60,
    )
    notice = await club.wait_post(lambda m: "Round 1 of **Timed Open** starts" in text_of(m))
    assert f"<t:{int(start.timestamp())}:R>" in text_of(notice)
    assert (await bot.service.tournament_info(guild.id)).status == "registration"
    clock.advance(hours=2, seconds=1)
    pairings = await club.wait_post(lambda m: "Round 1" in text_of(m)
                                    and "pairings" in text_of(m).lower())
    assert pinged(pairings) == {p.id for p in club.players[:4]}
    await club.wait_post(lambda m: "Round 2 of **Timed Open** starts" in text_of(m))
    info = await bot.service.tournament_info(guild.id)
    assert info.status == "running" and info.current_round == 1


async def test_tournament_timers_changes_the_settings_while_running(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    club, bot, clock = await _club(fake, guild, start_swissbot, rounds=2, deadline_minutes=30)
    await club.run(club.owner, "tournament start")
    refusal = await club.run(club.players[0], "tournament timers", deadline_action="draw")
    assert refusal["flags"] & EPHEMERAL and "organiser" in refusal["content"].lower()
    bad = await club.run(club.owner, "tournament timers", reminders="soon")
    assert bad["flags"] & EPHEMERAL and "15,5" in bad["content"]
    reply = await club.run(club.owner, "tournament timers", deadline_action="draw",
                           noshow_grace=10)
    assert reply["flags"] & EPHEMERAL and "updated" in reply["content"]
    assert "draw" in text_of(reply) and "claim after 10m" in text_of(reply)
    # the round paired before the change has its deadline timer; the action is read now
    clock.advance(minutes=31)
    await club.wait_post(lambda m: "reached its deadline" in text_of(m))
    view = await bot.service.pairings(guild.id, None, 1)
    assert {g.result for g in view.games} == {"1/2-1/2"}


def _reminder_dms(fake: FakeDiscord, user: SandboxMember) -> list[dict[str, Any]]:
    return [m for m in fake.direct_messages(user) if "⏰" in (m.get("content") or "")]


async def test_deadline_reminders_by_dm_to_opted_in_players_who_still_have_to_act(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    club, bot, clock = await _club(fake, guild, start_swissbot, rounds=2,
                                   deadline_minutes=60, reminders="30,15")
    for player in club.players[4:6]:
        assert "joined" in (await club.run(player, "join"))["content"]
    for player in club.players[:6]:
        await club.run(player, "notify", dm="on")
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    done, reported, open_game = view.games
    # a finished game, a game reported by white (black must confirm), an unreported game
    # whose black opts out of DMs again
    prompt = await club.run(member(guild, done.white.user_id), "report", result="win")
    await club.click(prompt, member(guild, done.black.user_id), "Confirm")
    await club.run(member(guild, reported.white.user_id), "report", result="win")
    await club.run(member(guild, open_game.black.user_id), "notify", dm="off")
    deadline = int(view.deadline.timestamp()) if view.deadline else None
    assert deadline is not None

    expected = {reported.black.user_id: reported.white, open_game.white.user_id: open_game.black}
    silent = [done.white.user_id, done.black.user_id, reported.white.user_id,
              open_game.black.user_id]

    async def reminded(count: int) -> None:
        for _ in range(400):
            if all(len(_reminder_dms(fake, member(guild, u))) >= count for u in expected):
                return
            await asyncio.sleep(0.025)
        raise AssertionError("the DM reminders did not arrive")

    clock.advance(minutes=31)  # the 30-minute reminder
    await reminded(1)
    for user_id, opponent in expected.items():
        dm = _reminder_dms(fake, member(guild, user_id))[0]
        assert f"<t:{deadline}:R>" in dm["content"] and opponent.name in dm["content"]
        assert "board" in dm["content"] and "round 1" in dm["content"]
    assert "confirm or dispute" in _reminder_dms(fake, member(guild, reported.black.user_id)
                                                 )[0]["content"]
    # the channel reminder stays
    await club.wait_post(lambda m: "deadline" in text_of(m) and "Round 1" in text_of(m))

    # a restart sends nothing again; the next reminder time sends one more each
    await stop_swissbot(bot)
    bot = await start_swissbot()
    bot.service._clock = clock
    await asyncio.sleep(0.3)
    assert all(len(_reminder_dms(fake, member(guild, u))) == 1 for u in expected)
    clock.advance(minutes=15)  # the 15-minute reminder
    await reminded(2)
    await asyncio.sleep(0.3)
    assert all(len(_reminder_dms(fake, member(guild, u))) == 2 for u in expected)
    for user_id in silent:
        assert _reminder_dms(fake, member(guild, user_id)) == [], user_id
