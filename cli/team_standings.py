"""``swissbot standings --teams``: a team event's standings with FIDE C.07 team tie-breaks.

Reads a team TRF file (``013`` team records, docs/teams.md), ranks the teams by the primary
score its ``192`` record names (match points unless ``_GP_``), then by ``--tiebreaks`` (team
acronyms such as ``GPTS,DE,ESB,BH:MP-C1``; default: the other score, DE, ESB, BH, BH-C1),
and prints rank, team number, name, primary score and one column per tie-break, as text or
CSV. Errors (the file, an unknown tie-break) exit 3 with the reason.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from cli.trf_file import UnreadableFile, read_trf_text
from swiss.standings import format_value
from swiss.teams.tiebreaks import TeamTiebreakError, team_standings
from swiss.teams.trf import parse_team_trf
from swiss.trf import TrfError


def run_team_standings(args: argparse.Namespace) -> int:
    """Print the team standings; the exit code says how it went."""
    try:
        if args.format not in ("text", "csv"):
            raise ValueError(f"--teams prints text or csv, not {args.format!r}")
        event = parse_team_trf(read_trf_text(args.file))
        if args.rounds is not None and args.rounds > event.rounds_played:
            raise ValueError(f"--rounds {args.rounds}: only {event.rounds_played} rounds "
                             "have been played")
        names = None
        if args.tiebreaks is not None:
            names = [item.strip() for item in args.tiebreaks.split(",") if item.strip()]
        primary = event.rules.primary
        specs, rows = team_standings(event.teams, primary, names, rounds=args.rounds,
                                     total_rounds=event.total_rounds)
    except UnreadableFile as exc:
        print(f"swissbot standings: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except TrfError as exc:
        print(f"swissbot standings: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except (TeamTiebreakError, ValueError) as exc:
        print(f"swissbot standings: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    header = ["rank", "team", "name", primary.upper(), *(s.acronym for s in specs)]
    table = [[str(r.rank), str(r.tpn), r.name, *(format_value(v) for v in r.values)]
             for r in rows]
    if args.format == "csv":
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows([header, *table])
        sys.stdout.write(buffer.getvalue())
        return EXIT_OK
    widths = [max(len(line[i]) for line in [header, *table]) for i in range(len(header))]
    for line in [header, *table]:
        cells = [cell.ljust(w) if i == 2 else cell.rjust(w)
                 for i, (cell, w) in enumerate(zip(line, widths, strict=True))]
        sys.stdout.write("  ".join(cells).rstrip() + "\n")
    return EXIT_OK
