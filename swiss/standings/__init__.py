"""Standings after any round: points, an ordered tiebreak list, shared ranks, a final key.

Everything is computed from the rounds (nothing stored) with exact fractions. Entry points::

    compute_standings(tournament, "fide")            # or ["BH-C1", "BH", "SB"], "mtg", ...
    explain_player(tournament, player_id, "fide")    # each value with its working

Unplayed rounds follow FIDE C.07 (edition in force from 1 August 2024) by default, or the older
C.02 (2017) virtual-opponent rule with ``unplayed="c02"``; see :mod:`swiss.standings.unplayed`.
The tiebreak catalogue is in :mod:`swiss.standings.tiebreaks`.
"""

from __future__ import annotations

from swiss.standings.context import fmt as format_value
from swiss.standings.explain import TiebreakExplanation, explain_player
from swiss.standings.presets import PRESET_SCORING, PRESETS
from swiss.standings.ranking import (
    StandingRow,
    Standings,
    compute_standings,
    resolve_tiebreaks,
)
from swiss.standings.tiebreaks import CATALOGUE, TiebreakError, parse_tiebreak
from swiss.standings.unplayed import RULE_EDITIONS, UNPLAYED_RULES

__all__ = [
    "CATALOGUE",
    "PRESETS",
    "PRESET_SCORING",
    "RULE_EDITIONS",
    "UNPLAYED_RULES",
    "StandingRow",
    "Standings",
    "TiebreakError",
    "TiebreakExplanation",
    "compute_standings",
    "explain_player",
    "format_value",
    "parse_tiebreak",
    "resolve_tiebreaks",
]
