"""``swissbot pgn``: the games of a JSON export (``/tournament export format:json``) as one
PGN file, with the event's name, round.board, the players, the result and, for an event on
Lichess, the game's page as Site. The moves are not in an export: ``/tournament export
format:pgn`` in Discord adds them from Lichess.

Exit codes: 0 done, 3 invalid input (the file is not JSON: its line and column; or not an
export with games), 2 usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from swiss.pgn import BoardGame, event_pgn


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``pgn`` sub-command."""
    parser = subparsers.add_parser(
        "pgn",
        help="the games of a JSON export as one PGN file",
        description=(
            "Write the games of FILE.json (the JSON export of /tournament export, everything "
            "or what:games) as one PGN file: Event, Round (round.board), White, Black, "
            "Result and Site (the game's page on Lichess, for an event played there). "
            "Exit codes: 0 done, 2 usage, 3 invalid input."),
    )
    parser.add_argument("file", metavar="FILE.json", help="a JSON export of the event")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write the PGN to OUT (default: standard output)")
    parser.set_defaults(func=run)


class ExportError(ValueError):
    """The file is not a JSON export with games; the message says where."""


def pgn_of_export(text: str) -> str:
    """The PGN of a JSON export's games (byes are not games)."""
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExportError(f"line {exc.lineno}, column {exc.colno}: not JSON ({exc.msg})"
                          ) from None
    games = body.get("games") if isinstance(body, dict) else None
    if not isinstance(games, list):
        raise ExportError("no \"games\" in the file: export with format:json (what:games "
                          "or all)")
    tournament = body.get("tournament")
    name = str(tournament.get("name") or "?") if isinstance(tournament, dict) else "?"
    return event_pgn(name, [_board(index, record) for index, record in enumerate(games, 1)
                            if isinstance(record, dict) and record.get("board") is not None])


def _board(index: int, record: dict[str, Any]) -> BoardGame:
    try:
        url = record.get("game_url")
        return BoardGame(int(record["round"]), int(record["board"]),
                         str(record["white_name"]), str(record["black_name"]),
                         str(record["result"]),
                         site=str(url) if isinstance(url, str) and url else None)
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise ExportError(f"game {index} of \"games\": missing or wrong {exc}") from None


def run(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8-sig")
        pgn = pgn_of_export(text)
    except (OSError, ExportError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        print(f"swissbot pgn: {args.file}: {reason}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    if args.output:
        Path(args.output).write_text(pgn, encoding="utf-8")
    else:
        sys.stdout.write(pgn)
    return EXIT_OK
