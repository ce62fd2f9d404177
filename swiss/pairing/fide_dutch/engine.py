"""The FIDE Dutch system (C.04.3, 2025 and 2017 editions) by maximum weight matching.

Brackets are paired from the top score down, as the rules say. For each bracket ``B`` (the
moved-down players plus the residents of the next score group) one maximum weight matching is
solved on *all* players still unpaired (plus a bye vertex when their number is odd); in the
2017 edition a bracket is first paired on its own, with the next score group only, and only
the penultimate pairing bracket gets the whole-round matching (see :func:`pair_brackets`). Its
edge weights are lexicographic vectors (seed 004, Biró, Fleiner and Palincza), highest first:

* the absolute criteria C1-C3 and the PAB rule C2 are edges left out of the graph, and
  completion (C4) is the matching's maximum cardinality: the rest of the field can always be
  paired;
* C5: the number of pairs inside ``B``;
* C6: the pairing score difference (PSD) of ``B``, one component per distinct difference from
  the largest down (a sorted list compared lexicographically is a count vector compared so);
* C7: the number of pairs, then the PSD, of the following bracket;
* C8/C9 (topscorers, last round), C10/C11 (colour preferences), C12-C15 (repeated floats),
  C16-C19 (score differences of repeated floats).

Among the pairings of ``B`` that are equally good on every criterion, the Dutch pairing is
the first one in the Handbook's order of transpositions and exchanges. We find it greedily:
the highest unfixed player of ``B`` gets the first partner of his candidate list (S2 in
order, then exchanges from the bottom of S1, then a downfloat) for which the optimum is
still reachable, checked by solving the matching again with that pair pinned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

import numpy as np

from swiss.model import Color
from swiss.pairing import exact
from swiss.pairing.fide_dutch.edges import (
    BracketGraph,
    RoundArrays,
    allowed_pairs,
    bracket_graph,
    pack,
    round_arrays,
)
from swiss.pairing.fide_dutch.implicit import Implicit
from swiss.pairing.fide_dutch.players import DutchPlayer
from swiss.pairing.fide_dutch.settle import Settle
from swiss.pairing.matching import (
    RUSTWORKX_MAX_WEIGHT,
    WeightOverflowError,
    max_weight_matching,
)
from swiss.pairing.types import PairingError
from swiss.pairing.weights import MAX_WEIGHT_BITS
from swiss.state import Float

BYE = -1  # the bye vertex's player id
# The packed weights of a bracket with the compiled solver: below its 2**240 with room for
# what the tie-break tests add on top (a penalty component, about log2(n) bits; D.2 by
# matchings, about 3 log2(n) + log2(n) more): 170 bits. Big rounds need more than
# rustworkx's 125 (10,000 players after 6 rounds: 126 bits in a middle bracket).
EXACT_MAX_WEIGHT = 2**170
# A tie-break constraint: which edges (given as arrays of endpoints, u < v) it keeps.
_Mask = Callable[[np.ndarray, np.ndarray], np.ndarray]



class NoPairing(Exception):
    """No pairing satisfies the absolute criteria (C1-C3) and completion (C4)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Which criteria components an edge scored (for --explain)."""

    a: int
    b: int
    bracket_score: Fraction
    components: tuple[tuple[str, int], ...]


def allowed(a: DutchPlayer, b: DutchPlayer, forbidden: Callable[[int, int], bool]) -> bool:
    """Absolute criteria C1 (no rematch) and C3 (absolute colour preferences) for one pair."""
    if b.id in a.played or forbidden(a.id, b.id):
        return False
    if a.strength == 3 and b.strength == 3 and a.pref == b.pref:
        # C3: topscorers are exempt in the last round (A.7).
        return a.topscorer or b.topscorer
    return True


def allocate(a: DutchPlayer, b: DutchPlayer, initial: Color, rules: str) -> tuple[int, int]:
    """Colour allocation rules E.1-E.5: return (white id, black id)."""
    hi, lo = (a, b) if a.rank_key() < b.rank_key() else (b, a)
    return _allocate_ranked(hi, lo, initial)


def _allocate_ranked(hi: DutchPlayer, lo: DutchPlayer, initial: Color) -> tuple[int, int]:
    """:func:`allocate` when ``hi`` is known to rank above ``lo``."""
    hi_color = _hi_color(hi, lo, initial)
    return (hi.id, lo.id) if hi_color is Color.WHITE else (lo.id, hi.id)


def _hi_color(hi: DutchPlayer, lo: DutchPlayer, initial: Color) -> Color:
    # E.1: both preferences can be granted.
    if hi.pref is not Color.NONE and lo.pref is not Color.NONE and hi.pref != lo.pref:
        return hi.pref
    if hi.pref is Color.NONE and lo.pref is not Color.NONE:
        return lo.pref.opposite
    if lo.pref is Color.NONE and hi.pref is not Color.NONE:
        return hi.pref
    if hi.pref is not Color.NONE:  # same preference
        # E.2: the stronger preference; two absolute ones: the wider colour difference.
        if hi.strength != lo.strength:
            return hi.pref if hi.strength > lo.strength else hi.pref.opposite
        if hi.strength == 3 and abs(hi.cd) != abs(lo.cd):
            return hi.pref if abs(hi.cd) > abs(lo.cd) else hi.pref.opposite
        # E.3: alternate to the most recent time they had different colours; unplayed
        # rounds are skipped (C.04.2), so the played colour sequences are aligned at the end.
        for ch, cl in zip(reversed(hi.colors), reversed(lo.colors), strict=False):
            if ch != cl:
                return ch.opposite
        # E.4: the higher ranked player's preference.
        return hi.pref
    # E.5: the higher-ranked player (by pairing score, extra points of accelerated rounds
    # included, then pairing number) gets the initial colour when his pairing number is odd.
    # The endorsed engine numbers only the players who take part: those paired in this round
    # and those who played a game or had the PAB before (a player absent so far, with byes
    # or absences only, is not counted), so ``colour_rank`` is the position in that list.
    # Black-box checked on 389 such pairs of generated round-2 TRFs (206 plain, 183
    # accelerated): all agree; the pairing number itself, or the smaller one of the two
    # (this engine's rule before), agrees on 186/206 and 156/183.
    return initial if hi.colour_rank % 2 == 1 else initial.opposite


@dataclass(slots=True)
class _Context:
    players: dict[int, DutchPlayer]
    forbidden: Callable[[int, int], bool]
    initial: Color
    rules: str
    scale: int  # scores * scale are integers
    backend: str
    # The pairs ``forbidden`` refuses, when known: the graph is then built without asking
    # ``forbidden`` about every pair (None: ask it).
    forbidden_pairs: frozenset[frozenset[int]] | None = None
    # The last bracket's optimum (player pairs, BYE for the bye): the next bracket's
    # implicit solves start from it.
    hint: list[tuple[int, int]] = field(default_factory=list)


def _float_after(p: DutchPlayer, got: Float) -> tuple[int, int, int, int]:
    """(same down as prev, same up as prev, same down as 2 before, same up as 2 before)."""
    if got is Float.NONE:
        return (0, 0, 0, 0)
    d = got is Float.DOWN
    return (
        int(d and p.float_prev is Float.DOWN),
        int(not d and p.float_prev is Float.UP),
        int(d and p.float_prev2 is Float.DOWN),
        int(not d and p.float_prev2 is Float.UP),
    )


def _colour_terms(ctx: _Context, a: DutchPlayer, b: DutchPlayer,
                  ranked: bool = False) -> tuple[int, int, int, int]:
    """(C8 topscorer |cd|>2, C9 topscorer 3 in a row, C10 pref not met, C11 strong not met).

    ``ranked``: ``a`` is known to rank above ``b`` (saves comparing their rank keys)."""
    if ranked:
        white, _black = _allocate_ranked(a, b, ctx.initial)
    else:
        white, _black = allocate(a, b, ctx.initial, ctx.rules)
    c8 = c9 = c10 = c11 = 0
    for p in (a, b):
        got = Color.WHITE if p.id == white else Color.BLACK
        if p.pref is not Color.NONE and got != p.pref:
            c10 += 1
            if p.strength >= 2:
                c11 += 1
        if a.topscorer or b.topscorer:
            cd = p.cd + (1 if got is Color.WHITE else -1)
            if abs(cd) > 2:
                c8 += 1
            if len(p.colors) >= 2 and p.colors[-1] == p.colors[-2] == got:
                c9 += 1
    return c8, c9, c10, c11


def pair_brackets(
    ctx: _Context, to_pair: Sequence[int]
) -> tuple[list[tuple[int, int]], int | None, list[Decision]]:
    """Pair every bracket; return the games (white, black), the PAB player and explanations."""
    # The order of A.2 (score descending, then pairing number) with integer scores.
    # (score * scale without Fraction arithmetic: scale is a multiple of every denominator)
    scores = {pid: ctx.players[pid].score for pid in to_pair}
    units = {pid: s.numerator * (ctx.scale // s.denominator) for pid, s in scores.items()}
    order = sorted(to_pair, key=lambda pid: (-units[pid], ctx.players[pid].seed))
    unpaired: list[int] = list(order)
    games: list[tuple[int, int]] = []
    decisions: list[Decision] = []
    pab: int | None = None
    movers: list[int] = []
    if not order:
        return games, pab, decisions
    _check_memory(ctx, order)
    ra = round_arrays(ctx.players, order, ctx.scale, ctx.forbidden, ctx.forbidden_pairs,
                      ctx.initial)
    # (Completion of the whole round, C1-C4, is checked by the first bracket's matching: its
    # graph is every allowed pair of the round.)
    # Scores in integer units and rank keys as integers: the same order, without Fractions.
    score = {pid: -key[0] for pid, key in ra.rank_keys.items()}
    collapsed = False  # 2017 A.9: everyone below the PPB is one collapsed last bracket
    while unpaired:
        moving = set(movers)
        residents_score = max(score[p] for p in unpaired if p not in moving)
        residents = [p for p in unpaired
                     if (collapsed or score[p] == residents_score) and p not in moving]
        bracket = sorted(movers + residents, key=ra.rank_keys.__getitem__)
        in_bracket = set(bracket)
        rest = [p for p in unpaired if p not in in_bracket]
        if rest:
            next_score = max(score[p] for p in rest)
            nxt = [p for p in rest if score[p] == next_score]
        else:
            nxt = []
        if ctx.rules == "2017" and rest and not collapsed:
            # 2017 A.9: the bracket is paired on its own (C.5-C.19, no completion: C.4 binds
            # only in the PPB), C.7 looking "just in the following bracket" (its pairs and
            # PSD with these downfloaters, paired on its own too). When its downfloaters and
            # the players below cannot complete the round, it is the penultimate pairing
            # bracket (PPB): re-paired for completion, without C.7 ("if the current bracket
            # is neither the PPB nor the CLB"), and all the players below it form one
            # collapsed last bracket (CLB). The 2025 engine does not collapse (applied to
            # 2025 it breaks 7 corpus rounds and fixes none).
            if len(rest) > len(nxt):
                local = sorted([*bracket, *nxt], key=ra.rank_keys.__getitem__)
                pairs, floaters, bye_player = _pair_bracket(ctx, ra, local, bracket,
                                                            set(movers), nxt, sinks=True)
                paired = {p for ab in pairs for p in ab}
                ppb = not _completable(ra, [p for p in unpaired if p not in paired])
            else:
                # The following bracket is the last one: its pairing completes the round,
                # the PAB to a player C.2 allows, so C.7 looks at it completed. The bracket
                # is the PPB when completion costs it pairs or PSD (C.5, C.6).
                pairs, floaters, bye_player = _pair_bracket(ctx, ra, unpaired, bracket,
                                                            set(movers), nxt)
                ppb = _quality(ctx, bracket, pairs, floaters) > _alone_quality(ctx, bracket)
            if ppb:
                collapsed = True
                pairs, floaters, bye_player = _pair_bracket(ctx, ra, unpaired, bracket,
                                                            set(movers), [])
        else:
            pairs, floaters, bye_player = _pair_bracket(ctx, ra, unpaired, bracket,
                                                        set(movers), nxt)
        for a, b in pairs:  # (a ranks above b: see _pair_bracket)
            games.append(_allocate_ranked(ctx.players[a], ctx.players[b], ctx.initial))
        if bye_player is not None:
            pab = bye_player
        done = {p for ab in pairs for p in ab} | ({bye_player} if bye_player else set())
        unpaired = [p for p in unpaired if p not in done]
        movers = [p for p in floaters if p != bye_player]
        if not rest:
            if movers:
                raise NoPairing("internal: players left unpaired in the last bracket")
            break
    return games, pab, decisions


# Peak memory of a small round's bracket graphs and matchings per allowed pair of the
# players to pair (every bracket's graph spans all players still unpaired, so the first one
# has every allowed pair of the round; big rounds list fewer: BYTES_PER_LISTED_EDGE):
# measured with ``benchmarks/pairing.py`` after 6 rounds (process
# peak minus the interpreter's): 1,000 players 110 MB for 479,000 pairs (2017: 93 MB), 3,000
# players about 190 bytes a pair; rounded up. docs/fide-dutch.md, "Memory of big brackets".
BYTES_PER_EDGE = 240
# The same for the pairs listed by a big round's brackets with implicit edges (implicit.py:
# the bracket and the next scoregroup only), as :func:`_check_memory_implicit` counts them.
# Measured on the 10,000-player round of ``benchmarks/pairing.py`` (round 7, 2025 rules,
# h25-build's typed graphs; peak RSS of the whole bracket, tie-break tests included, less the
# ~80-120 MB the process held before it): 60-90 bytes a pair in its brackets of 1.9-6.8
# million listed pairs (docs/fide-dutch.md, "Memory of big brackets"); rounded up. (240
# before typed graphs: and even that was too low, 2.0 GB at 6.8 million pairs.) The graphs
# that list every pair of the players still unpaired keep BYTES_PER_EDGE.
BYTES_PER_LISTED_EDGE = 120
MEMORY_LIMIT = 2 << 30  # bytes: issue 13's budget for one pairing (2 GB)


class GraphTooLarge(PairingError):
    """The round's matching graph would need more memory than :data:`MEMORY_LIMIT`."""


def _check_memory(ctx: _Context, order: Sequence[int]) -> None:
    """Refuse, before any graph is built, a round whose graphs would not fit in
    :data:`MEMORY_LIMIT` (a clear error instead of the process being killed)."""
    n = len(order)
    if n >= IMPLICIT_MIN_PLAYERS and ctx.backend == "exact":
        # (2017 too: its brackets paired on their own list the bracket and the next
        # scoregroup, their sinks implicit; the collapsed last bracket is checked when it
        # is built, by _pair_bracket)
        _check_memory_implicit(ctx, order)
        return
    inside = set(order)
    met = sum(len(ctx.players[p].played & inside) for p in order) // 2
    edges = n * (n - 1) // 2 - met
    need = edges * BYTES_PER_EDGE
    if need <= MEMORY_LIMIT:
        return
    top = ctx.players[order[0]].score
    first = sum(1 for p in order if ctx.players[p].score == top)
    most = int((2 * MEMORY_LIMIT / BYTES_PER_EDGE) ** 0.5)
    raise GraphTooLarge(
        f"fide-dutch cannot pair this round within its memory limit: each bracket is matched "
        f"together with every player still unpaired, so the first bracket ({first:,} players "
        f"on {float(top):g} points) needs a graph of all {n:,} players ({edges:,} allowed "
        f"pairs, about {need / 2**30:.1f} GB; the limit is {MEMORY_LIMIT / 2**30:.0f} GB, about "
        f"{most:,} players once games have been played). Round 1, and any round in which no "
        f"one has played yet, is paired for any number of players.")


def _check_memory_implicit(ctx: _Context, order: Sequence[int]) -> None:
    """:func:`_check_memory` for big rounds, whose brackets list only the pairs inside the
    bracket and the next scoregroup (implicit.py): the largest two consecutive scoregroups
    give the listed pairs (the few players floating down from above are checked bracket by
    bracket, :func:`_check_bracket_memory`)."""
    sizes: list[int] = []
    last = None
    for p in order:
        score = ctx.players[p].score
        if score != last:
            sizes.append(0)
            last = score
        sizes[-1] += 1
    worst, at = 0, 0
    for i in range(len(sizes)):
        group = sum(sizes[i:i + 2])
        if group > worst:
            worst, at = group, i
    _check_bracket_memory(worst, f"scoregroups {at + 1} and {at + 2} from the top")


def _check_bracket_memory(players: int, what: str, per_pair: int | None = None) -> None:
    """Refuse a big round's bracket whose listed pairs (``players``: the bracket and the
    next scoregroup) would not fit in :data:`MEMORY_LIMIT`, at ``per_pair`` bytes a pair
    (:data:`BYTES_PER_LISTED_EDGE` when not given)."""
    per_pair = BYTES_PER_LISTED_EDGE if per_pair is None else per_pair
    edges = players * (players - 1) // 2
    need = edges * per_pair
    if need <= MEMORY_LIMIT:
        return
    most = int((2 * MEMORY_LIMIT / per_pair) ** 0.5)
    raise GraphTooLarge(
        f"fide-dutch cannot pair this round within its memory limit: a bracket is matched "
        f"with the pairs of its players and of the next scoregroup listed, and {what} hold "
        f"{players:,} players ({edges:,} pairs, about {need / 2**30:.1f} GB; the limit is "
        f"{MEMORY_LIMIT / 2**30:.0f} GB, about {most:,} players in two consecutive "
        f"scoregroups).")


def _quality(ctx: _Context, bracket: list[int], pairs: list[tuple[int, int]],
             floaters: list[int]) -> tuple[int, list[int]]:
    """C.5 and C.6 of a bracket's pairing as a key (smaller is better): pairs, then PSD."""
    sc = {p: int(ctx.players[p].score * ctx.scale) for p in bracket}
    low = min(sc.values()) - ctx.scale
    diffs = [abs(sc[a] - sc[b]) for a, b in pairs] + [sc[p] - low for p in floaters]
    return -len(pairs), sorted(diffs, reverse=True)


def _alone_quality(ctx: _Context, bracket: list[int]) -> tuple[int, list[int]]:
    """The best C.5/C.6 key of ``bracket`` paired on its own (the rest not considered).

    One perfect matching on the bracket plus one "float" vertex per player (floats pair with
    each other freely): pairs first, then fewest pairs/floaters at each PSD level, highest
    level first, as in the bracket weights (0/1 components packed in base b + 1: a perfect
    matching of 2b vertices has b edges, so no component total reaches the base).
    """
    P = ctx.players
    b = len(bracket)
    sc = {p: int(P[p].score * ctx.scale) for p in bracket}
    low = min(sc.values()) - ctx.scale
    cand: list[tuple[int, int, int]] = []
    for i in range(b):
        for j in range(i + 1, b):
            if allowed(P[bracket[i]], P[bracket[j]], ctx.forbidden):
                cand.append((i, j, abs(sc[bracket[i]] - sc[bracket[j]])))
        cand.append((i, b + i, sc[bracket[i]] - low))
    levels = sorted({v for _i, _j, v in cand}, reverse=True)

    def packed(comps: list[int]) -> int:
        w = 0
        for c in comps:
            w = w * (b + 1) + c
        return w

    edges = [(i, j, packed([int(j < b), *(int(v != lv) for lv in levels)]))
             for i, j, v in cand]
    free = packed([0] + [1] * len(levels))  # float-float: no pair, no PSD value
    edges += [(b + i, b + j, free) for i in range(b) for j in range(i + 1, b)]
    found = exact.solve_int(2 * b, edges)
    assert found is not None  # every player can float
    pairs = [(bracket[u], bracket[v]) for u, v in found.pairs() if v < b]
    paired = {p for ab in pairs for p in ab}
    return _quality(ctx, bracket, pairs, [p for p in bracket if p not in paired])


# Partners per player of :func:`_completable`'s first, sparse try (the next ones in rank):
# a perfect matching there proves "completable" without listing every allowed pair.
COMPLETABLE_WINDOW = 8


def _completable(ra: RoundArrays, players: list[int]) -> bool:
    """Whether ``players`` can all be paired by the absolute criteria C1-C3, one of them
    (an odd number) taking the pairing-allocated bye (C2): A.9's round-pairing outlook.

    Exact: a perfect matching of a subgraph (each player with the next
    :data:`COMPLETABLE_WINDOW` in rank) is one of the full graph, so it answers "yes"; only
    when the subgraph has none is the full graph of allowed pairs solved (the answer then).
    """
    pos = np.array(sorted(ra.pos[p] for p in players), dtype=np.int64)
    if pos.size > 2 * COMPLETABLE_WINDOW and _has_perfect(ra, pos, *_near_pairs(ra, pos)):
        return True
    _check_bracket_memory(pos.size, "the players still unpaired (A.9's check that the "
                          "round can be completed)", BYTES_PER_EDGE)
    us, vs, _ = allowed_pairs(ra, pos)
    return _has_perfect(ra, pos, us, vs)


def _near_pairs(ra: RoundArrays, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The allowed pairs (C1-C3) among positions ``pos`` (ascending) of each player and
    the next :data:`COMPLETABLE_WINDOW` in rank, as local indices ``i < j``."""
    m = pos.size
    us = np.repeat(np.arange(m, dtype=np.int64), COMPLETABLE_WINDOW)
    vs = us + np.tile(np.arange(1, COMPLETABLE_WINDOW + 1, dtype=np.int64), m)
    inside = vs < m
    us, vs = us[inside], vs[inside]
    cls = ra.c3[pos]
    keep = ~((cls[us] == cls[vs]) & (cls[us] != 0))
    if ra.bad_i.size:
        # Refused pairs as one integer code each (positions: bad_i < bad_j, pos ascending).
        width = len(ra.ids)
        bad = ra.bad_i.astype(np.int64) * width + ra.bad_j.astype(np.int64)
        keep &= ~np.isin(pos[us] * width + pos[vs], bad)
    return us[keep], vs[keep]


def _has_perfect(ra: RoundArrays, pos: np.ndarray, us: np.ndarray, vs: np.ndarray) -> bool:
    """Whether the players at ``pos`` have a perfect matching on the pairs ``us``-``vs``
    (local indices), plus the pairing-allocated bye to one C2 allows when they are odd."""
    n = pos.size
    if n % 2:
        bye = np.flatnonzero(ra.can_pab[pos])
        us = np.concatenate((us, bye))
        vs = np.concatenate((vs, np.full(bye.size, n, dtype=np.int64)))
        n += 1
    zero = np.zeros((1, us.size), dtype=np.int64)
    return exact.solve(n, us, vs, zero, [1], duals=False) is not None


def _pair_bracket(
    ctx: _Context, ra: RoundArrays, unpaired: list[int], bracket: list[int], movers: set[int],
    nxt: list[int], sinks: bool = False,
) -> tuple[list[tuple[int, int]], list[int], int | None]:
    """Pair one bracket: its pairs, its downfloaters (incl. a bye) and the PAB player.

    ``unpaired``: every player still unpaired (the round is completed: the matching covers
    them all), or with ``sinks`` only the bracket and the next scoregroup ``nxt``, any of
    whom may stay unpaired (the 2017 bracket paired on its own, see :func:`pair_brackets`).
    """
    in_b = set(bracket)
    n = len(unpaired)
    odd = n % 2 == 1 and not sinks
    index = {pid: i for i, pid in enumerate(unpaired)}
    vertices = 2 * n if sinks else n + (1 if odd else 0)
    bye_v = n if odd else -1

    # Big graphs leave their separable edges implicit: the edges to players below the next
    # scoregroup, or (a bracket paired on its own) the sinks.
    implicit = (ctx.backend == "exact" and n >= IMPLICIT_MIN_PLAYERS
                and (sinks or len(in_b) + len(nxt) < n))
    if implicit:
        _check_bracket_memory(len(in_b) + len(nxt), "this bracket and the next scoregroup")
    elif n >= IMPLICIT_MIN_PLAYERS and not sinks:
        # Every pair of the players still unpaired listed, in a big round (the last
        # brackets, a 2017 collapsed last bracket): smaller rounds were counted whole by
        # _check_memory, and smaller sink graphs are small.
        _check_bracket_memory(n, "the players still unpaired", BYTES_PER_EDGE)
    # The previous bracket's optimum, on the players still unpaired: a perfect matching of
    # this graph (implicit solves start from it). With sinks: every player unpaired.
    hint: list[tuple[int, int]] = []
    if implicit and sinks:
        hint = [(i, n + i) for i in range(n)]
    elif implicit:
        for a, b in ctx.hint:
            if a in index and (b in index or (b == BYE and odd)):
                u, v = index[a], bye_v if b == BYE else index[b]
                hint.append((min(u, v), max(u, v)))

    def solve(pab_unplayed: bool) -> tuple[BracketGraph, _Solver,
                                           tuple[int, set[tuple[int, int]]] | None]:
        graph = bracket_graph(ra, unpaired, bracket, movers, nxt, ctx.rules, ctx.scale,
                              sinks=sinks, pab_unplayed=pab_unplayed, implicit=implicit)
        # rustworkx takes weights below 2**125; the compiled solver up to 2**240, of which
        # EXACT_MAX_WEIGHT leaves room for the tie-break tests' own components (the same
        # pairing whichever backend solves a bracket both can).
        # (the limbs of the columns of graph.comps: each edge's are gathered below, once)
        packed, multipliers = pack(graph, EXACT_MAX_WEIGHT if ctx.backend == "exact"
                                   else RUSTWORKX_MAX_WEIGHT, expand=False)
        # The components are in the limbs now: free them before the solver's own arrays.
        graph.comps = np.empty((graph.comps.shape[0], 0), dtype=graph.comps.dtype)
        imp = None
        us, vs = graph.us, graph.vs
        sep = graph.sep
        if sep is not None:
            # The implicit edges' columns: each F vertex's own, the far one for R.
            listed = us.size - int(sep.has_r.sum()) - int(sep.far_col >= 0)
            col = np.zeros((packed.shape[0], vertices), dtype=np.int64)
            owners = np.flatnonzero(sep.pseudo >= 0)
            col[:, owners] = graph.edge_columns(packed, sep.pseudo[owners])
            if sep.far_col >= 0:
                far = graph.edge_columns(packed, np.array([sep.far_col]))
                col[:, sep.f:sep.r_end] = far
            imp = Implicit(sep, vertices, col)
            us, vs = us[:listed], vs[:listed]
            limbs = graph.edge_columns(packed, slice(0, listed))
            graph.us, graph.vs = us, vs
        else:
            limbs = graph.edge_columns(packed, slice(None))
        del packed
        graph.col_of = graph.cover = None  # (their job is done: not kept with the bracket)
        solver = _Solver(vertices, us, vs, limbs, multipliers, ctx.backend, imp)
        solver.hint = hint
        solver.sparsify(graph.focus)
        return graph, solver, solver.solve(duals=True)

    graph, solver, found = solve(False)
    if found is None:
        if n == len(ra.ids):  # the first bracket: no pairing of the round at all
            raise NoPairing(
                "no pairing satisfies the absolute criteria (no rematch C1, no second "
                "pairing-allocated bye C2, absolute colour preferences C3)")
        raise NoPairing("no pairing satisfies the absolute criteria and completion (C1-C4)")
    if (ctx.rules == "2025" and odd
            and _decides_pab(ra, _mate_map(found[1]), unpaired, in_b, bye_v)):
        # Whether this bracket decides the PAB is fixed by criteria above the unplayed
        # rounds one (the PAB's score and C5), so solving again with it changes nothing else.
        del graph, solver  # (not two graphs of the bracket alive at once)
        graph, solver, found = solve(True)
        assert found is not None  # the same graph, other weights
    best_w, mates = found
    if solver.last is not None:
        # Every tie-break test below asks whether the optimum is still reachable with some
        # edges left out. A matching that reaches it is optimal, so by complementary
        # slackness it uses only edges that are tight under this optimum's duals (which stay
        # optimal as edges are left out, as long as the optimum weight is kept): the tests
        # need only the tight edges, usually a small part of the graph.
        # (the graph's per-edge arrays go first, and tight() releases the old solver's:
        # not three edge sets of the bracket alive at once)
        focus = graph.focus
        del graph
        solver = solver.tight(solver.last, focus)
    else:
        # The tests below need only the solver: the graph's per-edge arrays (all the
        # bracket's edges) are freed now, not when the bracket is done.
        del graph
    mate = _mate_map(mates)

    def partner(pid: int, m: dict[int, int]) -> int | None:
        v = m[index[pid]]
        return None if v == bye_v or v >= n else unpaired[v]

    # Tie-break: the first candidate in the Handbook's order (transpositions, exchanges).
    is_b = np.zeros(vertices, dtype=bool)
    is_b[[index[x] for x in in_b]] = True
    search = _TieBreak(solver, best_w, mate, vertices, is_b)

    def pin(p: int, q: int | None) -> _Mask:
        return _Pin(index[p], None if q is None else index[q], is_b)

    def try_pin(p: int, q: int | None) -> bool:
        return search.accept_pin(index[p], None if q is None else index[q], pin(p, q))

    done: set[int] = set()
    if movers:
        # B.7 and D.3 (2017; bbpPairings 6.0.0 pairs 2025 rounds the same way, see
        # docs/fide-dutch.md): S1 (the MDPs paired) is chosen before the MDP-pairing: the
        # exchanges of MDPs between S1 and the Limbo are the outermost alteration, giving
        # priority to the S1 of the lowest BSNs (sorted ascending). So each MDP, highest
        # first, is put in S1 (paired with a resident) when the optimum allows, else in the
        # Limbo, before any MDP chooses its partner.
        resident = np.zeros(vertices, dtype=bool)
        resident[[index[x] for x in bracket if x not in movers]] = True
        for p in bracket:
            if p not in movers:
                continue
            vp = index[p]

            def in_s1(us: np.ndarray, vs: np.ndarray, vp: int = vp) -> np.ndarray:
                return ~(((us == vp) & ~resident[vs]) | ((vs == vp) & ~resident[us]))
            if not search.accept(in_s1) and not try_pin(p, None):
                raise NoPairing("internal: tie-break found no optimal candidate")
    # 1. Moved-down players first (S1 of a heterogeneous bracket), residents in order.
    for p in bracket:
        if p not in movers or p in done:
            continue
        free = [q for q in bracket if q not in done and q != p]
        cands: list[int | None] = [q for q in free if q not in movers]
        cands += [q for q in free if q in movers]
        for q in [*cands, None]:
            if try_pin(p, q):
                done.add(p)
                if q is not None:
                    done.add(q)
                break
        else:
            raise NoPairing("internal: tie-break found no optimal candidate")
    # 2. The (remainder) homogeneous part: exchanges, then transpositions.
    res = [q for q in bracket if q not in done]
    res_idx = {index[q] for q in res}
    k = sum(1 for q in res if search.partner(index[q]) in res_idx) // 2
    if k:
        s1, s2 = res[:k], res[k:]
        for s1x, s2x in _exchanges(s1, s2, res):
            i1 = np.zeros(vertices, dtype=bool)
            i1[[index[q] for q in s1x]] = True
            i2 = np.zeros(vertices, dtype=bool)
            i2[[index[q] for q in s2x]] = True

            def split(us: np.ndarray, vs: np.ndarray, i1: np.ndarray = i1,
                      i2: np.ndarray = i2) -> np.ndarray:
                # S1 players meet S2 players; two S2 players never meet.
                either = i1[us] | i1[vs]
                cross = (i1[us] & i2[vs]) | (i1[vs] & i2[us])
                return np.where(either, cross, ~(i2[us] & i2[vs]))
            if search.accept(split):
                break
        else:
            # Only when _exchanges stopped at a size of more than EXCHANGE_CAP exchanges
            # (seen in collapsed last brackets of mixed scores): the first exchange in the
            # Handbook's order that reaches the optimum, found by matchings instead.
            s1x, s2x = _first_exchange(search, res, s1, index)
            f1 = np.zeros(vertices, dtype=bool)
            f1[[index[q] for q in s1x]] = True
            f2 = np.zeros(vertices, dtype=bool)
            f2[[index[q] for q in s2x]] = True
            if not search.accept(partial(split, i1=f1, i2=f2)):  # it fits the optimum
                raise NoPairing("internal: no exchange reaches the optimum")
        for p in s1x:
            for q in s2x:
                if q in done:
                    continue
                if try_pin(p, q):
                    done.update((p, q))
                    break
            else:
                raise NoPairing("internal: no transposition reaches the optimum")
    mate = search.mate
    if not sinks and n >= IMPLICIT_MIN_PLAYERS:  # (the next bracket is smaller)
        ctx.hint = [(unpaired[u], BYE if v == bye_v else unpaired[v])
                    for u, v in mate.items() if u < v]
    fixed_pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    for p in bracket:
        q = partner(p, mate)
        if q is not None and q in in_b:
            if ra.rank_keys[p] < ra.rank_keys[q]:  # the higher-ranked player first
                fixed_pairs.append((p, q))
        else:
            floaters.append(p)
    last = not [q for q in unpaired if q not in in_b]
    bye_player = None
    for p in floaters:
        if odd and last and mate[index[p]] == bye_v:
            bye_player = p
    return fixed_pairs, floaters, bye_player


def _decides_pab(ra: RoundArrays, mate: dict[int, int], unpaired: list[int], in_b: set[int],
                 bye_v: int) -> bool:
    """Whether the 2025 criterion "PAB to the fewest unplayed rounds" applies in this bracket.

    It does when exactly one bracket player is left unpaired by the bracket and he gets the
    PAB (``mate``: an optimum without the criterion; the number of players left over is
    fixed by C5 and whether the PAB is in the bracket by the PAB's score, so every optimum
    agrees) and the players who could get it instead (the bracket's eligible players of the
    same score: the PAB's score is decided above) differ in unplayed rounds. When several float
    down the endorsed engine lets the other criteria choose them, and the PAB is decided
    later among them (t0087 round 5 of the 2025 corpus: the colours choose, not the
    forfeit losses of the player who ends with the PAB).
    """
    left = [pid for index, pid in enumerate(unpaired)
            if pid in in_b and (mate[index] == bye_v or unpaired[mate[index]] not in in_b)]
    if len(left) != 1 or mate[unpaired.index(left[0])] != bye_v:
        return False
    score = ra.sc[ra.pos[left[0]]]
    counts = {int(ra.unplayed[ra.pos[pid]]) for pid in in_b
              if ra.can_pab[ra.pos[pid]] and ra.sc[ra.pos[pid]] == score}
    return len(counts) > 1


@dataclass(slots=True)
class _Pin:
    """The tie-break constraint pinning vertex ``p`` to ``q`` (``None``: ``p`` floats, no
    edge of his into the bracket ``is_b``), as an edge predicate; it touches only the edges
    of ``p`` and ``q``, so :meth:`_TieBreak._mask` can list them instead of a pass over every
    edge."""

    p: int
    q: int | None
    is_b: np.ndarray

    def __call__(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        vp = self.p
        if self.q is None:
            return ~(((us == vp) & self.is_b[vs]) | ((vs == vp) & self.is_b[us]))
        lo, hi = min(vp, self.q), max(vp, self.q)
        # Keep the edges touching neither, and the one touching both: edges have u < v, so
        # it is lo-hi itself.
        return ((us == lo) | (vs == lo)) == ((us == hi) | (vs == hi))


class _TieBreak:
    """Narrow the optimum down step by step: keep a constraint only if the optimum survives."""

    def __init__(self, solver: _Solver, best: int, mate: dict[int, int], vertices: int,
                 bracket: np.ndarray) -> None:
        self.solver = solver
        self.best = best
        self.mate = mate
        self.vertices = vertices
        self.bracket = bracket  # vertex mask of the bracket the tests are about
        # Pins accepted but not yet applied to the live edges (see accept_pin): (p, q), q
        # None when p floats out of the bracket.
        self.pins: list[tuple[int, int | None]] = []
        # The optimum the arrays of _mate_arrays are of, its pairs as arrays, and each
        # matched vertex's row in them.
        self._arrays: tuple[dict[int, int], np.ndarray, np.ndarray, np.ndarray] | None = None
        self._warm_y: bytes | None = None  # the warm start's potentials (see _start)
        # _repair's adjacency of every edge of the solver (whose ``us`` it was built of):
        # each vertex's edge indices and other ends, grouped by vertex.
        self._adjacency: tuple[np.ndarray, np.ndarray, np.ndarray, list[int]] | None = None
        # The compiled decisions (settle.py), built at the first test that needs them.
        self._settle: Settle | None = None
        self._settle_tried = False
        # How many tests each way settled (read by benchmarks and replays).
        self.counts: dict[str, int] = {}

    def partner(self, v: int) -> int:
        return self.mate[v]

    def accept_pin(self, p: int, q: int | None, pred: _Mask) -> bool:
        """:meth:`accept` for ``pred`` pinning vertex ``p`` to ``q`` (``None``: ``p`` floats,
        no edge of his into the bracket).

        Most pins are met by the current optimum: they are accepted on the spot and applied
        to the live edges later, all at once (:meth:`_flush`), instead of one numpy pass over
        the edges each.
        """
        mate = self.mate[p]
        if (mate == q) if q is not None else not self.bracket[mate]:
            self.pins.append((p, q))
            return True
        if q is not None and not self.solver.live((min(p, q), max(p, q))):
            # No optimum can hold an edge that is not live (not tight, or left out by an
            # accepted test): rejected without looking at the rest of the graph.
            return False
        return self.accept(pred, None if q is None else (p, q))

    def _flush(self) -> None:
        """Narrow the live edges to the pins accepted so far (the same edges as narrowing by
        each pin's predicate in turn)."""
        if not self.pins:
            return
        us, vs = self.solver.us, self.solver.vs
        partner = np.full(self.vertices, -1, dtype=np.int64)
        floats = np.zeros(self.vertices, dtype=bool)
        for p, q in self.pins:
            if q is None:
                floats[p] = True
            else:
                partner[p], partner[q] = q, p
        pu, pv = partner[us], partner[vs]
        keep = ((pu < 0) | (pu == vs)) & ((pv < 0) | (pv == us))
        keep &= ~((floats[us] & self.bracket[vs]) | (floats[vs] & self.bracket[us]))
        # A pinned pair's players have no implicit edge left (a floater keeps his).
        self.solver.narrow(keep, partner >= 0)
        self.pins.clear()

    def accept(self, pred: _Mask, pair: tuple[int, int] | None = None) -> bool:
        """Keep ``pred`` (narrow the live edges to it) if the optimum survives it.

        ``pair``: ``pred`` pins these two vertices together; an optimum that keeps it is
        then looked for first by one exchange of partners, without a solve.
        """
        # Accepted constraints narrow the solver's live edges once and for all, so each later
        # test only adds its own mask.
        self._flush()
        mu, mv = self._mate_arrays()
        mask = self._mask(pred)
        block = self.solver.block_of(pred)  # (the implicit edges it leaves out, if any)
        met = pred(mu, mv)
        if bool(np.all(met)):
            self.solver.narrow(mask, block)
            return self._count("met", True)
        if pair is not None and self._swap(pred, pair, met):
            self.solver.narrow(mask, block)
            return self._count("swap", True)
        settle = self._settler()
        usable = broken = None
        if settle is not None:
            # (first: most tests that get here are rejected by it, and it costs less than
            # covers' pass over every edge)
            usable = self.solver.alive & mask
            broken = np.zeros(self.vertices, dtype=bool)
            broken[mu[~met]] = True
            broken[mv[~met]] = True
            if settle.rejects(usable, self.solver.alive, self.mate, broken, block):
                return self._count("settle_rejects", False)
        if not self.solver.covers(mask, block):
            # a vertex has no edge left: no perfect matching, no solve needed
            return self._count("covers", False)
        if (settle is None and self.solver.us.size >= BRACKET_CHECK_MIN_EDGES
                and not self._bracket_can_match(mask, block)):
            # (on a small graph the solve below costs about as much)
            return self._count("bracket_can_match", False)
        repaired = self._repair(mask, met, pair, block)
        how = "repair"
        if repaired is None and settle is not None:
            assert usable is not None and broken is not None
            repaired = self._checked(settle.augment(usable, self.mate, broken), mask, block)
            how = "settle_augments"
        if repaired is not None:
            self.solver.narrow(mask, block)
            self.mate = repaired
            return self._count(how, True)
        self.solver.hint = [(u, v) for u, v in self.mate.items() if u < v]
        found = self.solver.solve(mask, start=self._start(), block=block)
        if found is not None and found[0] == self.best:
            self.solver.narrow(mask, block)
            self.mate = _mate_map(found[1])
            return self._count("solve", True)
        return self._count("solve", False)

    def _mask(self, pred: _Mask) -> np.ndarray:
        """``pred`` on every edge of the solver; a pin's from the adjacency of its two
        vertices when the compiled decisions have it (the same mask, without a pass over
        every edge)."""
        solver = self.solver
        settle = self._settler()
        if settle is None or not isinstance(pred, _Pin):
            return pred(solver.us, solver.vs)
        adj = settle.adj
        mask = np.ones(solver.us.size, dtype=bool)
        p, q = pred.p, pred.q
        lo, hi = int(adj.starts[p]), int(adj.starts[p + 1])
        if q is None:
            mask[adj.eid[lo:hi][pred.is_b[adj.other[lo:hi]]]] = False
            return mask
        mask[adj.eid[lo:hi][adj.other[lo:hi] != q]] = False
        lo, hi = int(adj.starts[q]), int(adj.starts[q + 1])
        mask[adj.eid[lo:hi][adj.other[lo:hi] != p]] = False
        return mask

    def _count(self, how: str, verdict: bool) -> bool:
        key = f"{how} {'yes' if verdict else 'no'}"
        self.counts[key] = self.counts.get(key, 0) + 1
        return verdict

    def _settler(self) -> Settle | None:
        """The compiled decisions of this bracket's tests (settle.py), when they are on
        (:data:`SETTLE_TESTS`) and the graph is big enough for them to pay; else ``None``."""
        if not self._settle_tried:
            self._settle_tried = True
            solver = self.solver
            if (SETTLE_TESTS and solver.base is not None and solver.backend == "exact"
                    and solver.us.size >= BRACKET_CHECK_MIN_EDGES):
                self._settle = Settle(self.vertices, solver.us, solver.vs, solver.imp,
                                      solver.base, solver.multipliers, self.bracket)
                adj = self._settle.adj
                # _repair's adjacency is the same (the same stable sort of the edge ends).
                self._adjacency = (solver.us, adj.eid, adj.other, adj.starts.tolist())
        return self._settle

    def _checked(self, mate: dict[int, int] | None, mask: np.ndarray,
                 block: np.ndarray | None) -> dict[int, int] | None:
        """``mate`` if it is a perfect matching of live edges of ``mask`` (implicit ones of
        no ``block``-ed vertex) of the best weight: an optimum that passes the test."""
        if mate is None:
            return None
        pairs = [(u, v) for u, v in mate.items() if u < v]
        if (len(pairs) * 2 != self.vertices or not self.solver.pairs_alive(pairs, mask, block)
                or self.solver.weight(pairs) != self.best):
            return None
        return mate


    def _repair(self, mask: np.ndarray, met: np.ndarray, pair: tuple[int, int] | None,
                block: np.ndarray | None = None) -> dict[int, int] | None:
        """An optimum that meets the test, found without a solve, or ``None``.

        The current optimum's pairs that break the test are undone (and ``pair`` matched),
        and the players left free are matched again along augmenting paths of live edges
        that meet the test, found by an alternating breadth-first search (one that does not
        shrink blossoms: it may miss a path, never makes a wrong one). The result is kept
        only if it is a perfect matching of live, test-meeting edges of the optimum weight:
        then the test is passed for certain. Any failure leaves the decision to the solve.
        """
        solver = self.solver
        mu, mv = self._mate_arrays()
        mate = dict(self.mate)
        free: list[int] = []
        for r in np.flatnonzero(~met).tolist():
            u, v = int(mu[r]), int(mv[r])
            del mate[u], mate[v]
            free += (u, v)
        blocked: set[int] = set()
        if pair is not None:
            p, q = pair
            for x in (p, q):
                if x in mate:
                    other = mate.pop(x)
                    del mate[other]
                    free.append(other)
            free = [x for x in free if x not in (p, q)]
            mate[p], mate[q] = q, p
            blocked = {p, q}  # the pinned pair stays as it is
        if len(free) > 8:
            return None  # many changes: leave it to the solve
        # The adjacency of all the solver's edges is built once (its edges never change:
        # only ``alive``), and each vertex the search reaches filters its own edges by
        # ``alive & mask``: the same neighbours in the same order as an adjacency of the
        # live test-meeting edges, without sorting 2.6 million edge ends per repair (the
        # 10,000-player round's fourth bracket has 1.3 million live pairs).
        usable = solver.alive & mask
        adj = self._adjacency
        if adj is None or adj[0] is not solver.us:
            ends = np.concatenate((solver.us, solver.vs))
            order = np.argsort(ends, kind="stable")
            edge_of = order % max(solver.us.size, 1)
            other_end = np.concatenate((solver.vs, solver.us))[order]
            bounds = np.searchsorted(ends[order], np.arange(self.vertices + 1)).tolist()
            adj = self._adjacency = (solver.us, edge_of, other_end, bounds)
        _built, edge_of, other_end, starts = adj

        def neighbours(x: int) -> list[int]:
            lo, hi = starts[x], starts[x + 1]
            return other_end[lo:hi][usable[edge_of[lo:hi]]].tolist()
        unmatched = set(free)
        while unmatched:
            source = unmatched.pop()
            # Alternating BFS from ``source``: non-matching edge to y, matching edge y-mate[y].
            seen = {source} | blocked
            came: dict[int, int] = {}  # y -> the x it was reached from
            frontier = [source]
            end = -1
            while frontier and end < 0:
                nxt: list[int] = []
                for x in frontier:
                    for y in neighbours(x):
                        if y in seen:
                            continue
                        if y in unmatched:
                            came[y], end = x, y
                            break
                        z = mate.get(y)
                        if z is None or z in seen:
                            continue
                        seen.update((y, z))
                        came[y] = x
                        nxt.append(z)
                    if end >= 0:
                        break
                frontier = nxt
            if end < 0:
                return None
            unmatched.discard(end)
            y = end
            while True:  # flip the path: y takes the x it came from, x's old mate goes on
                x = came[y]
                old = mate.get(x)
                mate[x], mate[y] = y, x
                if x == source:
                    break
                y = old  # type: ignore[assignment]
        pairs = [(u, v) for u, v in mate.items() if u < v]
        if len(pairs) * 2 != self.vertices:
            return None
        if not solver.pairs_alive(pairs, mask, block):
            return None
        if solver.weight(pairs) != self.best:
            return None
        return mate

    def _start(self) -> exact.Solution | None:
        """The warm start of a test's solve: the current optimum with the duals the tight
        edges were found with (feasible on every live edge: all of them are tight)."""
        base = self.solver.base
        if base is None or self.solver.imp is not None:
            return None  # (implicit solves start from their candidates)
        mate = np.empty(self.vertices, dtype=np.int64)
        for u, v in self.mate.items():
            mate[u] = v
        if self._warm_y is None:  # the same duals for every test of the bracket
            self._warm_y = exact.warm_potentials(base, self.vertices)
        return exact.Solution(mate, base.y, base.blossoms, base.wide, warm_y=self._warm_y)

    def _bracket_can_match(self, mask: np.ndarray, block: np.ndarray | None = None) -> bool:
        """A necessary condition for a perfect matching, checked on the bracket alone: the
        bracket players whose every live edge stays in the bracket can all be matched there.

        Decided by a perfect matching of a small graph: the bracket's edges, plus one spare
        vertex for each bracket player who may leave, joined to that player, the spares
        forming a clique (with one more spare if the count is odd).
        """
        solver = self.solver
        keep = solver.alive & mask
        us, vs = solver.us[keep], solver.vs[keep]
        inside = self.bracket[us] & self.bracket[vs]
        leaves = np.zeros(self.vertices, dtype=bool)
        leaves[us[~inside & self.bracket[us]]] = True
        leaves[vs[~inside & self.bracket[vs]]] = True
        imp = solver.imp
        if imp is not None:  # an implicit edge to R leaves the bracket
            leaves |= imp.has_r & imp.usable(np.arange(self.vertices), block)
        members = np.flatnonzero(self.bracket)
        spare_of = members[leaves[members]]
        local = np.full(self.vertices, -1, dtype=np.int64)
        local[members] = np.arange(members.size)
        b = members.size
        spares = spare_of.size + (b + spare_of.size) % 2
        n = b + spares
        su = [local[us[inside]], local[spare_of]]
        sv = [local[vs[inside]], b + np.arange(spare_of.size)]
        if spares > 1:
            cu, cv = np.triu_indices(spares, 1)
            su.append(b + cu)
            sv.append(b + cv)
        gu = np.concatenate(su).astype(np.int64)
        gv = np.concatenate(sv).astype(np.int64)
        zero = np.zeros((1, gu.size), dtype=np.int64)
        return exact.solve(n, gu, gv, zero, [1], duals=False) is not None

    def _mate_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The current optimum's pairs ``(u, v)``, ``u < v``, as two arrays (kept until the
        optimum changes)."""
        if self._arrays is None or self._arrays[0] is not self.mate:
            # (in numpy, the pairs in the order of the dict: rebuilt after every accepted
            # change of the optimum, some 500 times in a 1,000-player round)
            size = len(self.mate)
            keys = np.fromiter(self.mate.keys(), dtype=np.int64, count=size)
            values = np.fromiter(self.mate.values(), dtype=np.int64, count=size)
            first = keys < values
            mu, mv = keys[first], values[first]
            row = np.full(self.vertices, -1, dtype=np.int64)
            at = np.arange(mu.size, dtype=np.int64)
            row[mu] = at
            row[mv] = at
            self._arrays = (self.mate, mu, mv, row)
        return self._arrays[1], self._arrays[2]

    def _swap(self, pred: _Mask, pair: tuple[int, int], met: np.ndarray) -> bool:
        """Whether matching ``pair`` and the two partners it leaves alone instead of the
        current mates gives a matching of the optimum weight that meets ``pred`` (then it
        becomes the current one): the cheapest change that could pin ``pair``. ``met``:
        ``pred`` on the current optimum's pairs (in :meth:`_mate_arrays` order).

        Only two pairs change: the other pairs stay live and keep their ``met``, and the
        current optimum's weight is the optimum, so the swap keeps it exactly when the two
        new pairs weigh what the two old ones did."""
        p, q = pair
        a, b = self.mate[p], self.mate[q]
        new = [(min(p, q), max(p, q)), (min(a, b), max(a, b))]
        old = [(min(p, a), max(p, a)), (min(q, b), max(q, b))]  # live: the optimum's
        solver = self.solver
        cols = solver.columns(new + old)
        if cols is None or not solver.pairs_alive(new):
            return False
        assert self._arrays is not None
        row = self._arrays[3]
        others = np.ones(met.size, dtype=bool)
        others[[int(row[p]), int(row[q])]] = False
        mu = np.array([u for u, _ in new], dtype=np.int64)
        mv = np.array([v for _, v in new], dtype=np.int64)
        if not bool(np.all(pred(mu, mv))) or not bool(np.all(met[others])):
            return False
        # The two new pairs weigh what the two old ones did (limb by limb is not enough:
        # the limbs of a weight are not unique, so the totals are compared).
        limbs = cols.tolist()
        if sum((r[0] + r[1] - r[2] - r[3]) * m
               for r, m in zip(limbs, solver.multipliers, strict=True)) != 0:
            return False
        mate = dict(self.mate)
        mate[p], mate[q], mate[a], mate[b] = q, p, b, a
        self.mate = mate
        return True


def _exchanges(s1: list[int], s2: list[int], res: list[int]
               ) -> Iterator[tuple[list[int], list[int]]]:
    """S1/S2 after each exchange, in the Handbook's order (C.04.3 D.2 / 2025 art. 4.3).

    Fewest players exchanged first; then the smallest difference between the sums of the
    bracket sequence numbers moved S2->S1 and S1->S2; then the exchange moving the lowest
    S1 players (largest BSN moved down, compared from the largest); then the one moving the
    highest S2 players (smallest BSN moved up, compared from the smallest). Stops before a
    size of more than :data:`EXCHANGE_CAP` exchanges (the caller then finds the first one
    with :func:`_first_exchange`).
    """
    from itertools import combinations
    from math import comb

    bsn = {p: i + 1 for i, p in enumerate(res)}
    yield list(s1), list(s2)
    for size in range(1, min(len(s1), len(s2)) + 1):
        if comb(len(s1), size) * comb(len(s2), size) > EXCHANGE_CAP:
            return  # too many to list: the caller finds the first one by matchings
        options = []
        for down in combinations(s1, size):
            for up in combinations(s2, size):
                key = (
                    abs(sum(bsn[p] for p in up) - sum(bsn[p] for p in down)),
                    [-bsn[p] for p in sorted(down, key=bsn.__getitem__, reverse=True)],
                    [bsn[p] for p in sorted(up, key=bsn.__getitem__)],
                )
                options.append((key, down, up))
        options.sort(key=lambda o: o[0])
        for _key, down, up in options:
            n1 = sorted([p for p in s1 if p not in down] + list(up), key=bsn.__getitem__)
            n2 = sorted([p for p in s2 if p not in up] + list(down), key=bsn.__getitem__)
            yield n1, n2


def _split_of(mate: dict[int, int], res: list[int], s1: list[int], index: dict[int, int]
              ) -> tuple[list[int], list[int]]:
    """S1 and S2 of the remainder ``res`` that the matching ``mate`` fits with the fewest
    players exchanged: of each pair inside S1 the lower player moves to S2, of each pair
    inside S2 the higher one moves to S1, and S1 players left unpaired move to S2."""
    at = {index[q]: q for q in res}
    in_s1 = set(s1)
    new_s1: set[int] = set()
    for q in res:
        other = at.get(mate[index[q]])
        if other is None:
            continue  # unpaired in the remainder: S2
        hi, lo = (q, other) if res.index(q) < res.index(other) else (other, q)
        if q != hi:
            continue
        if (hi in in_s1 and lo in in_s1) or (hi not in in_s1 and lo not in in_s1):
            new_s1.add(hi)
        else:
            new_s1.add(hi if hi in in_s1 else lo)
    return [q for q in res if q in new_s1], [q for q in res if q not in new_s1]


def _first_exchange(search: _TieBreak, res: list[int], s1: list[int], index: dict[int, int]
                    ) -> tuple[list[int], list[int]]:
    """S1 and S2 of the remainder ``res`` after the first exchange (D.2 order, as in
    :func:`_exchanges`) that some optimum of ``search`` fits, found without listing them.

    An optimum fits a split when each of its pairs inside ``res`` has one player in S1 and
    one in S2 and no S1 player floats. Of the splits it fits, the first in D.2's order is the
    one :func:`_split_of` takes (moving down the lower-ranked player of each pair inside S1
    and every S1 floater, up the higher-ranked of each pair inside S2): every BSN moved up
    exceeds every one moved down, so that choice is the best on each of D.2 a-d at once. So
    the first exchange reached is the least, over the optima, of their own splits, and each
    of its criteria is a property of the optimum's edges: a (players moved) and b (sum of
    the BSNs moved up minus those moved down) are sums over the edges, added as two weight
    components below all the others and maximised in one solve; c (the highest BSN moved
    down that differs) and d (the lowest BSN moved up that differs) are then decided player
    by player, as the transpositions are, keeping a and b at their best.
    """
    search._flush()
    base = search.solver
    n = base.vertices
    s1_set = set(s1)
    bsn = np.zeros(n, dtype=np.int64)
    role = np.zeros(n, dtype=np.int8)  # 0 outside the remainder, 1 in S1, 2 in S2
    for i, q in enumerate(res):
        bsn[index[q]] = i + 1
        role[index[q]] = 1 if q in s1_set else 2
    live = np.flatnonzero(base.alive)
    us, vs = base.us[live], base.vs[live]
    ru, rv = role[us], role[vs]
    bu, bv = bsn[us], bsn[vs]
    s1s1 = (ru == 1) & (rv == 1)
    s2s2 = (ru == 2) & (rv == 2)
    s1out = ((ru == 1) & (rv == 0)) | ((ru == 0) & (rv == 1))
    # Per edge: players it moves (a) and what it adds to (sum up - sum down) (b), both
    # minimised, as non-negative benefits (every perfect matching has n // 2 edges).
    moved = s1s1 | s2s2 | s1out
    b = np.where(s2s2, np.minimum(bu, bv),
                 np.where(s1s1, -np.maximum(bu, bv), np.where(s1out, -(bu + bv), 0)))
    top = len(res)
    limb_a = (~moved).astype(np.int64)
    limb_b = (top - b).astype(np.int64)  # in [0, 2 * top]
    pairs = n // 2
    radix_b = pairs * 2 * top + 1  # above any matching's total of limb_b
    scale = (pairs + 1) * radix_b  # above any matching's total of both
    limbs = np.vstack((base.limbs[:, live], limb_a, limb_b))
    multipliers = [m * scale for m in base.multipliers] + [radix_b, 1]
    # The compiled solver whatever the backend: these weights may pass rustworkx's limit,
    # and the exchange found is the same whichever optimum a backend returns.
    imp = None
    if base.imp is not None:
        # An implicit edge moves its F end when he is in S1 (he floats out of the
        # remainder: a = 0, b = top + his BSN); every other one moves no one.
        s1v = role == 1
        imp = base.imp.extended(np.vstack((np.where(s1v, 0, 1), np.where(s1v, top + bsn, top)
                                           )).astype(np.int64))
    alt = _Solver(n, us, vs, limbs, multipliers, "exact", imp)
    alt.hint = [(u, v) for u, v in search.mate.items() if u < v]
    found = alt.solve()
    if found is None:  # cannot be: the current optimum is a perfect matching of these edges
        raise NoPairing("internal: no exchange reaches the optimum")
    narrowed = _TieBreak(alt, found[0], _mate_map(found[1]), n, search.bracket)
    # a is fixed now: every optimum of ``alt`` moves this many players each way.
    size = len(set(s1) - set(_split_of(narrowed.mate, res, s1, index)[0]))

    def keep(v: int, ok: Callable[[np.ndarray], np.ndarray]) -> _Mask:
        """Edges of ``v`` only to partners that meet ``ok`` (others' edges untouched)."""
        def pred(eu: np.ndarray, ev: np.ndarray) -> np.ndarray:
            at_u, at_v = eu == v, ev == v
            other = np.where(at_u, ev, eu)
            return ~(at_u | at_v) | ok(other)
        return pred

    # c: the highest BSNs moved down first; d: then the lowest BSNs moved up first. Each
    # player in turn moves if some optimum moves him (then that is kept), else stays. A run
    # of players none of whom any optimum moves is found by one solve per block (blocks
    # doubling while none moves, halving to the first one who does): in a big bracket most
    # players cannot move and the first exchange moves few.
    for group, moves in ((list(reversed(s1)), _moves_down), (res[len(s1):], _moves_up)):
        chosen = 0
        i, step = 0, 1
        while i < len(group) and chosen < size:
            v = index[group[i]]
            test = partial(moves, v=v, role=role, bsn=bsn)
            if bool(test(np.array([narrowed.mate[v]], dtype=np.int64))[0]):
                # The current optimum moves him: accepted without a solve.
                if not narrowed.accept(keep(v, test)):
                    raise NoPairing("internal: no exchange reaches the optimum")
                chosen += 1
                i, step = i + 1, 1
                continue
            block = [index[q] for q in group[i:i + step]]
            if _some_optimum_moves(narrowed, block, moves, role, bsn):
                # (that optimum is the current one now; the first mover is in the block)
                step = max(1, step // 2)
                continue
            for w in block:  # no optimum moves them: they stay (no solve needed)
                stay = partial(moves, v=w, role=role, bsn=bsn)
                if not narrowed.accept(keep(w, lambda o, t=stay: ~t(o))):
                    raise NoPairing("internal: no exchange reaches the optimum")
            i, step = i + len(block), 2 * step
    s1x, s2x = _split_of(narrowed.mate, res, s1, index)
    # That optimum is one of ``search``'s (the tie-break components sit below all others):
    # the split is accepted there without a solve.
    search.mate = narrowed.mate
    return s1x, s2x


def _some_optimum_moves(search: _TieBreak, block: list[int], moves: Callable[..., np.ndarray],
                        role: np.ndarray, bsn: np.ndarray) -> bool:
    """Whether some optimum of ``search`` (its accepted constraints kept) moves a vertex of
    ``block`` (``moves(other, v=...)``: partners with whom ``v`` moves); if so, such an
    optimum becomes ``search``'s current one.

    One solve of the live edges with one more component below all the others: each edge
    counts the ends of ``block`` it moves (a matching moves each at most once, so a radix of
    ``len(block) + 1`` keeps the optimum weight on top)."""
    search._flush()
    base = search.solver
    n = base.vertices
    in_block = np.zeros(n, dtype=bool)
    in_block[block] = True
    live = np.flatnonzero(base.alive)
    us, vs = base.us[live], base.vs[live]
    count = ((in_block[us] & moves(vs, v=us, role=role, bsn=bsn)).astype(np.int64)
             + (in_block[vs] & moves(us, v=vs, role=role, bsn=bsn)))
    radix = len(block) + 1
    imp = None
    if base.imp is not None:
        # An F vertex's implicit edges go to R (role 0: outside the remainder).
        f = base.imp.f
        fv = np.arange(f, dtype=np.int64)
        row = np.zeros((1, n), dtype=np.int64)
        row[0, :f] = in_block[:f] & moves(np.full(f, f, dtype=np.int64), v=fv, role=role,
                                          bsn=bsn)
        imp = base.imp.extended(row)
    alt = _Solver(n, us, vs, np.vstack((base.limbs[:, live], count)),
                  [m * radix for m in base.multipliers] + [1], "exact", imp)
    alt.hint = [(u, v) for u, v in search.mate.items() if u < v]
    found = alt.solve()
    if found is None:  # cannot be: the current optimum is a perfect matching of these edges
        raise NoPairing("internal: no exchange reaches the optimum")
    weight, pairs = found
    if weight % radix == 0:
        return False
    search.mate = _mate_map(pairs)
    return True


def _moves_down(other: np.ndarray, v: int, role: np.ndarray, bsn: np.ndarray) -> np.ndarray:
    """Partners ``other`` with whom S1 player ``v`` moves to S2: an S1 player ranked above
    him, or anyone outside the remainder (he floats)."""
    return (role[other] == 0) | ((role[other] == 1) & (bsn[other] < bsn[v]))


def _moves_up(other: np.ndarray, v: int, role: np.ndarray, bsn: np.ndarray) -> np.ndarray:
    """Partners ``other`` with whom S2 player ``v`` moves to S1: an S2 player ranked below
    him."""
    return (role[other] == 2) & (bsn[other] > bsn[v])


def _mate_map(mates: set[tuple[int, int]]) -> dict[int, int]:
    m: dict[int, int] = {}
    for u, v in mates:
        m[u] = v
        m[v] = u
    return m


class _Solver:
    """One bracket's weighted graph, solved with some edges masked out.

    The weight of edge ``e`` is ``sum_j limbs[j, e] * multipliers[j]`` (non-negative int64
    limbs, Python-int multipliers). The default backend is the compiled exact solver
    (:func:`swiss.pairing.exact.solve`, LEMON's blossom algorithm over 128/256-bit
    integers), which takes the limbs as they are; each tie-break test only selects the live
    edges with a numpy mask.
    """

    def __init__(self, vertices: int, us: np.ndarray, vs: np.ndarray, limbs: np.ndarray,
                 multipliers: list[int], backend: str, imp: Implicit | None = None) -> None:
        self.vertices = vertices
        # The separable edges left implicit (big brackets, see implicit.py), or None.
        self.imp = imp
        # A perfect matching of the graph known to the caller (pairs u < v), put in the
        # candidate graph of implicit solves so that it has a perfect matching.
        self.hint: list[tuple[int, int]] = []
        self.backend = "exact" if backend in ("auto", "exact") else backend
        self.us, self.vs = us, vs
        self.limbs = limbs
        self.multipliers = multipliers
        self.alive = np.ones(us.size, dtype=bool)
        keys = us * max(vertices, 1) + vs
        # The edges in key order (None: they are in that order already; a bracket's pairs
        # are listed row by row, so no sort and no index array of millions of edges).
        self._order: np.ndarray | None = None
        if keys.size < 2 or bool((keys[1:] > keys[:-1]).all()):
            self._keys = keys
        else:
            self._order = np.argsort(keys, kind="stable")
            self._keys = keys[self._order]
        del keys
        self.last: exact.Solution | None = None  # the last exact solution with duals
        self._last_edges: np.ndarray | None = None  # the edges it was solved on
        self.solves = 0
        # When set: the edges each solve starts from; the others are priced against the
        # duals and added when they violate them (exact.solve_with_pricing).
        self.candidate: np.ndarray | None = None
        # The dual solution every live edge is tight under (set by :meth:`tight`): solves
        # may warm-start from it.
        self.base: exact.Solution | None = None
        # The warm start's raised potentials of implicit test solves: (top, y, warm bytes).
        self._test_start: tuple[int, list[int], bytes] | None = None
        self._max_weight: int | None = None

    @property
    def max_weight(self) -> int:
        """A bound on every edge's weight (computed when first needed: pricing only)."""
        if self._max_weight is None:
            highs = self.limbs.max(axis=1, initial=0)
            if self.imp is not None:  # (no copy of the limbs beside the implicit columns)
                highs = np.maximum(highs, self.imp.col.max(axis=1, initial=0))
            self._max_weight = sum(int(high) * m
                                   for high, m in zip(highs.tolist(), self.multipliers,
                                                      strict=True))
        return self._max_weight

    def narrow(self, mask: np.ndarray, block: np.ndarray | None = None) -> None:
        """Keep only the listed edges of ``mask`` and the implicit edges of no ``block``-ed
        vertex."""
        self.alive &= mask
        if self.imp is not None and block is not None:
            self.imp.blocked |= block

    def block_of(self, pred: _Mask) -> np.ndarray | None:
        """The vertices whose implicit edges ``pred`` leaves out (None: no implicit edges).

        Every tie-break constraint is about bracket players, and treats all R players alike
        (none is in the bracket, pinned or in a remainder): ``pred`` is evaluated on each F
        vertex's edge to the first R player, and must keep the edges inside R."""
        imp = self.imp
        if imp is None or imp.r_end <= imp.f:
            return None
        fv = np.arange(imp.f, dtype=np.int64)
        block = np.zeros(self.vertices, dtype=bool)
        block[:imp.f] = ~pred(fv, np.full(imp.f, imp.f, dtype=np.int64))
        if imp.r_end - imp.f >= 2:
            r = np.array([imp.f], dtype=np.int64)
            if not bool(pred(r, r + 1)[0]):
                raise AssertionError("a tie-break constraint on the edges inside R")
        return block

    def covers(self, mask: np.ndarray, block: np.ndarray | None = None) -> bool:
        """Whether every vertex keeps a live edge in ``mask`` (a perfect matching needs it).
        (Implicit edges: every R vertex and every unblocked F vertex with an R partner
        counts as covered: a weaker test, never a wrong "no".)"""
        keep = self.alive & mask
        touched = np.zeros(self.vertices, dtype=bool)
        touched[self.us[keep]] = True
        touched[self.vs[keep]] = True
        if self.imp is not None:
            imp = self.imp
            touched[imp.f:imp.r_end] = True
            touched |= imp.has_r & imp.usable(np.arange(self.vertices), block)
        return bool(touched.all())

    def _implicit(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """Which pairs ``us < vs`` are implicit (not listed) edges."""
        if self.imp is None:
            return np.zeros(us.size, dtype=bool)
        return self.imp.in_r(vs)

    def columns(self, pairs: list[tuple[int, int]]) -> np.ndarray | None:
        """The limbs of pairs ``(u, v)``, ``u < v``, or None if one is not an edge."""
        us = np.array([u for u, _ in pairs], dtype=np.int64)
        vs = np.array([v for _, v in pairs], dtype=np.int64)
        imp = self._implicit(us, vs)
        out = np.zeros((self.limbs.shape[0], us.size), dtype=np.int64)
        if imp.any():
            assert self.imp is not None
            if not bool(self.imp.is_edge(us[imp], vs[imp]).all()):
                return None
            out[:, imp] = self.imp.col[:, us[imp]]
        listed = np.flatnonzero(~imp)
        if listed.size:
            idx = self.find([pairs[i] for i in listed.tolist()])
            if idx is None:
                return None
            out[:, listed] = self.limbs[:, idx]
        return out

    def pairs_alive(self, pairs: list[tuple[int, int]], mask: np.ndarray | None = None,
                    block: np.ndarray | None = None) -> bool:
        """Whether every pair ``(u, v)``, ``u < v``, is a live edge (and in ``mask`` /
        not ``block``-ed)."""
        us = np.array([u for u, _ in pairs], dtype=np.int64)
        vs = np.array([v for _, v in pairs], dtype=np.int64)
        imp = self._implicit(us, vs)
        if imp.any():
            assert self.imp is not None
            iu, iv = us[imp], vs[imp]
            if not bool((self.imp.is_edge(iu, iv) & self.imp.usable(iu, block)).all()):
                return False
        listed = [pairs[i] for i in np.flatnonzero(~imp).tolist()]
        if listed:
            idx = self.find(listed)
            if idx is None:
                return False
            ok = self.alive[idx] if mask is None else self.alive[idx] & mask[idx]
            if not bool(ok.all()):
                return False
        return True

    def _edge_at(self, at: np.ndarray | int) -> np.ndarray | int:
        """The edge indices at positions ``at`` of the key order."""
        return at if self._order is None else self._order[at]

    def _edge_index(self, pairs: list[tuple[int, int]]) -> np.ndarray:
        keys = np.array([u * max(self.vertices, 1) + v for u, v in pairs], dtype=np.int64)
        return self._edge_at(np.searchsorted(self._keys, keys))

    def find(self, pairs: list[tuple[int, int]]) -> np.ndarray | None:
        """The indices of edges ``(u, v)``, ``u < v``, or None if one is not in the graph."""
        keys = np.array([u * max(self.vertices, 1) + v for u, v in pairs], dtype=np.int64)
        at = np.minimum(np.searchsorted(self._keys, keys), max(self._keys.size - 1, 0))
        if not self._keys.size or not bool((self._keys[at] == keys).all()):
            return None
        return self._edge_at(at)

    def live(self, pair: tuple[int, int]) -> bool:
        """Whether edge ``pair`` (``u < v``) is in the graph and live."""
        key = pair[0] * max(self.vertices, 1) + pair[1]
        at = int(self._keys.searchsorted(key))
        return (at < self._keys.size and int(self._keys[at]) == key
                and bool(self.alive[self._edge_at(at)]))

    def weight(self, pairs: list[tuple[int, int]]) -> int:
        """The total weight of matched pairs ``(u, v)``, ``u < v``."""
        if self.imp is not None:
            cols = self.columns(pairs)
            assert cols is not None
            sums = cols.sum(axis=1).tolist()
        else:
            idx = self._edge_index(pairs)
            sums = self.limbs[:, idx].sum(axis=1).tolist()
        return sum(int(s) * m for s, m in zip(sums, self.multipliers, strict=True))

    def solve(self, mask: np.ndarray | None = None, duals: bool = False,
              start: exact.Solution | None = None, block: np.ndarray | None = None
              ) -> tuple[int, set[tuple[int, int]]] | None:
        """The best perfect matching on the live edges (and ``mask``; implicit edges: of no
        ``block``-ed vertex): its weight and pairs, or ``None`` when there is no perfect
        matching."""
        if self.imp is not None:
            self.solves += 1
            return self._solve_implicit(mask, block, duals)
        keep = self.alive if mask is None else self.alive & mask
        idx = np.flatnonzero(keep)
        self.solves += 1
        if self.backend == "exact" and self.candidate is not None:
            sol = self._solve_priced(idx)
            if sol is None:
                return None
            if duals:
                self.last = sol
            pairs = sol.pairs()
            self.candidate[self._edge_index(pairs)] = True
        elif self.backend == "exact":
            # dense: the tie-break tests are exact, so which optimum (and duals) comes back
            # changes no pairing.
            sol = exact.solve(self.vertices, self.us[idx], self.vs[idx],
                              self.limbs[:, idx], self.multipliers, duals=duals, start=start,
                              dense=True, tight=duals)
            if sol is None:
                return None
            if duals:
                self.last = sol
                self._last_edges = idx  # what sol.tight indexes
            pairs = sol.pairs()
        else:
            edges = [(int(self.us[e]), int(self.vs[e]), self._python_weight(int(e)))
                     for e in idx]
            found = max_weight_matching(self.vertices, edges,
                                        self.backend)  # type: ignore[arg-type]
            if len(found) * 2 < self.vertices:
                return None
            pairs = sorted((min(u, v), max(u, v)) for u, v in found)
        return self.weight(pairs), set(pairs)

    def _solve_implicit(self, mask: np.ndarray | None, block: np.ndarray | None,
                        duals: bool) -> tuple[int, set[tuple[int, int]]] | None:
        """:meth:`solve` with implicit edges: solved on candidate edges (the listed
        candidates, the implicit edges found so far, :attr:`hint`) and priced against every
        live listed edge and, by structure, every implicit one.

        A tie-break test (``mask`` or ``block``) is solved as a maximum weight perfect
        matching of every live edge with one more component above all others: 1 on the
        edges the test keeps. The current optimum (the hint) is a perfect matching of those
        edges, so the candidate graph always has one; the test passes exactly when the
        optimum keeps to the test on every pair and weighs the best weight."""
        imp = self.imp
        assert imp is not None
        n = self.vertices
        test = mask is not None or block is not None
        live = np.flatnonzero(self.alive)
        mults = list(self.multipliers)
        top = 0
        kept = np.ones(self.us.size, dtype=bool) if mask is None else mask
        if test:
            top = self.max_weight * (n // 2) + 1  # above any matching's total of the rest
            mults = [top, *mults]
        if ((self.max_weight + top) * max(n, 1)).bit_length() > MAX_WEIGHT_BITS:
            raise WeightOverflowError(
                f"fide-dutch tie-break weights need {(self.max_weight + top).bit_length()} "
                f"bits; the compiled solver takes {MAX_WEIGHT_BITS}")

        def listed_rows(idx: np.ndarray) -> np.ndarray:
            rows = self.limbs[:, idx]
            return np.vstack((kept[idx].astype(np.int64), rows)) if test else rows

        def implicit_rows(us: np.ndarray, _vs: np.ndarray) -> np.ndarray:
            rows = imp.col[:, us]
            if not test:
                return rows
            # (the edges inside R are always kept: their lower end is in R)
            keep = np.ones(us.size, dtype=bool) if block is None else (us >= imp.f) | ~block[us]
            return np.vstack((keep.astype(np.int64), rows))

        def benefits(bu: np.ndarray, bv: np.ndarray) -> np.ndarray:
            out = np.empty((len(mults), bu.size), dtype=np.int64)
            at = imp.in_r(bv)
            if at.any():
                out[:, at] = implicit_rows(bu[at], bv[at])
            other = ~at
            if other.any():
                idx = self._edge_at(np.searchsorted(self._keys, bu[other] * n + bv[other]))
                out[:, other] = listed_rows(idx)
            return out

        hard = None if test else block  # a test's block is a component, not a cut

        priced: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (the same every pass)

        def full_pass(sol: exact.Solution, lam: exact._Laminar, narrow: bool
                      ) -> tuple[np.ndarray, np.ndarray, int]:
            if not priced:
                at = live if test or mask is None else live[mask[live]]
                if not test and at.size == self.us.size:
                    # Every listed edge, as they are (the first solve of a big bracket: no
                    # copy of its millions of edges and limbs).
                    priced.append((self.us, self.vs, self.limbs))
                else:
                    priced.append((self.us[at], self.vs[at],
                                   np.ascontiguousarray(listed_rows(at))))
            lu, lv, rows = priced[0]
            bad, slack = exact.price(sol, n, lu, lv, rows, mults, lam, narrow)
            keys = [lu[bad] * n + lv[bad]]
            slacks = [slack]
            more, more_slack, count = imp.violated(sol, lam, narrow, mults, implicit_rows,
                                                   hard if not test else block, top)
            keys.append(more)
            slacks.append(more_slack)
            return np.concatenate(keys), np.concatenate(slacks), int(lu.size) + count

        def blocks(_sol: exact.Solution | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
            # Only when the candidates have no perfect matching after widening: every edge
            # (the first bracket of a round that may have no pairing at all).
            yield self.us[live], self.vs[live]
            rr = np.arange(imp.f, imp.r_end, dtype=np.int64)
            for x in range(imp.r_end):
                u = np.full(rr.size, x, dtype=np.int64)
                ok = imp.is_edge(u, rr) & imp.usable(u, hard)
                if ok.any():
                    yield u[ok], rr[ok]

        def widen() -> tuple[np.ndarray, np.ndarray] | None:
            if imp.near_k >= imp.r_end - imp.f:
                return None
            imp.near_k *= 4
            more = imp.near(imp.near_k)
            more = more[imp.usable(more // n, hard)]
            return more // n, more % n

        cand = live if self.candidate is None else live[self.candidate[live]]
        if not test and mask is not None:
            cand = cand[mask[cand]]
        if not imp.near_k:
            imp.near_k = CANDIDATES_PER_VERTEX
            imp.pool = imp.near(imp.near_k)
        pool = imp.pool[imp.usable(imp.pool // n, hard)]
        hint = np.array([u * n + v for u, v in self.hint], dtype=np.int64)
        keys = exact._unique_sorted(np.concatenate((self.us[cand] * n + self.vs[cand], pool,
                                                    hint)))
        start = None
        if test and self.base is not None and len(self.hint) * 2 == n:
            # The current optimum with the first optimum's duals, each potential raised by
            # the test's component: feasible on every edge (those the test leaves out gain
            # slack), tight on the optimum's pairs the test keeps. The solve re-augments
            # only from the ends of the pairs it leaves out.
            mate = np.empty(n, dtype=np.int64)
            for u, v in self.hint:
                mate[u], mate[v] = v, u
            if self._test_start is None or self._test_start[0] != top:
                # The same raised duals for every test of the bracket (base and top are
                # fixed): their warm-start potentials are converted once, not per solve.
                raised = exact.Solution(mate, [y + 2 * top for y in self.base.y],
                                        self.base.blossoms, self.base.wide)
                self._test_start = (top, raised.y, exact.warm_potentials(raised, n))
            start = exact.Solution(mate, self._test_start[1], self.base.blossoms,
                                   self.base.wide, warm_y=self._test_start[2])
        sol = exact.solve_with_pricing(n, keys // n, keys % n, mults, benefits, blocks,
                                       max_weight=self.max_weight + top,
                                       full_pass=full_pass, widen=widen, start=start)
        if sol is None:
            return None
        pairs = sol.pairs()
        pu = np.array([u for u, _ in pairs], dtype=np.int64)
        pv = np.array([v for _, v in pairs], dtype=np.int64)
        at = imp.in_r(pv)
        imp.pool = np.union1d(imp.pool, pu[at] * n + pv[at])
        if self.candidate is not None and (~at).any():
            self.candidate[self._edge_index([pairs[i] for i in np.flatnonzero(~at)])] = True
        if test:
            if not bool(benefits(pu, pv)[0].all()):
                return None  # the test's edges have no perfect matching
        elif duals:
            self.last = sol
        return self.weight(pairs), set(pairs)

    def sparsify(self, dense: np.ndarray) -> bool:
        """Solve from now on by pricing from a sparse candidate graph (see :func:`_sparse`),
        if the graph is large enough for that to pay; return whether it is."""
        if self.backend != "exact" or self.us.size < PRICING_MIN_EDGES:
            return False  # small enough: solving the whole graph costs less than pricing
        if self.imp is not None and not SPARSE_FOCUS_DENSE:
            dense = np.zeros(self.vertices, dtype=bool)
        self.candidate = _sparse(self.us, self.vs, self.vertices, dense,
                                 CANDIDATES_PER_VERTEX)
        return True

    def _solve_priced(self, idx: np.ndarray) -> exact.Solution | None:
        """The best perfect matching on edges ``idx``, solved on the candidate ones among
        them and priced against the duals (exact: the dual certificate is checked)."""
        n = self.vertices
        if idx.size == self.us.size:  # every edge (the first solve): no copies
            us, vs, limbs = self.us, self.vs, self.limbs
        else:
            us, vs, limbs = self.us[idx], self.vs[idx], self.limbs[:, idx]
        assert self.candidate is not None
        start = self.candidate[idx]

        def benefits(bu: np.ndarray, bv: np.ndarray) -> np.ndarray:
            return self.limbs[:, self._edge_at(np.searchsorted(self._keys, bu * n + bv))]

        def blocks(_sol: exact.Solution | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
            yield us, vs

        def full_pass(sol: exact.Solution, lam: exact._Laminar, narrow: bool
                      ) -> tuple[np.ndarray, np.ndarray, int]:
            bad, slack = exact.price(sol, n, us, vs, limbs, self.multipliers, lam, narrow)
            return us[bad] * n + vs[bad], slack, int(idx.size)

        def widen() -> tuple[np.ndarray, np.ndarray] | None:
            raise _NoCandidateMatching

        try:
            return exact.solve_with_pricing(n, us[start], vs[start], self.multipliers,
                                            benefits, blocks, max_weight=self.max_weight,
                                            full_pass=full_pass, widen=widen)
        except _NoCandidateMatching:
            # The candidates have no perfect matching: solve the whole graph at once (it
            # usually has none either: a rejected tie-break test).
            return exact.solve(n, us, vs, limbs, self.multipliers)

    def _python_weight(self, e: int) -> int:
        return sum(int(self.limbs[j, e]) * m for j, m in enumerate(self.multipliers))

    def _release(self) -> None:
        """Drop the edge arrays (the solver is not used after this)."""
        empty = np.zeros(0, dtype=np.int64)
        self.us = self.vs = self._keys = empty
        self._order = None
        self.limbs = np.zeros((self.limbs.shape[0], 0), dtype=np.int64)
        self.alive = np.zeros(0, dtype=bool)
        self.candidate = None

    def tight(self, sol: exact.Solution, dense: np.ndarray) -> _Solver:
        """The same graph with only the live edges whose reduced cost under ``sol``'s duals
        is zero (``sol`` solved this graph's live edges), solved from then on by pricing
        from a sparse candidate graph: the edges of ``sol``, every edge between two
        ``dense`` vertices and a few edges per vertex."""
        idx = np.flatnonzero(self.alive)
        last = self._last_edges
        if (sol is self.last and sol.tight is not None and last is not None
                and np.array_equal(last, idx)):
            # The dense solver listed them while checking its certificate on these edges.
            keep = idx[sol.tight]
        else:
            # Reduced costs are y_u + y_v + z_uv - 4 w >= 0, in integers. With every dual
            # and weight scaled by 4 and 2 taken from each vertex potential they become
            # 4 r - 4: negative exactly for the tight edges (r = 0), which the compiled
            # pricing loop lists. (The same as 1 added to each scaled weight, without a row
            # of ones stacked under a copy of every limb.)
            scaled = exact.Solution(sol.mate, [4 * y - 2 for y in sol.y],
                                    [(4 * z, m) for z, m in sol.blossoms], True)
            every = idx.size == self.us.size  # (then no copies of the edge arrays)
            if every:
                idx = np.zeros(0, dtype=np.int64)  # (the identity: not kept beside the rest)
            mults = [4 * m for m in self.multipliers]
            # In 128 bits when nothing can overflow (weights of a 100-player round need some
            # 60 bits): the same exact reduced costs, a third cheaper than 256 bits.
            narrow = exact.fits_narrow(scaled, 4 * self.max_weight + 1)
            tight, _slack = exact.price(scaled, self.vertices,
                                        self.us if every else self.us[idx],
                                        self.vs if every else self.vs[idx],
                                        self.limbs if every else self.limbs[:, idx],
                                        mults, narrow=narrow)
            keep = tight if every else idx[tight]
            del tight, _slack
        del idx
        # (the key order and masks first: not alive beside the tight edges' new arrays)
        self._keys = np.zeros(0, dtype=np.int64)
        self._order = self.candidate = None
        self.alive = np.zeros(0, dtype=bool)
        us, vs, limbs = self.us[keep], self.vs[keep], self.limbs[:, keep]
        # The caller replaces this solver by the result (``solver = solver.tight(...)``):
        # its edge arrays are released before the new solver builds its own.
        self._release()
        out = _Solver(self.vertices, us, vs, limbs, self.multipliers, self.backend,
                      self.imp)
        out.solves = self.solves
        out.base = sol
        if not out.sparsify(dense):
            return out
        assert out.candidate is not None
        matched = [(u, int(v)) for u, v in enumerate(sol.mate.tolist()) if u < v]
        if self.imp is not None:
            matched = [(u, v) for u, v in matched if not self.imp.in_r(np.array([v]))[0]]
        out.candidate[out._edge_index(matched)] = True
        return out


class _NoCandidateMatching(Exception):
    """The sparse candidate graph has no perfect matching."""


CANDIDATES_PER_VERTEX = 6
# From this many unpaired players on, a bracket's edges with an end below the next
# scoregroup stay implicit (implicit.py): its graph is the bracket and the next scoregroup.
# Below it a bracket's tie-break tests on the whole graph's tight edges (warm dense solves)
# cost less than implicit solves: at 1,000 players the 610-player bracket of the benchmark
# round took 0.46 CPU s implicit (34 solves) and 0.08 s less listed, with 400 here against
# 650 (the 3,000-player round the same within noise; 700 and 750 no better than 650).
IMPLICIT_MIN_PLAYERS = 650
SPARSE_FOCUS_DENSE = False
# _exchanges lists the exchanges of one size only up to this many; beyond it the first one
# that reaches the optimum is found by _first_exchange.
EXCHANGE_CAP = 20000
PRICING_MIN_EDGES = 20000
BRACKET_CHECK_MIN_EDGES = 3000
# Whether tie-break tests of graphs of BRACKET_CHECK_MIN_EDGES edges and more are first
# settled by the compiled matchings of settle.py (exact either way: off, every undecided test
# goes to _bracket_can_match and a solve; the tests compare both).
SETTLE_TESTS = True


def _sparse(us: np.ndarray, vs: np.ndarray, vertices: int, dense: np.ndarray,
            per_vertex: int) -> np.ndarray:
    """A candidate mask: the edges between two ``dense`` vertices and, for every vertex,
    ``per_vertex`` of its edges (spread over the graph by a fixed hash of the edge).

    Exactly: of each vertex's edges as the lower end ``us``, and again as the upper end
    ``vs``, the ``per_vertex`` first in the order of (hash, edge index). They are found among
    the edges whose hash is below a threshold of one of their ends (a few times ``per_vertex``
    per vertex expected: a small set), not by sorting every edge: a vertex with fewer than
    ``per_vertex`` edges below its threshold (and more edges than that) takes all its edges
    into the set, so the set always holds every edge chosen, and choosing within it picks the
    same ones (:func:`_sparse_sorted`, the tests compare both). The edges are hashed
    :data:`SPARSE_CHUNK` at a time (a few MB of temporaries, not several edge-sized arrays).
    """
    keep = dense[us] & dense[vs]
    if not us.size:
        return keep
    full = 1 << 32
    wanted = SPARSE_PREFILTER * per_vertex
    limits, needs = [], []
    for ends in (us, vs):
        degree = np.bincount(ends, minlength=vertices)
        # Per vertex, a threshold leaving about ``wanted`` of its edges below it (all of
        # them when it has few); a vertex with fewer than per_vertex below takes all.
        limits.append(np.where(degree <= wanted, full,
                               (wanted * full) // np.maximum(degree, 1)))
        needs.append(np.minimum(degree, per_vertex))
    counted = [np.zeros(vertices, dtype=np.int64), np.zeros(vertices, dtype=np.int64)]
    picked: list[np.ndarray] = []
    for start in range(0, us.size, SPARSE_CHUNK):
        cu, cv = us[start:start + SPARSE_CHUNK], vs[start:start + SPARSE_CHUNK]
        key = _edge_hash(cu, cv, vertices)
        under_u = key < limits[0][cu]
        under_v = key < limits[1][cv]
        counted[0] += np.bincount(cu[under_u], minlength=vertices)
        counted[1] += np.bincount(cv[under_v], minlength=vertices)
        picked.append(start + np.flatnonzero(under_u | under_v))
    lacking = [c < need for c, need in zip(counted, needs, strict=True)]
    if lacking[0].any() or lacking[1].any():
        # (rare: the hash left some vertex short below its threshold) all its edges too
        picked += [np.flatnonzero(lacking[0][us] | lacking[1][vs])]
        at = np.unique(np.concatenate(picked))
    else:
        at = np.concatenate(picked)
    su, sv = us[at], vs[at]
    keep[at[_sparse_sorted(su, sv, _edge_hash(su, sv, vertices), per_vertex)]] = True
    return keep


def _edge_hash(us: np.ndarray, vs: np.ndarray, vertices: int) -> np.ndarray:
    """A fixed multiplicative hash of each edge, below 2**32: deterministic, and spread over
    the whole field, so the candidate graph is well connected (it need not be: pricing adds
    what is missing)."""
    key = us * vertices  # (in place from here: one edge-sized temporary, not four)
    key += vs
    key *= 2654435761
    key %= 1 << 32
    return key


def _sparse_sorted(us: np.ndarray, vs: np.ndarray, key: np.ndarray, per_vertex: int
                   ) -> np.ndarray:
    """Of each vertex's edges as ``us``, and again as ``vs``, the ``per_vertex`` first in the
    order of (``key``, edge index), as a mask: by sorting every edge."""
    keep = np.zeros(us.size, dtype=bool)
    order = np.argsort(key, kind="stable")
    for ends in (us, vs):
        sorted_ends = ends[order]
        idx = np.argsort(sorted_ends, kind="stable")
        grouped = sorted_ends[idx]
        rank = np.arange(grouped.size) - np.searchsorted(grouped, grouped, side="left")
        keep[order[idx[rank < per_vertex]]] = True
    return keep


# _sparse's threshold: about this many times ``per_vertex`` edges per vertex below it.
SPARSE_PREFILTER = 4
SPARSE_CHUNK = 1 << 20  # edges hashed at a time by _sparse
