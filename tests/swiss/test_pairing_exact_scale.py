"""The scalable exact path (candidates, then dual pricing) against the dense reference.

``pair_round`` with the default backend solves a sparse candidate graph and proves optimality
on the full graph by pricing; ``backend="rustworkx"``/``"networkx"`` pack every edge and run
one library matching. Both must reach the same lexicographic optimum: the same total of every
weight component (the packings differ, the optimum does not).
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from swiss.model import ByeKind, Result, Round, Tournament
from swiss.pairing import PairingConfig, PairingError, PairingResult, pair_round
from swiss.pairing.matching import WeightOverflowError
from swiss.pairing.mwm import pairing_graph
from tests.pairing_helpers import component_totals, matching_of, new_tournament

SYSTEMS = ["dutch", "burstein", "monrad", "random", "random2", "posterior"]
RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


def _dense(t: Tournament, config: PairingConfig) -> PairingResult:
    try:
        return pair_round(t, dataclasses.replace(config, backend="rustworkx"))
    except WeightOverflowError:
        return pair_round(t, dataclasses.replace(config, backend="networkx"))


def _history(n: int, rounds: int, config: PairingConfig, rng: random.Random) -> Tournament | None:
    t = new_tournament(n, rounds + 1)
    for a, b in ((rng.randint(1, n), rng.randint(1, n)) for _ in range(rng.randint(0, 3))):
        if a != b:
            t = t.with_forbidden_pair(a, b)
    for number in range(1, rounds + 1):
        if rng.random() < 0.3:
            t = t.with_withdrawal(rng.randint(1, n), number)
        if rng.random() < 0.3:
            t = t.with_requested_bye(number, rng.randint(1, n), ByeKind.HALF)
        try:
            result = pair_round(t, config)
        except PairingError:
            return None
        games = tuple(g.with_result(rng.choice(RESULTS)) for g in result.games)
        t = t.with_round(Round(result.round_number, games, result.byes))
    if rng.random() < 0.3:
        t = t.with_requested_bye(rounds + 1, rng.randint(1, n), ByeKind.ZERO)
    return t


def _assert_same_optimum(t: Tournament, config: PairingConfig) -> None:
    try:
        dense = _dense(t, config)
    except PairingError:
        with pytest.raises(PairingError):
            pair_round(t, config)
        return
    fast = pair_round(t, config)
    assert fast.backend in ("exact", "none")  # none: nobody to pair
    graph = pairing_graph(t, config)
    best = component_totals(graph, matching_of(graph, dense.games, dense.pairing_bye))
    got = component_totals(graph, matching_of(graph, fast.games, fast.pairing_bye))
    assert got == best


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.one_of(st.integers(2, 30), st.integers(31, 120)),
    rounds=st.integers(0, 4),
    system=st.sampled_from(SYSTEMS),
    policy=st.sampled_from(["avoid", "forbid"]),
    seed=st.integers(0, 10**6),
)
def test_scalable_path_reaches_the_dense_optimum(
    n: int, rounds: int, system: str, policy: str, seed: int
) -> None:
    config = PairingConfig(system=system, policy=policy)  # type: ignore[arg-type]
    t = _history(n, rounds, config, random.Random(seed))
    assume(t is not None)
    assert t is not None
    _assert_same_optimum(t, config)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(200, 400),
    rounds=st.integers(3, 6),
    system=st.sampled_from(SYSTEMS),
    policy=st.sampled_from(["avoid", "forbid"]),
    seed=st.integers(0, 10**6),
)
def test_scalable_path_reaches_the_dense_optimum_up_to_400_players(
    n: int, rounds: int, system: str, policy: str, seed: int
) -> None:
    config = PairingConfig(system=system, policy=policy)  # type: ignore[arg-type]
    t = _history(n, rounds, config, random.Random(seed))
    assume(t is not None)
    assert t is not None
    _assert_same_optimum(t, config)


def test_rematches_are_priced_in_when_the_field_is_exhausted() -> None:
    # 6 players after 5 rounds of a round robin: every pair has met, so "avoid" must repeat;
    # the candidate graph and the pricing still reach the dense optimum.
    config = PairingConfig(system="dutch")
    rng = random.Random(3)
    t = new_tournament(6, 7)
    for _ in range(6):
        result = pair_round(t, config)
        games = tuple(g.with_result(rng.choice(RESULTS)) for g in result.games)
        t = t.with_round(Round(result.round_number, games, result.byes))
    _assert_same_optimum(t, config)


def test_weights_beyond_the_solver_limit_are_refused_with_the_limit_named() -> None:
    import numpy as np

    from swiss.pairing.weights import MAX_WEIGHT_BITS, RoundModel

    n = 1000
    arange = np.arange(n, dtype=np.int64)
    # Pairs that met 1..30 times: 30 repeat tiers of 9 bits each on top of everything else.
    met = {k * n + k + 1: k for k in range(1, 31)}
    with pytest.raises(WeightOverflowError, match=f"at most {MAX_WEIGHT_BITS} bits"):
        RoundModel(
            ids=arange + 1, score=np.zeros(n, dtype=np.int64), color_diff=np.zeros(n, np.int64),
            group_size=np.full(n, n), group_pos=arange, byes=np.zeros(n, np.int64), met=met,
            forbidden=set(), forbid=False, use_colors=True, beta=Fraction(2),
            system="burstein", seed=1, round_number=31,
        )


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 80),
    system=st.sampled_from(["dutch", "burstein", "monrad", "random", "random2", "override"]),
    forbid=st.booleans(),
    use_colors=st.booleans(),
    beta=st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2)]),
    data=st.data(),
)
def test_compiled_pricing_model_equals_the_numpy_model(
    n: int, system: str, forbid: bool, use_colors: bool, beta: Fraction, data: st.DataObject
) -> None:
    # The compiled pricing pass restates RoundModel._raw_players for every system (and the
    # simulator's override matrix): every component of every player pair, and which pairs are
    # edges, must be the numpy model's.
    import numpy as np

    from swiss.pairing.weights import RoundModel

    ints = st.integers
    score = np.sort(np.array(data.draw(st.lists(ints(0, 6), min_size=n, max_size=n))))[::-1]
    _values, starts, sizes = np.unique(-score, return_index=True, return_counts=True)
    group_size = np.repeat(sizes, sizes)
    group_pos = np.arange(n) - np.repeat(starts, sizes)
    pairs = st.tuples(ints(0, n - 1), ints(0, n - 1)).filter(lambda p: p[0] < p[1])
    met = {u * n + v: t for (u, v), t in data.draw(st.dictionaries(pairs, ints(1, 3), max_size=8))
           .items()}
    forbidden = {u * n + v for u, v in data.draw(st.lists(pairs, max_size=3))}
    model = RoundModel(
        ids=np.array(data.draw(st.permutations(range(1, n + 1))), dtype=np.int64),
        score=score, color_diff=np.array(data.draw(st.lists(ints(-3, 3), min_size=n, max_size=n))),
        group_size=group_size, group_pos=group_pos,
        byes=np.array(data.draw(st.lists(ints(0, 2), min_size=n, max_size=n))),
        met=met, forbidden=forbidden, forbid=forbid, use_colors=use_colors, beta=beta,
        system="burstein" if system == "override" else system,
        seed=data.draw(ints(0, 2**40)), round_number=data.draw(ints(1, 30)),
        pi=(np.array(data.draw(st.lists(ints(0, 10**6), min_size=n * n, max_size=n * n)),
                     dtype=np.int64).reshape(n, n) if system == "override" else None),
    )
    us, vs = np.triu_indices(n, 1)
    us, vs = us.astype(np.int64), vs.astype(np.int64)
    comps, is_edge = model.native_components(us, vs)
    allowed = model.allowed(us, vs)
    assert is_edge.tolist() == allowed.tolist()
    expected = model.benefits(us[allowed], vs[allowed])
    assert comps[:, allowed].tolist() == expected.tolist()
    if system.startswith("random"):
        # The draws (pair_draws of the ids), made in compiled code; 0 for the pairs that are
        # not edges in the row and run maxima.
        from swiss.pairing.weights import RUN, pair_draws

        draws = pair_draws(model.seed, model.round_number, model.ids[us], model.ids[vs])
        want = np.where(allowed, draws, 0)
        segmax_bytes, runmax, partners = model.random_draws()
        runs = -(-n // RUN)
        segmax = np.frombuffer(segmax_bytes, dtype=np.int32).reshape(n, runs)
        for u in range(n):
            for j in range(runs):
                inside = (us == u) & (vs // RUN == j)
                assert segmax[u, j] == (want[inside].max() if inside.any() else 0)
        # Candidates: each player's RANDOM_PARTNERS largest random terms in its score group.
        from swiss.pairing.weights import RANDOM_PARTNERS

        term = comps[-2]  # the random component (then the tie-break)
        same = allowed & (model.score[us] == model.score[vs])
        for u in range(n):
            mine = same & ((us == u) | (vs == u))
            best = sorted(term[mine].tolist(), reverse=True)[:RANDOM_PARTNERS]
            chosen = (partners[0] == u) | (partners[1] == u)
            keys = set((partners[0][chosen] * n + partners[1][chosen]).tolist())
            values = sorted((int(term[(us == k // n) & (vs == k % n)][0]) for k in keys),
                            reverse=True)
            assert values[:len(best)] == best
        ri, rj = np.triu_indices(runs)
        for p, (i, j) in enumerate(zip(ri.tolist(), rj.tolist(), strict=True)):
            inside = (us // RUN == i) & (vs // RUN == j)
            assert runmax[p] == (want[inside].max() if inside.any() else 0)


@pytest.mark.parametrize("system", ["dutch", "burstein", "monrad", "random", "random2"])
def test_compiled_pricing_pass_finds_what_the_numpy_pass_finds(system: str) -> None:
    # Against the same (deliberately poor) duals, the compiled pass and the numpy blocks must
    # report the same violated edges with the same reduced costs.
    import numpy as np

    from swiss.pairing.exact import _Laminar, price, solve
    from swiss.pairing.mwm_graph import ranked_entrants
    from swiss.pairing.sparse import candidate_edges
    from swiss.pairing.weights import RoundModel

    config = PairingConfig(system=system)  # type: ignore[arg-type]
    t = _history(151, 3, config, random.Random(5))
    assert t is not None
    model = RoundModel.for_tournament(t, config, ranked_entrants(t), t.seed, 4)
    us, vs = candidate_edges(model, 0, 2)
    sol = solve(model.n_vertices, us, vs, model.benefits(us, vs), model.multipliers)
    assert sol is not None
    lam = _Laminar(model.n_vertices, sol.blossoms)
    keys, slack, priced = model.price_pass(sol, lam, False)
    want_keys, want_slack = [], []
    for bu, bv in model.blocks(sol):
        bad, s = price(sol, model.n_vertices, bu, bv, model.benefits(bu, bv), model.multipliers,
                       lam)
        want_keys.append(bu[bad] * model.n_vertices + bv[bad])
        want_slack.append(s)
    want = dict(zip(np.concatenate(want_keys).tolist(), np.concatenate(want_slack).tolist(),
                    strict=True))
    assert want  # the duals of a 2-neighbour candidate graph are violated somewhere
    assert dict(zip(keys.tolist(), slack.tolist(), strict=True)) == want
    assert priced > 0
    # On several threads: the same edges in the same order (the order feeds the choice of
    # edges added, so a pairing never depends on the machine's core count).
    for threads in (2, 3):
        k2, s2, p2 = model.price_pass(sol, lam, False, threads=threads)
        assert (k2.tolist(), s2.tolist(), p2) == (keys.tolist(), slack.tolist(), priced)


@pytest.mark.parametrize("system", ["random", "random2"])
def test_random_table_is_the_same_on_any_number_of_threads(system: str) -> None:
    # The maxima and the candidates are split by rows over threads and merged: the same
    # maxima and candidate set for any count (a pairing never depends on the machine's cores).
    import numpy as np

    from swiss.pairing import _blossom
    from swiss.pairing.mwm_graph import ranked_entrants
    from swiss.pairing.weights import RANDOM_PARTNERS, RUN, RoundModel

    config = PairingConfig(system=system)  # type: ignore[arg-type]
    t = _history(301, 3, config, random.Random(11))
    assert t is not None
    model = RoundModel.for_tournament(t, config, ranked_entrants(t), t.seed, 4)
    spec = (*model._spec_base(), b"", b"", RUN, b"")
    outputs = [_blossom.random_table(spec, RUN, RANDOM_PARTNERS, threads)
               for threads in (1, 2, 3)]
    for segmax, runmax, pu, pv in outputs[1:]:
        assert (segmax, runmax) == outputs[0][:2]
        pairs = set(zip(np.frombuffer(pu, "<i8").tolist(), np.frombuffer(pv, "<i8").tolist(),
                        strict=True))
        first = outputs[0]
        assert pairs == set(zip(np.frombuffer(first[2], "<i8").tolist(),
                                np.frombuffer(first[3], "<i8").tolist(), strict=True))


def test_the_draws_agree_everywhere_and_span_their_range() -> None:
    # The random systems' draw of a pair: the numpy model's, the dense reference's (Python
    # integers) and the compiled model's are one hash of (seed, round, the two ids).
    import numpy as np

    from swiss.pairing.weights import RANDOM_BITS, RoundModel, pair_draw, pair_draws

    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**31, 20_000)
    b = rng.integers(0, 2**31, 20_000)
    draws = pair_draws(77, 5, a, b)
    assert draws.tolist() == pair_draws(77, 5, b, a).tolist()  # unordered
    assert draws[:300].tolist() == [pair_draw(77, 5, int(x), int(y))
                                    for x, y in zip(a[:300], b[:300], strict=True)]
    assert draws.min() >= 1 and draws.max() <= (1 << RANDOM_BITS) - 1
    # uniform enough: each sixteenth of the range holds its share within 10 %
    counts = np.bincount(draws * 16 >> RANDOM_BITS, minlength=16)
    assert counts.min() > 0.9 * draws.size / 16 and counts.max() < 1.1 * draws.size / 16
    assert pair_draws(78, 5, a, b).tolist() != draws.tolist()  # another seed, other draws
    assert pair_draws(77, 6, a, b).tolist() != draws.tolist()  # another round too
    n = 60
    ids = np.arange(n, dtype=np.int64) * 7 + 3
    model = RoundModel(
        ids=ids, score=np.zeros(n, dtype=np.int64), color_diff=np.zeros(n, np.int64),
        group_size=np.full(n, n), group_pos=np.arange(n), byes=np.zeros(n, np.int64), met={},
        forbidden=set(), forbid=False, use_colors=False, beta=Fraction(2),
        system="random", seed=77, round_number=5,
    )
    us, vs = np.triu_indices(n, 1)
    comps, _edge = model.native_components(us.astype(np.int64), vs.astype(np.int64))
    assert comps[-2].tolist() == pair_draws(77, 5, ids[us], ids[vs]).tolist()


def test_the_random_systems_keep_nothing_of_the_square_of_the_players() -> None:
    # The draws are made on demand: what a round keeps of them is per player and run of
    # ranks (the pricing bounds) and per player (the candidates), linear in the players for
    # a fixed run length, where a table of every pair's draw took 4 n (n - 1) / 2 bytes.
    import numpy as np

    from swiss.pairing.weights import RANDOM_PARTNERS, RUN, RoundModel

    n = 2000
    arange = np.arange(n, dtype=np.int64)
    model = RoundModel(
        ids=arange + 1, score=np.zeros(n, dtype=np.int64), color_diff=np.zeros(n, np.int64),
        group_size=np.full(n, n), group_pos=arange, byes=np.zeros(n, np.int64), met={},
        forbidden=set(), forbid=False, use_colors=False, beta=Fraction(2),
        system="random", seed=1, round_number=1,
    )
    runs = -(-n // RUN)
    kept = sum(len(part) if isinstance(part, bytes) else part.nbytes
               for part in model.random_draws())
    assert kept <= 4 * n * runs + 8 * runs * (runs + 1) // 2 + 16 * n * RANDOM_PARTNERS


@pytest.mark.parametrize("rounds", [0, 3])
@pytest.mark.parametrize("system", ["dutch", "burstein", "monrad", "random", "random2"])
def test_compiled_pricing_pass_is_exact_near_the_optimum(system: str, rounds: int) -> None:
    # The compiled pass skips an edge when the potentials reach an exact upper bound of its
    # weight (its own system terms, the run pair's bounds of the rest). Against the optimal
    # duals lowered by a few units of random components (violations at every level, many
    # just below a bound), it must report exactly the violated edges that pricing every
    # edge of the graph finds.
    import numpy as np

    from swiss.pairing.exact import Solution, _Laminar, price
    from swiss.pairing.mwm_graph import ranked_entrants
    from swiss.pairing.sparse import solve_round
    from swiss.pairing.weights import RoundModel

    config = PairingConfig(system=system)  # type: ignore[arg-type]
    t = _history(150, rounds, config, random.Random(7))
    assert t is not None
    model = RoundModel.for_tournament(t, config, ranked_entrants(t), t.seed, rounds + 1)
    best = solve_round(model)
    assert best is not None
    rng = random.Random(3)
    k = len(model.multipliers)
    y = [value - 4 * model.multipliers[rng.randrange(k)] * rng.randint(0, 2) for value in best.y]
    sol = Solution(best.mate, y, best.blossoms, best.wide)
    lam = _Laminar(model.n_vertices, sol.blossoms)
    keys, slack, _priced = model.price_pass(sol, lam, False)
    us, vs = np.concatenate([b[0] for b in model.blocks(None)]), \
        np.concatenate([b[1] for b in model.blocks(None)])
    bad, want_slack = price(sol, model.n_vertices, us, vs, model.benefits(us, vs),
                            model.multipliers, lam)
    want = dict(zip((us[bad] * model.n_vertices + vs[bad]).tolist(), want_slack.tolist(),
                    strict=True))
    assert len(want) > 100
    assert dict(zip(keys.tolist(), slack.tolist(), strict=True)) == want


@pytest.mark.parametrize("system", ["random", "random2"])
def test_random_candidates_are_each_players_best_terms_in_a_big_group(system: str) -> None:
    # The candidates are found by thresholds that about 3 k of a player's terms reach (3 k of
    # a big group's uniform draws), and by a scan of the whole group for a player with too
    # few (player 0 here: forbidden to meet almost everyone). Each player's chosen partners
    # must be its RANDOM_PARTNERS best terms, ties towards the smaller partner.
    import numpy as np

    from swiss.pairing.weights import RANDOM_PARTNERS, RoundModel

    n = 300
    arange = np.arange(n, dtype=np.int64)
    score = np.zeros(n, dtype=np.int64)
    score[250:] = -1  # a second, smaller group
    gsize = np.where(score == 0, 250, 50)
    gpos = np.where(score == 0, arange, arange - 250)
    model = RoundModel(
        ids=arange + 1, score=score, color_diff=np.zeros(n, np.int64), group_size=gsize,
        group_pos=gpos, byes=np.zeros(n, np.int64), met={},
        forbidden={v for v in range(1, 240)}, forbid=False, use_colors=False,
        beta=Fraction(2), system=system, seed=5, round_number=1,
    )
    us, vs = np.triu_indices(n, 1)
    us, vs = us.astype(np.int64), vs.astype(np.int64)
    comps, is_edge = model.native_components(us, vs)
    term = comps[-2]
    same = is_edge & (score[us] == score[vs])
    partners = model.random_draws()[2]
    chosen: dict[int, set[int]] = {u: set() for u in range(n)}
    for a, b in zip(partners[0].tolist(), partners[1].tolist(), strict=True):
        chosen[a].add(b)
        chosen[b].add(a)
    for u in range(n):
        mine = same & ((us == u) | (vs == u))
        others = np.where(us[mine] == u, vs[mine], us[mine])
        ranked = sorted(zip((-term[mine]).tolist(), others.tolist(), strict=True))
        best = {v for _t, v in ranked[:RANDOM_PARTNERS]}
        assert best <= chosen[u]
    assert set(range(240, 250)) <= chosen[0]  # its only partners: found by the scan
