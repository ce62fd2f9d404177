"""The MWM engine on hand-made cases: the paper's examples, byes, repeats, colours, backends."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from swiss.model import ByeKind, Color, Player, Result, Round, Scoring, Tournament
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.matching import WeightOverflowError, max_weight_matching
from swiss.pairing.mwm import pack_weights, pairing_graph
from tests.pairing_helpers import (
    brute_force_best,
    component_totals,
    matching_of,
    new_tournament,
    play,
    round_of,
)

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def pairs_of(result) -> set[frozenset[int]]:
    return {frozenset(g.players) for g in result.games}


def boards(result) -> list[tuple[int, int]]:
    return [(g.white, g.black) for g in result.games]


# -- the paper's Table 1 and Figure 1 ------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "expected"),
    [
        ("dutch", [(1, 5), (2, 6), (3, 7), (4, 8)]),
        ("burstein", [(1, 8), (2, 7), (3, 6), (4, 5)]),
        ("monrad", [(1, 2), (3, 4), (5, 6), (7, 8)]),
    ],
)
def test_table1_score_group_of_eight(system: str, expected: list[tuple[int, int]]) -> None:
    result = pair_round(new_tournament(8, 5), PairingConfig(system=system))
    assert pairs_of(result) == {frozenset(p) for p in expected}
    assert result.pairing_bye is None


def test_round_one_colours_alternate_by_board_like_bbpairings() -> None:
    white1 = pair_round(new_tournament(8, 5), PairingConfig(system="dutch"))
    assert boards(white1) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    black1 = pair_round(
        new_tournament(8, 5, initial_color=Color.BLACK), PairingConfig(system="dutch")
    )
    assert boards(black1) == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_seven_players_lowest_gets_the_bye_and_it_is_listed() -> None:
    result = pair_round(new_tournament(7, 3), PairingConfig(system="dutch"))
    assert boards(result) == [(1, 4), (5, 2), (3, 6)]
    assert result.pairing_bye == 7
    assert result.byes[0].kind is ByeKind.PAIRING


def _figure1_after_round1() -> Tournament:
    # Figure 1 of seed 001: round-1 colours as in its table (p1 b, p2 b, p3 w, p4 b, p5 w,
    # p6 w, p7 b, p8 w) and the winners p1, p3, p4, p6.
    r1 = round_of(1, [(5, 1, B), (6, 2, W), (3, 7, W), (8, 4, B)])
    return new_tournament(8, 4).with_round(r1)


def test_figure1_round2_weights_and_optimum() -> None:
    t = _figure1_after_round1()
    config = PairingConfig(system="dutch")
    graph = pairing_graph(t, config)
    index = {e.player.id: i for i, e in enumerate(graph.vertices)}
    names = graph.names

    def comp(a: int, b: int) -> dict[str, int]:
        u, v = sorted((index[a], index[b]))
        return dict(zip(names, graph.raw[(u, v)], strict=True))

    # The caption: w(p1,p3) = w(p4,p6) = (0, 0, -1) and w(p1,p4) = w(p3,p6) = (0, -2, 0).
    # Our Dutch term is doubled (|g - 2d| instead of |g/2 - d|) to stay integral.
    for a, b in ((1, 3), (4, 6)):
        c = comp(a, b)
        assert (c["score difference"], c["colour"], c["distance from half group"]) == (0, 0, 2)
    for a, b in ((1, 4), (3, 6)):
        c = comp(a, b)
        assert (c["score difference"], c["colour"], c["distance from half group"]) == (0, 2, 0)

    result = pair_round(t, config)
    paper = [(1, 3), (4, 6), (2, 8), (5, 7)]
    ours = matching_of(graph, result.games, None)
    paper_matching = [(index[a], index[b]) for a, b in paper]
    without_tiebreak = slice(0, len(names) - 1)
    assert (
        component_totals(graph, ours)[without_tiebreak]
        == component_totals(graph, paper_matching)[without_tiebreak]
    )
    # The paper's pairing is optimal; the tie between equally good pairings is broken by the
    # seeded tie-break term, never by the backend.
    assert pairs_of(result) <= {frozenset(p) for p in [*paper, (1, 6), (3, 4), (2, 5), (7, 8)]}
    assert frozenset((1, 4)) not in pairs_of(result)


# -- repeats and byes ----------------------------------------------------------------------
def test_six_players_eight_rounds_never_fail_with_avoid() -> None:
    rng = random.Random(7)
    t = new_tournament(6, 8)
    config = PairingConfig(system="burstein")
    for _ in range(8):
        t = play(t, config, rng)
    assert t.rounds_played == 8
    for rnd in t.rounds:
        assert len(rnd.games) == 3
    # 6 players have only 5 rounds of fresh opponents; round 6 on repeats, but never a third
    # meeting before every pair met twice.
    meetings: dict[frozenset[int], int] = {}
    for rnd in t.rounds:
        for g in rnd.games:
            key = frozenset(g.players)
            meetings[key] = meetings.get(key, 0) + 1
    assert max(meetings.values()) <= 2


def test_forbid_policy_reports_no_pairing() -> None:
    rng = random.Random(3)
    t = new_tournament(4, 5)
    config = PairingConfig(system="dutch", policy="forbid")
    for _ in range(3):
        t = play(t, config, rng)
    with pytest.raises(PairingError, match="cannot all be paired because") as refused:
        pair_round(t, config)
    # the callers put their own "no valid pairing" before the reason: it says it once
    assert "no valid pairing" not in str(refused.value)


def test_repeats_of_highest_multiplicity_are_avoided_first() -> None:
    # Rounds 1-3: a round robin of 4; round 4 repeats round 1's pairs.
    t = new_tournament(4, 6)
    t = t.with_round(round_of(1, [(1, 2, W), (3, 4, W)]))
    t = t.with_round(round_of(2, [(3, 1, B), (4, 2, B)]))
    t = t.with_round(round_of(3, [(1, 4, D), (2, 3, D)]))
    t = t.with_round(round_of(4, [(2, 1, B), (4, 3, B)]))
    result = pair_round(t, PairingConfig(system="monrad"))
    # Monrad alone would pair 1-2 and 3-4 again (a third meeting); one repeat each is better.
    assert frozenset((1, 2)) not in pairs_of(result)
    assert frozenset((3, 4)) not in pairs_of(result)
    assert all(e.repeat == 1 for e in result.explanations)


def test_second_bye_is_avoided_and_goes_to_lowest_without_one() -> None:
    t = new_tournament(5, 4)
    t = t.with_round(round_of(1, [(1, 3, W), (4, 2, B)], [(5, ByeKind.PAIRING)]))
    result = pair_round(t, PairingConfig(system="dutch"))
    # Player 5 (1 point) already had the bye; the lowest-ranked without one gets it.
    assert result.pairing_bye == 4
    assert result.explanation_for(4).repeat == 0


def test_forfeit_win_counts_as_a_bye_for_bye_eligibility() -> None:
    t = new_tournament(3, 3)
    t = t.with_round(round_of(1, [(1, 2, Result.WHITE_FORFEIT_WIN)], [(3, ByeKind.PAIRING)]))
    result = pair_round(t, PairingConfig(system="dutch"))
    # 3 had the PAB and 1 a forfeit win: 2 is the only one without an unplayed win.
    assert result.pairing_bye == 2


def test_bye_moves_up_when_the_lowest_would_leave_the_rest_unpairable() -> None:
    t = new_tournament(3, 3)
    t = t.with_round(round_of(1, [(1, 2, W)], [(3, ByeKind.HALF)]))
    result = pair_round(t, PairingConfig(system="dutch", policy="forbid"))
    # Bottom player 3 cannot take it: 1 and 2 already met. Player 2 is the lowest that works.
    assert result.pairing_bye == 2
    assert pairs_of(result) == {frozenset((1, 3))}


def test_requested_byes_and_withdrawals_are_left_out() -> None:
    t = new_tournament(6, 3).with_requested_bye(1, 2, ByeKind.HALF).with_withdrawal(6, 1)
    result = pair_round(t, PairingConfig(system="dutch"))
    paired = {p for g in result.games for p in g.players}
    assert 2 not in paired and 6 not in paired
    assert result.pairing_bye is None  # 1, 3, 4, 5 remain: no pairing-allocated bye
    assert any(b.player == 2 and b.kind is ByeKind.HALF for b in result.byes)


def test_forbidden_pairs_are_hard_constraints() -> None:
    t = new_tournament(4, 3).with_forbidden_pair(1, 3).with_forbidden_pair(2, 4)
    result = pair_round(t, PairingConfig(system="dutch"))
    assert pairs_of(result) == {frozenset((1, 4)), frozenset((2, 3))}
    t2 = new_tournament(2, 3).with_forbidden_pair(1, 2)
    with pytest.raises(PairingError):
        pair_round(t2, PairingConfig())


# -- colours -------------------------------------------------------------------------------
def test_lower_colour_difference_gets_white() -> None:
    t = new_tournament(4, 3).with_round(round_of(1, [(1, 3, W), (4, 2, B)]))
    # 1 (cd +1) and 2 (cd -1) have 1 point each; 2 must get white.
    result = pair_round(t, PairingConfig(system="dutch"))
    assert (2, 1) in boards(result)


def test_equal_colour_difference_alternates_from_last_differing_round() -> None:
    t = new_tournament(4, 4)
    t = t.with_round(round_of(1, [(1, 2, D), (3, 4, D)]))
    t = t.with_round(round_of(2, [(4, 1, D), (2, 3, D)]))
    # Everyone has cd 0. Pairs 1-3 / 2-4 are fresh. In round 2 player 1 had black and 3 black:
    # no difference; in round 1 player 1 had white, 3 white. Same for 2/4 -> due colours.
    result = pair_round(t, PairingConfig(system="monrad"))
    for g in result.games:
        assert g.white != g.black
    t3 = new_tournament(2, 3).with_round(round_of(1, [(1, 2, D)]))
    t3 = t3.with_round(round_of(2, [(2, 1, D)]))
    # cd equal (0); the last round with different colours is round 2 (2 white) -> 1 white.
    result = pair_round(t3, PairingConfig(system="monrad"))
    assert boards(result) == [(1, 2)]


def test_colour_bound_beta_is_kept_while_possible() -> None:
    rng = random.Random(11)
    t = new_tournament(10, 6)
    config = PairingConfig(system="burstein", beta=Fraction(1, 10))
    for _ in range(6):
        t = play(t, config, rng)
    from swiss.state import player_states

    for st in player_states(t).values():
        assert abs(st.color_diff) <= 1  # beta 0.1: strictly alternating where possible


def test_events_without_colours_drop_the_colour_terms() -> None:
    t = new_tournament(6, 3, use_colors=False, scoring=Scoring.match_points())
    result = pair_round(t, PairingConfig(system="burstein"))
    assert all(e.color_term is None for e in result.explanations)
    assert "colour" not in pairing_graph(t, PairingConfig(system="burstein")).names
    # without colours, the first side is the higher-ranked player
    assert boards(result) == [(1, 6), (2, 5), (3, 4)]


# -- exactness and backends ----------------------------------------------------------------
def _random_history(rng: random.Random, n: int, rounds: int, system: str) -> Tournament:
    t = new_tournament(n, rounds + 1)
    config = PairingConfig(system=system)
    for _ in range(rounds):
        t = play(t, config, rng)
    return t


@pytest.mark.slow
@pytest.mark.parametrize(
    "system", ["dutch", "burstein", "monrad", "random", "random2", "posterior"]
)
def test_engine_equals_brute_force_on_small_instances(system: str) -> None:
    rng = random.Random(sum(map(ord, system)))
    for trial in range(25):
        n = rng.randint(2, 10)
        t = _random_history(rng, n, rng.randint(0, 4), system)
        if trial % 3 == 0:
            t = t.with_forbidden_pair(1, n)
        config = PairingConfig(system=system, seed=trial)
        graph = pairing_graph(t, config)
        best = brute_force_best(graph)
        try:
            result = pair_round(t, config)
        except PairingError:
            assert best[0] < (len(graph.vertices) + graph.has_bye) // 2
            continue
        ours = matching_of(graph, result.games, result.pairing_bye)
        assert (len(ours), component_totals(graph, ours)) == best


@pytest.mark.slow
def test_the_compiled_dense_path_and_networkx_agree_exactly() -> None:
    """``rustworkx`` names the dense graph solved by the compiled solver now."""
    rng = random.Random(5)
    for _ in range(12):
        n = rng.randint(8, 40)
        t = _random_history(rng, n, rng.randint(1, 6), rng.choice(["dutch", "burstein"]))
        a = pair_round(t, PairingConfig(system="burstein", backend="rustworkx"))
        b = pair_round(t, PairingConfig(system="burstein", backend="networkx"))
        assert a.total_weight == b.total_weight
        assert boards(a) == boards(b)  # the tie-break term makes the optimum unique


def test_packed_weights_are_integers_and_positive() -> None:
    t = _random_history(random.Random(2), 20, 4, "dutch")
    edges = pack_weights(pairing_graph(t, PairingConfig(system="dutch")))
    assert all(isinstance(w, int) and w > 0 for _u, _v, w in edges)


def test_the_compiled_solver_refuses_weights_beyond_its_exact_range() -> None:
    edges = [(0, 1, 2**241), (2, 3, 1)]
    with pytest.raises(WeightOverflowError, match="networkx"):
        max_weight_matching(4, edges, "rustworkx")
    assert max_weight_matching(4, edges, "networkx") == {(0, 1), (2, 3)}
    # (126 bits, beyond the i128 of the library the name comes from: exact here)
    assert max_weight_matching(4, [(0, 1, 2**126), (2, 3, 1)], "rustworkx") == {(0, 1), (2, 3)}
    with pytest.raises(TypeError):
        max_weight_matching(2, [(0, 1, 1.5)], "networkx")  # type: ignore[list-item]


# -- determinism ---------------------------------------------------------------------------
def test_same_state_same_pairing_whatever_the_input_order() -> None:
    rng = random.Random(9)
    t = _random_history(rng, 24, 4, "random2")
    config = PairingConfig(system="random2", seed=42)
    first = pair_round(t, config)
    players = list(t.players)
    rng.shuffle(players)
    shuffled = Tournament(
        players=tuple(players), rounds=t.rounds, total_rounds=t.total_rounds, seed=t.seed
    )
    assert boards(pair_round(shuffled, config)) == boards(first)
    assert boards(pair_round(t, config)) == boards(first)


def test_random_systems_depend_on_the_seed() -> None:
    t = new_tournament(16, 5)
    draws = {tuple(boards(pair_round(t, PairingConfig(system="random", seed=s))))
             for s in range(6)}
    assert len(draws) > 1


def test_pending_results_block_the_next_round() -> None:
    t = new_tournament(4, 3).with_round(round_of(1, [(1, 3, Result.PENDING), (4, 2, W)]))
    with pytest.raises(ValueError, match="without a result"):
        pair_round(t, PairingConfig())


def test_late_entry_without_history_is_paired() -> None:
    t = new_tournament(4, 3).with_round(round_of(1, [(1, 3, W), (4, 2, B)]))
    late = Player(5, "Late", 1000)
    t = t.with_players([*t.players, late])
    result = pair_round(t, PairingConfig())
    assert {p for g in result.games for p in g.players} | {result.pairing_bye} == {1, 2, 3, 4, 5}
    assert isinstance(t.rounds[0], Round)


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        ("dutch", [(1, 5), (2, 6), (3, 7), (4, 8)]),
        ("burstein", [(1, 8), (2, 7), (3, 6), (4, 5)]),
        ("random2", None),
    ],
)
def test_odd_score_group_is_sized_without_the_bye_player(system, expected) -> None:
    # As in the paper, the bye player (9) is out of the score group: 8 players remain.
    t = new_tournament(9, 4)
    result = pair_round(t, PairingConfig(system=system))
    assert result.pairing_bye == 9
    if expected is not None:
        assert pairs_of(result) == {frozenset(p) for p in expected}
    else:  # Random2 pairs the top half {1..4} with the bottom half {5..8}
        for g in result.games:
            assert (min(g.players) <= 4) and (max(g.players) >= 5)
