"""The FIDE Dutch engine's speed paths say what the plain rules say.

The tie-break repairs the current optimum along augmenting paths before it solves: what it
returns must be an optimum that passes the test (checked against brute force).

The colour terms of the weights (C8-C11 with the colours E.1-E.5 give) are computed for all
pairs of a round at once with numpy (``colours.colour_terms``); the rules themselves are the
per-pair Python of ``context.pair_colour_terms``. They must agree on every pair: on random
players (hypothesis, every branch of E.1-E.5 and the topscorer terms) and on the players of
corpus rounds.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.model import Color
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.fide_dutch import edges, engine, packing
from swiss.pairing.fide_dutch.colours import colour_terms
from swiss.pairing.fide_dutch.context import Context, pair_colour_terms
from swiss.pairing.fide_dutch.players import DutchPlayer, _preference, dutch_players
from swiss.pairing.fide_dutch.solver import mate_map
from swiss.pairing.fide_dutch.tiebreak import TieBreak
from swiss.state import Float
from swiss.trf import parse_trf
from tests.paths import FIXTURES
from tests.swiss.test_fide_dutch_solver import _best, _graphs, _solver


def _python_terms(players: list[DutchPlayer], initial: Color) -> np.ndarray:
    ctx = Context(players={p.id: p for p in players}, forbidden=lambda a, b: False,
                  initial=initial, rules="2025", scale=1, backend="exact")
    terms = [pair_colour_terms(ctx, players[i], players[j], ranked=True)
             for i in range(len(players)) for j in range(i + 1, len(players))]
    return np.array(terms, dtype=np.int64).reshape(len(terms), 4).T


def _vector_terms(players: list[DutchPlayer], initial: Color) -> np.ndarray:
    hi, lo = np.triu_indices(len(players), 1)
    return colour_terms(players, hi.astype(np.int64), lo.astype(np.int64), initial)


@st.composite
def _players(draw: st.DrawFn) -> list[DutchPlayer]:
    n = draw(st.integers(2, 9))
    out = []
    for i in range(n):
        colors = tuple(draw(st.lists(st.sampled_from([Color.WHITE, Color.BLACK]),
                                     max_size=6)))
        cd = sum(1 if c is Color.WHITE else -1 for c in colors)
        pref, strength = _preference(colors, cd)
        out.append(DutchPlayer(
            id=i + 1, seed=i + 1, score=Fraction(0), played=frozenset(), colors=colors,
            cd=cd, pref=pref, strength=strength, can_pab=True, float_prev=Float.NONE,
            float_prev2=Float.NONE, topscorer=draw(st.booleans()), history=colors,
            colour_rank=draw(st.integers(1, 20))))
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(players=_players(), initial=st.sampled_from([Color.WHITE, Color.BLACK]))
def test_vector_colour_terms_agree_with_the_rules_on_random_players(
    players: list[DutchPlayer], initial: Color
) -> None:
    np.testing.assert_array_equal(_vector_terms(players, initial),
                                  _python_terms(players, initial))


def test_vector_colour_terms_agree_with_the_rules_on_corpus_rounds() -> None:
    rounds = sorted((FIXTURES / "dutch-2025").glob("t*/round-*.trf"))[::40]
    rounds += sorted((FIXTURES / "dutch-xxa").glob("*.trf"))
    assert len(rounds) > 30
    for path in rounds:
        t = parse_trf(path.read_text()).tournament
        rnd = t.next_round
        ids = [p.id for p in t.players if t.is_active(p.id, rnd)]
        info = dutch_players(t, rnd, ids, "2025")
        players = sorted(info.values(), key=DutchPlayer.rank_key)
        initial = t.initial_color or Color.WHITE
        np.testing.assert_array_equal(_vector_terms(players, initial),
                                      _python_terms(players, initial), err_msg=str(path))


@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_bracket_components_from_the_near_edges_equal_the_full_computation(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bracket_graph computes the components on the edges near the bracket only and copies
    one far edge's column to the rest: the same graph as computing every edge."""
    compared = 0
    shortcut = 0

    def both_ways(*args: object, **kwargs: object) -> edges.BracketGraph:
        nonlocal compared, shortcut
        fast = edges.bracket_graph(*args, **kwargs)  # type: ignore[arg-type]
        full = edges.bracket_graph(*args, **kwargs, focus_only=False)  # type: ignore[arg-type]
        assert fast.vertices == full.vertices and fast.bye_v == full.bye_v
        np.testing.assert_array_equal(fast.us, full.us)
        np.testing.assert_array_equal(fast.vs, full.vs)
        np.testing.assert_array_equal(fast.all_comps(), full.comps)
        np.testing.assert_array_equal(fast.focus, full.focus)
        # pack works on the near columns and expands its limbs: the same weights.
        fast_limbs, fast_mults = packing.pack(fast, engine.EXACT_MAX_WEIGHT)
        full_limbs, full_mults = packing.pack(full, engine.EXACT_MAX_WEIGHT)
        np.testing.assert_array_equal(fast_limbs, full_limbs)
        assert fast_mults == full_mults
        compared += 1
        shortcut += int((~(fast.focus[fast.us] | fast.focus[fast.vs])).sum() > 1)
        return fast

    monkeypatch.setattr(engine, "bracket_graph", both_ways)
    rounds = sorted((FIXTURES / f"dutch-{rules}").glob("t*/round-*.trf"))[::60]
    for path in rounds:
        pair_round(parse_trf(path.read_text()).tournament,
                   PairingConfig(system="fide-dutch", rules=rules))
    assert compared > 100 and shortcut > 20


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(graph=_graphs(), data=st.data())
def test_repair_returns_only_optima_that_pass_the_test(
    graph: tuple[int, list[tuple[int, int]], list[int]], data: st.DataObject
) -> None:
    """The tie-break's repair (augmenting paths instead of a solve) returns a matching only
    when it is a perfect matching of the test's edges with the optimum weight."""
    n, graph_edges, weights = graph
    best, optima = _best(n, graph_edges, weights)
    if best is None:
        return
    solver = _solver(n, graph_edges, weights)
    found = solver.solve(duals=True)
    assert found is not None and solver.last is not None
    bracket = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if data.draw(st.booleans()):  # the engine's case; on the whole graph, paths may lose weight
        solver = solver.tight(solver.last, bracket)
    search = TieBreak(solver, best, mate_map(found[1]), n, bracket)
    p, q = data.draw(st.sampled_from(graph_edges))

    def pred(us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        touch = (us == p) | (vs == p) | (us == q) | (vs == q)
        return ~touch | ((us == p) & (vs == q))

    mu, mv = search._mate_arrays()
    met = pred(mu, mv)
    if bool(np.all(met)):
        return  # accepted outright, no repair
    repaired = search._repair(pred(solver.us, solver.vs), met, (p, q))
    keep = {(u, v) for u, v in graph_edges if bool(pred(np.array([u]), np.array([v]))[0])}
    passable = any(m <= keep for m in optima)
    if repaired is None:
        return
    pairs = {(u, v) for u, v in repaired.items() if u < v}
    assert passable
    assert len(pairs) * 2 == n and (p, q) in pairs and pairs <= keep
    w = dict(zip(graph_edges, weights, strict=True))
    assert sum(w[e] for e in pairs) == best
