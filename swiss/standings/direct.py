"""Direct encounter (DE), as FIDE C.07 art. 6 defines it.

DE works on a *group*: players still tied on points and on every earlier tiebreak.

* Each player's DE score is the sum, over the other members he met in games played over the
  board, of the points he scored against them (averaged when they met more than once, C.07
  6.1.2). Forfeits are not encounters.
* If every member met every other one, members are ordered by DE score; equal scores stay tied.
* If not (a Swiss event), a member is ranked ahead of the rest only when his DE score beats
  the best score any other member could still reach, counting the games they did not play as
  wins for that member (C.07 6.3); members are taken in turn from the top.
* DE is applied again to every sub-group still tied, until nothing changes.

The DE *value* of a player is his place (1, 2, ...) among the tiers DE made inside his group,
or 0 when DE does not separate the group at all; lower is better and it only means something
inside the group.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from swiss.standings.context import Context, fmt


@dataclass(frozen=True, slots=True)
class MutualScore:
    score: Fraction  # points against the other members met
    met: int  # distinct members met over the board


def mutual_scores(ctx: Context, group: list[int]) -> dict[int, MutualScore]:
    """Each member's points against the other members of ``group``."""
    members = set(group)
    table: dict[int, MutualScore] = {}
    for pid in group:
        per_opponent: dict[int, list[Fraction]] = {}
        for cell in ctx.records[pid].rounds:
            if cell.kind.is_played and cell.opponent in members:
                per_opponent.setdefault(cell.opponent, []).append(cell.points)
        score = sum(
            (sum(points, Fraction(0)) / len(points) for points in per_opponent.values()),
            Fraction(0),
        )
        table[pid] = MutualScore(score, len(per_opponent))
    return table


def _split_once(ctx: Context, group: list[int]) -> list[list[int]]:
    size = len(group)
    table = mutual_scores(ctx, group)
    if all(entry.met == size - 1 for entry in table.values()):
        scores = sorted({entry.score for entry in table.values()}, reverse=True)
        return [sorted(p for p in group if table[p].score == s) for s in scores]
    best_possible = {
        pid: entry.score + (size - 1 - entry.met) * ctx.scoring.win
        for pid, entry in table.items()
    }
    order = sorted(group, key=lambda p: (-table[p].score, -best_possible[p], p))
    tiers: list[list[int]] = []
    rest = order
    while len(rest) > 1:
        top, others = rest[0], rest[1:]
        if table[top].score > max(best_possible[o] for o in others):
            tiers.append([top])
            rest = others
        else:
            break
    tiers.append(sorted(rest))
    return tiers


def direct_encounter_tiers(ctx: Context, group: list[int]) -> list[list[int]]:
    """The group split by DE into ordered tiers (best first), re-applied to sub-ties."""
    if len(group) < 2:
        return [sorted(group)]
    tiers = _split_once(ctx, group)
    if len(tiers) == 1:
        return tiers
    result: list[list[int]] = []
    for tier in tiers:
        result.extend(direct_encounter_tiers(ctx, tier))
    return result


def direct_encounter(ctx: Context, group: list[int]) -> dict[int, tuple[Fraction, str]]:
    """DE value (see the module doc) and, when explaining, its working, for each member."""
    tiers = direct_encounter_tiers(ctx, group)
    separated = len(tiers) > 1
    values: dict[int, tuple[Fraction, str]] = {}
    table = mutual_scores(ctx, group) if ctx.explain and len(group) > 1 else {}
    for place, tier in enumerate(tiers, start=1):
        value = Fraction(place if separated else 0)
        for pid in tier:
            text = ""
            if ctx.explain:
                if len(group) < 2:
                    text = "not tied with anyone = 0"
                else:
                    others = ", ".join(ctx.label(o) for o in sorted(group) if o != pid)
                    entry = table[pid]
                    text = (
                        f"tied with {others}; {fmt(entry.score)} points against them "
                        f"(met {entry.met} of {len(group) - 1})"
                    )
                    text += (
                        f"; place {place} of {len(tiers)} tiers" if separated
                        else "; not separated = 0"
                    )
            values[pid] = (value, text)
    return values
