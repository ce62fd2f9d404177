"""``swissbot header``: show or set the report header of a TRF file (lines 012 to 122).

Federations rate an event from its TRF: the name, city, federation, dates, arbiters and time
control of the header (:mod:`swiss.trf.header`). ``--set KEY=VALUE`` (key or code: ``city`` or
``022``; an empty value removes the line) writes the file again with the header changed: over
FILE itself (replaced whole, never half-written), or to ``-o OUT`` (``-o -``: standard
output); without ``--set`` the header is printed as the file has it.
Exit codes: 0 done, 3 invalid input (the file, or a value, with its line and column), 2 usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from cli.trf_file import UnreadableFile, read_trf_file, write_output
from swiss.trf import TrfError, TrfTournament, write_trf
from swiss.trf.header import (
    BY_CODE,
    HEADER_FIELDS,
    HeaderError,
    check_header,
    field_of,
    header_lines,
    read_header,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``header`` sub-command."""
    keys = ", ".join(f"{f.key} ({f.code})" for f in HEADER_FIELDS)
    parser = subparsers.add_parser(
        "header",
        help="show or set the report header of a TRF file (city, dates, arbiters ...)",
        description=(
            "Show the TRF report header of FILE.trf, or set lines of it with --set and write "
            f"the file again (FILE.trf itself, or -o OUT). Fields: {keys}. Dates are "
            "YYYY/MM/DD; deputies are separated by ';'. Exit codes: 0 done, 2 usage, "
            "3 invalid input."
        ),
    )
    parser.add_argument("file", metavar="FILE.trf", help="the tournament (FIDE TRF-16)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        dest="changes", help="set a header line (repeatable; empty VALUE "
                        "removes it)")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="with --set: write the file to OUT instead of over FILE.trf "
                             "('-': standard output)")
    parser.set_defaults(func=run)


def _file_header(trf: TrfTournament, text_lines: list[str]) -> dict[str, str]:
    """The header the file has; a value that does not check names its line."""
    try:
        return read_header(trf.tournament.name, trf.other_lines)
    except HeaderError as exc:
        line = next((i for i, text in enumerate(text_lines, start=1)
                     if exc.code and text.startswith(exc.code)), 1)
        raise TrfError(str(exc), line, 5) from None


def run(args: argparse.Namespace) -> int:
    """Print or rewrite the header; the exit code says how it went."""
    try:
        trf = read_trf_file(args.file)
        text_lines = Path(args.file).read_text(encoding="utf-8", errors="replace").splitlines()
        header = _file_header(trf, text_lines)
        for change in args.changes:
            key, sep, value = change.partition("=")
            if not sep:
                raise HeaderError(f"--set {change[:30]!r} is not KEY=VALUE")
            header[field_of(key).code] = value
        header = check_header(header)
    except UnreadableFile as exc:
        print(f"swissbot header: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except TrfError as exc:
        print(f"swissbot header: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except HeaderError as exc:
        print(f"swissbot header: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    if not args.changes:
        sys.stdout.write("".join(f"{line}\n" for line in header_lines(header, skip=())))
        return EXIT_OK
    kept = tuple(line for line in trf.other_lines if line[:3] not in BY_CODE)
    tournament = trf.tournament
    if header.get("012") != tournament.name:
        from dataclasses import replace

        tournament = replace(tournament, name=header.get("012", ""))
    try:
        out = write_trf(tournament, players=trf.players,
                        other_lines=(*header_lines(header), *kept))
    except ValueError as exc:
        print(f"swissbot header: {args.file}: cannot be written as TRF: {exc}",
              file=sys.stderr)
        return EXIT_INVALID_INPUT
    if not write_output("header", args.output or args.file, out):
        return EXIT_INVALID_INPUT
    return EXIT_OK
