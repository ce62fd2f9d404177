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

This module pairs the brackets in turn (:func:`pair_brackets`, :func:`_pair_bracket`); the
parts it drives are modules of their own, each importing only those below it (an
import-linter contract in pyproject.toml):

* :mod:`~swiss.pairing.fide_dutch.exchange`: D.2's exchanges, listed or found by matchings;
  :mod:`~swiss.pairing.fide_dutch.completion`: the 2017 edition's round-pairing outlook (A.9);
* :mod:`~swiss.pairing.fide_dutch.tiebreak`: the tie-break tests (keep a constraint only if
  the optimum survives it), helped by :mod:`~swiss.pairing.fide_dutch.settle`;
  :mod:`~swiss.pairing.fide_dutch.memory`: the memory budget of a round and of a bracket;
* :mod:`~swiss.pairing.fide_dutch.solver`: a bracket's graph and its exact solves (sparse
  :mod:`~swiss.pairing.fide_dutch.candidates`, :mod:`~swiss.pairing.fide_dutch.implicit`
  edges);
* :mod:`~swiss.pairing.fide_dutch.context`: the round's context and one pair's rules (C1, C3,
  the colours E.1-E.5); :mod:`~swiss.pairing.fide_dutch.packing`: the weights packed into
  limbs;
* :mod:`~swiss.pairing.fide_dutch.edges`: the bracket graphs' edges and weight components,
  all pairs at once (their colour terms: :mod:`~swiss.pairing.fide_dutch.colours`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from swiss.pairing.fide_dutch.completion import alone_quality, completable, quality
from swiss.pairing.fide_dutch.context import (
    BYE,
    Context,
    Decision,
    NoPairing,
    allocate_ranked,
)
from swiss.pairing.fide_dutch.edges import (
    BracketGraph,
    RoundArrays,
    bracket_graph,
    round_arrays,
)
from swiss.pairing.fide_dutch.exchange import exchanges, first_exchange
from swiss.pairing.fide_dutch.implicit import Implicit
from swiss.pairing.fide_dutch.memory import (
    BYTES_PER_EDGE,
    check_bracket_memory,
    check_round_memory,
)
from swiss.pairing.fide_dutch.packing import pack
from swiss.pairing.fide_dutch.solver import Mask, Solver, mate_map
from swiss.pairing.fide_dutch.tiebreak import Pin, TieBreak

# The packed weights of a bracket: below the compiled solver's 2**240 with room for what
# the tie-break tests add on top (a penalty component, about log2(n) bits; D.2 by
# matchings, about 3 log2(n) + log2(n) more): 170 bits. Big rounds need more than 125
# (10,000 players after 6 rounds: 126 bits in a middle bracket).
EXACT_MAX_WEIGHT = 2**170
# From this many unpaired players on, a bracket's edges with an end below the next
# scoregroup stay implicit (implicit.py): its graph is the bracket and the next scoregroup.
# Below it a bracket's tie-break tests on the whole graph's tight edges (warm dense solves)
# cost less than implicit solves: at 1,000 players the 610-player bracket of the benchmark
# round took 0.46 CPU s implicit (34 solves) and 0.08 s less listed, with 400 here against
# 650 (the 3,000-player round the same within noise; 700 and 750 no better than 650).
IMPLICIT_MIN_PLAYERS = 650


def pair_brackets(
    ctx: Context, to_pair: Sequence[int]
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
    check_round_memory(ctx, order, len(order) >= IMPLICIT_MIN_PLAYERS and ctx.backend == "exact")
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
                ppb = not completable(ra, [p for p in unpaired if p not in paired])
            else:
                # The following bracket is the last one: its pairing completes the round,
                # the PAB to a player C.2 allows, so C.7 looks at it completed. The bracket
                # is the PPB when completion costs it pairs or PSD (C.5, C.6).
                pairs, floaters, bye_player = _pair_bracket(ctx, ra, unpaired, bracket,
                                                            set(movers), nxt)
                ppb = quality(ctx, bracket, pairs, floaters) > alone_quality(ctx, bracket)
            if ppb:
                collapsed = True
                pairs, floaters, bye_player = _pair_bracket(ctx, ra, unpaired, bracket,
                                                            set(movers), [])
        else:
            pairs, floaters, bye_player = _pair_bracket(ctx, ra, unpaired, bracket,
                                                        set(movers), nxt)
        for a, b in pairs:  # (a ranks above b: see _pair_bracket)
            games.append(allocate_ranked(ctx.players[a], ctx.players[b], ctx.initial))
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


def _pair_bracket(
    ctx: Context, ra: RoundArrays, unpaired: list[int], bracket: list[int], movers: set[int],
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
        check_bracket_memory(len(in_b) + len(nxt), "this bracket and the next scoregroup")
    elif n >= IMPLICIT_MIN_PLAYERS and not sinks:
        # Every pair of the players still unpaired listed, in a big round (the last
        # brackets, a 2017 collapsed last bracket): smaller rounds were counted whole by
        # check_round_memory, and smaller sink graphs are small.
        check_bracket_memory(n, "the players still unpaired", BYTES_PER_EDGE)
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

    def solve(pab_unplayed: bool) -> tuple[BracketGraph, Solver,
                                           tuple[int, set[tuple[int, int]]] | None]:
        graph = bracket_graph(ra, unpaired, bracket, movers, nxt, ctx.rules, ctx.scale,
                              sinks=sinks, pab_unplayed=pab_unplayed, implicit=implicit)
        # The same bound whatever the backend: the same pairing from each.
        # (the limbs of the columns of graph.comps: each edge's are gathered below, once)
        packed, multipliers = pack(graph, EXACT_MAX_WEIGHT, expand=False)
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
        solver = Solver(vertices, us, vs, limbs, multipliers, ctx.backend, imp)
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
            and _decides_pab(ra, mate_map(found[1]), unpaired, in_b, bye_v)):
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
    mate = mate_map(mates)

    def partner(pid: int, m: dict[int, int]) -> int | None:
        v = m[index[pid]]
        return None if v == bye_v or v >= n else unpaired[v]

    # Tie-break: the first candidate in the Handbook's order (transpositions, exchanges).
    is_b = np.zeros(vertices, dtype=bool)
    is_b[[index[x] for x in in_b]] = True
    search = TieBreak(solver, best_w, mate, vertices, is_b)

    def pin(p: int, q: int | None) -> Mask:
        return Pin(index[p], None if q is None else index[q], is_b)

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
        for s1x, s2x in exchanges(s1, s2, res):
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
            # Only when exchanges stopped at a size of more than EXCHANGE_CAP exchanges
            # (seen in collapsed last brackets of mixed scores): the first exchange in the
            # Handbook's order that reaches the optimum, found by matchings instead.
            s1x, s2x = first_exchange(search, res, s1, index)
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

