"""PGN (Portable Game Notation, the chess games' text format) of an event's games: pure.

Each game is its tags (the Seven Tag Roster first: Event, Site, Date, Round, White, Black,
Result) and its movetext; a game known only by its result (played over the board, or whose
moves are not at hand) is its tags and the result alone, which every PGN reader accepts.
Tags of a game Lichess exported are read back with :func:`read_games`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: The Seven Tag Roster, in the order the standard wants them.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
#: What swissbot's results are in PGN (a forfeit counts as the win, with a comment saying it).
RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "+--": "1-0", "--+": "0-1",
           "---": "*", "*": "*"}
FORFEITS = {"+--": "Black forfeited", "--+": "White forfeited", "---": "Both forfeited"}
_TAG = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULT_TOKEN = re.compile(r"\s*(1-0|0-1|1/2-1/2|\*)\s*$")
_LINE = 80  # the export format's longest line


@dataclass(frozen=True, slots=True)
class PgnGame:
    tags: dict[str, str]
    movetext: str = ""  # without the result token


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board of the event as the PGN shows it."""

    round: int
    board: int
    white: str
    black: str
    result: str  # swiss.model.Result value
    site: str | None = None  # the game's page (Lichess)
    moves: PgnGame | None = None  # the game as Lichess exported it
    extra: dict[str, str] = field(default_factory=dict)


def tag_value(text: str) -> str:
    """A tag's value on one line, with ``\\`` and ``"`` escaped as the standard says."""
    flat = " ".join(str(text).split())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def write_game(tags: Mapping[str, str], movetext: str, result: str) -> str:
    roster = [name for name in ROSTER if name in tags]
    rest = sorted(name for name in tags if name not in ROSTER)
    lines = [f'[{name} "{tag_value(tags[name])}"]' for name in (*roster, *rest)]
    body = _wrap(f"{movetext} {result}".strip())
    return "\n".join(lines) + "\n\n" + body + "\n"


def event_pgn(event: str, games: Iterable[BoardGame]) -> str:
    """Every board as one PGN file: Event is the event's name, Round ``round.board``, White,
    Black and Result from swissbot (a result set by an organiser wins over Lichess's), Site
    the game's page when it has one; the moves and the date from Lichess when known."""
    out = []
    for game in games:
        result = RESULTS.get(game.result, "*")
        known = game.moves.tags if game.moves is not None else {}
        tags = {"Event": event, "Site": game.site or "?",
                "Date": known.get("Date", "????.??.??"), "Round": f"{game.round}.{game.board}",
                "White": game.white, "Black": game.black, "Result": result}
        for name in ("UTCDate", "UTCTime", "TimeControl", "Variant", "Termination",
                     "WhiteElo", "BlackElo"):
            if name in known:
                tags[name] = known[name]
        tags.update(game.extra)
        movetext = game.moves.movetext if game.moves is not None else ""
        if game.result in FORFEITS:
            movetext = f"{{{FORFEITS[game.result]}}} {movetext}".strip()
        out.append(write_game(tags, movetext, result))
    return "\n".join(out)


def read_games(text: str) -> list[PgnGame]:
    """The games of a PGN text (Lichess's export: tags, a blank line, the movetext); the
    result token is taken off the movetext (the tags keep it)."""
    games: list[PgnGame] = []
    tags: dict[str, str] = {}
    moves: list[str] = []

    def flush() -> None:
        if tags:
            games.append(PgnGame(dict(tags), _RESULT_TOKEN.sub("", " ".join(moves)).strip()))
        tags.clear()
        moves.clear()

    for line in text.splitlines():
        match = _TAG.match(line.strip())
        if match is not None:
            if moves:  # the tags of the next game
                flush()
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        elif line.strip():
            moves.append(line.strip())
    flush()
    return games


def _wrap(text: str) -> str:
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > _LINE:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return "\n".join(lines)
