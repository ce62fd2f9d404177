"""The rating-based tiebreaks: ARO, TPR, PTP, APRO, APPO (opponents' performances) and RTNG.

Each computes its values for every player at once, as :mod:`swiss.standings.tiebreaks` (the
catalogue) describes; FIDE's rounding and tables are in :mod:`swiss.standings.rating`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from swiss.standings.context import Context, TiebreakSpec, Worked, fmt
from swiss.standings.rating import (
    average_rating,
    perfect_performance,
    performance,
    round_half_up,
)
from swiss.standings.records import RoundKind, RoundRecord

Compute = Callable[[Context, TiebreakSpec], dict[int, Worked]]


def _played_games(ctx: Context, pid: int) -> list[RoundRecord]:
    return [
        cell for cell in ctx.records[pid].rounds
        if cell.kind.is_played and cell.opponent is not None
    ]


def _opponent_rating(ctx: Context, opponent: int, unrated: int | None) -> int | None:
    """An opponent's rating for the rating tie-breaks: ``None`` for an unrated one without /U."""
    rating = ctx.records[opponent].rating
    if rating > 0:
        return rating
    return unrated


def _rated_games(
    ctx: Context, pid: int, unrated: int | None = None
) -> list[tuple[int, int, Fraction]]:
    """(round, opponent rating, score 1/½/0) of the games played against rated opponents.

    With ``unrated`` (the /U modifier) unrated opponents count with that rating.
    """
    games = []
    for cell in _played_games(ctx, pid):
        assert cell.opponent is not None
        rating = _opponent_rating(ctx, cell.opponent, unrated)
        if rating is None:
            continue
        score = {RoundKind.WIN: Fraction(1), RoundKind.DRAW: Fraction(1, 2)}.get(
            cell.kind, Fraction(0)
        )
        games.append((cell.number, rating, score))
    return games


def _cut_rated(
    ctx: Context, pid: int, spec: TiebreakSpec
) -> tuple[list[tuple[int, int, Fraction]], list[tuple[int, int, Fraction]]]:
    """The rated games kept after the cut/median of ``spec`` (art. 14), and the games cut.

    Counts are capped at the rounds considered, as FIDE's reference code does.
    """
    games = sorted(_rated_games(ctx, pid, spec.unrated), key=lambda g: (g[1], g[0]))
    low = min(spec.cut_low, ctx.rounds)
    high = min(spec.cut_high, ctx.rounds - low)
    cut: list[tuple[int, int, Fraction]] = []
    for _ in range(low):
        if games:
            cut.append(games.pop(0))
    for _ in range(high):
        if games:
            cut.append(games.pop())
    return games, cut


def all_rated(compute: Compute) -> Compute:
    """Rating tie-breaks need a rating for everyone (art. 10): when an unrated player takes
    part and no ``/U`` rating is given, they do not apply and every value is 0 (FIDE's
    reference code leaves them empty, which ranks nobody)."""

    def guarded(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
        if spec.unrated is None and any(r.rating <= 0 for r in ctx.records.values()):
            text = (
                "an unrated player takes part and no /U rating was given: not applicable = 0"
                if ctx.explain else ""
            )
            return {pid: Worked(Fraction(0), text) for pid in ctx.records}
        return compute(ctx, spec)

    return guarded


def aro(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        kept, cut = _cut_rated(ctx, pid, spec)
        value = Fraction(average_rating([g[1] for g in kept]))
        text = ""
        if ctx.explain:
            listed = ", ".join(f"r{g[0]} {g[1]}" for g in sorted(kept)) or "none"
            text = f"opponent ratings: {listed}"
            if cut:
                text += "; cut " + ", ".join(f"r{g[0]} {g[1]}" for g in cut)
            text += f"; average rounded half up = {fmt(value)}"
        result[pid] = Worked(value, text)
    return result


def _performances(ctx: Context, spec: TiebreakSpec) -> dict[int, tuple[int, int] | None]:
    """Each player's (TPR, PTP), or ``None`` without a rated game (cached per /U value)."""
    key = ("performances", spec.unrated)
    cached = ctx.memo.get(key)
    if cached is None:
        table: dict[int, tuple[int, int] | None] = {}
        for pid in ctx.records:
            games = _rated_games(ctx, pid, spec.unrated)
            if not games:
                table[pid] = None
                continue
            score = sum((g[2] for g in games), Fraction(0))
            ratings = [g[1] for g in games]
            table[pid] = (performance(score, ratings), perfect_performance(score, ratings))
        cached = ctx.memo[key] = table
    return cached  # type: ignore[return-value]


def tpr(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        games = _rated_games(ctx, pid, spec.unrated)
        score = sum((g[2] for g in games), Fraction(0))
        value = Fraction(performance(score, [g[1] for g in games]))
        text = ""
        if ctx.explain:
            if games:
                aro = average_rating([g[1] for g in games])
                text = (
                    f"{fmt(score)}/{len(games)} against rated opponents, ARO {aro}, "
                    f"dp {int(value) - aro} = {fmt(value)}"
                )
            else:
                text = "no rated games = 0"
        result[pid] = Worked(value, text)
    return result


def ptp(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    table = _performances(ctx, spec)
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        entry = table[pid]
        value = Fraction(entry[1] if entry else 0)
        text = ""
        if ctx.explain:
            games = _rated_games(ctx, pid, spec.unrated)
            if games:
                score = sum((g[2] for g in games), Fraction(0))
                ratings = ", ".join(str(g[1]) for g in games)
                text = (
                    f"{fmt(score)} points against {ratings}: lowest rating whose FIDE expected "
                    f"score reaches {fmt(score)} = {fmt(value)}"
                )
            else:
                text = "no rated games = 0"
        result[pid] = Worked(value, text)
    return result


def average_of_opponents(
    ctx: Context, values: dict[int, Fraction | None], places: int, what: str
) -> dict[int, Worked]:
    """Mean of the opponents' ``values`` over the games played, rounded half up to ``places``.

    Opponents without a value (``None``) are left out; no opponent at all gives 0.
    """
    scale = 10**places
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        used: list[tuple[int, int, Fraction]] = []
        for cell in _played_games(ctx, pid):
            assert cell.opponent is not None
            value = values[cell.opponent]
            if value is not None:
                used.append((cell.number, cell.opponent, value))
        if used:
            mean = sum((u[2] for u in used), Fraction(0)) / len(used)
            average = Fraction(round_half_up(mean * scale), scale)
        else:
            average = Fraction(0)
        text = ""
        if ctx.explain:
            listed = "; ".join(f"r{r} {ctx.label(o)} {fmt(v)}" for r, o, v in used) or "none"
            text = f"opponents' {what}: {listed}; mean rounded half up = {fmt(average)}"
        result[pid] = Worked(average, text)
    return result


def apro(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    table = _performances(ctx, spec)
    values = {pid: None if e is None else Fraction(e[0]) for pid, e in table.items()}
    return average_of_opponents(ctx, values, 0, "TPR")


def appo(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    table = _performances(ctx, spec)
    values = {pid: None if e is None else Fraction(e[1]) for pid, e in table.items()}
    return average_of_opponents(ctx, values, 0, "PTP")



def rtng(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid, record in ctx.records.items():
        rating = record.rating if record.rating > 0 else (spec.unrated or 0)
        text = ""
        if ctx.explain:
            text = f"rating {record.rating}" if record.rating > 0 else (
                f"unrated, counted as {rating}"
            )
        result[pid] = Worked(Fraction(rating), text)
    return result

