"""The float candidates: rounds whose colours force floats start near their optimum, exactly.

After Dutch-like rounds the top score groups hold many players at colour difference +2 and
+4 and the bottom ones at -2 and -4; the colour bound (ranked above the score difference)
then floats part of nearly every group. ``swiss.pairing.sparse`` adds candidates that follow
those floats; the result must stay the dense optimum, and the first candidate graph must hold
most of the optimum's pairs (else pricing adds them a few at a time, a solve each).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.histories import history
from swiss.pairing import PairingConfig, sparse
from swiss.pairing.mwm_graph import ranked_entrants
from swiss.pairing.weights import RoundModel
from tests.swiss.test_pairing_exact_scale import _assert_same_optimum

COLOUR_SYSTEMS = ["burstein", "dutch", "monrad"]


def _model(kind: str, players: int, played: int, system: str) -> RoundModel:
    event = replace(history(kind, players, played, seed=1), total_rounds=11)
    config = PairingConfig(system=system)
    return RoundModel.for_tournament(event, config, ranked_entrants(event, system),
                                     event.seed, played + 1)


@pytest.mark.parametrize("system", COLOUR_SYSTEMS)
def test_first_candidate_graph_holds_most_of_a_cascading_optimum(system: str) -> None:
    model = _model("dutch", 200, 6, system)
    assert sparse.forced_colour_floats(model) * sparse.FLOATS_FROM > model.n
    us, vs = sparse.candidate_edges(model, sparse.TOP_K, sparse.WINDOW)
    first = set((us * model.n_vertices + vs).tolist())
    solution = sparse.solve_round(model)
    assert solution is not None
    pairs = solution.pairs()
    held = sum(u * model.n_vertices + v in first for u, v in pairs)
    # Without the float candidates: 33, 15 and 12 of the 100 pairs (Burstein, Dutch, Monrad).
    assert held > len(pairs) // 2


def test_balanced_colours_force_no_float() -> None:
    model = _model("dutch", 60, 0, "burstein")  # round 1: everybody at colour difference 0
    assert sparse.forced_colour_floats(model) == 0
    assert sparse.float_partner_candidates(model) == []
    assert sparse.standings_colour_candidates(model) == []


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["dutch", "draws"]),
    players=st.integers(4, 90),
    played=st.integers(1, 7),
    system=st.sampled_from(COLOUR_SYSTEMS),
    policy=st.sampled_from(["avoid", "forbid"]),
    seed=st.integers(0, 10**6),
)
def test_float_candidates_keep_the_dense_optimum(
    kind: str, players: int, played: int, system: str, policy: str, seed: int
) -> None:
    event = replace(history(kind, players, played, seed=seed), total_rounds=played + 4)
    config = PairingConfig(system=system, policy=policy)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as patch:
        # whatever the round's colours, with the float candidates in the first graph
        patch.setattr(sparse, "forced_colour_floats", lambda model: model.n)
        _assert_same_optimum(event, config)
