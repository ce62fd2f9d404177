"""One round's exact pairing without building the full graph: candidates, then pricing.

The candidate graph holds, for every player, the ``w`` nearest players in the standings (so
that a perfect matching usually exists among them), the players around the mirrored position
(Burstein) or half a group away (Dutch) in the score group, where the system's terms pull
(for the random systems: each player's partners with the largest draws in its group), the
same per colour class that the colour bound lets it meet, in its group and in the blocks of
two adjacent groups (:func:`colour_partner_candidates`), where the colour bound forces floats
the partners those floats meet (:func:`float_partner_candidates`,
:func:`standings_colour_candidates`), within :data:`CANDIDATES_PER_PLAYER` edges per player,
optionally the ``k`` partners with the largest weight (approximated in floating point), and
every allowed bye edge. The choice of candidates only affects speed, never the result.
:func:`swiss.pairing.exact.solve_with_pricing`
solves it exactly and prices every allowed pairing of the full graph against the dual
solution, adding the violated ones until none is: the result is a maximum weight matching of
the full graph, with the same weights as the dense engine. When the candidates admit no
perfect matching, ``k`` and ``w`` are doubled, up to the full graph.
"""

from __future__ import annotations

import numpy as np

from swiss.pairing.exact import Solution, solve_with_pricing
from swiss.pairing.weights import RoundModel

TOP_K = 0
WINDOW = 8
# The random systems' own window: their candidates are each player's best draws (below), and
# the standings' neighbours only keep the cross-group pairs a round past the first needs;
# at round 1 they were half of the first solve's edges for nothing (10,000 players, CPU s of
# the solves: random 0.27 -> 0.17, random2 0.28 -> 0.14; 3,000 players, round 7: the same).
WINDOWS: dict[str, int] = {"random": 4, "random2": 4}
_ROW_PAIRS = 1 << 20
# Which in-group positions each system's terms pull towards (others: both). Candidates only
# change the speed, never the result; the other system's target only made every solve larger
# (3,000 players, round 7, CPU seconds: Burstein 6.7 -> 4.7, Dutch 3.0 -> 1.8, Monrad
# 1.3 -> 0.8).
TARGETS: dict[str, tuple[str, ...]] = {"burstein": ("mirror",), "dutch": ("half",), "monrad": (),
                                       "random": (), "random2": ()}


# Partners per colour class and block in colour_partner_candidates: at 10,000 players (round
# 7, Burstein) 4 gave 496,000 candidate edges and 42 CPU s, 10 gave 787,000 edges and 56 s
# (fewer solves, each dearer), none 374,000 edges and 44 s.
COLOUR_PARTNERS = 4
# The float candidates (float_partner_candidates, standings_colour_candidates) are added when
# the colour bound forces more than one player in FLOATS_FROM out of their score groups
# (forced_colour_floats). 1,000 players, round 7: 361 forced on the `dutch` history (26 -> 10
# solves for Burstein), 68 on `draws`, 1 on `project` and 0 on `random`, where the extra
# edges only made the 2-3 solves dearer (Burstein 0.42 -> 0.70 CPU s).
FLOATS_FROM = 50
# The stated bounds of a round's graphs, in edges per player (n the players): the candidate
# graph holds at most CANDIDATES_PER_PLAYER x n edges (the nearest players and the system's
# targets, about 10-50 per player, come first; the colour classes' candidates fill the rest
# up to it), and the graph a solve runs on at most GRAPH_PER_PLAYER x n (exact.solve_with_pricing's
# max_edges: past it, it keeps the edges tight under the duals). Measured on every history
# shape at 1,000-10,000 players: 10-60 candidate edges per player, 1-30 more priced in.
CANDIDATES_PER_PLAYER = 120
GRAPH_PER_PLAYER = 160


def candidate_edges(model: RoundModel, k: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Edges ``(us, vs)``, ``us < vs``: each player's top ``k`` and nearest ``w`` partners."""
    n = model.n
    parts_u: list[np.ndarray] = []
    parts_v: list[np.ndarray] = []
    if model.has_bye:
        us = np.arange(n, dtype=np.int64)
        vs = np.full(n, n, dtype=np.int64)
        keep = model.allowed(us, vs)
        parts_u.append(us[keep])
        parts_v.append(vs[keep])
    # The standings' neighbours.
    for step in range(1, min(w, n - 1) + 1):
        us = np.arange(n - step, dtype=np.int64)
        vs = us + step
        keep = model.allowed(us, vs)
        parts_u.append(us[keep])
        parts_v.append(vs[keep])
    # Inside each score group, the partners the systems' terms favour: the mirrored position
    # (Burstein: first against last) and half a group away (Dutch: S1 against S2), +- w.
    if n > 1:
        score = model.score
        starts = np.r_[0, np.flatnonzero(np.diff(score)) + 1]
        sizes = np.diff(np.r_[starts, n])
        group = np.repeat(np.arange(sizes.size), sizes)
        first, size = starts[group], sizes[group]
        pos = np.arange(n) - first
        targets = {"mirror": size - 1 - pos, "half": (pos + size // 2) % np.maximum(size, 1)}
        for name in TARGETS.get(model.system, ("mirror", "half")):
            target = targets[name]
            for shift in range(-w, w + 1):
                other = first + np.clip(target + shift, 0, size - 1)
                us, vs = np.minimum(np.arange(n), other), np.maximum(np.arange(n), other)
                keep = us != vs
                us, vs = us[keep], vs[keep]
                keep = model.allowed(us, vs)
                parts_u.append(us[keep])
                parts_v.append(vs[keep])
    if model.colors and n > 1 and model.system in ("burstein", "dutch", "monrad"):
        found = colour_partner_candidates(model)
        if forced_colour_floats(model) * FLOATS_FROM > model.n:
            found += float_partner_candidates(model) + standings_colour_candidates(model)
        # The colour classes' candidates only speed the solve up: they are taken while the
        # candidate graph stays within CANDIDATES_PER_PLAYER edges per player (many colour
        # classes, as after a long event with uneven colours, would otherwise multiply them).
        budget = CANDIDATES_PER_PLAYER * n - sum(part.size for part in parts_u)
        for us, vs in found:
            if us.size > budget:
                break
            budget -= us.size
            parts_u.append(us)
            parts_v.append(vs)
    if model.system in ("random", "random2") and n > 1:
        # The random systems' optimum sits on high draws, which no position in the standings
        # predicts: each player's best draws in its score group (made with the draws).
        partners = model.random_draws()[2]
        parts_u.append(partners[0])
        parts_v.append(partners[1])
    # Each player's best partners by (approximate) weight.
    if k > 0 and n > 2:
        scale = np.array([float(m) for m in model.multipliers])
        kk = min(k, n - 2)
        rows = max(1, _ROW_PAIRS // n)
        cols = np.arange(n, dtype=np.int64)
        for start in range(0, n, rows):
            r = np.arange(start, min(n, start + rows), dtype=np.int64)
            uu = np.repeat(r, n)
            vv = np.tile(cols, r.size)
            lo, hi = np.minimum(uu, vv), np.maximum(uu, vv)
            valid = (lo != hi)
            valid[valid] = model.allowed(lo[valid], hi[valid])
            approx = np.full(uu.size, -np.inf)
            if valid.any():
                ben = model.benefits(lo[valid], hi[valid]).astype(np.float64)
                approx[valid] = scale @ ben
            approx = approx.reshape(r.size, n)
            best = np.argpartition(-approx, kk, axis=1)[:, :kk]
            good = np.isfinite(np.take_along_axis(approx, best, axis=1))
            bu = np.repeat(r, kk).reshape(r.size, kk)[good]
            bv = best[good].astype(np.int64)
            parts_u.append(np.minimum(bu, bv))
            parts_v.append(np.maximum(bu, bv))
    if not parts_u:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(parts_u), np.concatenate(parts_v)


def colour_partner_candidates(model: RoundModel) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each player's partners in every colour class it can meet within the colour bound,
    around the position the system's terms pull towards, inside its score group and inside
    the two blocks of two adjacent score groups that hold it.

    The colour bound and the colour term outrank the system's terms. When a score group's
    colour differences are uneven (many +2 beside few -2, as after rounds of Dutch-like
    pairings), its surplus floats to a neighbouring group and meets the complementary class
    there, at the system's target of the two groups together: neither the standings'
    neighbours nor the in-group target hold those pairs, and pricing then adds them a few at
    a time (at 1,000 players 20-40 solves instead of 2-10). At most ``3 x classes x
    COLOUR_PARTNERS`` edges per player, ``classes`` being the distinct colour differences (a
    handful): linear in the players.
    """
    n = model.n
    score, cd = model.score[:n], model.cd[:n]
    starts = np.r_[0, np.flatnonzero(np.diff(score)) + 1]
    group = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    classes = np.unique(cd)
    if classes.size == 1:  # one colour class (round 1): the in-group targets hold these
        return []
    cls = np.searchsorted(classes, cd)
    players = np.arange(n, dtype=np.int64)
    aim = (TARGETS.get(model.system) or ("own",))[0]
    out = []
    # the score group itself, then blocks of groups (0, 1), (2, 3)..., then (1, 2), (3, 4)...
    for block in (group, group // 2, (group + 1) // 2):
        first = np.r_[0, np.flatnonzero(np.diff(block)) + 1]
        size = np.diff(np.r_[first, n])[block]
        pos = players - first[block]
        target = {"mirror": size - 1 - pos, "half": (pos + size // 2) % size}.get(aim, pos)
        # players ordered by (block, colour class, position): one sorted key to search
        key = (block * classes.size + cls) * n + pos
        order = np.argsort(key, kind="stable")
        for other in range(classes.size):
            fits = np.abs(cd + classes[other]) < model.bound
            segment = block[fits] * classes.size + other
            out += _nearest_in_segment(model, key[order], order, players[fits], segment,
                                       segment * n + target[fits], COLOUR_PARTNERS // 2)
    return out


def _colour_classes(model: RoundModel) -> tuple[np.ndarray, np.ndarray]:
    """The distinct colour differences of the round and each player's index among them."""
    cd = model.cd[: model.n]
    classes = np.unique(cd)
    return classes, np.searchsorted(classes, cd)


def forced_colour_floats(model: RoundModel) -> int:
    """How many players the colour bound forces out of their score groups, at least.

    Players whose colour difference is at least half the bound (``2 cd >= bound``) cannot meet
    one another, nor can those at minus half of it; inside a group of ``s`` players, at most
    ``s - |P|`` of such a side ``P`` find a partner. The excess, summed over groups and sides.
    """
    n = model.n
    if n < 2:
        return 0
    score, cd = model.score[:n], model.cd[:n]
    starts = np.r_[0, np.flatnonzero(np.diff(score)) + 1]
    group = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    size = np.bincount(group)
    excess = 0
    for side in (cd, -cd):
        count = np.bincount(group, weights=2 * side >= model.bound, minlength=size.size)
        excess += int(np.maximum(0, 2 * count - size).sum())
    return excess


def float_partner_candidates(model: RoundModel) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each player's partners in the colour classes it can meet in the two neighbouring score
    groups, chosen by rank inside the classes.

    When the colour bound floats part of a class from one score group into the next, the
    floaters meet the other group's complementary class in an order the system's terms set:
    mirrored (Burstein: the first floater against the last partner) or in parallel (Dutch,
    Monrad). Which part floats depends on counts that the whole round decides, so a player
    ranked ``r`` in its class of ``a`` players of its group gets the partners ranked ``r``,
    ``a - 1 - r``, ``b - 1 - r`` and ``b - a + r`` (+- :data:`COLOUR_PARTNERS` / 2) in each
    class of ``b`` players it can meet in the groups above and below: the patterns of a whole
    class floating, or a whole class receiving. At most ``2 x classes x 4 x COLOUR_PARTNERS``
    edges per player. (At 1,000 players, `dutch` history, round 7: with
    :func:`standings_colour_candidates`, 26 -> 10 solves for Burstein, 25 -> 17 for Dutch,
    17 -> 7 for Monrad.)
    """
    n = model.n
    classes, cls = _colour_classes(model)
    if classes.size == 1 or n < 2:
        return []
    count = classes.size
    score = model.score[:n]
    starts = np.r_[0, np.flatnonzero(np.diff(score)) + 1]
    group = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    segment = group * count + cls
    order = np.argsort(segment, kind="stable")  # by segment, then by rank
    sizes = np.bincount(segment, minlength=starts.size * count)
    first = np.r_[0, np.cumsum(sizes)[:-1]]
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - first[segment[order]]
    players = np.arange(n, dtype=np.int64)
    out = []
    for step in (-1, 1):
        other_group = group + step
        inside = (other_group >= 0) & (other_group < starts.size)
        for other in range(count):
            fits = inside & (np.abs(model.cd[:n] + classes[other]) < model.bound)
            us = players[fits]
            target_segment = other_group[fits] * count + other
            b = sizes[target_segment]
            keep = b > 0
            us, target_segment, b = us[keep], target_segment[keep], b[keep]
            r, a = rank[us], sizes[segment[us]]
            for aim in (r, a - 1 - r, b - 1 - r, b - a + r):
                for shift in range(-(COLOUR_PARTNERS // 2), COLOUR_PARTNERS // 2):
                    at = np.clip(aim + shift, 0, b - 1)
                    out.append(_allowed_pairs(model, us, order[first[target_segment] + at]))
    return out


def standings_colour_candidates(model: RoundModel) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each player's partners in every colour class it can meet, nearest its own place and
    the mirrored place (``n - 1 - i``) in the whole standings.

    When the colour bound outranks the score difference, the classes that cannot meet inside
    the top groups (many +2 and +4 there, the -2 and -4 at the bottom) float across the whole
    standings, the top of one side against the bottom or the nearest of the other: no score
    group or pair of groups holds those pairs. ``classes x 2 x COLOUR_PARTNERS`` edges per
    player at most.
    """
    n = model.n
    classes, cls = _colour_classes(model)
    if classes.size == 1 or n < 2:
        return []
    players = np.arange(n, dtype=np.int64)
    key = cls * n + players
    order = np.argsort(key, kind="stable")
    keys = key[order]
    out = []
    for target in (n - 1 - players, players):
        for other in range(classes.size):
            fits = np.abs(model.cd[:n] + classes[other]) < model.bound
            us = players[fits]
            out += _nearest_in_segment(model, keys, order, us, np.full(us.size, other),
                                       other * n + target[fits], COLOUR_PARTNERS // 2)
    return out


def _allowed_pairs(
    model: RoundModel, us: np.ndarray, vs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The allowed edges among the pairs ``(us[i], vs[i])`` (either order; self-pairs dropped),
    as ``(lo, hi)``."""
    lo, hi = np.minimum(us, vs), np.maximum(us, vs)
    distinct = lo != hi
    lo, hi = lo[distinct], hi[distinct]
    ok = model.allowed(lo, hi)
    return lo[ok], hi[ok]


def _nearest_in_segment(
    model: RoundModel, keys: np.ndarray, order: np.ndarray, us: np.ndarray,
    segment: np.ndarray, aims: np.ndarray, half: int,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The allowed edges from each of ``us`` to the ``2 * half`` players nearest its aim in
    ``keys`` (sorted; ``order`` their players) that share its ``segment`` (``key // n``)."""
    n = model.n
    centre = np.searchsorted(keys, aims)
    out = []
    for shift in range(-half, half):
        at = np.clip(centre + shift, 0, n - 1)
        keep = keys[at] // n == segment
        out.append(_allowed_pairs(model, us[keep], order[at[keep]]))
    return out


def solve_round(model: RoundModel) -> Solution | None:
    """The maximum weight perfect matching of the round's full graph (``None``: none exists).

    ``Solution.stats`` tells how many edges were solved on and priced, and in how many rounds.
    """
    n_vertices = model.n_vertices
    state = {"k": TOP_K, "w": WINDOWS.get(model.system, WINDOW)}
    us, vs = candidate_edges(model, state["k"], state["w"])

    def widen() -> tuple[np.ndarray, np.ndarray] | None:
        if state["w"] >= model.n:
            return None
        state["k"] *= 2
        state["w"] *= 4
        return candidate_edges(model, state["k"], state["w"])

    return solve_with_pricing(
        n_vertices, us, vs, model.multipliers, model.benefits, model.blocks, widen=widen,
        max_weight=model.max_weight, full_pass=model.price_pass if model.native else None,
        max_edges=GRAPH_PER_PLAYER * n_vertices,
    )
