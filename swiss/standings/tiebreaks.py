"""The tiebreak catalogue: parsing acronyms and computing each tiebreak for every player.

Acronyms follow FIDE C.07 art. 5 where FIDE has one; modifiers are written ``-C<n>`` (cut the
``n`` least significant values) and ``-M<n>`` (median: cut ``n`` at each end); the TRF spelling
``BH/C1`` is accepted too. ``AROC`` is ARO-C1 (C.02 13.16.5 / GSC 2019).

Every function returns values for all players at once, as :class:`Fraction` (exact):

====== ============================================================ ==================
BH     Buchholz: sum of the opponents' scores                        C, M modifiers
FB     Fore Buchholz: BH with every last-round game taken as a draw  C, M
SB     Sonneborn-Berger: sum of opponent score x points scored       C (SB-C1)
PS     progressive score: sum of the running score after each round  C (drops rounds)
KS     Koya: points scored against opponents with >= 50 % of the max
WIN    rounds scored as a win, played or not (byes, forfeit wins)
WON    games won over the board
BPG    games played with black (unplayed rounds count as white)
BWG    games won with black
ARO    average rating of the opponents, FIDE rounding               C, M (AROC)
TPR    tournament performance rating, FIDE dp table
DE     direct encounter (C.07 art. 6), re-applied to sub-ties        (see direct.py)
BYES   pairing-allocated byes received; fewer ranks higher (TCEC)
MW%    match-win percentage, 33 % floor (Magic tournament rules)     (see cardgames.py)
OMW%   opponents' match-win percentage
GW%    game-win percentage, 33 % floor
OGW%   opponents' game-win percentage
OWP    Pokemon resistance: opponents' win percentage, 25 % floor
OOWP   opponents' opponents' win percentage (Pokemon)
====== ============================================================ ==================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from swiss.model import Color
from swiss.standings import cardgames
from swiss.standings.context import Context, TiebreakSpec, Worked, fmt
from swiss.standings.rating import average_rating, performance
from swiss.standings.records import RoundKind, RoundRecord
from swiss.standings.unplayed import (
    Contribution,
    cut_highest,
    cut_lowest,
    own_dummy_score,
)

Compute = Callable[[Context, TiebreakSpec], dict[int, Worked]]


class TiebreakError(ValueError):
    """An unknown tiebreak acronym, preset or modifier."""


@dataclass(frozen=True, slots=True)
class TiebreakDef:
    """A catalogue entry. ``compute`` is ``None`` for DE, which works on groups of tied players."""

    base: str
    title: str
    compute: Compute | None
    modifiers: str = ""  # "C": cut, "M": median
    higher_is_better: bool = True


# -- opponent-score tiebreaks: BH, FB, SB -------------------------------------------------------
def _terms(ctx: Context, pid: int, *, fore: bool, sonneborn: bool) -> list[Contribution]:
    """The Buchholz (or SB) terms of one player, computed once per standings computation."""
    key = ("terms", fore, sonneborn, pid)
    cached = ctx.memo.get(key)
    if cached is None:
        cached = ctx.memo[key] = _compute_terms(ctx, pid, fore=fore, sonneborn=sonneborn)
    return cached  # type: ignore[return-value]


def _compute_terms(
    ctx: Context, pid: int, *, fore: bool, sonneborn: bool
) -> list[Contribution]:
    records = ctx.player_records(fore)
    record = records[pid]
    scores = ctx.opponent_scores(fore)
    terms: list[Contribution] = []
    for cell in record.rounds:
        if cell.kind is RoundKind.PENDING:
            continue
        if cell.kind.is_played and cell.opponent is not None:
            score = scores[cell.opponent]
            vur = False
            opponent: int | None = cell.opponent
        else:
            score = own_dummy_score(record, cell, ctx.rule, ctx.scoring)
            vur = cell.kind.is_voluntary_unplayed
            opponent = None
        value = score * cell.points if sonneborn else score
        terms.append(Contribution(cell.number, opponent, score, value, vur))
    return terms


def _describe_term(ctx: Context, term: Contribution, sonneborn: bool) -> str:
    if term.opponent is not None:
        who = ctx.label(term.opponent)
    else:
        who = "dummy" if ctx.rule == "c07" else "virtual opponent"
        if term.vur:
            who += " (VUR)"
    text = f"r{term.round} {who} {fmt(term.score)}"
    if sonneborn:
        text += f" -> {fmt(term.value)}"
    return text


def _opponent_sum(
    ctx: Context, spec: TiebreakSpec, *, fore: bool, sonneborn: bool
) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        terms = _terms(ctx, pid, fore=fore, sonneborn=sonneborn)
        kept, cut_low = cut_lowest(terms, spec.cut_low, ctx.rule)
        kept, cut_high = cut_highest(kept, spec.cut_high)
        value = sum((t.value for t in kept), Fraction(0))
        text = ""
        if ctx.explain:
            parts = [_describe_term(ctx, t, sonneborn) for t in terms]
            text = "; ".join(parts) if parts else "no opponents"
            cut = cut_low + cut_high
            if cut:
                text += "; cut: " + ", ".join(
                    _describe_term(ctx, t, sonneborn) for t in cut
                )
            if fore:
                text += "; last-round games counted as draws"
            text += f" = {fmt(value)}"
        result[pid] = Worked(value, text)
    return result


def _buchholz(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    return _opponent_sum(ctx, spec, fore=False, sonneborn=False)


def _fore_buchholz(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    return _opponent_sum(ctx, spec, fore=True, sonneborn=False)


def _sonneborn_berger(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    return _opponent_sum(ctx, spec, fore=False, sonneborn=True)


# -- own results: PS, WIN, WON, BPG, BWG, BYES, KS ----------------------------------------------
def _progressive(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid, record in ctx.records.items():
        running = Fraction(0)
        steps: list[Fraction] = []
        for cell in record.rounds:
            running += cell.points
            steps.append(running)
        kept = steps[spec.cut_low :]
        value = sum(kept, Fraction(0))
        text = ""
        if ctx.explain:
            text = " + ".join(fmt(s) for s in kept) or "no rounds"
            if spec.cut_low:
                text += f" (first {spec.cut_low} round(s) cut)"
            text += f" = {fmt(value)}"
        result[pid] = Worked(value, text)
    return result


def _counter(predicate: Callable[[Context, RoundRecord], bool], what: str) -> Compute:
    def compute(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
        result: dict[int, Worked] = {}
        for pid, record in ctx.records.items():
            rounds = [c.number for c in record.rounds if predicate(ctx, c)]
            text = ""
            if ctx.explain:
                listed = ", ".join(f"r{n}" for n in rounds) if rounds else "none"
                text = f"{what}: {listed} = {len(rounds)}"
            result[pid] = Worked(Fraction(len(rounds)), text)
        return result

    return compute


def _is_win(ctx: Context, cell: RoundRecord) -> bool:
    return cell.kind is not RoundKind.PENDING and cell.points == ctx.scoring.win


_wins = _counter(_is_win, "rounds scored as a win")
_won = _counter(lambda ctx, c: c.kind is RoundKind.WIN, "games won over the board")
_black_played = _counter(
    lambda ctx, c: c.kind.is_played and c.color is Color.BLACK, "games played with black"
)
_black_won = _counter(
    lambda ctx, c: c.kind is RoundKind.WIN and c.color is Color.BLACK, "games won with black"
)
_byes = _counter(lambda ctx, c: c.kind is RoundKind.PAIRING_BYE, "pairing-allocated byes")


def _koya(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    limit = ctx.scoring.win * ctx.rounds / 2
    result: dict[int, Worked] = {}
    for pid, record in ctx.records.items():
        value = Fraction(0)
        used: list[str] = []
        for cell in record.rounds:
            if cell.opponent is None or cell.kind is RoundKind.PENDING:
                continue
            if ctx.records[cell.opponent].points >= limit:
                value += cell.points
                if ctx.explain:
                    used.append(f"r{cell.number} {ctx.label(cell.opponent)} {fmt(cell.points)}")
        text = ""
        if ctx.explain:
            text = (
                f"opponents with >= {fmt(limit)} points: "
                + ("; ".join(used) if used else "none")
                + f" = {fmt(value)}"
            )
        result[pid] = Worked(value, text)
    return result


# -- ratings: ARO, TPR --------------------------------------------------------------------------
def _rated_games(ctx: Context, pid: int) -> list[tuple[int, int, Fraction]]:
    """(round, opponent rating, score 1/½/0) of the games played against rated opponents."""
    games = []
    for cell in ctx.records[pid].rounds:
        if not cell.kind.is_played or cell.opponent is None:
            continue
        rating = ctx.records[cell.opponent].rating
        if rating <= 0:
            continue
        score = {RoundKind.WIN: Fraction(1), RoundKind.DRAW: Fraction(1, 2)}.get(
            cell.kind, Fraction(0)
        )
        games.append((cell.number, rating, score))
    return games


def _aro(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        games = sorted(_rated_games(ctx, pid), key=lambda g: (g[1], g[0]))
        low = min(spec.cut_low, len(games))
        high = min(spec.cut_high, len(games) - low)
        kept = games[low : len(games) - high]
        value = Fraction(average_rating([g[1] for g in kept]))
        text = ""
        if ctx.explain:
            listed = ", ".join(f"r{g[0]} {g[1]}" for g in sorted(kept)) or "none"
            cut = games[:low] + games[len(games) - high :]
            text = f"opponent ratings: {listed}"
            if cut:
                text += "; cut " + ", ".join(f"r{g[0]} {g[1]}" for g in cut)
            text += f"; average rounded half up = {fmt(value)}"
        result[pid] = Worked(value, text)
    return result


def _tpr(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        games = _rated_games(ctx, pid)
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


CATALOGUE: dict[str, TiebreakDef] = {
    d.base: d
    for d in (
        TiebreakDef("BH", "Buchholz", _buchholz, "CM"),
        TiebreakDef("FB", "Fore Buchholz", _fore_buchholz, "CM"),
        TiebreakDef("SB", "Sonneborn-Berger", _sonneborn_berger, "C"),
        TiebreakDef("PS", "progressive score", _progressive, "C"),
        TiebreakDef("KS", "Koya", _koya),
        TiebreakDef("DE", "direct encounter", None, higher_is_better=False),
        TiebreakDef("WIN", "wins (including unplayed)", _wins),
        TiebreakDef("WON", "wins over the board", _won),
        TiebreakDef("BPG", "games played with black", _black_played),
        TiebreakDef("BWG", "games won with black", _black_won),
        TiebreakDef("ARO", "average rating of opponents", _aro, "CM"),
        TiebreakDef("TPR", "tournament performance rating", _tpr),
        TiebreakDef("BYES", "pairing byes (fewer first)", _byes, higher_is_better=False),
        TiebreakDef("MW%", "match-win percentage", cardgames.match_win),
        TiebreakDef("OMW%", "opponents' match-win percentage", cardgames.opponents_match_win),
        TiebreakDef("GW%", "game-win percentage", cardgames.game_win),
        TiebreakDef("OGW%", "opponents' game-win percentage", cardgames.opponents_game_win),
        TiebreakDef("OWP", "opponents' win percentage (resistance)", cardgames.resistance),
        TiebreakDef("OOWP", "opponents' opponents' win percentage", cardgames.resistance2),
    )
}

# Spellings accepted for a base (upper case, without modifiers).
_ALIASES: dict[str, str] = {
    "MW": "MW%",
    "OMW": "OMW%",
    "GW": "GW%",
    "OGW": "OGW%",
    "RES": "OWP",
    "BYE": "BYES",
}
_SPEC = re.compile(r"^(?P<base>[A-Z%]+?)(?:[-/](?P<mod>[CM])(?P<n>\d+))?$")


def parse_tiebreak(text: str) -> TiebreakSpec:
    """Parse one acronym such as ``BH-C1``, ``BH/M1``, ``SB``, ``AROC`` or ``OMW%``."""
    raw = text.strip().upper()
    if raw in ("AROC", "AROC1"):
        return TiebreakSpec("AROC", "ARO", cut_low=1)
    match = _SPEC.match(raw)
    if not match:
        raise TiebreakError(f"cannot read tiebreak {text!r}: expected e.g. BH, BH-C1, SB")
    base = _ALIASES.get(match["base"], match["base"])
    definition = CATALOGUE.get(base)
    if definition is None:
        known = ", ".join(CATALOGUE)
        raise TiebreakError(f"unknown tiebreak {text.strip()!r}; known: {known}, AROC")
    if match["mod"] is None:
        return TiebreakSpec(base, base)
    mod, count = match["mod"], int(match["n"])
    if mod not in definition.modifiers:
        raise TiebreakError(f"tiebreak {base} takes no -{mod} modifier (in {text.strip()!r})")
    if count < 1:
        raise TiebreakError(f"modifier count must be at least 1 (in {text.strip()!r})")
    acronym = f"{base}-{mod}{count}"
    if mod == "C":
        return TiebreakSpec(acronym, base, cut_low=count)
    return TiebreakSpec(acronym, base, cut_low=count, cut_high=count)


def parse_tiebreaks(items: Sequence[str]) -> tuple[TiebreakSpec, ...]:
    """Parse an ordered list of acronyms; duplicates are rejected."""
    specs = tuple(parse_tiebreak(item) for item in items if item.strip())
    seen: set[str] = set()
    for spec in specs:
        if spec.acronym in seen:
            raise TiebreakError(f"tiebreak {spec.acronym} is listed twice")
        seen.add(spec.acronym)
    return specs
