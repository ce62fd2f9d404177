"""Team events through Discord (the real discord.py client against the sandbox): a 12-team
4-board chess team Swiss of 5 rounds and a 16-team 5v5 e-sports Swiss stage, each to the end
with a substitute, a forfeit and a late lineup; the bad inputs refused privately, with
nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox import FakeDiscord
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64

pytestmark = pytest.mark.slow


def _club(fake: FakeDiscord, members: int) -> Club:
    guild = fake.add_guild("Team Club", players=members)
    return Club(fake, guild)


async def _teams(club: Club, count: int, size: int) -> list[list[Any]]:
    """``count`` teams of ``size`` members, each created by its captain (board 1)."""
    rosters = [club.players[size * i:size * (i + 1)] for i in range(count)]
    for number, roster in enumerate(rosters, start=1):
        reply = await club.run(roster[0], "team create", name=f"Team {number:02d}")
        assert reply["flags"] & EPHEMERAL and "(captain)" in text_of(reply), text_of(reply)
        for mate in roster[1:]:
            await club.run(roster[0], "team add", player=mate)
    return rosters


def _mentions(members: list[Any]) -> str:
    return " ".join(f"<@{m.id}>" for m in members)


async def _refused(club: Club, member: Any, command: str, expected: str, **options: Any
                   ) -> None:
    reply = await club.run(member, command, **options)
    assert reply["flags"] & EPHEMERAL, reply
    assert expected in text_of(reply), text_of(reply)


async def test_chess_team_swiss(fake: FakeDiscord, start_swissbot: Any) -> None:
    club = _club(fake, 49)
    bot = await start_swissbot()
    owner = club.owner
    await club.run(owner, "tournament create", name="Team Cup", rounds=5)
    reply = await club.run(owner, "team settings", system="fide-team", boards=4)
    assert "fide-team team event: 4 players per team" in text_of(reply), text_of(reply)
    rosters = await _teams(club, 12, 4)
    first, second = rosters[0], rosters[1]
    substitute = club.players[48]
    reply = await club.run(first[0], "team add", player=substitute, substitute=True)
    assert "substitute" in text_of(reply)

    # bad inputs: each refused privately, in words, and nothing changed
    before = await bot.service.list_teams(club.guild.id)
    await _refused(club, second[0], "team add", "is already in Team 01", player=first[1])
    await _refused(club, first[0], "team lineup", "is not a member of Team 01", round=1,
                   players=_mentions([first[0], second[1]]))
    await _refused(club, first[0], "team lineup", "named twice", round=1,
                   players=_mentions([first[0], first[0]]))
    await _refused(club, first[0], "team lineup", "names 5 players but a match has 4 boards",
                   round=1, players=_mentions([*first, substitute]))
    await _refused(club, first[0], "team add", "Only the captain of Team 02",
                   player=club.players[47], team="Team 02")
    await _refused(club, first[0], "team lineup", "Only the captain of Team 02", round=1,
                   players=_mentions(second), team="Team 02")
    assert await bot.service.list_teams(club.guild.id) == before

    # the substitute plays board 1 of round 1
    reply = await club.run(first[0], "team lineup", round=1,
                           players=_mentions([substitute, first[0], first[1], first[2]]))
    assert "Lineup 1 of **Team 01** for round 1" in reply["content"], reply["content"]
    await club.run(owner, "team pair", round=1)
    post = await club.wait_post(lambda m: "round 1" in text_of(m) and "board 1" in text_of(m))
    assert "Team 01" in text_of(post) and f"<@{substitute.id}>" in text_of(post)
    # the lineups closed with the pairing; an organiser may still change one (late lineup)
    await _refused(club, second[0], "team lineup", "already paired: its lineups closed",
                   round=1, players=_mentions(second[::-1]))
    reply = await club.run(owner, "team lineup", round=1, team="Team 02",
                           players=_mentions(second[::-1]))
    assert "set after the pairing" in reply["content"], reply["content"]
    # a forfeit: Team 12 does not come
    reply = await club.run(owner, "team result", round=1, team="Team 12", forfeit=True)
    assert "is final" in reply["content"], reply["content"]
    await _play_rounds(club, bot, owner, 5)
    final = await club.wait_post(lambda m: "final standings after round 5" in text_of(m))
    assert "Team 01" in text_of(final) and "MP" in text_of(final)
    info = await bot.service.tournament_info(club.guild.id)
    assert info.status == "finished"
    table = await bot.service.team_standings(club.guild.id)
    assert sum(r.match_points for r in table.rows) == 2 * 6 * 5  # 6 matches a round
    # the posts ping the players of the boards only, never anyone through a name
    players = {str(p.id) for p in club.players}
    assert all({str(u["id"]) for u in m["mentions"]} <= players for m in club.posts())


async def _play_rounds(club: Club, bot: Any, owner: Any, rounds: int) -> None:
    """Round 1: every board reported by White and confirmed by Black; later rounds paired
    and set by the organiser (White wins board 1, the rest drawn)."""
    members = {p.id: p for p in club.players}
    for number in range(1, rounds + 1):
        if number > 1:
            await club.run(owner, "team pair", round=number)
        view = await bot.service.team_pairings(club.guild.id, number)
        for match in view.matches:
            for board in match.boards:
                if board.state == "final":
                    continue
                if number == 1:
                    white, black = members[board.white.user_id], members[board.black.user_id]
                    reply = await club.run(white, "team report", result="win")
                    assert "reported" in reply["content"], reply["content"]
                    reply = await club.run(black, "team confirm")
                    assert "is final" in reply["content"], reply["content"]
                else:
                    team = board.white_team
                    await club.run(owner, "team result", round=number, team=team,
                                   board=board.board, result="1-0" if board.board == 1 else "1/2")
        await club.wait_post(lambda m, n=number: f"standings after round {n}" in text_of(m))


async def test_esports_swiss_stage(fake: FakeDiscord, start_swissbot: Any) -> None:
    club = _club(fake, 81)
    bot = await start_swissbot()
    owner = club.owner
    await club.run(owner, "tournament create", name="Major Stage", rounds=5)
    reply = await club.run(owner, "team settings", system="esports-swiss", boards=5)
    assert "esports-swiss team event" in text_of(reply), text_of(reply)
    rosters = await _teams(club, 16, 5)
    substitute = club.players[80]
    await club.run(rosters[2][0], "team add", player=substitute, substitute=True)
    await club.run(rosters[2][0], "team lineup", round=1,
                   players=_mentions([*rosters[2][:4], substitute]))
    await _refused(club, rosters[0][0], "team add", "is already in Team 03", player=substitute)
    await club.run(owner, "team pair", round=1)
    post = await club.wait_post(lambda m: "round 1" in text_of(m) and "best of" in text_of(m))
    assert f"<@{substitute.id}>" in text_of(post)
    # late lineup: an organiser changes Team 04's players after the pairing
    reply = await club.run(owner, "team lineup", round=1, team="Team 04",
                           players=_mentions(rosters[3][::-1]))
    assert "set after the pairing" in reply["content"], reply["content"]
    captains = {f"Team {i + 1:02d}": roster[0] for i, roster in enumerate(rosters)}
    number = 1
    while True:
        view = await bot.service.team_pairings(club.guild.id, number)
        for match in view.matches:
            if match.state == "final" or match.black_team is None:
                continue
            need = match.best_of // 2 + 1
            if number == 1 and match.black_team == "Team 16":  # a forfeit
                await club.run(owner, "team result", round=1, team="Team 16", forfeit=True)
                continue
            await _refused(club, captains[match.black_team], "team confirm",
                           "Nothing to confirm")
            reply = await club.run(captains[match.white_team], "team score", mine=need,
                                   theirs=0)
            assert "reported" in reply["content"], reply["content"]
            reply = await club.run(captains[match.black_team], "team confirm")
            assert "is final" in reply["content"], reply["content"]
        await club.wait_post(lambda m, n=number: f"standings after round {n}" in text_of(m))
        if (await bot.service.tournament_info(club.guild.id)).status == "finished":
            break
        number += 1
        await club.run(owner, "team pair", round=number)
    assert number == 5
    table = await bot.service.team_standings(club.guild.id)
    assert sum(1 for r in table.rows if r.status == "advanced") == 8
    final = await club.wait_post(lambda m: "final standings" in text_of(m))
    assert "✔" in text_of(final)
