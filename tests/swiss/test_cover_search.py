"""The compiled cover search (swiss/pairing/cover.py) against networkx on random graphs.

The question: does a matching of the graph (a vertex subset, the edges a flag keeps, maybe a
hub joined to chosen vertices) cover every "need" vertex? Reference: a maximum weight
matching where an edge weighs the number of its need ends covers all of them exactly when
its weight is their count. Random starting matchings check the warm start: the answer never
depends on it.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.pairing.cover import HUB, Adjacency, cover


def _reference(k: int, edges: list[tuple[int, int]], need: list[bool]) -> bool:
    g = nx.Graph()
    g.add_nodes_from(range(k))
    for a, b in edges:
        g.add_edge(a, b, weight=int(need[a]) + int(need[b]))
    m = nx.max_weight_matching(g)
    return sum(int(need[a]) + int(need[b]) for a, b in m) == sum(need)


@st.composite
def instances(draw: st.DrawFn) -> tuple:
    n = draw(st.integers(2, 14))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    listed = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    usable = draw(st.lists(st.booleans(), min_size=len(listed), max_size=len(listed)))
    chosen = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1)))
    hub = draw(st.booleans())
    verts = chosen + ([HUB] if hub else [])
    k = len(verts)
    need = draw(st.lists(st.booleans(), min_size=k, max_size=k))
    leaver = draw(st.lists(st.booleans(), min_size=k, max_size=k))
    seed = draw(st.integers(0, 2**32 - 1))
    return n, listed, usable, verts, need, leaver, seed


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(instances())
def test_cover_agrees_with_networkx(inst: tuple) -> None:
    n, listed, usable_l, verts_l, need_l, leaver_l, seed = inst
    us = np.array([a for a, _ in listed], dtype=np.int64)
    vs = np.array([b for _, b in listed], dtype=np.int64)
    adj = Adjacency.of(n, us, vs)
    usable = np.array(usable_l, dtype=bool)
    verts = np.array(verts_l, dtype=np.int64)
    k = verts.size
    local = {int(x): i for i, x in enumerate(verts_l) if x != HUB}
    hub = k - 1 if verts_l[-1] == HUB else -1
    leaver = np.array(leaver_l, dtype=bool)
    if hub >= 0:
        leaver[hub] = False
    edges = [(local[a], local[b]) for (a, b), ok in zip(listed, usable_l, strict=True)
             if ok and a in local and b in local]
    if hub >= 0:
        edges += [(i, hub) for i in range(k) if leaver[i]]
    # A random starting matching of the graph (greedy over shuffled edges).
    rng = np.random.default_rng(seed)
    mate = np.full(k, -1, dtype=np.int64)
    for i in rng.permutation(len(edges)).tolist():
        a, b = edges[i]
        if mate[a] < 0 and mate[b] < 0 and rng.random() < 0.7:
            mate[a], mate[b] = b, a
    need = np.array(need_l, dtype=bool)
    got = cover(adj, usable, verts, need, leaver, mate)
    assert (got == -1) == _reference(k, edges, need_l)
    # The final matching is a matching of the graph, and covers every need vertex if -1.
    edge_set = {frozenset(e) for e in edges}
    for a in range(k):
        b = int(mate[a])
        if b >= 0:
            assert int(mate[b]) == a
            assert frozenset((a, b)) in edge_set
    if got == -1:
        assert all(mate[i] >= 0 for i in range(k) if need[i])
    else:
        assert need[got] and mate[got] < 0


def test_cover_finds_a_path_through_a_blossom() -> None:
    # Matched 1-2 and 3-4; 0 and 5 exposed. The only augmenting path, 0-1-2-4-3-5, leaves
    # the triangle 2-3-4 by 3, which the tree from 0 first reaches as an odd vertex (by 2-3):
    # only once the triangle is shrunk is 3 an even vertex that may go on to 5.
    us = np.array([0, 1, 2, 3, 2, 3], dtype=np.int64)
    vs = np.array([1, 2, 3, 4, 4, 5], dtype=np.int64)
    adj = Adjacency.of(6, us, vs)
    mate = np.array([-1, 2, 1, 4, 3, -1], dtype=np.int64)
    verts = np.arange(6, dtype=np.int64)
    need = np.ones(6, dtype=bool)
    assert cover(adj, np.ones(6, dtype=bool), verts, need, np.zeros(6, dtype=bool), mate) == -1
    assert mate.tolist() == [1, 0, 4, 5, 2, 3]
    # Without the edge 2-4 there is no blossom and no perfect matching (4 and 5 both
    # hang on 3): vertex 0, the first exposed one, is reported.
    mate = np.array([-1, 2, 1, 4, 3, -1], dtype=np.int64)
    usable = np.array([True, True, True, True, False, True])
    assert cover(adj, usable, verts, np.ones(6, dtype=bool), np.zeros(6, dtype=bool),
                 mate) == 0


def test_cover_rejects_bad_buffers() -> None:
    adj = Adjacency.of(2, np.array([0]), np.array([1]))
    with pytest.raises(ValueError):
        cover(adj, np.ones(2, dtype=bool), np.arange(2), np.ones(2, dtype=bool),
              np.zeros(2, dtype=bool), np.full(2, -1, dtype=np.int64))
    with pytest.raises(ValueError):
        cover(adj, np.ones(1, dtype=bool), np.array([HUB, HUB]), np.ones(2, dtype=bool),
              np.zeros(2, dtype=bool), np.full(2, -1, dtype=np.int64))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), density=st.floats(0.2, 1.0))
def test_even_set_is_the_vertices_whose_removal_leaves_a_perfect_matching(
        n: int, seed: int, density: float) -> None:
    k = 2 * n + 1  # odd: a matching covers all but one vertex at best
    rng = np.random.default_rng(seed)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k) if rng.random() < density]
    us = np.array([a for a, _ in pairs], dtype=np.int64)
    vs = np.array([b for _, b in pairs], dtype=np.int64)
    adj = Adjacency.of(k, us, vs)
    verts = np.append(np.arange(k, dtype=np.int64), HUB)
    need = np.ones(k + 1, dtype=bool)
    mate = np.full(k + 1, -1, dtype=np.int64)
    usable = np.ones(len(pairs), dtype=bool)
    # A near-perfect matching first: the hub joined to every vertex.
    if cover(adj, usable, verts, need, np.append(np.ones(k, dtype=bool), False), mate) != -1:
        return  # none
    x = int(mate[k])
    mate = mate[:k].copy()
    mate[x] = -1
    even = np.zeros(k, dtype=bool)
    got = cover(adj, usable, np.arange(k, dtype=np.int64), np.ones(k, dtype=bool),
                np.zeros(k, dtype=bool), mate, even)
    assert got == x
    g = nx.Graph()
    g.add_edges_from(pairs)
    for v in range(k):
        rest = g.subgraph([u for u in range(k) if u != v])
        perfect = 2 * len(nx.max_weight_matching(rest, maxcardinality=True)) == k - 1
        assert bool(even[v]) == perfect, v
