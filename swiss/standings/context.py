"""Shared inputs of the tiebreak functions: records, the unplayed-round rule, caches.

A :class:`Context` is built once per standings computation. Each tiebreak function reads it and
returns one :class:`Worked` (value plus, when asked, the working in words) per player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import Points, Scoring, Tournament
from swiss.standings.records import PlayerRecord
from swiss.standings.unplayed import UnplayedRule, fore_records, score_for_opponents


@dataclass(frozen=True, slots=True)
class TiebreakSpec:
    """One tiebreak of an ordered list, e.g. ``BH-C1``: base ``BH`` with one low cut."""

    acronym: str
    base: str
    cut_low: int = 0
    cut_high: int = 0
    unrated: int | None = None  # /U: rating given to unrated opponents (ARO, TPR, PTP, ...)
    fore: bool = False  # /F: AOB over Fore Buchholz values
    koya_percent: Fraction = Fraction(50)  # /L<p>: KS limit in percent of the maximum
    koya_offset: Fraction = Fraction(0)  # /L+n, /L-n: KS limit moved by n half points


@dataclass(frozen=True, slots=True)
class Worked:
    """A tiebreak value and, when explaining, how it was obtained."""

    value: Fraction
    text: str = ""


@dataclass
class Context:
    """Everything a tiebreak function may read; caches the derived score tables."""

    tournament: Tournament
    records: dict[int, PlayerRecord]
    rule: UnplayedRule
    explain: bool = False
    edition: str = "2024"
    _opponent_scores: dict[bool, dict[int, Points]] = field(default_factory=dict)
    _fore: dict[int, PlayerRecord] | None = None
    memo: dict[object, object] = field(default_factory=dict)  # per-computation caches

    @property
    def scoring(self) -> Scoring:
        return self.tournament.scoring

    @property
    def rounds(self) -> int:
        """Number of rounds considered (computed once: tie-breaks ask for it per player)."""
        cached = self.memo.get("rounds")
        if cached is None:
            cached = self.memo["rounds"] = max(
                (len(r.rounds) for r in self.records.values()), default=0
            )
        return cached  # type: ignore[return-value]

    def without_explanations(self) -> Context:
        """The same context (caches shared) with explanations switched off."""
        if not self.explain:
            return self
        return Context(
            self.tournament, self.records, self.rule, False, self.edition,
            self._opponent_scores, self._fore, self.memo,
        )

    def label(self, pid: int) -> str:
        """``#id name`` for the explanations."""
        name = self.records[pid].name
        return f"#{pid} {name}" if name else f"#{pid}"

    def fore_records(self) -> dict[int, PlayerRecord]:
        """Records with every last-round game counted as a draw (Fore Buchholz)."""
        if self._fore is None:
            self._fore = fore_records(self.records, self.scoring)
        return self._fore

    def player_records(self, fore: bool = False) -> dict[int, PlayerRecord]:
        return self.fore_records() if fore else self.records

    def opponent_scores(self, fore: bool = False) -> dict[int, Points]:
        """Each player's score as his opponents' Buchholz sees it (rule-adjusted)."""
        cached = self._opponent_scores.get(fore)
        if cached is None:
            cached = {
                pid: score_for_opponents(rec, self.rule, self.scoring)
                for pid, rec in self.player_records(fore).items()
            }
            self._opponent_scores[fore] = cached
        return cached


def fmt(value: Fraction | float | int) -> str:
    """A value as text: exact decimals up to 4 places, otherwise rounded to 4 places."""
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    frac = Fraction(value)
    if frac.denominator == 1:
        return str(frac.numerator)
    for places in range(1, 5):
        scaled = frac * 10**places
        if scaled.denominator == 1:
            sign = "-" if frac < 0 else ""
            digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
            return f"{sign}{digits[:-places]}.{digits[-places:]}"
    return f"{float(frac):.4f}"
