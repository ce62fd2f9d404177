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

The rating-based ones (ARO, TPR, PTP, APRO, APPO, RTNG) are in
:mod:`swiss.standings.rating_tiebreaks`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from swiss.model import Color
from swiss.numbers import NumberError, parse_fraction, parse_int
from swiss.standings import cardgames
from swiss.standings.context import Context, TiebreakSpec, Worked, fmt
from swiss.standings.rating_tiebreaks import (
    all_rated,
    appo,
    apro,
    aro,
    average_of_opponents,
    ptp,
    rtng,
    tpr,
)
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
            score = own_dummy_score(
                record,
                cell,
                ctx.rule,
                ctx.scoring,
                edition=ctx.edition,
                opponent_score=None if cell.opponent is None else scores[cell.opponent],
                rounds=ctx.rounds,
            )
            vur = cell.kind.is_voluntary_unplayed
            opponent = None
        value = score * cell.points if sonneborn else score
        terms.append(Contribution(cell.number, opponent, score, value, vur))
    return terms


def _describe_term(
    ctx: Context, term: Contribution, sonneborn: bool, own: Fraction | None = None
) -> str:
    if term.opponent is not None:
        who = ctx.label(term.opponent)
    else:
        who = "dummy" if ctx.rule == "c07" else "virtual opponent"
        if term.vur:
            who += " (VUR)"
        if ctx.rule == "c07" and own is not None and term.score < own:
            who += f" (own {fmt(own)} capped, 2026 art. 16.4)"
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
            own = ctx.player_records(fore)[pid].points
            parts = [_describe_term(ctx, t, sonneborn, own) for t in terms]
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


def _is_elected(ctx: Context, cell: RoundRecord) -> bool:
    """REP (art. 7.6): a game played, a pairing-allocated bye, or a round scored as a win
    (forfeit win, full-point bye): the rounds the player was there to play."""
    if cell.kind is RoundKind.PENDING:
        return False
    return (
        cell.kind.is_played
        or cell.kind is RoundKind.PAIRING_BYE
        or cell.points == ctx.scoring.win
    )


_rounds_elected = _counter(_is_elected, "rounds elected to play")


def _looks_round_robin(ctx: Context) -> bool:
    """An all-play-all: as many rounds as players (or one fewer), everyone paired with everyone.

    swissbot has no round-robin mode, so this only recognises a Swiss that became one; the
    Koya maximum then leaves out the bye rounds of an odd number of players.
    """
    players = len(ctx.records)
    rounds = ctx.tournament.total_rounds or ctx.tournament.rounds_played
    if players < 2 or players not in (rounds, rounds + 1):
        return False
    for record in ctx.records.values():
        met = {c.opponent for c in record.rounds if c.opponent is not None}
        if len(met) != players - 1:
            return False
    return True


def koya_limit(ctx: Context, spec: TiebreakSpec) -> Fraction:
    """The KS threshold: ``koya_percent`` of the maximum score, moved by ``koya_offset``.

    In a round robin with an odd number of players the maximum leaves out the bye round(s),
    and every player who was never paired removes one game (art. 9.2).
    """
    games = ctx.rounds
    if _looks_round_robin(ctx):
        players = len(ctx.records)
        if ctx.rounds % players == 0:
            games -= ctx.rounds // players
        for record in ctx.records.values():
            if not any(
                c.has_opponent or c.kind is RoundKind.PAIRING_BYE for c in record.rounds
            ):
                games -= 1
    return spec.koya_percent * ctx.scoring.win * games / 100 + spec.koya_offset


def _koya(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    limit = koya_limit(ctx, spec)
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


def _aob(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    plain = TiebreakSpec("FB" if spec.fore else "BH", "FB" if spec.fore else "BH")
    buchholz = _opponent_sum(ctx.without_explanations(), plain, fore=spec.fore, sonneborn=False)
    values: dict[int, Fraction | None] = {pid: w.value for pid, w in buchholz.items()}
    return average_of_opponents(ctx, values, 2, "Fore Buchholz" if spec.fore else "Buchholz")


def _tpn(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """TPN: the tournament pairing number (TRF start number, swissbot's player id)."""
    result: dict[int, Worked] = {}
    for pid in ctx.records:
        text = f"pairing number {pid} (lower ranks higher)" if ctx.explain else ""
        result[pid] = Worked(Fraction(pid), text)
    return result


def _standard_points(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """STD: each round scored 1 / ½ / 0 by comparing its points with a draw's."""
    draw = ctx.scoring.draw
    result: dict[int, Worked] = {}
    for pid, record in ctx.records.items():
        steps: list[Fraction] = []
        for cell in record.rounds:
            if cell.points > draw:
                steps.append(Fraction(1))
            elif cell.points == draw:
                steps.append(Fraction(1, 2))
            else:
                steps.append(Fraction(0))
        value = sum(steps, Fraction(0))
        text = ""
        if ctx.explain:
            listed = " + ".join(fmt(x) for x in steps) or "no rounds"
            text = f"per round, more than a draw's {fmt(draw)} = 1, a draw = 0.5: {listed}"
            text += f" = {fmt(value)}"
        result[pid] = Worked(value, text)
    return result


CATALOGUE: dict[str, TiebreakDef] = {
    d.base: d
    for d in (
        TiebreakDef("BH", "Buchholz", _buchholz, "CM"),
        TiebreakDef("FB", "Fore Buchholz", _fore_buchholz, "CM"),
        TiebreakDef("AOB", "average of opponents' Buchholz", _aob, "F"),
        TiebreakDef("SB", "Sonneborn-Berger", _sonneborn_berger, "C"),
        TiebreakDef("PS", "progressive score", _progressive, "C"),
        TiebreakDef("KS", "Koya", _koya, "L"),
        TiebreakDef("DE", "direct encounter", None, higher_is_better=False),
        TiebreakDef("WIN", "wins (including unplayed)", _wins),
        TiebreakDef("WON", "wins over the board", _won),
        TiebreakDef("BPG", "games played with black", _black_played),
        TiebreakDef("BWG", "games won with black", _black_won),
        TiebreakDef("REP", "rounds elected to play", _rounds_elected),
        TiebreakDef("STD", "standard points", _standard_points),
        TiebreakDef("ARO", "average rating of opponents", all_rated(aro), "CMU"),
        TiebreakDef("TPR", "tournament performance rating", all_rated(tpr), "U"),
        TiebreakDef("PTP", "perfect tournament performance", all_rated(ptp), "U"),
        TiebreakDef("APRO", "average performance rating of opponents", all_rated(apro), "U"),
        TiebreakDef("APPO", "average perfect performance of opponents", all_rated(appo), "U"),
        TiebreakDef("RTNG", "rating", all_rated(rtng), "U"),
        TiebreakDef("TPN", "pairing number (lower first)", _tpn, higher_is_better=False),
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
    "GE": "REP",  # C.07 2023 name of REP
    "RTG": "RTNG",
    "SNO": "TPN",
}
# re.ASCII: \d alone matches every script's digits ("BH-C١٢" would read as BH-C12).
_BASE = re.compile(r"^(?P<base>[A-Z%]+?)(?P<mods>(?:[-/](?:[CMU]\d+|L[+-]?[\d.]+|F))*)$",
                   re.ASCII)
_MOD = re.compile(r"[-/](?P<kind>[CMUF]|L)(?P<arg>[+-]?[\d.]*)", re.ASCII)
#: The Koya limit: a percentage, or an offset in (half) points.
MAX_KOYA = 100


def _koya_modifier(arg: str, text: str) -> tuple[Fraction | None, Fraction | None]:
    """``/L<p>``: limit at p percent; ``/L+n`` / ``/L-n``: n half points (``/L+1.5``: points)."""
    try:
        if arg[:1] in "+-" and arg[1:]:
            amount = parse_fraction(arg[1:], "the Koya limit", low=0, high=MAX_KOYA, decimals=1)
            if "." not in arg:
                amount /= 2
            return None, amount if arg[0] == "+" else -amount
        return parse_fraction(arg, "the Koya limit", low=0, high=MAX_KOYA, decimals=1), None
    except NumberError as exc:
        raise TiebreakError(
            f"cannot read the Koya limit in {text[:40]!r} ({exc.reason}): e.g. KS/L+1, KS/L60"
        ) from None


#: Largest cut/median count (C.07 uses 1 or 2; a cut beyond the rounds played cuts them all).
MAX_CUT = 99
#: Largest rating for unrated opponents (``/U``): above any rating list's range.
MAX_RATING = 4000


def _bounded(arg: str, low: int, high: int, what: str, text: str) -> int:
    """``arg`` as an integer in ``[low, high]``, else a :class:`TiebreakError` naming it
    (hostile input such as ``BH-C`` followed by 5,000 digits must not reach ``int()``)."""
    try:
        return parse_int(arg, what, low=low, high=high)
    except NumberError as exc:
        raise TiebreakError(f"{exc.reason} (in {text.strip()[:40]!r})") from None


def parse_tiebreak(text: str) -> TiebreakSpec:
    """Parse one acronym such as ``BH-C1``, ``BH/M1``, ``SB``, ``AROC``, ``ARO/C1/U1400``.

    Modifiers (C.07 art. 14 and the TRF spelling): ``C<n>`` cut the n least significant values,
    ``M<n>`` median (n at each end), ``U<r>`` rating r for unrated opponents, ``L...`` Koya
    limit, ``F`` AOB over Fore Buchholz.
    """
    raw = text.strip().upper()
    foreign = next((ch for ch in raw if ch.isnumeric() and not ch.isascii()), None)
    if foreign is not None:
        raise TiebreakError(f"cannot read tiebreak {text.strip()[:40]!r}: {foreign!r} is not "
                            "one of the ASCII digits 0-9")
    if raw in ("AROC", "AROC1"):
        return TiebreakSpec("AROC", "ARO", cut_low=1)
    match = _BASE.match(raw)
    if not match:
        raise TiebreakError(f"cannot read tiebreak {text!r}: expected e.g. BH, BH-C1, SB")
    base = _ALIASES.get(match["base"], match["base"])
    definition = CATALOGUE.get(base)
    if definition is None:
        known = ", ".join(CATALOGUE)
        raise TiebreakError(f"unknown tiebreak {text.strip()!r}; known: {known}, AROC, GE")
    values: dict[str, object] = {}
    acronym = base
    suffix = ""
    for mod in _MOD.finditer(match["mods"]):
        kind, arg = mod["kind"], mod["arg"]
        if kind not in definition.modifiers:
            raise TiebreakError(
                f"tiebreak {base} takes no -{kind} modifier (in {text.strip()!r})"
            )
        if kind in values or (kind in "CM" and ("C" in values or "M" in values)):
            raise TiebreakError(f"modifier {kind} given twice (in {text.strip()!r})")
        if kind in "CM":
            count = _bounded(arg, 1, MAX_CUT, f"modifier {kind}", text)
            values[kind] = count
            acronym += f"-{kind}{count}"
        elif kind == "U":
            rating = _bounded(arg, 0, MAX_RATING, "unrated rating U", text)
            values["U"] = rating
            suffix += f"/U{rating}"
        elif kind == "L":
            values["L"] = _koya_modifier(arg, text.strip())
            suffix += f"/L{arg}"
        else:
            values["F"] = True
            suffix += "/F"
    percent, offset = values.get("L", (None, None))  # type: ignore[misc]
    return TiebreakSpec(
        acronym + suffix,
        base,
        cut_low=int(values.get("C", values.get("M", 0))),  # type: ignore[call-overload]
        cut_high=int(values.get("M", 0)),  # type: ignore[call-overload]
        unrated=values.get("U"),  # type: ignore[arg-type]
        fore=bool(values.get("F", False)),
        koya_percent=percent if percent is not None else Fraction(50),
        koya_offset=offset if offset is not None else Fraction(0),
    )


def parse_tiebreaks(items: Sequence[str]) -> tuple[TiebreakSpec, ...]:
    """Parse an ordered list of acronyms; duplicates are rejected."""
    specs = tuple(parse_tiebreak(item) for item in items if item.strip())
    seen: set[str] = set()
    for spec in specs:
        if spec.acronym in seen:
            raise TiebreakError(f"tiebreak {spec.acronym} is listed twice")
        seen.add(spec.acronym)
    return specs
