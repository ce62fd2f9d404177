"""A whole tournament through Discord: the real bot, a real SQLite file, the sandbox.

Covers: command sync; an organiser creates a tournament; 9 members join; round 1 is posted
with a bye, pinging the paired players only; players report, opponents confirm with the
button; a dispute goes to the organisers; an organiser overrides the result; later rounds;
final standings; /standings and /pairings.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxError, SandboxGuild, SandboxMember
from storage import journal
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


def member(guild: SandboxGuild, user_id: int | None) -> SandboxMember:
    assert user_id is not None
    return guild.members[user_id]


async def set_up(club: Club, players: int = 9, rounds: int = 3) -> None:
    organisers = club.guild.role("Organisers")
    reply = await club.run(club.owner, "config organiser-role", role=organisers)
    assert reply["flags"] & EPHEMERAL and "Organisers" in club.fake_text(reply)
    reply = await club.run(club.owner, "tournament create", name="Club Open", rounds=rounds)
    assert "Created **Club Open**" in reply["content"]
    await club.configure(club.owner, deadline_minutes=90)
    for index, player in enumerate(club.players[:players]):
        reply = await club.run(player, "join", rating=2000 - 10 * index)
        assert "joined" in reply["content"]
        assert reply["mentions"] == []  # "@player joined" pings nobody


async def play_round(club: Club, bot: Any, *, dispute_board: int | None = None) -> dict[str, Any]:
    """Every white player reports a win; black confirms (or disputes ``dispute_board``)."""
    service = bot.service
    view = await service.pairings(club.guild.id)
    last: dict[str, Any] = {}
    for game in view.games:
        white = member(club.guild, game.white.user_id)
        black = member(club.guild, game.black.user_id)
        prompt = await club.run(white, "report", result="win")
        assert not prompt["flags"] & EPHEMERAL
        assert [u["id"] for u in prompt["mentions"]] == [str(black.id)]  # only the opponent
        label = "Dispute" if game.board == dispute_board else "Confirm"
        # the reporter cannot confirm his own report
        refusal = await club.click(prompt, white, "Confirm")
        assert refusal["flags"] & EPHEMERAL
        last = await club.click(prompt, black, label)
        assert last["id"] == prompt["id"]  # the report message itself is updated
        # both buttons stay visible, disabled
        assert [(b["label"], b.get("disabled")) for b in last["components"][0]["components"]] \
            == [("Confirm", True), ("Dispute", True)]
    return last


async def test_whole_tournament(fake: FakeDiscord, guild: SandboxGuild, start_swissbot) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await set_up(club)

    # -- round 1 ---------------------------------------------------------------------------
    reply = await club.run(club.owner, "tournament start")
    assert "round 1 is paired (4 boards, 1 bye)" in reply["content"]
    pairings = await club.wait_post(lambda m: "Round 1 of 3 · pairings" in text_of(m))
    joined = {p.id for p in club.players[:9]}
    pinged = {int(u["id"]) for u in pairings["mentions"]}
    assert pinged == joined  # all nine, the bye included, and nobody else
    assert pairings["mention_everyone"] is False and pairings["mention_roles"] == []
    assert pairings["allowed_mentions"]["parse"] == []
    body = text_of(pairings)
    assert "`bye`" in body and "<t:" in body and ":R>" in body  # bye and deadline countdown

    # board 2's black player disputes; the organisers are pinged through their role
    last = await play_round(club, bot, dispute_board=2)
    assert "final" in last["content"] or "disputed" in last["content"]
    organisers = guild.role("Organisers")
    alert = await club.wait_post(lambda m: "disputed" in text_of(m))
    assert alert["mention_roles"] == [str(organisers.id)] and alert["mentions"] == []

    # a member with the organiser role (not Manage Server) overrides the result
    referee = fake.add_member(guild, "referee", roles=[organisers])
    view = await bot.service.pairings(guild.id)
    board2 = next(g for g in view.games if g.board == 2)
    reply = await club.run(
        referee, "result set", player=f"#{board2.white.number}", round=1, result="draw"
    )
    assert reply["flags"] & EPHEMERAL and "½-½" in reply["content"], reply["content"]

    results = await club.wait_post(lambda m: "Round 1 results" in text_of(m))
    assert results["mentions"] == []  # results do not ping
    standings = await club.wait_post(lambda m: "standings after round 1" in text_of(m))
    assert "```" in text_of(standings)

    # -- rounds 2 and 3 ----------------------------------------------------------------------
    for number in (2, 3):
        reply = await club.run(club.owner, "round next")
        assert f"Round {number} of **Club Open** is paired" in reply["content"]
        await club.wait_post(lambda m, n=number: f"Round {n} of 3 · pairings" in text_of(m))
        await play_round(club, bot)

    final = await club.wait_post(lambda m: "Final standings" in (m.get("content") or ""))
    table = text_of(final)
    assert all(p.display_name in table for p in club.players[:9])

    # read-only commands answer privately
    reply = await club.run(club.players[0], "standings")
    assert reply["flags"] & EPHEMERAL and "final standings" in text_of(reply)
    reply = await club.run(club.players[0], "pairings", round=1)
    assert reply["flags"] & EPHEMERAL and "Round 1 results" in text_of(reply)
    reply = await club.run(club.players[0], "tournament info")
    assert "finished" in text_of(reply)
    reply = await club.run(club.players[0], "tournament export", format="trf")
    assert reply["attachments"][0]["filename"].endswith(".trf")

    assert fake.unhandled == []
    assert all(r.status < 400 for r in fake.requests), [
        (r.kind, r.status, r.response) for r in fake.requests if r.status >= 400
    ]


def _buttons(message: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(b["label"], bool(b.get("disabled")))
            for row in message.get("components") or [] for b in row["components"]]


async def _disabled(fake: FakeDiscord, prompt: dict[str, Any]) -> dict[str, Any]:
    """The prompt once the bot has edited it (after its answer to the command)."""
    return await fake.wait_for_message(
        lambda m: m["id"] == prompt["id"]
        and _buttons(m) == [("Confirm", True), ("Dispute", True)]
    )


async def test_organisers_answer_prompts_and_settled_prompts_are_disabled(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    """Item 11.6: the prompt says who may click; an organiser (the organiser role, no Manage
    Server) confirms from the button, on the audit record; a prompt answered another way
    (/result set, the opponent's /report) is edited to show its buttons disabled."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    organisers = guild.role("Organisers")
    await club.run(club.owner, "config organiser-role", role=organisers)
    olga = fake.add_member(guild, "olga", display_name="Olga", roles=[organisers])
    await club.run(club.owner, "tournament create", name="Prompt Cup", rounds=2)
    for player in club.players[:6]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    prompts = []
    for game in view.games:
        white = member(guild, game.white.user_id)
        prompt = await club.run(white, "report", result="win")
        assert f"<@{game.black.user_id}>, please **Confirm** or **Dispute**" in prompt["content"]
        assert "or an organiser (Manage Server or the organiser role) can" in prompt["content"]
        footer = prompt["embeds"][0]["footer"]["text"]
        assert footer.startswith("Only ") and "organiser role" in footer
        assert _buttons(prompt) == [("Confirm", False), ("Dispute", False)]
        prompts.append(prompt)
    # 1. an organiser confirms from the button, for the opponent
    answer = await club.click(prompts[0], olga, "Confirm")
    assert "is final" in answer["content"], answer["content"]
    assert _buttons(answer) == [("Confirm", True), ("Dispute", True)]
    info = await bot.service.tournament_info(guild.id)
    async with bot.service.db.transaction(readonly=True) as conn:
        actions = [(a.action, a.actor_id) for a in await journal.list_audit(conn, info.id)]
    assert ("result.confirm_by_organiser", olga.id) in actions
    # a plain member who is not the opponent is still refused, and told who may click
    outsider = fake.add_member(guild, "nosy", display_name="Nosy")
    refusal = await club.click(prompts[1], outsider, "Confirm")
    assert refusal["flags"] & EPHEMERAL and "or an organiser" in refusal["content"]
    # 2. /result set settles board 2: its prompt is edited, buttons disabled
    second = view.games[1]
    await club.run(olga, "result set", player=f"#{second.white.number}", round=1, result="draw")
    edited = await _disabled(fake, prompts[1])
    assert "is final" in edited["content"] and "½-½" in edited["content"]
    # 3. the opponent answers with /report instead of the button
    third = view.games[2]
    reply = await club.run(member(guild, third.black.user_id), "report", result="loss")
    assert "is final" in reply["content"]
    edited = await _disabled(fake, prompts[2])
    assert "is final" in edited["content"]
    # Discord (the sandbox) no longer lets anyone click them
    with pytest.raises(SandboxError, match="disabled"):
        await club.click(prompts[2], member(guild, third.black.user_id), "Dispute")
    for _ in range(100):  # the bot marks the prompt closed right after editing it
        if not await bot.service.settled_prompts(guild.id):
            break
        await asyncio.sleep(0.02)
    assert await bot.service.settled_prompts(guild.id) == []
