"""The stated bounds of a round's graphs (``swiss.pairing.sparse``): at most
``CANDIDATES_PER_PLAYER`` candidate edges per player, and a solved graph kept within
``GRAPH_PER_PLAYER`` per player by shrinking it to its tight edges, with the same optimum."""

from __future__ import annotations

from dataclasses import replace

import pytest

from swiss.histories import history
from swiss.pairing import PairingConfig, sparse
from swiss.pairing.mwm_graph import ranked_entrants
from swiss.pairing.weights import RoundModel
from tests.swiss.test_pairing_exact_scale import _assert_same_optimum


def _event(players: int) -> object:
    return replace(history("dutch", players, 6, seed=1), total_rounds=11)


@pytest.mark.parametrize("system", ["burstein", "dutch", "monrad"])
def test_the_candidate_graph_stays_within_its_bound(system: str) -> None:
    event = _event(300)
    config = PairingConfig(system=system)
    model = RoundModel.for_tournament(event, config, ranked_entrants(event, system),
                                      event.seed, 7)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sparse, "CANDIDATES_PER_PLAYER", 30)
        us, _vs = sparse.candidate_edges(model, sparse.TOP_K, sparse.WINDOW)
    assert us.size <= 30 * model.n
    assert sparse.candidate_edges(model, sparse.TOP_K, sparse.WINDOW)[0].size > 30 * model.n


@pytest.mark.parametrize("system", ["burstein", "dutch"])
def test_a_solved_graph_past_its_bound_is_shrunk_to_its_tight_edges(system: str) -> None:
    event = _event(200)
    config = PairingConfig(system=system)
    model = RoundModel.for_tournament(event, config, ranked_entrants(event, system),
                                      event.seed, 7)  # type: ignore[arg-type]
    free = sparse.solve_round(model)
    assert free is not None and free.stats["prunes"] == 0
    with pytest.MonkeyPatch.context() as patch:
        # (unbounded, this round's graphs reach 38 edges per player)
        patch.setattr(sparse, "CANDIDATES_PER_PLAYER", 25)
        patch.setattr(sparse, "GRAPH_PER_PLAYER", 30)
        capped = sparse.solve_round(model)
        assert capped is not None
        assert capped.stats["prunes"] > 0
        # the bound, and at most one solve's additions (5 per vertex) past it
        assert capped.stats["largest_graph"] <= (30 + 5) * model.n_vertices
        assert capped.pairs() == free.pairs()
        _assert_same_optimum(event, config)  # type: ignore[arg-type]
