"""Unplayed rounds in the opponent-based tiebreaks (Buchholz, Fore Buchholz, Sonneborn-Berger).

Two rules, selected by ``unplayed=``:

``"c07"`` -- FIDE Handbook C.07 "Tie-Break Regulations", the edition in force from
1 August 2024 (approved by the FIDE Council on 29 July 2024), art. 16:

* *For the opponents* (16.3): a player's score counts as it is, except that the unplayed
  rounds of the last category (requested byes at the end of the event, rounds missed after a
  withdrawal: VURs without an opponent after the player's last non-VUR round) count as draws.
* *For the player himself* (16.4): every unplayed round is a game against a dummy opponent
  whose score is the player's own final score. The 2026 edition caps it (16.4.1: a forfeit,
  at the scheduled opponent's score as seen in 16.3; 16.4.2: no opponent, at draw points x
  rounds); ``edition="2024"`` leaves it uncapped. See :mod:`swiss.standings.editions`.
* *Cuts* (16.5): on a player with voluntary unplayed rounds (VURs: requested byes, absences,
  forfeit losses) Cut-1 removes the lowest VUR contribution first, unless that contribution is
  lower than the least significant value, which is then cut instead. Among the VURs the one
  with the lowest dummy score goes first (scores only differ under the 2026 caps). Median cuts
  at the top are plain.

``"c02"`` -- FIDE C.02 (2017) art. 13.15, the rule before 2023, which the paper's era used:

* *For the opponents* (13.15.1): every unplayed round of a player counts as a draw.
* *For the player himself* (13.15.2): every unplayed round R is a game against a *virtual
  opponent* who starts round R with the player's score, gets the complementary result of round
  R and draws every later round: ``Svon = SPR + (win + loss - SfPR) + draw * (n - R)``.
* *Cuts* are plain: the lowest value is cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from swiss.model import Points, Scoring
from swiss.standings.records import PlayerRecord, RoundKind, RoundRecord

UnplayedRule = Literal["c07", "c02"]
UNPLAYED_RULES: tuple[str, ...] = ("c07", "c02")
RULE_EDITIONS: dict[str, str] = {
    "c07": "FIDE C.07 art. 16, dummy opponent",
    "c02": "FIDE C.02 (2017) art. 13.15, virtual opponent",
}


def check_rule(rule: str) -> UnplayedRule:
    """Return ``rule`` if it names a known unplayed-round rule, else raise ``ValueError``."""
    if rule not in UNPLAYED_RULES:
        raise ValueError(f"unknown unplayed-round rule {rule!r}: use 'c07' or 'c02'")
    return rule  # type: ignore[return-value]


def last_non_vur_round(record: PlayerRecord) -> int:
    """The last round (1-based) that was not a voluntary unplayed round, 0 if none."""
    last = 0
    for cell in record.rounds:
        if not cell.kind.is_voluntary_unplayed:
            last = cell.number
    return last


def score_for_opponents(record: PlayerRecord, rule: UnplayedRule, scoring: Scoring) -> Points:
    """The score a player contributes to his opponents' Buchholz (see the module rules)."""
    total = Fraction(0)
    if rule == "c02":
        for cell in record.rounds:
            if cell.kind.is_played or cell.kind is RoundKind.PENDING:
                total += cell.points
            else:
                total += scoring.draw
        return total
    last = last_non_vur_round(record)
    for cell in record.rounds:
        if cell.number <= last or cell.has_opponent:
            total += cell.points
        else:  # category 16.2.5: requested byes at the end, rounds after a withdrawal
            total += scoring.draw
    return total


def own_dummy_score(
    record: PlayerRecord,
    cell: RoundRecord,
    rule: UnplayedRule,
    scoring: Scoring,
    *,
    edition: str = "2024",
    opponent_score: Points | None = None,
    rounds: int = 0,
) -> Points:
    """The score of the dummy (C.07) or virtual (C.02) opponent of an unplayed round.

    Under C.07 it is the player's own final score (``record.points``); the 2026 edition caps
    it at ``opponent_score`` (the scheduled opponent's score for the opponents' Buchholz) for
    a forfeit, and at ``scoring.draw * rounds`` for a round without opponent.
    """
    if rule == "c07":
        score = record.points
        if edition == "2026":
            if cell.has_opponent and opponent_score is not None:  # 16.4.1
                score = min(score, opponent_score)
            elif not cell.has_opponent:  # 16.4.2
                score = min(score, scoring.draw * rounds)
        return score
    before = record.points_after(cell.number - 1)
    complement = scoring.win + scoring.loss - cell.points
    later = len(record.rounds) - cell.number
    return before + complement + scoring.draw * later


def fore_records(
    records: dict[int, PlayerRecord], scoring: Scoring
) -> dict[int, PlayerRecord]:
    """Records for Fore Buchholz: every game of the last round considered counts as a draw.

    Pending, forfeited and played games of that round all become draws (FB is meant to be known
    before the last round is played); byes and absences stay as they are.
    """
    fore: dict[int, PlayerRecord] = {}
    for pid, record in records.items():
        rounds = list(record.rounds)
        if rounds and rounds[-1].has_opponent:
            rounds[-1] = replace(rounds[-1], kind=RoundKind.DRAW, points=scoring.draw)
        points = sum((c.points for c in rounds), Fraction(0))
        fore[pid] = replace(record, rounds=rounds, points=points)
    return fore


@dataclass(frozen=True, slots=True)
class Contribution:
    """One round's term in a Buchholz-type sum.

    ``score`` is the opponent's (or the dummy's) score, ``value`` the term itself (the score
    for Buchholz, score x points for Sonneborn-Berger).
    """

    round: int
    opponent: int | None
    score: Points
    value: Points
    vur: bool = False

    @property
    def is_dummy(self) -> bool:
        return self.opponent is None


def cut_lowest(
    terms: Sequence[Contribution], count: int, rule: UnplayedRule
) -> tuple[list[Contribution], list[Contribution]]:
    """Remove the ``count`` least significant terms; returns (kept, cut)."""
    kept = list(terms)
    cut: list[Contribution] = []
    for _ in range(min(count, len(kept))):
        least = min(kept, key=lambda t: (t.score, t.value, t.round))
        vurs = [t for t in kept if t.vur]
        victim = least
        if rule == "c07" and vurs:
            # the VUR with the lowest dummy score (then value), as FIDE's reference code does
            lowest_vur = min(vurs, key=lambda t: (t.score, t.value, t.round))
            if not least.value > lowest_vur.value:
                victim = lowest_vur
        kept.remove(victim)
        cut.append(victim)
    return kept, cut


def cut_highest(
    terms: Sequence[Contribution], count: int
) -> tuple[list[Contribution], list[Contribution]]:
    """Remove the ``count`` most significant terms (the top half of a median); (kept, cut)."""
    kept = list(terms)
    cut: list[Contribution] = []
    for _ in range(min(count, len(kept))):
        victim = max(kept, key=lambda t: (t.score, t.value, -t.round))
        kept.remove(victim)
        cut.append(victim)
    return kept, cut
