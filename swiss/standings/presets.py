"""Named tiebreak lists (presets) and the scoring each one goes with.

* ``fide``: FIDE C.02 (2017) 13.16.5, individual Swiss where all ratings are consistent.
* ``fide-unrated``: C.02 13.16.4, individual Swiss where ratings are not consistent.
* ``lichess``: Sonneborn-Berger, then performance rating.
* ``mtg``: Magic tournament rules: OMW%, GW%, OGW% (match points 3/1/0).
* ``pokemon``: Play! Pokemon: resistance (OWP), then OOWP (match points 3/1/0).
* ``tcec``: TCEC Swiss: fewer byes first, then games with black, then SB.

A preset is only a tiebreak list: the scoring stays the tournament's own. Callers that build a
tournament for a preset pick the scoring named in :data:`PRESET_SCORING`
(``Scoring.preset(PRESET_SCORING[name])``).
"""

from __future__ import annotations

PRESETS: dict[str, tuple[str, ...]] = {
    "fide": ("BH-C1", "BH", "DE", "AROC", "WIN", "BWG", "BPG", "SB"),
    "fide-unrated": ("BH-C1", "BH", "SB", "PS", "DE", "WIN", "BWG"),
    "lichess": ("SB", "TPR"),
    "mtg": ("OMW%", "GW%", "OGW%"),
    "pokemon": ("OWP", "OOWP"),
    "tcec": ("BYES", "BPG", "SB"),
}

PRESET_SCORING: dict[str, str] = {
    "fide": "chess",
    "fide-unrated": "chess",
    "lichess": "chess",
    "mtg": "match",
    "pokemon": "match",
    "tcec": "chess",
}
