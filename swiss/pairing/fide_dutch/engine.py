"""The FIDE Dutch system (C.04.3, 2025 and 2017 editions) by maximum weight matching.

Brackets are paired from the top score down, as the rules say. For each bracket ``B`` (the
moved-down players plus the residents of the next score group) one maximum weight matching is
solved on *all* players still unpaired (plus a bye vertex when their number is odd). Its edge
weights are lexicographic vectors (seed 004, Biró, Fleiner and Palincza), highest first:

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from swiss.model import Color
from swiss.pairing.fide_dutch.players import DutchPlayer
from swiss.pairing.matching import (
    RUSTWORKX_MAX_WEIGHT,
    WeightOverflowError,
    max_weight_matching,
)
from swiss.state import Float

BYE = -1  # the bye vertex's player id



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
        # E.3: alternate to the most recent round in which they had different colours.
        for ch, cl in zip(reversed(hi.history), reversed(lo.history), strict=False):
            if ch is not Color.NONE and cl is not Color.NONE and ch != cl:
                return ch.opposite
        # E.4: the higher ranked player's preference.
        return hi.pref
    # E.5: no preferences: odd pairing number gets the initial colour.
    return initial if hi.seed % 2 == 1 else initial.opposite


@dataclass(slots=True)
class _Context:
    players: dict[int, DutchPlayer]
    forbidden: Callable[[int, int], bool]
    initial: Color
    rules: str
    scale: int  # scores * scale are integers
    backend: str


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


def _colour_terms(ctx: _Context, a: DutchPlayer, b: DutchPlayer) -> tuple[int, int, int, int]:
    """(C8 topscorer |cd|>2, C9 topscorer 3 in a row, C10 pref not met, C11 strong not met)."""
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
    order = sorted(to_pair, key=lambda pid: ctx.players[pid].rank_key())
    unpaired: list[int] = list(order)
    games: list[tuple[int, int]] = []
    decisions: list[Decision] = []
    pab: int | None = None
    movers: list[int] = []
    if not order:
        return games, pab, decisions
    _check_complete(ctx, unpaired)
    while unpaired:
        residents_score = max(ctx.players[p].score for p in unpaired if p not in movers)
        residents = [p for p in unpaired
                     if ctx.players[p].score == residents_score and p not in movers]
        bracket = sorted(movers + residents, key=lambda pid: ctx.players[pid].rank_key())
        rest = [p for p in unpaired if p not in bracket]
        if rest:
            next_score = max(ctx.players[p].score for p in rest)
            nxt = [p for p in rest if ctx.players[p].score == next_score]
        else:
            nxt = []
        pairs, floaters, bye_player = _pair_bracket(ctx, unpaired, bracket, set(movers), nxt)
        for a, b in pairs:
            games.append(allocate(ctx.players[a], ctx.players[b], ctx.initial, ctx.rules))
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


def _check_complete(ctx: _Context, unpaired: list[int]) -> None:
    edges = _plain_edges(ctx, unpaired)
    n = len(unpaired) + (len(unpaired) % 2)
    mates = max_weight_matching(n, edges, "rustworkx" if ctx.backend == "auto"
                                else ctx.backend)  # type: ignore[arg-type]
    if len(mates) * 2 < n:
        raise NoPairing(
            "no pairing satisfies the absolute criteria (no rematch C1, no second "
            "pairing-allocated bye C2, absolute colour preferences C3)")


def _plain_edges(ctx: _Context, unpaired: list[int]) -> list[tuple[int, int, int]]:
    edges = []
    for i, a in enumerate(unpaired):
        pa = ctx.players[a]
        for j in range(i + 1, len(unpaired)):
            if allowed(pa, ctx.players[unpaired[j]], ctx.forbidden):
                edges.append((i, j, 1))
        if len(unpaired) % 2 and pa.can_pab:
            edges.append((i, len(unpaired), 1))
    return edges


def _levels(values: list[Fraction]) -> list[Fraction]:
    return sorted(set(values), reverse=True)


def _pair_bracket(
    ctx: _Context, unpaired: list[int], bracket: list[int], movers: set[int], nxt: list[int]
) -> tuple[list[tuple[int, int]], list[int], int | None]:
    """Pair one bracket: its pairs, its downfloaters (incl. a bye) and the PAB player."""
    P = ctx.players
    in_b = set(bracket)
    in_n = set(nxt)
    n = len(unpaired)
    odd = n % 2 == 1
    index = {pid: i for i, pid in enumerate(unpaired)}
    vertices = n + (1 if odd else 0)
    bye_v = n if odd else -1
    min_b = min(P[p].score for p in bracket)
    min_n = min((P[p].score for p in nxt), default=Fraction(0))
    one = Fraction(1)

    # Candidate edges with their raw component vectors.
    raw: list[tuple[int, int, list[int]]] = []
    psd_b_vals: list[Fraction] = []
    psd_n_vals: list[Fraction] = []
    cand: list[tuple[int, int | None]] = []
    for i, a in enumerate(unpaired):
        pa = P[a]
        for j in range(i + 1, n):
            b = unpaired[j]
            if allowed(pa, P[b], ctx.forbidden):
                cand.append((a, b))
        if odd and pa.can_pab:
            cand.append((a, None))
    # PSD values per edge.
    def psd_b(a: int, b: int | None) -> Fraction | None:
        if a in in_b and b is not None and b in in_b:
            return abs(P[a].score - P[b].score)
        if a in in_b:
            return P[a].score - min_b + one
        if b is not None and b in in_b:
            return P[b].score - min_b + one
        return None

    def psd_n(a: int, b: int | None) -> Fraction | None:
        if not nxt:
            return None
        nb = in_b | in_n
        a_in, b_in = a in nb, b is not None and b in nb
        if not (a in in_n or (b is not None and b in in_n)):
            return None
        if a_in and b_in:
            assert b is not None
            return abs(P[a].score - P[b].score)
        x = a if a in in_n else b
        assert x is not None
        return P[x].score - min_n + one

    for a, b in cand:
        v = psd_b(a, b)
        if v is not None:
            psd_b_vals.append(v)
        v = psd_n(a, b)
        if v is not None:
            psd_n_vals.append(v)
    lv_b = _levels(psd_b_vals)
    lv_n = _levels(psd_n_vals)
    for a, b in cand:
        comps: list[int] = []
        both_b = a in in_b and b is not None and b in in_b
        comps.append(int(both_b))  # C5
        v = psd_b(a, b)
        comps.extend(int(v is None or v != lv) for lv in lv_b)  # C6, as benefits
        # C7: pairs of the next bracket (downfloaters of B with next residents, or residents)
        nb = in_b | in_n
        next_pair = (b is not None and a in nb and b in nb and not both_b
                     and (a in in_n or b in in_n))
        comps.append(int(next_pair))
        v = psd_n(a, b)
        comps.extend(int(v is None or v != lv) for lv in lv_n)
        # C8-C19 on what this bracket decides.
        c8 = c9 = c10 = c11 = 0
        fl = [0, 0, 0, 0]
        fd = [0, 0, 0, 0]
        if both_b:
            assert b is not None
            c8, c9, c10, c11 = _colour_terms(ctx, P[a], P[b])
            sa, sb = P[a].score, P[b].score
            if sa != sb:
                hi, lo = (a, b) if P[a].rank_key() < P[b].rank_key() else (b, a)
                diff = int(abs(sa - sb) * ctx.scale)
                for who, kind in ((hi, Float.DOWN), (lo, Float.UP)):
                    terms = _float_after(P[who], kind)
                    for k in range(4):
                        fl[k] += terms[k]
                        fd[k] += terms[k] * diff
        elif a in in_b or (b is not None and b in in_b):
            x = a if a in in_b else b
            assert x is not None
            terms = _float_after(P[x], Float.DOWN)
            for k in range(4):
                fl[k] += terms[k]
        comps.extend([2 - c8, 2 - c9, 2 - c10, 2 - c11])
        comps.extend(2 - t for t in fl)
        big = 2 * int(max((P[p].score for p in unpaired), default=Fraction(0)) * ctx.scale + 1)
        comps.extend(big - t for t in fd)
        raw.append((index[a], bye_v if b is None else index[b], comps))

    edges = _pack(raw, vertices)
    solver = _Solver(vertices, edges, ctx.backend)
    best_w, mates = solver.solve({})
    if len(mates) * 2 < vertices:
        raise NoPairing("no pairing satisfies the absolute criteria and completion (C1-C4)")

    mate = _mate_map(mates)

    def partner(pid: int, m: dict[int, int]) -> int | None:
        v = m[index[pid]]
        return None if v == bye_v else unpaired[v]

    # Tie-break: the Handbook's order of transpositions and exchanges, greedily.
    pinned: dict[int, int | None] = {}  # vertex -> partner vertex, or None: must float
    fixed_pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    done: set[int] = set()
    bracket_pairs_total = sum(
        1 for p in bracket if (q := partner(p, mate)) is not None and q in in_b) // 2
    in_b_idx = {index[x] for x in in_b}
    for p in bracket:
        if p in done:
            continue
        # Candidate partners for p in order.
        free = [q for q in bracket if q not in done and q != p]
        if p in movers:
            cands = [q for q in free if q not in movers] + [q for q in free if q in movers]
        else:
            res = [q for q in bracket if q not in movers and q not in done]
            fixed_res_pairs = sum(1 for x, y in fixed_pairs if x not in movers and y not in movers)
            mover_pairs = sum(1 for x, y in fixed_pairs if x in movers or y in movers)
            remainder_pairs = bracket_pairs_total - fixed_res_pairs - mover_pairs
            s1 = res[:remainder_pairs]
            s2 = res[remainder_pairs:]
            if p in s1:
                below = [q for q in s1 if q != p and res.index(q) > res.index(p)]
                cands = [q for q in s2] + list(reversed(below))
            else:
                cands = [q for q in s2 if q != p]
        chosen: int | None | str = "none"
        for q in [*cands, None]:
            if q is None:
                trial = dict(pinned)
                trial[index[p]] = None
            else:
                trial = dict(pinned)
                trial[index[p]] = index[q]
                trial[index[q]] = index[p]
            cur = partner(p, mate)
            cur_ok = (q is None and (cur is None or cur not in in_b)) or (q is not None
                                                                           and cur == q)
            if cur_ok and _respects(mate, trial, in_b_idx):
                chosen = q
                pinned = trial
                break
            w, m2 = solver.solve(trial, in_b_idx)
            if len(m2) * 2 == vertices and w == best_w:
                chosen = q
                pinned = trial
                mate = _mate_map(m2)
                break
        if chosen == "none":
            raise NoPairing("internal: tie-break found no optimal candidate")
        done.add(p)
        if chosen is None:
            floaters.append(p)
        else:
            assert isinstance(chosen, int)
            done.add(chosen)
            fixed_pairs.append((p, chosen))
    bye_player = None
    for p in floaters:
        if odd and mate[index[p]] == bye_v and not [q for q in unpaired if q not in in_b]:
            bye_player = p
    return fixed_pairs, floaters, bye_player


def _respects(mate: dict[int, int], pins: dict[int, int | None], in_b: set[int]) -> bool:
    for v, w in pins.items():
        if w is None:
            if mate[v] in in_b:
                return False
        elif mate[v] != w:
            return False
    return True


def _mate_map(mates: set[tuple[int, int]]) -> dict[int, int]:
    m: dict[int, int] = {}
    for u, v in mates:
        m[u] = v
        m[v] = u
    return m


def _pack(raw: list[tuple[int, int, list[int]]], vertices: int) -> list[tuple[int, int, int]]:
    """Pack component vectors into exact integers (lexicographic order preserved).

    Every perfect matching has ``vertices // 2`` edges, so shifting a component by its
    minimum over the edges changes every matching's total by the same amount: only the range
    of each component costs bits, and constant components cost none.
    """
    if not raw:
        return []
    width = len(raw[0][2])
    pairs = vertices // 2
    lows = [min(r[2][k] for r in raw) for k in range(width)]
    spans = [max(r[2][k] for r in raw) - lows[k] for k in range(width)]
    live = [k for k in range(width) if spans[k] > 0]
    mult: dict[int, int] = {}
    m = 1
    for k in reversed(live):
        mult[k] = m
        m *= pairs * spans[k] + 1
    edges = []
    for u, v, comps in raw:
        w = sum((comps[k] - lows[k]) * mult[k] for k in live) + 1
        edges.append((u, v, w))
    if m > RUSTWORKX_MAX_WEIGHT:
        raise WeightOverflowError(
            f"fide-dutch weights need {m.bit_length()} bits for this bracket "
            f"({vertices} vertices, {len(live)} live components); the exact matching backend "
            f"takes {RUSTWORKX_MAX_WEIGHT.bit_length() - 1}")
    return edges


class _Solver:
    """One bracket's weighted graph, solved with some vertices pinned."""

    def __init__(self, vertices: int, edges: list[tuple[int, int, int]], backend: str) -> None:
        self.vertices = vertices
        self.edges = edges
        self.backend = "rustworkx" if backend == "auto" else backend

    def solve(self, pins: dict[int, int | None],
              in_b: set[int] | None = None) -> tuple[int, set[tuple[int, int]]]:
        if pins:
            keep = []
            for u, v, w in self.edges:
                ok = True
                for x, y in ((u, v), (v, u)):
                    if x in pins:
                        target = pins[x]
                        if target is None:
                            if in_b is not None and y in in_b:
                                ok = False
                        elif target != y:
                            ok = False
                if ok:
                    keep.append((u, v, w))
            edges = keep
        else:
            edges = self.edges
        mates = max_weight_matching(self.vertices, edges, self.backend)  # type: ignore[arg-type]
        weight_of = {(min(u, v), max(u, v)): w for u, v, w in edges}
        return sum(weight_of[m] for m in mates), mates
