"""Standings after any round: points, an ordered tiebreak list, shared ranks, a final key.

Everything is computed from the rounds (nothing stored) with exact fractions. Entry points::

    compute_standings(tournament, "fide")            # or ["BH-C1", "BH", "SB"], "mtg", ...
    explain_player(tournament, player_id, "fide")    # each value with its working

The C.07 edition is chosen with ``rules="2026"`` or ``rules="2024"`` (default: the edition in
force on ``start_date``, 2026 without a date; see :mod:`swiss.standings.editions`). Unplayed
rounds follow C.07 art. 16 by default, or the older C.02 (2017) virtual-opponent rule with
``unplayed="c02"``; see :mod:`swiss.standings.unplayed`. The tiebreak catalogue is in
:mod:`swiss.standings.tiebreaks`; ties left after all of them in
:mod:`swiss.standings.playoff`.
"""

from __future__ import annotations

from swiss.standings.context import fmt as format_value
from swiss.standings.editions import (
    EDITION_TITLES,
    EDITIONS,
    article,
    edition_for_date,
    trf_start_date,
)
from swiss.standings.explain import TiebreakExplanation, explain_player
from swiss.standings.playoff import RemainingTie, next_step, remaining_ties
from swiss.standings.presets import PRESET_SCORING, PRESETS
from swiss.standings.ranking import (
    StandingRow,
    Standings,
    compute_standings,
    resolve_tiebreaks,
    select_edition,
)
from swiss.standings.tiebreaks import CATALOGUE, TiebreakError, parse_tiebreak
from swiss.standings.unplayed import RULE_EDITIONS, UNPLAYED_RULES

__all__ = [
    "CATALOGUE",
    "EDITIONS",
    "EDITION_TITLES",
    "PRESETS",
    "PRESET_SCORING",
    "RULE_EDITIONS",
    "UNPLAYED_RULES",
    "RemainingTie",
    "StandingRow",
    "Standings",
    "TiebreakError",
    "TiebreakExplanation",
    "article",
    "compute_standings",
    "edition_for_date",
    "explain_player",
    "format_value",
    "next_step",
    "parse_tiebreak",
    "remaining_ties",
    "resolve_tiebreaks",
    "select_edition",
    "trf_start_date",
]
