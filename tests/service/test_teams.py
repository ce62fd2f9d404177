"""Team events in the service: rosters, lineups, pairing, results per board and per match,
standings; every bad input refused with a clear message and nothing changed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from service import (
    ConflictError,
    InvalidInputError,
    PermissionDeniedError,
    RegistrationClosedError,
    RoundChangedError,
    TournamentService,
)
from service.views import Actor
from storage import journal
from tests.service_helpers import MODES, member, open_service, organiser, two_services

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


def captain(team: int) -> Actor:
    return member(100 * team, name=f"Cap{team}")


def player(team: int, slot: int) -> Actor:
    return member(100 * team + slot, name=f"P{team}.{slot}")


async def _teams(service: TournamentService, count: int, boards: int, *, system: str =
                 "fide-team", rounds: int = 5, extra: int = 0) -> None:
    """``count`` teams of ``boards`` members (captain on board 1) plus ``extra`` substitutes."""
    await service.create_tournament(ORG, "Team Cup", rounds)
    await service.team_settings(ORG, system, boards=boards, tournament="Team Cup")
    for team in range(1, count + 1):
        await service.create_team(captain(team), f"Team {team}", tournament="Team Cup")
        for slot in range(1, boards + extra):
            who = player(team, slot)
            await service.add_member(captain(team), who.user_id, who.display_name,
                                     substitute=slot >= boards, tournament="Team Cup")


async def _audit_count(service: TournamentService) -> int:
    async with service.db.transaction(readonly=True) as conn:
        return len(await journal.list_audit(conn, 1))


async def test_bad_inputs_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _teams(service, 2, 2, extra=1)
        before = await service.list_teams(1000)
        audits = await _audit_count(service)
        with pytest.raises(ConflictError, match=r"already in Team 1 .* one team per event"):
            await service.add_member(captain(2), player(1, 1).user_id, "P1.1")
        with pytest.raises(ConflictError, match="already in Team 1"):
            await service.create_team(player(1, 1), "Splinter")
        with pytest.raises(InvalidInputError, match=r"<@201> \(board 2\) is not a member"):
            await service.set_lineup(captain(1), 1, [100, 201])
        with pytest.raises(InvalidInputError, match="named twice"):
            await service.set_lineup(captain(1), 1, [100, 100])
        with pytest.raises(InvalidInputError, match="names 3 players but a match has 2"):
            await service.set_lineup(captain(1), 1, [100, 101, 102])
        with pytest.raises(PermissionDeniedError, match="Only the captain of Team 2"):
            await service.set_lineup(captain(1), 1, [200, 201], team="Team 2")
        with pytest.raises(PermissionDeniedError, match="Only the captain of Team 2"):
            await service.add_member(captain(1), 999, "Mallory", team="Team 2")
        await service.pair_team_round(ORG, 1)
        with pytest.raises(RegistrationClosedError, match="already paired: its lineups closed"):
            await service.set_lineup(captain(1), 1, [102, 100])
        with pytest.raises(RoundChangedError, match=r"next round .* is round 2"):
            await service.pair_team_round(ORG, 1)  # a double click pairs once
        after = await service.list_teams(1000)
        assert [t.members for t in after] == [t.members for t in before]
        assert await _audit_count(service) == audits + 1  # the pairing only


async def test_lineup_too_many_for_a_small_team(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Team Cup", 3)
        await service.team_settings(ORG, "fide-team", boards=4)
        await service.create_team(captain(1), "Team 1")
        await service.add_member(captain(1), 101, "P1.1")
        with pytest.raises(InvalidInputError, match="names 3 players but Team 1 has 2 members"):
            await service.set_lineup(captain(1), 1, [100, 101, 102])


async def test_chess_team_swiss_to_the_end(tmp_path: Path) -> None:
    """Four teams of two boards, three rounds: a substitute, a forfeited board (a team one
    member short), a whole match forfeited, a late lineup by an organiser."""
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _teams(service, 4, 2, rounds=3, extra=1)
        await service.remove_member(captain(4), player(4, 1).user_id)  # Team 4: one member
        # the substitute plays board 2 in round 1; the last lineup set stands
        await service.set_lineup(captain(1), 1, [100, 101])
        lineup = await service.set_lineup(captain(1), 1, [100, 102])
        assert lineup.version == 2 and [m.user_id for m in lineup.boards] == [100, 102]
        view = await service.pair_team_round(ORG, 1)
        assert len(view.matches) == 2
        boards = {(b.white.user_id if b.white else None, b.black.user_id if b.black else None):
                  b.result for m in view.matches for b in m.boards}
        assert any(102 in pair for pair in boards)  # the substitute plays
        assert "+-" in boards.values() or "-+" in boards.values()  # Team 4's empty board
        # every player reports his board; the opponents confirm
        for m in view.matches:
            for b in m.boards:
                if b.result == "*":
                    white = member(b.white.user_id)
                    black = member(b.black.user_id)
                    await service.report_board(white, 1, "win")
                    done = await service.report_board(black, 1, "loss")
                    assert done.state == "final" and done.result == "1-0"
        standings = await service.team_standings(1000)
        assert standings.after_round == 1
        assert sum(r.match_points for r in standings.rows) == 4  # two matches of 2 points
        # round 2: a late lineup by an organiser, then a whole match forfeited
        await service.pair_team_round(ORG, 2)
        late = await service.set_lineup(ORG, 2, [102, 100], team="Team 1")
        assert late.late
        view = await service.team_pairings(1000, 2)
        ours = next(m for m in view.matches if "Team 1" in (m.white_team, m.black_team))
        board_one = ours.boards[0]
        assert 102 in (board_one.white.user_id, board_one.black.user_id)
        with pytest.raises(RegistrationClosedError):
            await service.set_lineup(captain(1), 2, [100, 101])
        await service.set_team_result(ORG, 2, "Team 1", forfeit=True)
        for m in view.matches:
            for b in m.boards:
                if m is not ours and b.state != "final":
                    await service.set_team_result(ORG, 2, m.white_team, board=b.board,
                                                  result="1/2")
        forfeited = next(m for m in (await service.team_pairings(1000, 2)).matches
                         if m.number == ours.number)
        first = forfeited.white_team == "Team 1"
        assert forfeited.state == "final" and forfeited.forfeit == ("white" if first else
                                                                    "black")
        assert (forfeited.white_mp, forfeited.black_mp) == ((0, 2) if first else (2, 0))
        await service.pair_team_round(ORG, 3)
        for m in (await service.team_pairings(1000, 3)).matches:
            if m.black_team is not None and m.state != "final":
                await service.set_team_result(ORG, 3, m.white_team, forfeit=True)
        final = await service.team_standings(1000)
        assert final.after_round == 3
        info = await service.tournament_info(1000)
        assert info.status == "finished"
        kinds = [a.kind for a in await service.announcements()]
        assert kinds.count("team_pairings") == 3 and kinds.count("team_standings") == 3


@pytest.mark.slow
async def test_esports_stage_to_the_end(tmp_path: Path) -> None:
    """Sixteen teams of five: captains report maps, the other captain confirms; a drop
    forfeits the team's later matches; the stage ends when every team advanced or left."""
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _teams(service, 16, 1, system="esports-swiss", rounds=5)
        round_number = 0
        while (await service.tournament_info(1000)).status != "finished":
            round_number += 1
            view = await service.pair_team_round(ORG, round_number)
            for m in view.matches:
                if m.black_team is None or m.state == "final":
                    continue
                higher = captain(int(m.white_team.split()[-1]))
                lower = captain(int(m.black_team.split()[-1]))
                need = m.best_of // 2 + 1
                with pytest.raises(InvalidInputError, match=f"best of {m.best_of}"):
                    await service.report_match(higher, round_number, need + 1, 0)
                await service.report_match(higher, round_number, need, 0)
                with pytest.raises(ConflictError, match="you disagree"):
                    await service.report_match(lower, round_number, need, 0)
                done = await service.confirm_match(lower, round_number)
                assert done.state == "final"
            if round_number == 1:
                await service.drop_team(captain(16))
        assert round_number == 5
        table = await service.team_standings(1000)
        advanced = [r for r in table.rows if r.status == "advanced"]
        assert len(advanced) == 8 and table.rows[0].match_points == 3


@pytest.mark.parametrize("mode", MODES)
async def test_two_organisers_pair_the_round_once(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "t.sqlite3", mode) as (first, second):
        await _teams(first, 4, 2)
        outcomes = await asyncio.gather(first.pair_team_round(ORG, 1),
                                        second.pair_team_round(ORG, 1),
                                        return_exceptions=True)
        paired = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(paired) == 1 and len(refused) == 1, outcomes
        assert isinstance(refused[0], RoundChangedError)
        assert len((await first.team_pairings(1000, 1)).matches) == 2
        kinds = [a.kind for a in await first.announcements()]
        assert kinds.count("team_pairings") == 1


async def test_with_check_in_only_the_teams_checked_in_are_paired(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Team Cup", 3, checkin=True)
        await service.team_settings(ORG, "fide-team", boards=1)
        for team in (1, 2, 3):
            await service.create_team(captain(team), f"Team {team}")
        await service.check_in_team(captain(1))
        again = await service.check_in_team(captain(1))  # twice: nothing more
        await service.check_in_team(ORG, team="Team 3")  # an organiser, for any team
        assert again.checked_in
        view = await service.pair_team_round(ORG, 1)
        assert {(m.white_team, m.black_team) for m in view.matches} in (
            {("Team 1", "Team 3")}, {("Team 3", "Team 1")})
        teams = {t.name: t.status for t in await service.list_teams(1000)}
        assert teams == {"Team 1": "active", "Team 2": "withdrawn", "Team 3": "active"}


async def test_board_order_moves_with_adds_and_removes(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _teams(service, 1, 3)  # captain 100, then 101, 102
        view = await service.add_member(captain(1), 150, "New", board=2)
        assert [m.user_id for m in view.members] == [100, 150, 101, 102]
        stale = view.version - 1
        with pytest.raises(RoundChangedError, match="changed since"):
            await service.remove_member(captain(1), 101, version=stale)
        view = await service.remove_member(captain(1), 150, version=view.version)
        assert [(m.user_id, m.position) for m in view.members] == [(100, 1), (101, 2),
                                                                   (102, 3)]
        with pytest.raises(ConflictError, match="keeps its captain"):
            await service.remove_member(captain(1), 100)


async def test_individual_commands_point_to_the_team_ones(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Solo Cup", 3)
        await service.join(player(9, 1))
        with pytest.raises(ConflictError, match="registered on their own"):
            await service.team_settings(ORG, "fide-team", boards=2)
        await _teams(service, 2, 1, rounds=3)  # "Team Cup"
        with pytest.raises(ConflictError, match="team event: a captain creates a team"):
            await service.join(player(9, 2), "Team Cup")
        with pytest.raises(ConflictError, match="paired with /team pair"):
            await service.start_tournament(ORG, "Team Cup")
        await service.pair_team_round(ORG, 1, "Team Cup")
        with pytest.raises(ConflictError, match="paired with /team pair"):
            await service.pair_next_round(ORG, "Team Cup")
