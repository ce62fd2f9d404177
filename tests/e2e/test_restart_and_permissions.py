"""A restart mid-round loses nothing; non-organisers are refused every organiser command."""

from __future__ import annotations

import pytest

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def test_restart_mid_round_keeps_state_and_old_buttons_work(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Restart Cup", rounds=2)
    for player in club.players[:4]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    first, second = view.games
    white = guild.members[first.white.user_id]
    black = guild.members[first.black.user_id]
    prompt = await club.run(white, "report", result="draw")
    assert [b["label"] for b in prompt["components"][0]["components"]] == ["Confirm", "Dispute"]
    await club.wait_post(lambda m: "Round 1 of 2 · pairings" in text_of(m))

    await bot.close()  # the process dies mid-round ...
    restarted = await start_swissbot()  # ... and comes back on the same database
    assert restarted is not bot

    answer = await club.click(prompt, black, "Confirm")  # a button sent before the restart
    assert "is final" in answer["content"], answer["content"]
    game = await restarted.service.get_game(guild.id, first.id)
    assert game.result == "1/2-1/2" and game.state == "final"
    other_white = guild.members[second.white.user_id]
    other_black = guild.members[second.black.user_id]
    prompt = await club.run(other_black, "report", result="loss")
    await club.click(prompt, other_white, "Confirm")
    await club.wait_post(lambda m: "standings after round 1" in text_of(m))
    # nothing was posted twice across the restart
    titles = [text_of(m).split("\n")[1] for m in club.posts() if m.get("embeds")]
    assert len(titles) == len(set(titles)), titles


ORGANISER_COMMANDS = [
    ("tournament create", {"name": "Sneaky", "rounds": 3}),
    ("tournament start", {}),
    ("tournament finish", {}),
    ("tournament cancel", {}),
    ("round next", {}),
    ("round undo", {}),
    ("result set", {"player": "<@P1>", "round": 1, "result": "win"}),
    ("admin add-player", {"member-or-name": "Guest Player"}),
    ("admin remove-player", {"player": "<@P1>"}),
    ("admin forbid", {"player": "<@P1>", "opponent": "<@P2>"}),
    ("admin bye", {"player": "<@P1>", "round": 2}),
    ("admin drop", {"player": "<@P1>"}),
    ("tournament timers", {"deadline_action": "draw"}),
]


async def test_non_organiser_is_refused_every_organiser_command(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, error_log
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Guarded", rounds=3)
    for player in club.players[:4]:
        await club.run(player, "join")
    outsider = club.players[0]
    before = await bot.service.tournament_info(guild.id)
    for command, options in ORGANISER_COMMANDS:
        options = {
            k: v.replace("P1", str(club.players[1].id)).replace("P2", str(club.players[2].id))
            if isinstance(v, str) else v
            for k, v in options.items()
        }
        reply = await club.run(outsider, command, **options)
        assert reply["flags"] & EPHEMERAL, command
        assert "organiser" in reply["content"].lower(), (command, reply["content"])
    reply = await club.run(outsider, "config organiser-role", role=guild.role("Organisers"))
    assert reply["flags"] & EPHEMERAL and "organiser" in reply["content"].lower()
    after = await bot.service.tournament_info(guild.id)
    assert (after.status, after.players, after.current_round) == (
        before.status, before.players, before.current_round
    )
    assert [t.name for t in await bot.service.list_tournaments(guild.id)] == ["Guarded"]
    assert error_log.records == []  # refusals are not errors


@pytest.mark.parametrize("status", [429, 503])
async def test_announcements_survive_discord_errors(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, status: int
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Flaky", rounds=1)
    for player in club.players[:2]:
        await club.run(player, "join")
    fake.fail_next("create_message", status, retry_after=0.05)
    await club.run(club.owner, "tournament start")
    await club.wait_post(lambda m: "pairings" in text_of(m), timeout=15)
    statuses = [r.status for r in fake.requests if r.kind == "create_message"]
    assert statuses[0] == status and statuses[-1] == 200
    assert len([m for m in club.posts() if "pairings" in text_of(m)]) == 1


async def test_delivery_is_exactly_once_when_marking_fails(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, error_log
) -> None:
    """Posted but not marked (a crash between the two): the retry re-sends with the same
    nonce and Discord hands back the earlier message instead of a duplicate."""
    bot = await start_swissbot()
    service = bot.service
    original = service.mark_delivered
    calls = {"n": 0}

    async def flaky_mark(announcement_id: int) -> bool:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("simulated crash before marking")
        return await original(announcement_id)

    service.mark_delivered = flaky_mark
    error_log.allowed.append("simulated crash")
    error_log.allowed.append("outbox delivery pass failed")
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Once", rounds=1)
    for player in club.players[:2]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    await club.wait_post(lambda m: "pairings" in text_of(m))
    for _ in range(100):
        if not await service.pending_announcements():
            break
        await bot.delivery.deliver_due()
    assert await service.pending_announcements() == []
    assert fake.deduplicated >= 1
    assert len([m for m in club.posts() if "pairings" in text_of(m)]) == 1
