"""The FIDE Dutch engine's solving shortcuts are exact (swiss/pairing/fide_dutch/solver.py,
tiebreak.py).

The tie-break asks, test after test, whether the bracket's optimum is still reachable with
some edges left out. It answers on the edges that are tight under the first optimum's duals,
rejects without solving when a vertex is left without an edge or when the bracket cannot be
matched on its own, accepts without solving when one exchange of partners pins a pair, and
solves large graphs by pricing from a sparse candidate graph. Each shortcut is checked here
against brute force on small random graphs, and the whole engine with every shortcut forced
on against the engine with the large-graph ones off, on random tournaments.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import solver as solver_module
from swiss.pairing.fide_dutch import tiebreak
from swiss.pairing.fide_dutch.solver import Solver, mate_map
from swiss.pairing.fide_dutch.tiebreak import TieBreak
from tests.swiss.test_fide_dutch import _random_history


def _perfect_matchings(n: int, edges: set[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of a small graph, by brute force."""
    def rec(free: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not free:
            yield []
            return
        u = free[0]
        for v in free[1:]:
            if (u, v) in edges:
                rest = [w for w in free if w not in (u, v)]
                for m in rec(rest):
                    yield [(u, v), *m]
    yield from rec(list(range(n)))


@st.composite
def _graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], list[int]]:
    n = draw(st.sampled_from([4, 6, 8]))
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=n // 2, unique=True))
    # Few distinct weights: many ties, as in the engine's lexicographic weights.
    weights = draw(st.lists(st.integers(0, 3), min_size=len(chosen), max_size=len(chosen)))
    return n, sorted(chosen), weights


def _solver(n: int, edges: list[tuple[int, int]], weights: list[int]) -> Solver:
    us = np.array([u for u, _ in edges], dtype=np.int64)
    vs = np.array([v for _, v in edges], dtype=np.int64)
    limbs = np.array([weights], dtype=np.int64).reshape(1, len(edges))
    return Solver(n, us, vs, limbs, [1], "exact")


def _best(n: int, edges: list[tuple[int, int]], weights: list[int],
          keep: set[tuple[int, int]] | None = None) -> tuple[int | None, list[set]]:
    """The optimum weight and every optimal matching (brute force) on ``keep``."""
    w = dict(zip(edges, weights, strict=True))
    live = set(edges) if keep is None else keep
    found = [(sum(w[e] for e in m), set(m)) for m in _perfect_matchings(n, live)]
    if not found:
        return None, []
    top = max(v for v, _ in found)
    return top, [m for v, m in found if v == top]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(graph=_graphs(), dense=st.lists(st.booleans(), min_size=8, max_size=8))
def test_every_optimal_matching_uses_only_tight_edges(
    graph: tuple[int, list[tuple[int, int]], list[int]], dense: list[bool]
) -> None:
    n, edges, weights = graph
    best, optima = _best(n, edges, weights)
    solver = _solver(n, edges, weights)
    found = solver.solve(duals=True)
    if best is None:
        assert found is None
        return
    assert found is not None and found[0] == best
    assert solver.last is not None
    tight = solver.tight(solver.last, np.array(dense[:n]))
    kept = set(zip(tight.us.tolist(), tight.vs.tolist(), strict=True))
    for matching in optima:
        assert matching <= kept
    again = tight.solve()
    assert again is not None and again[0] == best


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(graph=_graphs(), data=st.data())
def test_shortcuts_agree_with_brute_force(
    graph: tuple[int, list[tuple[int, int]], list[int]], data: st.DataObject
) -> None:
    """A tie-break test accepts exactly when the optimum survives it, with the bracket check
    on, pricing from a sparse candidate graph, and the partner exchange tried first."""
    n, edges, weights = graph
    best, optima = _best(n, edges, weights)
    if best is None:
        return
    solver = _solver(n, edges, weights)
    found = solver.solve(duals=True)
    assert found is not None and solver.last is not None
    bracket = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if data.draw(st.booleans()):  # the engine's case; the shortcuts hold on any graph
        solver = solver.tight(solver.last, bracket)
    # Force the large-graph machinery on this small graph: a sparse start, then pricing.
    solver.candidate = np.zeros(solver.us.size, dtype=bool)
    solver.candidate[: solver.us.size // 3] = True
    mate = mate_map(found[1])
    search = TieBreak(solver, best, mate, n, bracket)
    search_check = search._bracket_can_match
    p, q = data.draw(st.sampled_from(edges))
    dropped = set(data.draw(st.lists(st.sampled_from(edges), max_size=3)))

    def pred(us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        touch = (us == p) | (vs == p) | (us == q) | (vs == q)
        out = ~touch | ((us == p) & (vs == q))
        for a, b in dropped - {(p, q)}:
            out &= ~((us == a) & (vs == b))
        return out

    keep = {(u, v) for u, v in edges if bool(pred(np.array([u]), np.array([v]))[0])}
    possible = any(m <= keep for m in optima)
    live = solver.alive & pred(solver.us, solver.vs)
    if any(True for _ in _perfect_matchings(n, {
            (int(u), int(v)) for u, v in zip(solver.us[live], solver.vs[live], strict=True)})):
        assert search_check(pred(solver.us, solver.vs))  # a necessary condition: never wrong
    assert search.accept(pred, (p, q)) == possible
    if possible:
        assert set(search.mate.items()) >= {(p, q), (q, p)}


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_forced_shortcuts_change_no_pairing(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pricing and the bracket check, forced on every graph, give the pairings of whole-graph
    solves, round after round of random tournaments."""
    rng = random.Random(seed)
    n = rng.randint(9, 40)
    rules = rng.choice(["2025", "2017"])
    t = _random_history(n, 6, rng.randint(1, 4), seed, rules)
    config = PairingConfig(system="fide-dutch", rules=rules)

    def pair(pricing: int, check: int) -> object:
        monkeypatch.setattr(solver_module, "PRICING_MIN_EDGES", pricing)
        monkeypatch.setattr(tiebreak, "BRACKET_CHECK_MIN_EDGES", check)
        try:
            result = pair_round(t, config)
        except PairingError as exc:
            return str(exc)
        return (sorted((g.white, g.black) for g in result.games), result.pairing_bye)

    assert pair(0, 0) == pair(10**9, 10**9)
