"""A whole tournament through Discord: the real bot, a real SQLite file, the sandbox.

Covers: command sync; an organiser creates a tournament; 9 members join; round 1 is posted
with a bye, pinging the paired players only; players report, opponents confirm with the
button; a dispute goes to the organisers; an organiser overrides the result; later rounds;
final standings; /standings and /pairings.
"""

from __future__ import annotations

from typing import Any

from sandbox import FakeDiscord, SandboxGuild, SandboxMember
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


def member(guild: SandboxGuild, user_id: int | None) -> SandboxMember:
    assert user_id is not None
    return guild.members[user_id]


async def set_up(club: Club, players: int = 9, rounds: int = 3) -> None:
    organisers = club.guild.role("Organisers")
    reply = await club.run(club.owner, "config organiser-role", role=organisers)
    assert reply["flags"] & EPHEMERAL and "Organisers" in club.fake_text(reply)
    reply = await club.run(
        club.owner, "tournament create", name="Club Open", rounds=rounds, deadline_minutes=90
    )
    assert "Created **Club Open**" in reply["content"]
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
        assert last["components"] == []  # buttons gone
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
