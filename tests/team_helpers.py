"""The team operations in the permission matrix (tests/service/test_service_permissions.py):
three team events beside the scene's, made on first use.

'Team Cup' (registration): Alpha (captain 201, with member 998) and Bravo (captain 202).
'Team Run' (chess, one board, round 1 paired): Gamma (captain 103) against Delta (104).
'Stage Run' (e-sports, round 1 paired): Eps (captain 103) against Zeta (104).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from service import ServiceError, TournamentService
from service.views import Actor
from tests.service_helpers import member, organiser

ORG = organiser()


async def team_events(service: TournamentService) -> TournamentService:
    names = {t.name for t in await service.list_tournaments(ORG.guild_id)}
    if "Team Cup" in names:
        return service
    await service.create_tournament(ORG, "Team Cup", 3)
    await service.team_settings(ORG, "fide-team", boards=1, tournament="Team Cup")
    await service.create_team(member(201), "Alpha", tournament="Team Cup")
    await service.add_member(member(201), 998, "Sub", tournament="Team Cup")
    await service.create_team(member(202), "Bravo", tournament="Team Cup")
    for event, system, first, second in (("Team Run", "fide-team", "Gamma", "Delta"),
                                         ("Stage Run", "esports-swiss", "Eps", "Zeta")):
        await service.create_tournament(ORG, event, 3)
        await service.team_settings(ORG, system, boards=1, tournament=event)
        await service.create_team(member(103), first, tournament=event)
        await service.create_team(member(104), second, tournament=event)
        await service.pair_team_round(ORG, 1, event)
    return service


Call = Callable[[Any, Actor], Awaitable[Any]]


def _on(call: Callable[[TournamentService, Actor], Awaitable[Any]]) -> Call:
    async def run(scene: Any, actor: Actor) -> Any:
        return await call(await team_events(scene.service), actor)
    return run


async def _confirm_board(service: TournamentService, actor: Actor) -> Any:
    with contextlib.suppress(ServiceError):
        await service.report_board(member(104), 1, "win", "Team Run")
    return await service.confirm_board(actor, 1, "Team Run")


async def _confirm_match(service: TournamentService, actor: Actor) -> Any:
    with contextlib.suppress(ServiceError):
        await service.report_match(member(104), 1, 1, 0, "Stage Run")
    return await service.confirm_match(actor, 1, "Stage Run")


TEAM_CALLS: dict[str, tuple[Call, str | None]] = {
    "team_settings": (_on(lambda s, a: s.team_settings(a, "fide-team", boards=2,
                                                       tournament="Team Cup")), None),
    "team_event": (_on(lambda s, a: s.team_event(a.guild_id, "Team Cup")), None),
    "create_team": (_on(lambda s, a: s.create_team(a, "Omega", tournament="Team Cup")), None),
    "add_member": (_on(lambda s, a: s.add_member(a, 999, "New", team="Alpha",
                                                 tournament="Team Cup")), "registered"),
    "remove_member": (_on(lambda s, a: s.remove_member(a, 998, team="Alpha",
                                                       tournament="Team Cup")), "registered"),
    "set_lineup": (_on(lambda s, a: s.set_lineup(a, 1, [201], team="Alpha",
                                                 tournament="Team Cup")), "registered"),
    "check_in_team": (_on(lambda s, a: s.check_in_team(a, team="Alpha",
                                                       tournament="Team Cup")), "registered"),
    "drop_team": (_on(lambda s, a: s.drop_team(a, team="Alpha", tournament="Team Cup")),
                  "registered"),
    "list_teams": (_on(lambda s, a: s.list_teams(a.guild_id, "Team Cup")), None),
    "pair_team_round": (_on(lambda s, a: s.pair_team_round(a, 1, "Team Cup")), None),
    "team_pairings": (_on(lambda s, a: s.team_pairings(a.guild_id, 1, "Team Run")), None),
    "team_standings": (_on(lambda s, a: s.team_standings(a.guild_id, "Team Run")), None),
    "report_board": (_on(lambda s, a: s.report_board(a, 1, "win", "Team Run")), None),
    "confirm_board": (_on(_confirm_board), "player"),
    "report_match": (_on(lambda s, a: s.report_match(a, 1, 1, 0, "Stage Run")), None),
    "confirm_match": (_on(_confirm_match), "player"),
    "export_team_files": (_on(lambda s, a: s.export_team_files(a.guild_id, "json",
                                                               "Team Run")), None),
    "set_team_result": (_on(lambda s, a: s.set_team_result(a, 1, "Gamma", board=1,
                                                           result="1-0",
                                                           tournament="Team Run")), None),
}


async def play_chess_event(service: TournamentService, teams: int, boards: int, rounds: int,
                           *, name: str = "Team Cup") -> None:
    """A chess team event played to its end by organiser results: team N's captain is user
    100 * N (board 1), its members 100 * N + 1...; each round White wins board 1 and draws
    the others, and in round 2 the first match's second team forfeits."""
    await service.create_tournament(ORG, name, rounds)
    await service.team_settings(ORG, "fide-team", boards=boards)
    for team in range(1, teams + 1):
        await service.create_team(member(100 * team, name=f"Cap{team}"), f"Team {team}")
        for slot in range(1, boards):
            await service.add_member(member(100 * team), 100 * team + slot, f"P{team}.{slot}")
    for number in range(1, rounds + 1):
        view = await service.pair_team_round(ORG, number)
        for index, match in enumerate(view.matches):
            if match.black_team is None:
                continue
            if number == 2 and index == 0:
                await service.set_team_result(ORG, number, match.black_team, forfeit=True)
                continue
            for board in match.boards:
                await service.set_team_result(ORG, number, match.white_team, board=board.board,
                                              result="1-0" if board.board == 1 else "1/2")
