"""Big FIDE Dutch brackets keep their separable edges implicit (swiss/pairing/fide_dutch/
implicit.py): the same weights, the same certificate, the same pairings.

* The weight of every edge with an end below the next scoregroup is its column's: checked
  against the whole graph's components, on corpus rounds.
* The structured pricing lists every implicit edge whose reduced cost may be negative:
  checked against brute force on random duals and blossoms.
* The engine with the implicit method forced on every bracket pairs exactly as the
  whole-graph method, on random histories (forbidden pairs, requested byes, both editions).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import edges, engine, exchange, packing
from swiss.pairing.fide_dutch.implicit import Implicit, _candidates
from swiss.trf import parse_trf
from tests.paths import FIXTURES
from tests.swiss.test_fide_dutch import _random_history


@st.composite
def _duals(draw: st.DrawFn) -> tuple[dict[int, int], int, int, list[tuple[int, np.ndarray]],
                                     int]:
    vertices = draw(st.integers(2, 12))
    f = draw(st.integers(0, vertices - 1))
    r_end = draw(st.integers(f + 1, vertices))
    keys = [x for x in range(r_end) if x >= f or draw(st.booleans())]
    a = {x: draw(st.integers(-6, 6)) for x in keys}
    # A laminar family: nested or disjoint sets, each with a value (some zero, some not).
    blossoms: list[tuple[int, np.ndarray]] = []
    pool = [list(range(vertices))]
    for _ in range(draw(st.integers(0, 5))):
        base = draw(st.sampled_from(pool))
        if len(base) < 3:
            continue
        size = draw(st.integers(3, len(base)))
        start = draw(st.integers(0, len(base) - size))
        members = base[start:start + size]
        if members == pool[0]:
            continue
        blossoms.append((draw(st.integers(0, 8)), np.array(members, dtype=np.int64)))
        pool.append(members)
        # later blossoms nest in this one or avoid it
        pool = [members] + [[x for x in p if x not in members] for p in pool if p != members]
        pool = [p for p in pool if p]
    return a, f, r_end, blossoms, vertices


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(case=_duals())
def test_structured_pricing_lists_every_possibly_violated_implicit_edge(
    case: tuple[dict[int, int], int, int, list[tuple[int, np.ndarray]], int]
) -> None:
    a, f, r_end, blossoms, vertices = case
    pu, pv = _candidates(a, f, r_end, blossoms, vertices)
    listed = {(min(u, v), max(u, v)) for us, vs in zip(pu, pv, strict=True)
              for u, v in zip(us.tolist(), vs.tolist(), strict=True)}
    member = [set(m.tolist()) for _z, m in blossoms]
    for u in a:
        for v in range(f, r_end):
            if u == v:
                continue
            z = sum(zb for zb, m in zip((b[0] for b in blossoms), member, strict=True)
                    if u in m and v in m)
            if a[u] + a[v] + z < 0:
                assert (min(u, v), max(u, v)) in listed, (u, v)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_implicit_columns_are_the_weights_of_the_whole_graph(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every edge of the whole graph weighs, with the implicit method, what its listed edge
    or its column says: the same limbs and multipliers."""
    compared = sinks_compared = 0

    def both_ways(*args: object, **kwargs: object) -> edges.BracketGraph:
        nonlocal compared, sinks_compared
        kwargs.pop("implicit", None)
        fast = edges.bracket_graph(*args, **kwargs, implicit=True)  # type: ignore[arg-type]
        full = edges.bracket_graph(*args, **kwargs, focus_only=False)  # type: ignore[arg-type]
        sep = fast.sep
        if sep is not None:
            fl, fm = packing.pack(fast, engine.EXACT_MAX_WEIGHT)
            gl, gm = packing.pack(full, engine.EXACT_MAX_WEIGHT)
            assert fm == gm
            listed = fast.us.size - int(sep.has_r.sum()) - int(sep.far_col >= 0)
            where = {(int(u), int(v)): i for i, (u, v) in
                     enumerate(zip(fast.us[:listed], fast.vs[:listed], strict=True))}
            for e, (u, v) in enumerate(zip(full.us.tolist(), full.vs.tolist(), strict=True)):
                if (u, v) in where:
                    col = fl[:, where[(u, v)]]
                else:
                    assert sep.f <= v < sep.r_end
                    col = fl[:, sep.pseudo[u]] if u < sep.f else fl[:, sep.far_col]
                np.testing.assert_array_equal(col, gl[:, e])
            # The implicit edges the solver sees (Implicit.is_edge) are exactly the whole
            # graph's edges that are not listed.
            implicit = {(u, v) for u, v in zip(full.us.tolist(), full.vs.tolist(), strict=True)
                        if (u, v) not in where}
            imp = Implicit(sep, fast.vertices, np.zeros((1, fast.vertices), dtype=np.int64))
            us, vs = np.triu_indices(fast.vertices, 1)
            ok = imp.is_edge(us.astype(np.int64), vs.astype(np.int64))
            seen = set(zip(us[ok].tolist(), vs[ok].tolist(), strict=True))
            if kwargs.get("sinks"):
                # A bracket paired on its own: each player's own sink in the whole graph,
                # any sink (they are alike: the same column) implicitly; sinks pair freely.
                players = sep.f
                assert implicit <= seen
                assert seen == {(u, v) for u, v in zip(us.tolist(), vs.tolist(), strict=True)
                                if v >= players}
                sinks_compared += 1
            else:
                assert implicit == seen
            compared += 1
        return fast

    monkeypatch.setattr(engine, "bracket_graph", both_ways)
    monkeypatch.setattr(engine, "IMPLICIT_MIN_PLAYERS", 0)
    rounds = sorted((FIXTURES / f"dutch-{rules}").glob("t*/round-*.trf"))[::15]
    for path in rounds:
        pair_round(parse_trf(path.read_text()).tournament,
                   PairingConfig(system="fide-dutch", rules=rules))
    assert compared > 15
    assert (sinks_compared > 5) == (rules == "2017")


def _with_forbidden(t: object, rng: random.Random, n: int) -> object:
    for _ in range(rng.randint(0, 3)):
        a, b = rng.sample(range(1, n + 1), 2)
        t = t.with_forbidden_pair(a, b)  # type: ignore[attr-defined]
    return t


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(8, 40), played=st.integers(1, 5), seed=st.integers(0, 10**6),
       rules=st.sampled_from(["2025", "2017"]), cap=st.sampled_from([0, 20000]))
def test_implicit_method_pairs_as_the_whole_graph(
    n: int, played: int, seed: int, rules: str, cap: int
) -> None:
    """``cap`` 0 sends every remainder whose first split fails to the matching-based
    exchange search (``first_exchange``, as in big brackets), implicit edges included."""
    rng = random.Random(seed)
    t = _with_forbidden(_random_history(n, played + 2, played, seed, rules), rng, n)
    config = PairingConfig(system="fide-dutch", rules=rules)

    def pair(threshold: int) -> object:
        old = engine.IMPLICIT_MIN_PLAYERS, exchange.EXCHANGE_CAP
        engine.IMPLICIT_MIN_PLAYERS, exchange.EXCHANGE_CAP = threshold, cap
        try:
            result = pair_round(t, config)  # type: ignore[arg-type]
        except PairingError as exc:
            return str(exc)
        finally:
            engine.IMPLICIT_MIN_PLAYERS, exchange.EXCHANGE_CAP = old
        return (sorted((g.white, g.black) for g in result.games), result.pairing_bye)

    assert pair(0) == pair(10**9)


def test_a_pairing_exists_check_matches_between_methods() -> None:
    """A round with no pairing at all (everyone has met everyone) is refused the same way
    by both methods (the implicit one widens its candidates to the whole graph)."""
    from swiss.model import Game, Player, Result, Round, Tournament

    n = 4
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, n + 1)), total_rounds=5)
    for number, pairs in enumerate(([(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 4), (2, 3)]),
                                   start=1):
        t = t.with_round(Round(number, tuple(Game(a, b, Result.DRAW, board=i + 1)
                                             for i, (a, b) in enumerate(pairs))))
    for threshold in (0, 10**9):
        old = engine.IMPLICIT_MIN_PLAYERS
        engine.IMPLICIT_MIN_PLAYERS = threshold
        try:
            with pytest.raises(PairingError):
                pair_round(t, PairingConfig(system="fide-dutch"))
        finally:
            engine.IMPLICIT_MIN_PLAYERS = old
