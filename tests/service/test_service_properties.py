"""Properties of whole tournaments driven through the service with random results and drops:
every active player is in each round exactly once, dropped players never come back, the
standings are the stored results summed, and the TRF export reads back."""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import RoundView, TournamentService
from service.results import ORGANISER_CHOICES, result_for
from swiss.model import Result
from swiss.trf import parse_trf
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
POINTS = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)),
          "+--": (1, 0), "--+": (0, 1), "---": (0, 0)}
BYE_POINTS = {"pairing": 1, "full": 1, "half": Fraction(1, 2), "zero": 0}


def test_result_for_is_seen_from_the_right_side() -> None:
    """Every choice, from either side, gives the reporter the outcome he chose."""
    mine = {"win": (1, 0), "loss": (0, 1), "draw": (Fraction(1, 2), Fraction(1, 2)),
            "forfeit_win": (1, 0), "forfeit_loss": (0, 1), "double_forfeit": (0, 0)}
    for choice in ORGANISER_CHOICES:
        for as_white in (True, False):
            result, _, _ = result_for(choice, as_white=as_white, my_games=None,
                                      their_games=None, choices=ORGANISER_CHOICES)
            white, black = POINTS[result.value]
            assert ((white, black) if as_white else (black, white)) == mine[choice]
    result, wg, bg = result_for("win", as_white=False, my_games=2, their_games=1)
    assert (result, wg, bg) == (Result.BLACK_WINS, 1, 2)


async def _play(
    path: Path, players: int, rounds: int, system: str, draws: st.DataObject
) -> None:
    async with open_service(path) as service:
        info = await service.create_tournament(ORG, "Property Open", rounds, system=system,
                                               seed=draws.draw(st.integers(0, 10**6)))
        for uid in range(1, players + 1):
            await service.join(member(uid), rating=draws.draw(st.integers(1000, 2800)))
        view = await service.start_tournament(ORG)
        withdrawn: dict[int, int] = {}  # player id -> first round missed
        history: list[RoundView] = []
        while True:
            _check_round(view, withdrawn, await service.list_players(GUILD))
            for game in view.games:
                choice = draws.draw(st.sampled_from(ORGANISER_CHOICES))
                await service.set_result(ORG, view.number, game.white.user_id, choice)
            history.append(await service.pairings(GUILD, info.id, view.number))
            await _check_standings(service, info.id, history)
            if view.number == rounds:
                break
            active = [p for p in await service.list_players(GUILD) if p.status == "active"]
            if len(active) > 2 and draws.draw(st.booleans()):
                quitter = draws.draw(st.sampled_from(active))
                await service.drop_player(ORG, quitter.user_id)
                withdrawn[quitter.id] = view.number + 1
            view = await service.pair_next_round(ORG)
        assert (await service.tournament_info(GUILD, info.id)).status == "finished"
        parsed = parse_trf((await service.export(GUILD, "trf", info.id)).content).tournament
        assert parsed.rounds_played == rounds and len(parsed.players) == players


def _check_round(view: RoundView, withdrawn: dict[int, int], players: list) -> None:
    seen = Counter(s.player_id for g in view.games for s in (g.white, g.black))
    seen.update(b.player.player_id for b in view.byes)
    assert all(count == 1 for count in seen.values())
    expected = {p.id for p in players if withdrawn.get(p.id, 10**6) > view.number}
    assert set(seen) == expected
    pab = [b for b in view.byes if b.kind == "pairing"]
    assert len(pab) == len(expected) % 2


async def _check_standings(
    service: TournamentService, tid: int, history: list[RoundView]
) -> None:
    hand: Counter[int] = Counter()
    for rnd in history:
        for g in rnd.games:
            white, black = POINTS[g.result]
            hand[g.white.player_id] += white
            hand[g.black.player_id] += black
        for b in rnd.byes:
            hand[b.player.player_id] += BYE_POINTS[b.kind]
    table = await service.standings(GUILD, tid)
    assert {r.player_id: r.points for r in table.rows} == {
        r.player_id: Fraction(hand[r.player_id]) for r in table.rows}
    points = [r.points for r in table.rows]
    assert points == sorted(points, reverse=True)
    assert [r.rank for r in table.rows] == sorted(r.rank for r in table.rows)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 9),
    rounds=st.integers(1, 4),
    system=st.sampled_from(["dutch", "burstein", "monrad", "random"]),
    draws=st.data(),
)
def test_random_tournaments_keep_their_invariants(
    players: int, rounds: int, system: str, draws: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_play(Path(folder) / "prop.sqlite3", players, rounds, system, draws))
