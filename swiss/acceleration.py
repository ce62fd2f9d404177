"""Accelerated pairings: the extra (virtual) points a round is paired on.

``Tournament.acceleration`` gives them explicitly (TRF ``XXA`` and ``250`` lines);
``Tournament.baku`` asks for the Baku acceleration method (FIDE C.04.5.1, TRF-2026 ``192
..._BAKU`` codes), computed here the way the FIDE-endorsed engine (bbpPairings 6.0.0) applies
it. Found by black-box probes of that engine (its check-list prints each player's pairing
score; 260 generated rounds of 4-120 players, late entries, ``XXC rank``, forfeits, byes,
retirements, 1/½/0 and 2/1/0 points paired identically from the 192 code and from XXA lines
written by :func:`baku_acceleration`, float history included); see docs/fide-dutch.md
("Baku acceleration") for the probes and where they differ from the Handbook text:

* group A is the first ``ceil(N / 2)`` players in the pairing order (pairing number, or
  ``XXC rank`` order), ``N`` being every player of the file (absent, withdrawn and late
  entries included), counted again every round;
* the accelerated rounds are the first ``ceil(R / 2)`` of ``R`` rounds; group A gets a win's
  points in the first ``ceil(ceil(R / 2) / 2)`` of them and a draw's in the rest;
* the points are given for every accelerated round, past ones included (past floats are
  judged on the pairing scores of their round);
* only point systems where a loss scores 0 and a draw half a win qualify.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from swiss.model import Scoring, Tournament


def baku_scoring_problem(scoring: Scoring) -> str | None:
    """Why ``scoring`` cannot be Baku-accelerated, or ``None`` when it can.

    The endorsed engine refuses ("Point system is inconsistent with Baku acceleration
    method") unless a played loss scores 0 and a draw half a win; the bye and forfeit points
    do not matter. C.04.5.1 asks for "the standard scoring point system (one point for a
    win, half point for a draw)"; the engine's check allows any multiple of it (2/1/0).
    """
    if scoring.loss != 0 or scoring.draw * 2 != scoring.win:
        return (f"Baku acceleration needs a loss to score 0 and a draw half a win (here win "
                f"{scoring.win}, draw {scoring.draw}, loss {scoring.loss})")
    return None


def baku_acceleration(tournament: Tournament) -> dict[int, dict[int, Fraction]]:
    """Round -> player -> virtual points of the Baku method for every accelerated round.

    Empty when the tournament has no number of rounds (the accelerated rounds depend on it)
    or when a win scores nothing. Raises :class:`ValueError` for a point system the method
    does not apply to (:func:`baku_scoring_problem`).
    """
    problem = baku_scoring_problem(tournament.scoring)
    if problem is not None:
        raise ValueError(problem)
    rounds = tournament.total_rounds
    win, draw = Fraction(tournament.scoring.win), Fraction(tournament.scoring.draw)
    if not rounds or not win:
        return {}
    order = sorted(tournament.players, key=lambda p: (p.seed, p.id))
    group_a = [p.id for p in order[:(len(order) + 1) // 2]]
    accelerated = (rounds + 1) // 2
    full = (accelerated + 1) // 2
    return {r: dict.fromkeys(group_a, win if r <= full else draw)
            for r in range(1, accelerated + 1)}


def pairing_acceleration(tournament: Tournament) -> Mapping[int, Mapping[int, Fraction]]:
    """The extra points each round is paired on: ``Tournament.acceleration`` when given,
    else the Baku method's when ``Tournament.baku`` asks for it, else none."""
    if tournament.acceleration or not tournament.baku:
        return tournament.acceleration
    return baku_acceleration(tournament)
