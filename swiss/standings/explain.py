"""Per-player explanations: each tiebreak value with its working (for ``/standings explain``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Literal

from swiss.model import Tournament
from swiss.standings.editions import article
from swiss.standings.ranking import evaluate, select_edition


@dataclass(frozen=True, slots=True)
class TiebreakExplanation:
    """One tiebreak of one player: acronym, value, and the working in words.

    The text names the opponents (``#id name``) and the values that went in, the values that
    were cut, and for unplayed rounds whether a dummy / virtual opponent stood in.
    """

    acronym: str
    value: Fraction | float
    text: str
    edition: str = "2026"
    article: str = ""


def explain_player(
    tournament: Tournament,
    player_id: int,
    tiebreaks: str | Sequence[str] = "fide",
    *,
    rounds: int | None = None,
    unplayed: Literal["c07", "c02"] = "c07",
    rules: str | None = None,
    start_date: date | None = None,
) -> list[TiebreakExplanation]:
    """The working of every tiebreak of the list for ``player_id`` (``KeyError`` if unknown).

    Each entry names the C.07 edition (``rules``, or the one in force on ``start_date``) and
    the article its value follows.
    """
    tournament.player(player_id)  # KeyError for an unknown player, before any work
    edition = select_edition(rules, start_date)
    evaluation = evaluate(
        tournament, tiebreaks, rounds=rounds, unplayed=unplayed, explain=True, edition=edition
    )
    return [
        TiebreakExplanation(
            spec.acronym, value, text, edition, article(spec.base, edition, unplayed)
        )
        for spec, value, text in zip(
            evaluation.specs,
            evaluation.values[player_id],
            evaluation.texts[player_id],
            strict=True,
        )
    ]
