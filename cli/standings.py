"""``swissbot standings``: the standings of a TRF tournament with an ordered tiebreak list.

Prints rank, pairing id, name, points, then one column per tiebreak in the order asked, as a
text table, CSV or JSON. ``--rules 2026|2024`` picks the FIDE C.07 edition (default: the one in
force on the TRF's start date, line 042; 2026 without one). The text table ends with the ties
left after every tiebreak and what the regulations say happens next. ``--explain ID`` prints
one player's working instead, with the edition and article behind each value. Exit codes:
0 ok, 3 invalid input (the file, or an option value; message on standard error), 2 usage.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from fractions import Fraction

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from cli.options import whole
from cli.trf_file import UnreadableFile, read_trf_file
from swiss.model import Tournament
from swiss.numbers import MAX_SEED
from swiss.standings import (
    EDITION_TITLES,
    EDITIONS,
    PRESETS,
    RULE_EDITIONS,
    Standings,
    compute_standings,
    explain_player,
    format_value,
    next_step,
    remaining_ties,
    select_edition,
    trf_start_date,
)
from swiss.trf import TrfError, TrfTournament
from swiss.trf.format import MAX_ID, MAX_ROUNDS

FORMATS = ("text", "csv", "json")
FINAL_KEYS = ("order", "lot")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``standings`` sub-command."""
    parser = subparsers.add_parser(
        "standings",
        help="print the standings of a TRF file with tiebreaks",
        description=(
            "Print the standings of the tournament in FILE.trf: rank, pairing id, name, "
            "points, then one column per tiebreak in the order asked. Players tied on points "
            "and every tiebreak share a rank. Exit codes: 0 ok, 2 usage, 3 invalid input."
        ),
    )
    parser.add_argument("file", metavar="FILE.trf", help="the tournament (FIDE TRF-16)")
    parser.add_argument(
        "--tiebreaks", metavar="LIST",
        help="ordered, comma-separated tiebreak acronyms, e.g. BH-C1,BH,SB (overrides --preset)",
    )
    parser.add_argument(
        "--preset", metavar="NAME",
        help=f"a named tiebreak list: {', '.join(PRESETS)} (default: fide)",
    )
    parser.add_argument("--format", default="text", metavar="FORMAT",
                        help="text, csv or json (default: text)")
    parser.add_argument("--rounds", metavar="N", type=whole(0, MAX_ROUNDS),
                        help="standings after round N (default: every played round)")
    parser.add_argument(
        "--rules", metavar="EDITION",
        help="FIDE C.07 tie-break edition: 2026 (in force from 1 March 2026) or 2024 "
             "(default: the edition in force on the TRF start date, line 042; 2026 without one)",
    )
    parser.add_argument(
        "--unplayed", default="c07", metavar="RULE",
        help="unplayed rounds in Buchholz/SB: c07 (FIDE C.07 art. 16, dummy opponent, per "
             "--rules) or c02 (the older C.02 virtual opponent) (default: c07)",
    )
    parser.add_argument(
        "--final", default="order", metavar="KEY",
        help="order of players tied on everything: 'order' (initial order) or 'lot' "
             "(drawn with --lot-seed) (default: order)",
    )
    parser.add_argument("--lot-seed", default="0", metavar="N", type=whole(0, MAX_SEED),
                        help="seed of the lot (default 0)")
    parser.add_argument("--explain", metavar="ID", type=whole(1, MAX_ID),
                        help="print how each tiebreak of player ID was computed")
    parser.add_argument(
        "--teams", action="store_true",
        help="a team event (013 team records): rank the teams by the primary score of its "
             "192 record, then --tiebreaks in team acronyms (GPTS,DE,ESB,BH:MP-C1, ...; "
             "docs/teams.md); --format text or csv, --rounds")
    parser.set_defaults(func=run)


class _BadInput(Exception):
    """An invalid option value or file (exit code 3)."""


def _tiebreaks(args: argparse.Namespace) -> str | list[str]:
    if args.tiebreaks is not None:
        items = [item.strip() for item in args.tiebreaks.split(",") if item.strip()]
        if not items:
            raise _BadInput("--tiebreaks is empty; give acronyms such as BH-C1,BH,SB")
        return items
    preset = (args.preset or "fide").strip().lower()
    if preset not in PRESETS:
        raise _BadInput(f"unknown --preset {args.preset!r}; choose one of {', '.join(PRESETS)}")
    return preset


def _check_options(args: argparse.Namespace) -> None:
    if args.format not in FORMATS:
        raise _BadInput(f"unknown --format {args.format!r}; use text, csv or json")
    if args.unplayed not in RULE_EDITIONS:
        raise _BadInput(f"unknown --unplayed {args.unplayed!r}; use c07 or c02")
    if args.rules is not None and args.rules.strip() not in EDITIONS:
        raise _BadInput(f"unknown --rules {args.rules!r}; use 2026 or 2024")
    if args.final not in FINAL_KEYS:
        raise _BadInput(f"unknown --final {args.final!r}; use order or lot")


def _read(path: str) -> TrfTournament:
    try:
        return read_trf_file(path)
    except UnreadableFile as exc:
        raise _BadInput(str(exc)) from None
    except TrfError as exc:
        raise _BadInput(f"{path}: {exc}") from None


def _rows(standings: Standings) -> list[list[str]]:
    return [
        [str(row.rank), str(row.player_id), row.name, format_value(row.points)]
        + [format_value(v) for v in row.values]
        for row in standings.rows
    ]


def _header(standings: Standings) -> list[str]:
    return ["Rank", "ID", "Name", "Pts", *standings.tiebreaks]


def render_text(tournament: Tournament, standings: Standings, final_key: str = "order") -> str:
    """An aligned text table with a title line naming the rounds, the C.07 edition and the
    unplayed rule, then (if any) the ties left after every tiebreak and what comes next."""
    header, rows = _header(standings), _rows(standings)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    title = tournament.name or "Standings"
    lines.append(f"{title} -- after round {standings.rounds}; "
                 f"{EDITION_TITLES[standings.edition]}; unplayed rounds: "
                 f"{RULE_EDITIONS[standings.unplayed]}")
    for cells in [header, *rows]:
        parts = [
            cell.ljust(widths[i]) if i == 2 else cell.rjust(widths[i])
            for i, cell in enumerate(cells)
        ]
        lines.append("  ".join(parts).rstrip())
    if remaining_ties(standings) and standings.tiebreaks:
        lines.extend(["", next_step(standings, final_key)])
    return "\n".join(lines) + "\n"


def render_csv(standings: Standings) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([h.lower() if i < 4 else h for i, h in enumerate(_header(standings))])
    writer.writerows(_rows(standings))
    return out.getvalue()


def _number(value: Fraction | float) -> int | float:
    text = format_value(value)
    return int(text) if "." not in text else float(text)


def render_json(tournament: Tournament, standings: Standings) -> str:
    data = {
        "tournament": tournament.name,
        "rounds": standings.rounds,
        "rules": standings.edition,
        "unplayed": standings.unplayed,
        "ties": [list(t.player_ids) for t in remaining_ties(standings)],
        "tiebreaks": list(standings.tiebreaks),
        "rows": [
            {
                "rank": row.rank,
                "id": row.player_id,
                "name": row.name,
                "points": _number(row.points),
                "values": {
                    acronym: _number(value)
                    for acronym, value in zip(standings.tiebreaks, row.values, strict=True)
                },
            }
            for row in standings.rows
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _explain(args: argparse.Namespace, tournament: Tournament, tiebreaks: str | list[str],
             rounds: int | None, edition: str) -> str:
    player_id = args.explain
    if player_id not in tournament.player_ids:
        raise _BadInput(f"--explain {player_id}: no player with that pairing id")
    lines = [
        f"{tournament.player(player_id).name} (#{player_id})",
        f"Rules: {EDITION_TITLES[edition]}; unplayed rounds: {RULE_EDITIONS[args.unplayed]}",
    ]
    for item in explain_player(tournament, player_id, tiebreaks, rounds=rounds,
                               unplayed=args.unplayed, rules=edition):
        lines.append(f"{item.acronym} {format_value(item.value)}: {item.text}")
        lines.append(f"    C.07 ({item.edition}) {item.article}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the standings (or one player's working); the exit code says how it went."""
    if args.teams:
        from cli.team_standings import run_team_standings

        return run_team_standings(args)
    try:
        _check_options(args)
        tiebreaks = _tiebreaks(args)
        rounds, lot_seed = args.rounds, args.lot_seed  # read by argparse (cli.options)
        parsed = _read(args.file)
        tournament = parsed.tournament
        try:
            start = trf_start_date(parsed.other_lines, parsed.other_line_numbers)
        except ValueError as exc:
            raise _BadInput(f"{args.file}: {exc}") from None
        edition = select_edition(None if args.rules is None else args.rules.strip(), start)
        if args.explain is not None:
            sys.stdout.write(_explain(args, tournament, tiebreaks, rounds, edition))
            return EXIT_OK
        standings = compute_standings(
            tournament, tiebreaks, rounds=rounds, unplayed=args.unplayed,
            final_key=args.final, lot_seed=lot_seed, rules=edition,
        )
    except _BadInput as exc:
        print(f"swissbot standings: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except ValueError as exc:  # unknown tiebreak, --rounds out of range
        print(f"swissbot standings: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    if args.format == "csv":
        sys.stdout.write(render_csv(standings))
    elif args.format == "json":
        sys.stdout.write(render_json(tournament, standings))
    else:
        sys.stdout.write(render_text(tournament, standings, args.final))
    return EXIT_OK
