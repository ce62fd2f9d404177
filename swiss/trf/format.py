"""The TRF layout shared by the scanner, the reader and the writer: columns, result codes, point
systems, the error type and the TRF-only player fields. Columns are 1-based, as in the FIDE
description."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from swiss.model import ByeKind, Outcome, Points, Result, Scoring

LINE_BREAK = re.compile(r"\r\n|\r|\n")
FIRST_ROUND_COLUMN = 92  # 1-based column of round 1's opponent id
ROUND_WIDTH = 10
MIN_PLAYER_LINE = 84  # the points column 81-84 is required
MAX_ID = 9999
MAX_ROUNDS = 999  # the round fields of 240 and 260 lines have 3 columns
MAX_SCORE = 9999  # the points column 81-84 holds at most four characters
MAX_POINTS = 1000  # points for one outcome in a point system (BB*, 162, SBS)

# Result codes. "Played" codes need an opponent; bye codes need none.
PLAYED_CODES = frozenset("10=WLD")
FORFEIT_CODES = frozenset("+-")
BYE_CODES = frozenset("HFUZ ")
ALL_CODES = PLAYED_CODES | FORFEIT_CODES | BYE_CODES

# What a result code means for the player on whose line it is.
CODE_OUTCOME = {
    "1": Outcome.WIN, "W": Outcome.WIN,
    "0": Outcome.LOSS, "L": Outcome.LOSS,
    "=": Outcome.DRAW, "D": Outcome.DRAW,
    "+": Outcome.FORFEIT_WIN, "-": Outcome.FORFEIT_LOSS,
}
GAME_RESULT = {
    (Outcome.WIN, Outcome.LOSS): Result.WHITE_WINS,
    (Outcome.LOSS, Outcome.WIN): Result.BLACK_WINS,
    (Outcome.DRAW, Outcome.DRAW): Result.DRAW,
    (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS): Result.WHITE_FORFEIT_WIN,
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN): Result.BLACK_FORFEIT_WIN,
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS): Result.DOUBLE_FORFEIT,
}
OUTCOME_CODE = {
    Outcome.WIN: "1", Outcome.LOSS: "0", Outcome.DRAW: "=",
    Outcome.FORFEIT_WIN: "+", Outcome.FORFEIT_LOSS: "-",
}
# Bye codes without an opponent in a played round; None means "absent" (no bye at all).
PLAYED_ROUND_BYE = {
    "U": ByeKind.PAIRING, "+": ByeKind.PAIRING,
    "F": ByeKind.FULL, "H": ByeKind.HALF, "=": ByeKind.HALF,
    "Z": ByeKind.ZERO, "-": None, " ": None,
}
# Entries for a round not yet paired (column or 240 type); None means "absent".
REQUEST_CODE = {"H": ByeKind.HALF, "=": ByeKind.HALF, "F": ByeKind.FULL, "Z": ByeKind.ZERO,
                 "-": None, " ": None}
BYE_CODE = {ByeKind.PAIRING: "U", ByeKind.HALF: "H", ByeKind.FULL: "F", ByeKind.ZERO: "Z"}
ABSENT_ENTRY = "  0000 - -"  # neither a game nor a bye: absent, scores Scoring.absent
SCORING_FIELDS = (
    "win", "draw", "loss", "forfeit_win", "forfeit_loss",
    "pairing_bye", "half_bye", "full_bye", "zero_bye", "absent",
)
UNSUPPORTED = {
    "013": "team tournaments are not supported",
    "310": "team tournaments are not supported",
    "299": "abnormal assignment points are not supported",
}
# Codes whose content the parser maps into the model; everything else is kept verbatim.
INTERPRETED = frozenset(
    {"001", "012", "XXR", "142", "XXC", "152", "162", "XXP", "240",
     "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "SBN", "SBW", "SBS", "SBE"}
)
ACCELERATION = frozenset({"XXA", "250"})


class TrfError(ValueError):
    """A malformed or inconsistent TRF file. The message names the line and column."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.reason = message
        self.line = line
        self.column = column
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


@dataclass(frozen=True, slots=True)
class TrfPlayerInfo:
    """The fields of a ``001`` line that the model has no place for (kept for writing back)."""

    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    rank: int = 0  # rank column 86-89; 0 when blank
    points: Points | None = None  # the points column as read


def bbp_scoring(points: Mapping[str, Points]) -> Scoring:
    """The point system of bbp's ``BB*`` letters (W D L Z F U); unset letters keep chess."""
    chess = Scoring.chess()
    win = points.get("W", chess.win)
    draw = points.get("D", chess.draw)
    zero = points.get("Z", chess.zero_bye)
    return Scoring(
        win=win, draw=draw, loss=points.get("L", chess.loss),
        forfeit_win=win, forfeit_loss=points.get("F", chess.forfeit_loss),
        pairing_bye=points.get("U", win), half_bye=draw, full_bye=win,
        zero_bye=zero, absent=zero,
    )


def bbp_letters(scoring: Scoring) -> dict[str, Points]:
    return {"W": scoring.win, "D": scoring.draw, "L": scoring.loss, "Z": scoring.zero_bye,
            "F": scoring.forfeit_loss, "U": scoring.pairing_bye}


def show_points(points: Points) -> str:
    return str(points.numerator) if points.denominator == 1 else f"{float(points):g}"
