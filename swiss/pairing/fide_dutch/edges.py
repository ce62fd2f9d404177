"""The FIDE Dutch matching graphs as numpy arrays: built once per round, cut per bracket.

Everything that does not depend on the bracket (the pairs C1 and the organiser refuse, the
C3 classes, scores in integer units, float history, bye eligibility) is computed once per
round over the players in rank order (C.04.3 A.2), in O(n + refused pairs) memory: no n^2
array. Each bracket then lists the allowed pairs it needs and computes their components all
at once. The colour terms (C8-C11, with the colours E.1-E.5 would give) are computed for the
pairs inside the bracket only (:mod:`swiss.pairing.fide_dutch.colours`).

The components and their order are those described in :mod:`swiss.pairing.fide_dutch.engine`
and docs/fide-dutch.md; :mod:`swiss.pairing.fide_dutch.packing` packs them into limbs
("Weights: packing and bits").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from swiss.model import Color
from swiss.pairing.fide_dutch.colours import ColourData, colour_data, colour_terms
from swiss.pairing.fide_dutch.players import DutchPlayer
from swiss.state import Float


@dataclass(slots=True)
class RoundArrays:
    """The players to pair this round, in rank order, as arrays (index = position).

    Nothing here is of size n^2: who may meet whom is kept as the few pairs refused by C1
    (played) or by the organiser (``bad_i < bad_j``) plus each player's C3 class; the
    allowed pairs of a set of players are listed when a bracket needs them
    (:func:`allowed_pairs`), and the colour terms of a bracket's inner pairs are computed for
    those pairs only."""

    ids: list[int]
    pos: dict[int, int]
    sc: np.ndarray  # score in integer units
    unplayed: np.ndarray
    can_pab: np.ndarray
    down: np.ndarray  # (4, n): the C12-C15 terms if the player floats down
    up: np.ndarray  # (4, n): the same if the player floats up
    rank_keys: dict[int, tuple[int, int]]  # the order of C.04.3 A.2, in integers
    bad_i: np.ndarray  # the pairs refused by C1 or the organiser (positions, bad_i < bad_j)
    bad_j: np.ndarray
    # C3: 1 absolute white, 2 absolute black (topscorers exempt, A.7), 0 otherwise: two
    # players of the same non-zero class may not meet.
    c3: np.ndarray
    players: list[DutchPlayer]  # in rank order
    initial: Color
    colours: ColourData  # what the colour terms read, per player
    # Below ROUND_PAIRS_MAX players: every allowed pair of the round (gu < gv, row-major)
    # and its colour terms, listed once (cheaper than per bracket there); None above.
    gu: np.ndarray | None = None
    gv: np.ndarray | None = None
    colour: np.ndarray | None = None  # (4, len(gu)) int8


def round_arrays(players: dict[int, DutchPlayer], order: Sequence[int], scale: int,
                 forbidden: Callable[[int, int], bool],
                 forbidden_pairs: frozenset[frozenset[int]] | None,
                 initial: Color = Color.WHITE) -> RoundArrays:
    """The arrays of one round; ``order`` is the players to pair in rank order, ``initial``
    the initial colour (E.5)."""
    n = len(order)
    pos = {pid: i for i, pid in enumerate(order)}
    ps = [players[pid] for pid in order]
    # score * scale without Fraction arithmetic (scale is a multiple of every denominator)
    sc = np.array([p.score.numerator * (scale // p.score.denominator) for p in ps],
                  dtype=np.int64)
    down = np.array([[int(p.float_prev is Float.DOWN) for p in ps], [0] * n,
                     [int(p.float_prev2 is Float.DOWN) for p in ps], [0] * n],
                    dtype=np.int64).reshape(4, n)
    up = np.array([[0] * n, [int(p.float_prev is Float.UP) for p in ps],
                   [0] * n, [int(p.float_prev2 is Float.UP) for p in ps]],
                  dtype=np.int64).reshape(4, n)
    # C1: the lower-ranked player's opponents as seen from the higher-ranked one (the
    # per-pair check asked ``b in a.played`` with ``a`` first in rank order).
    bad: set[tuple[int, int]] = {(i, pos[q]) for i, p in enumerate(ps) for q in p.played
                                 if q in pos and pos[q] > i}
    if forbidden_pairs is None:
        for i in range(n):
            for j in range(i + 1, n):
                if forbidden(order[i], order[j]):
                    bad.add((i, j))
    else:
        for pair in forbidden_pairs:
            if len(pair) != 2:
                continue
            a, b = tuple(pair)
            if a in pos and b in pos:
                bad.add((min(pos[a], pos[b]), max(pos[a], pos[b])))
    listed = sorted(bad)
    bad_i = np.array([i for i, _j in listed], dtype=np.int64)
    bad_j = np.array([j for _i, j in listed], dtype=np.int64)
    # C3: two absolute preferences for the same colour, unless one is a topscorer (A.7).
    c3 = np.array([(1 if p.pref is Color.WHITE else 2)
                   if p.strength == 3 and not p.topscorer else 0 for p in ps], dtype=np.int8)
    ra = RoundArrays(
        ids=list(order), pos=pos, sc=sc,
        unplayed=np.array([p.unplayed for p in ps], dtype=np.int64),
        can_pab=np.array([p.can_pab for p in ps], dtype=bool),
        down=down, up=up,
        rank_keys={pid: (-int(s), players[pid].seed) for pid, s in zip(order, sc.tolist(),
                                                                        strict=True)},
        bad_i=bad_i, bad_j=bad_j, c3=c3, players=ps, initial=initial,
        colours=colour_data(ps))
    if n < ROUND_PAIRS_MAX:
        gu, gv, _ = allowed_pairs(ra, np.arange(n, dtype=np.int64))
        ra.colour = colour_terms(ps, gu, gv, initial, ra.colours)
        ra.gu, ra.gv = gu, gv
    return ra


# Below this many players a round lists its allowed pairs and their colour terms once (some
# n^2/2 pairs: small), and each bracket selects its own among them.
ROUND_PAIRS_MAX = 400


def allowed_pairs(ra: RoundArrays, ug: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The pairs allowed by C1-C3 among the players at positions ``ug`` (ascending), as local
    indices ``i < j`` into ``ug``, in row-major order (``np.triu_indices``'s), and their
    indices among the round's listed pairs ``ra.gu`` (None when the round lists none)."""
    m = ug.size
    if ra.gu is not None and ra.gv is not None:
        loc = np.full(len(ra.ids), -1, dtype=np.int64)
        loc[ug] = np.arange(m)
        lu, lv = loc[ra.gu], loc[ra.gv]
        eidx = np.flatnonzero((lu >= 0) & (lv >= 0))
        return lu[eidx], lv[eidx], eidx
    us, vs = upper_pairs(m)
    keep = np.ones(us.size, dtype=bool)
    loc = np.full(len(ra.ids), -1, dtype=np.int64)
    loc[ug] = np.arange(m)
    li, lj = loc[ra.bad_i], loc[ra.bad_j]
    both = (li >= 0) & (lj >= 0)
    a, b = li[both], lj[both]  # a < b: positions and local indices are in the same order
    keep[a * m - a * (a + 1) // 2 + (b - a - 1)] = False
    cls = ra.c3[ug]
    if cls.any():
        cu = cls[us]
        keep &= (cu != cls[vs]) | (cu == 0)
        del cu
    return us[keep], vs[keep], None


def upper_pairs(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``i < j`` of ``range(m)`` in row-major order, as int64 arrays: the pairs of
    ``np.triu_indices(m, 1)``, without its two ``m x m`` index grids (at 3,700 players those
    are 27 million entries for 6.8 million pairs)."""
    counts = np.arange(m - 1, -1, -1, dtype=np.int64)  # row i holds m - 1 - i pairs
    rows = np.arange(m, dtype=np.int64)
    us = np.repeat(rows, counts)
    # Row i starts at flat index s_i and holds j = i + 1 + (k - s_i): j = k - (s_i - i - 1).
    starts = np.cumsum(counts) - counts
    vs = np.arange(us.size, dtype=np.int64)
    vs -= np.repeat(starts - rows - 1, counts)
    return us, vs



@dataclass(slots=True)
class BracketGraph:
    """One bracket's graph: vertices are the unpaired players (in rank order) and a bye."""

    vertices: int
    bye_v: int  # -1 when there is no bye vertex
    us: np.ndarray
    vs: np.ndarray
    # (components, edges), compared lexicographically, highest first; only the columns of
    # the edges ``sub`` when it is set (every other edge's column is that of edge
    # ``sub[kept_far]``: see bracket_graph's ``focus_only``).
    comps: np.ndarray
    focus: np.ndarray  # vertex mask: the bracket and the next one
    sub: np.ndarray | None = None
    kept_far: int = 0
    # The separable edges left implicit (bracket_graph's ``implicit``), or None. Their
    # columns are the last ones of ``us``/``vs``/``comps``: one per vertex of
    # ``sep.pseudo`` and the far one (``sep.far_col``), standing for all of them.
    sep: Separable | None = None
    # Typed graphs (bracket_graph's ``typed``): each edge's column of ``comps`` (many edges
    # share one), and the cover incidences :func:`pack` needs: (vertex, column) pairs, each
    # vertex an end that an edge of that column adds to a vertex cover (see _cover_sizes).
    col_of: np.ndarray | None = None
    cover: tuple[np.ndarray, np.ndarray] | None = None

    def all_comps(self) -> np.ndarray:
        """The components of every edge."""
        return self.expand(self.comps)

    def column(self, edge: int) -> int:
        """The column of ``comps`` that holds edge ``edge``'s components."""
        if self.col_of is not None:
            return int(self.col_of[edge])
        if self.sub is None:
            return edge
        at = int(np.searchsorted(self.sub, edge))
        return at if at < self.sub.size and int(self.sub[at]) == edge else self.kept_far

    def edge_columns(self, columns: np.ndarray, edges: np.ndarray | slice) -> np.ndarray:
        """:meth:`expand`'s rows for the edges ``edges`` only (a typed graph gathers just
        those: no rows over every edge first)."""
        if self.col_of is not None:
            return np.take(columns, self.col_of[edges], axis=1)
        return self.expand(columns)[:, edges]

    def expand(self, columns: np.ndarray) -> np.ndarray:
        """Rows over the columns of ``comps`` made rows over every edge: the far edges take
        the kept far edge's column (``sub``), typed edges their type pair's (``col_of``)."""
        if self.col_of is not None:
            return np.take(columns, self.col_of, axis=1)
        if self.sub is None:
            return columns
        full = np.empty((columns.shape[0], self.us.size), dtype=columns.dtype)
        full[:] = columns[:, self.kept_far][:, None]
        full[:, self.sub] = columns
        return full


@dataclass(slots=True)
class Separable:
    """The edges of a bracket graph with an end below the next scoregroup, left implicit.

    The vertices are the unpaired players in rank order: the bracket and the next scoregroup
    (F) are the first ``f``, the other players (R) ``f`` to ``r_end - 1`` (then the bye
    vertex, if any). An edge ``u < v`` with ``v`` in R scores every component as the edge
    from ``u`` to any R player would (``u`` in F: its PSD of a downfloater, its own float
    terms, no pair or colour term of either bracket) or, both in R, at its constant "far"
    value (docs/fide-dutch.md, "Big rounds: separable edges left implicit"). So its weight is
    ``u``'s column: ``pseudo[u]`` (F) or the far column (R)."""

    f: int
    r_end: int
    has_r: np.ndarray  # F vertices with an allowed partner in R
    far_ends: np.ndarray  # R vertices with an allowed partner in R
    cls: np.ndarray  # C3 classes per vertex (two of the same non-zero class may not meet)
    bad_keys: np.ndarray  # u * vertices + v of the refused pairs with v in R (sorted)
    pseudo: np.ndarray  # per vertex: its column among the graph's columns, -1 (far) none
    far_col: int = -1  # the far column (-1: no allowed pair inside R)


def _separable(ra: RoundArrays, ug: np.ndarray, f: int, vertices: int) -> Separable:
    """Which separable edges exist (the columns are filled in by :func:`bracket_graph`)."""
    n = ug.size
    r = n - f
    cls = np.zeros(vertices, dtype=np.int8)
    cls[:n] = ra.c3[ug]
    loc = np.full(len(ra.ids), -1, dtype=np.int64)
    loc[ug] = np.arange(n)
    li, lj = loc[ra.bad_i], loc[ra.bad_j]
    keep = (li >= 0) & (lj >= f)  # positions and local indices share their order: li < lj
    a, b = li[keep], lj[keep]
    # Refused pairs that C3 does not refuse already (not to be subtracted twice).
    plain = ~((cls[a] == cls[b]) & (cls[a] != 0))
    per_class = np.bincount(cls[f:n], minlength=3)
    same = np.where(cls[:n] != 0, per_class[cls[:n]], 0)  # R players of one's own C3 class
    # Allowed partners in R of each F vertex, and of each R vertex inside R.
    inner = plain & (a >= f)  # both in R: each end loses a partner
    refused = np.bincount(a[plain], minlength=n) + np.bincount(b[inner], minlength=n)
    has_r = np.zeros(vertices, dtype=bool)
    has_r[:f] = (r - same[:f] - refused[:f]) > 0
    far_ends = np.zeros(vertices, dtype=bool)
    far_ends[f:n] = (r - 1 - np.maximum(same[f:n] - 1, 0) - refused[f:n]) > 0
    return Separable(f=f, r_end=n, has_r=has_r, far_ends=far_ends, cls=cls,
                     bad_keys=np.sort(a * vertices + b),
                     pseudo=np.full(vertices, -1, dtype=np.int64))


# From this many allowed pairs (and sink edges) on, bracket_graph computes the components per
# pair of vertex types, not per edge (``typed``): at 3,700 players a bracket's 6.8 million
# pairs have some 50 types of players and 2,500 type pairs. Below it the per-edge arrays are
# small, and classifying the players costs more than it saves (bracket_graph + pack, best
# of 3: 4,500 edges 0.4-0.6 ms edge by edge, 0.7 ms typed; 26,000 edges 5.8 against 1.7 ms;
# 167,000 edges 41 against 6 ms).
TYPED_MIN_EDGES = 20_000
# Typed columns only while the type pairs stay few (they are listed as a T x T table).
TYPED_MAX_TYPE_PAIRS = 1 << 20


@dataclass(slots=True)
class _Typed:
    """A typed graph's columns: one representative edge per pair of vertex types present
    (``cu``-``cv``), then one per edge of its own (the bye edges and separable columns);
    each edge's column (``col_of``) and the cover incidences (see BracketGraph.cover)."""

    cu: np.ndarray
    cv: np.ndarray
    col_of: np.ndarray
    cover: tuple[np.ndarray, np.ndarray]


def _vertex_types(ra: RoundArrays, ug: np.ndarray, vertices: int, in_b: np.ndarray,
                  in_n: np.ndarray, sc: np.ndarray, down: np.ndarray, up: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Each vertex's type (an index) and one vertex of each type: two vertices of one type
    have equal values in everything bracket_graph reads of an end of a pair (the bye and
    sinks, beyond the players, are types of their own).

    Read of every vertex: whether it is in the bracket, in the next scoregroup, a player, and
    its score; of a bracket player also the float terms (C12-C19) and the colour data (C8-C11:
    the colour history, preference, strength, difference, colour rank parity, topscorer, two
    in a row). Of a player outside the bracket only the flags and the score are read (the
    float and colour terms are those of pairs touching, or inside, the bracket)."""
    n = ug.size
    cd = ra.colours
    member = np.flatnonzero(in_b[:n])
    gb = ug[member]
    inner = np.vstack((down[:, member], up[:, member], cd.hist[:, gb], cd.pref[gb],
                       cd.strength[gb], cd.cd[gb], cd.odd[gb].astype(np.int64),
                       cd.top[gb].astype(np.int64), cd.last2[gb]))
    table = np.zeros((vertices, 4 + inner.shape[0]), dtype=np.int64)
    table[:, 0] = in_b
    table[:, 1] = in_n
    table[:n, 2] = 1
    table[:, 3] = sc
    table[member, 4:] = inner.T
    _, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), first.astype(np.int64)


def _typed_columns(ra: RoundArrays, ug: np.ndarray, us: np.ndarray, vs: np.ndarray,
                   plain: int, in_b: np.ndarray, in_n: np.ndarray, sc: np.ndarray,
                   down: np.ndarray, up: np.ndarray) -> _Typed | None:
    """The columns of a typed graph (None when its type pairs are too many): the first
    ``plain`` edges share one column per (lower end's type, upper end's type), the others
    each have their own. The components of an edge are computed from its two ends' values
    alone (the lower end ranking higher), so a column's representative edge has every
    component of each edge mapped to it."""
    vertices = in_b.size
    tv, reps = _vertex_types(ra, ug, vertices, in_b, in_n, sc, down, up)
    types = reps.size
    if types * types > TYPED_MAX_TYPE_PAIRS:
        return None
    pu, pv = us[:plain], vs[:plain]
    pair = tv[pu] * types
    pair += tv[pv]
    present = np.zeros(types * types, dtype=bool)
    present[pair] = True
    pcols = np.flatnonzero(present)
    remap = np.full(types * types, -1, dtype=np.int64)
    remap[pcols] = np.arange(pcols.size)
    own = us.size - plain
    col_of = np.empty(us.size, dtype=np.int32 if pcols.size + own < 2**31 else np.int64)
    col_of[:plain] = remap[pair]
    col_of[plain:] = pcols.size + np.arange(own)
    del pair
    # The cover incidences: an edge adds its end in focus (bracket or next), else both ends
    # (as _cover_sizes on the edges). Of the typed edges, each (end, other end's type) once.
    focus = in_b | in_n
    fu = focus[pu]
    lower = np.zeros(vertices * types, dtype=bool)
    at = pu * types
    at += tv[pv]
    counts_lower = fu | ~focus[pv]
    lower[at[counts_lower] if not counts_lower.all() else at] = True
    del at, counts_lower
    upper = np.zeros(vertices * types, dtype=bool)
    if not fu.all():
        sel = np.flatnonzero(~fu)
        upper[pv[sel] * types + tv[pu[sel]]] = True
    del fu
    lx, lt = np.divmod(np.flatnonzero(lower), types)
    ux, ut = np.divmod(np.flatnonzero(upper), types)
    ou, ov = us[plain:], vs[plain:]
    ofu, ofv = focus[ou], focus[ov]
    first = np.where(ofu, ou, np.where(ofv, ov, ou))
    second = np.flatnonzero(~(ofu | ofv))
    own_cols = pcols.size + np.arange(own, dtype=np.int64)
    ends = np.concatenate((lx, ux, first, ov[second]))
    cols = np.concatenate((remap[tv[lx] * types + lt], remap[ut * types + tv[ux]], own_cols,
                           own_cols[second]))
    cu = np.concatenate((reps[pcols // types], ou))
    cv = np.concatenate((reps[pcols % types], ov))
    return _Typed(cu, cv, col_of, (ends, cols))


def _sink_separable(n: int, vertices: int) -> Separable:
    """The sinks of a bracket paired on its own (``sinks``), left implicit: the ``n`` players
    are F, their ``n`` sinks R. Each player may take any sink (they are interchangeable: a
    player's edge to a sink scores his "unpaired" terms, whichever sink it is), and any two
    sinks pair freely; no C3 class or refused pair concerns a sink."""
    has_r = np.zeros(vertices, dtype=bool)
    has_r[:n] = True
    far_ends = np.zeros(vertices, dtype=bool)
    if n >= 2:
        far_ends[n:] = True
    return Separable(f=n, r_end=vertices, has_r=has_r, far_ends=far_ends,
                     cls=np.zeros(vertices, dtype=np.int8),
                     bad_keys=np.zeros(0, dtype=np.int64),
                     pseudo=np.full(vertices, -1, dtype=np.int64))


def bracket_graph(
    ra: RoundArrays, unpaired: Sequence[int], bracket: Sequence[int], movers: set[int],
    nxt: Sequence[int], rules: str, one: int, sinks: bool = False,
    pab_unplayed: bool = False, *, focus_only: bool = True, implicit: bool = False,
    typed: bool | None = None,
) -> BracketGraph:
    """The edges between the unpaired players (and the bye) with their component vectors.

    ``sinks``: the graph of a bracket paired on its own (2017, see
    :func:`swiss.pairing.fide_dutch.engine.pair_brackets`): ``unpaired`` is the bracket and
    the next scoregroup, and instead of a bye vertex every player ``i`` of the ``n`` gets a
    private sink ``n + i`` (matched to it: unpaired in both brackets), the sinks pairing among
    themselves freely, so any set of players may stay unpaired: no completion.

    ``pab_unplayed`` (2025): this bracket decides the PAB (see
    :func:`swiss.pairing.fide_dutch.engine._decides_pab`), so the bye edges carry the
    criterion "PAB to the player with the fewest unplayed rounds".

    An edge with neither end in the bracket or the next one, nor the bye, scores every
    component at the same value (no pair, PSD, colour or float term of either bracket
    applies to it). With ``focus_only`` the components are computed on the other edges
    and on one such edge, which stands for the rest (``sub``, ``kept_far``;
    :meth:`BracketGraph.all_comps` copies its column to them): the same array, from much
    less work (the tests compare both ways).

    ``implicit``: the edges with an end below the next scoregroup are not listed at all
    (``sep``, see :class:`Separable`): only one column per bracket or next-scoregroup player
    and one far column stand for them, after the listed edges. With ``sinks`` the sinks
    are left implicit the same way (:func:`_sink_separable`).

    ``typed`` (default: from :data:`TYPED_MIN_EDGES` edges on, with ``focus_only``): the
    components are computed once per pair of vertex types (:func:`_vertex_types`) on one
    edge of that pair, and every edge of the pair shares that column (``col_of``); the bye
    edges and the separable columns keep columns of their own. The same components, from a
    few thousand columns instead of millions (the tests compare both ways)."""
    ug = np.array([ra.pos[p] for p in unpaired], dtype=np.int64)
    n = ug.size
    odd = n % 2 == 1 and not sinks
    vertices = 2 * n if sinks else n + int(odd)
    bye_v = n if odd else -1
    loc = np.full(len(ra.ids), -1, dtype=np.int64)
    loc[ug] = np.arange(n)
    sep: Separable | None = None
    if implicit and sinks:
        # The sinks stand for "unpaired": all alike (a sink's edge to a player weighs what
        # his own sink's does, two sinks always the same), so they are an R of the players'
        # graph: no sink edge is listed.
        sep = _sink_separable(n, vertices)
    elif implicit:
        focus_players = set(bracket) | set(nxt)
        f = sum(1 for p in unpaired if p in focus_players)
        if f < n:
            # The bracket and the next scoregroup rank above everyone else: a prefix.
            assert all(p in focus_players for p in unpaired[:f])
            sep = _separable(ra, ug, f, vertices)
    us, vs, eidx = allowed_pairs(ra, ug if sep is None else ug[:sep.f])
    # (eidx: each edge's index among the round's listed pairs, -1 for a sink or bye edge)
    if sinks and sep is None:
        own = np.arange(n, dtype=np.int64)
        su, sv = upper_pairs(n)
        us = np.concatenate((us, own, n + su))
        vs = np.concatenate((vs, n + own, n + sv))
        if eidx is not None:
            eidx = np.concatenate((eidx, np.full(n + su.size, -1, dtype=np.int64)))
        del su, sv
    # The edges so far (allowed pairs, sinks) score by their ends' types alone (``typed``);
    # the bye edges and the separable columns appended below each keep a column of their own.
    plain = us.size
    if odd:
        pab = np.flatnonzero(ra.can_pab[ug])
        us = np.concatenate((us, pab))
        vs = np.concatenate((vs, np.full(pab.size, bye_v, dtype=np.int64)))
        if eidx is not None:
            eidx = np.concatenate((eidx, np.full(pab.size, -1, dtype=np.int64)))
    if sep is not None:
        # One column per F vertex with an R partner (its edge to an R player of the far
        # ends, or the first R player), then the far one (between two far ends).
        r0 = int(np.argmax(sep.far_ends)) if sep.far_ends.any() else sep.f
        owners = np.flatnonzero(sep.has_r)
        sep.pseudo[owners] = us.size + np.arange(owners.size)
        pu, pv = [owners], [np.full(owners.size, r0, dtype=np.int64)]
        if sep.far_ends.any():
            ends = np.flatnonzero(sep.far_ends)
            sep.far_col = us.size + owners.size
            pu.append(ends[:1])
            pv.append(ends[1:2])
        us = np.concatenate((us, *pu))
        vs = np.concatenate((vs, *pv))
        if eidx is not None:
            eidx = np.concatenate((eidx, np.full(us.size - eidx.size, -1, dtype=np.int64)))

    def vertex_mask(players: Sequence[int] | set[int]) -> np.ndarray:
        mask = np.zeros(vertices, dtype=bool)
        mask[loc[[ra.pos[p] for p in players]]] = True
        return mask

    def per_vertex(values: np.ndarray) -> np.ndarray:
        out = np.zeros((*values.shape[:-1], vertices), dtype=np.int64)
        out[..., :n] = values[..., ug]
        return out

    in_b, in_n = vertex_mask(bracket), vertex_mask(nxt)
    nb = in_b | in_n
    graph_us, graph_vs = us, vs
    sub: np.ndarray | None = None
    kept_far = 0
    sc = per_vertex(ra.sc)
    down, up = per_vertex(ra.down), per_vertex(ra.up)
    if typed is None:
        typed = focus_only and plain >= TYPED_MIN_EDGES
    types = _typed_columns(ra, ug, us, vs, plain, in_b, in_n, sc, down, up) if typed else None
    if types is not None:
        us, vs = types.cu, types.cv  # the components are computed on one edge per column
        eidx = None  # (their colour terms too: the round's listed ones are per edge)
    is_bye = vs == bye_v
    if focus_only and sep is None and types is None:
        near = nb[us] | nb[vs] | is_bye
        far = np.flatnonzero(~near)
        if far.size > 1:  # keep one far edge: its column is every far edge's
            near[far[0]] = True
            sub = np.flatnonzero(near)
            kept_far = int(np.searchsorted(sub, far[0]))
            us, vs, is_bye = us[sub], vs[sub], is_bye[sub]
            if eidx is not None:
                eidx = eidx[sub]
        del near, far
    su, sv = sc[us], sc[vs]
    bu, bv = in_b[us], in_b[vs]
    both_b = bu & bv
    min_b = int(ra.sc[ug][in_b[:n]].min())
    min_n = int(ra.sc[ug][in_n[:n]].min()) if nxt else 0
    # Vertices are in rank order (score descending) and u < v, so su >= sv on every player
    # pair: no abs (on a bye edge the difference is never used).
    diff = su - sv
    # PSD of B (C6): a pair's score difference, a downfloater's score minus (lowest - 1 point).
    one_end = np.where(bu, su, sv)  # the score of the end in B when only one is
    psd_b = np.where(both_b, diff, np.where(bu | bv, one_end - (min_b - one), -1))
    au, av = nb[us], nb[vs]
    if nxt:
        # The next bracket holds this bracket's downfloaters and the next residents: a
        # downfloater matched further down floats on through the next bracket as well.
        psd_n = np.where(au & av, diff, np.where(au | av, np.where(au, su, sv) - (min_n - one),
                                                  -1))
        psd_n[both_b] = -1
    else:
        psd_n = np.full(us.size, -1, dtype=np.int64)
    lv_b, lv_n = _levels(psd_b), _levels(psd_n)
    scores = ra.sc[ug]
    top_score = int(scores.max())
    unplayed = per_vertex(ra.unplayed)
    max_unplayed = int(unplayed[:n].max())
    big = 2 * (top_score - int(scores.min()) + one + 1)

    # The components are written row by row into one int32 array (every value is a count
    # of at most 2 or a score difference in units, far below 2**31): no list of int64 rows
    # stacked into a second copy, no int64 zero arrays of the colour and float terms (at
    # 3,000 players a bracket graph has some 4.5 million edges).
    count = (int(rules == "2025") + 2 + len(lv_b) + len(lv_n)
             + int(rules == "2025" and pab_unplayed) + 12)
    comps = np.empty((count, us.size), dtype=np.int32)
    row = 0

    def put(values: np.ndarray | int) -> None:
        nonlocal row
        comps[row] = values
        row += 1

    if rules == "2025":
        # 2025: the pairing-allocated bye goes to as low a score as completion allows,
        # before any bracket's quality is considered.
        put(np.where(is_bye, top_score - su, 0))
    put(both_b)  # C5
    for lv in lv_b:
        put(psd_b != lv)  # C6, as benefits
    next_pair = ~is_bye & au & av & ~both_b & (in_n[us] | in_n[vs])
    put(next_pair)  # C7
    for lv in lv_n:
        put(psd_n != lv)
    if rules == "2025" and pab_unplayed:
        # The PAB to a player with as few unplayed rounds as possible: 2025 edition only,
        # between the next-bracket criterion and the colour criteria, and only in the
        # bracket that decides the PAB (``pab_unplayed``): where the player left over by the
        # bracket is the PAB itself, not when several float down (docs/fide-dutch.md,
        # black-box checked). The 2017 text has no such criterion (C.1-C.19): its PAB is
        # whoever the brackets leave.
        put(np.where(is_bye, max_unplayed - unplayed[us], 0))

    # C8-C11 on the pairs inside the bracket, with the colours E.1-E.5 would give (the
    # lower vertex ranks higher: vertices are in rank order); 0 elsewhere (stored as 2 - it).
    colour = comps[row:row + 4]
    colour[:] = 2
    inside = np.flatnonzero(both_b)
    if eidx is not None and ra.colour is not None:
        colour[:, inside] = 2 - ra.colour[:, eidx[inside]].astype(np.int32)
    else:
        colour[:, inside] = 2 - colour_terms(ra.players, ug[us[inside]], ug[vs[inside]],
                                             ra.initial, ra.colours).astype(np.int32)
    row += 4
    # C12-C19: repeated floats and their score differences. In a pair of unequal scores the
    # higher-ranked player (the lower vertex: vertices are in rank order) floats down.
    # Zero unless the edge touches the bracket: computed on those edges only.
    t = np.flatnonzero(bu | bv)
    ut, vt, bt = us[t], vs[t], bu[t]
    floated = both_b[t] & (su[t] != sv[t])
    one_b = bt ^ bv[t]
    x = np.where(bt, ut, vt)
    x_terms = down[:, x]
    fl_t = np.where(floated, down[:, ut] + up[:, vt], np.where(one_b, x_terms, 0))
    fl, fd = comps[row:row + 4], comps[row + 4:row + 8]
    fl[:] = 2
    fl[:, t] = 2 - fl_t
    fd[:] = big
    fd[:, t] = big - np.where(floated, fl_t * diff[t],
                              np.where(one_b, x_terms * (sc[x] - min_b + one), 0))
    row += 8
    assert row == count
    # With ``sub``, comps stays on the near edges (pack works on them and expands its
    # limbs: the far ones take the kept far edge's column).
    graph = BracketGraph(vertices, bye_v, graph_us, graph_vs, comps, nb, sub, kept_far, sep)
    if types is not None:
        graph.col_of, graph.cover = types.col_of, types.cover
    return graph


def _levels(values: np.ndarray) -> list[int]:
    """The distinct values >= 0, largest first (small integers: counted, not sorted)."""
    present = values[values >= 0]
    if not present.size:
        return []
    return np.flatnonzero(np.bincount(present))[::-1].tolist()


