"""``swissbot db copy SRC DST`` and ``swissbot db check [DATABASE]``.

A database is a SQLite file (a path or ``sqlite:///path``) or ``postgresql://...``. ``copy``
moves everything from one to the other in one transaction on the destination and verifies row
counts and a checksum per table; ``check`` verifies a database's integrity without changing it.
Exit codes: 0 when the copy is identical / the database is sound, 1 otherwise (one line each).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from cli.exit_codes import EXIT_OK

EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "db",
        help="copy a database between SQLite and PostgreSQL, check one",
        description="Copy a database between SQLite and PostgreSQL, or check one. A database "
        "is a SQLite file (path or sqlite:///path) or a postgresql:// URL. See docs/database.md.",
    )
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    copy = sub.add_parser(
        "copy", help="copy SRC into DST (empty, or --force) and verify it table by table",
        description="Copy every row of SRC into DST in one transaction on DST, reset "
        "PostgreSQL's id sequences, then compare row counts and checksums per table.",
    )
    copy.add_argument("source", metavar="SRC")
    copy.add_argument("destination", metavar="DST")
    copy.add_argument("--force", action="store_true",
                      help="replace what DST holds (by default a non-empty DST is refused)")
    copy.set_defaults(func=run_copy)
    check = sub.add_parser(
        "check", help="check a database's integrity (default: SWISSBOT_DATABASE)",
        description="SQLite: quick_check and foreign_key_check. PostgreSQL: foreign keys "
        "without orphans, id sequences ahead of the ids. Both: the schema version.",
    )
    check.add_argument("database", metavar="DATABASE", nargs="?")
    check.set_defaults(func=run_check)


def _shown(target: str) -> str:
    from storage.dialects.postgresql import is_url, shown

    return shown(target) if is_url(target) else target


def _missing_file(target: str) -> str | None:
    """A SQLite source that does not exist would be created empty: say so instead."""
    from storage.dialects.postgresql import is_url

    if is_url(target):
        return None
    path = target.removeprefix("sqlite://").removeprefix("/") if target.startswith(
        "sqlite://") else target
    return None if Path(path).is_file() else f"no such database file: {path}"


def run_copy(args: argparse.Namespace) -> int:
    from storage.moving import CopyRefused, copy_database
    from storage.schema import UnusableDatabase

    problem = _missing_file(args.source)
    if problem is not None:
        print(f"swissbot db copy: {problem}", file=sys.stderr)
        return EXIT_FAILED
    try:
        report = asyncio.run(copy_database(args.source, args.destination, force=args.force))
    except (CopyRefused, UnusableDatabase) as exc:
        print(f"swissbot db copy: {exc}", file=sys.stderr)
        return EXIT_FAILED
    after = {s.table: s for s in report.destination}
    width = max([len("table"), *(len(s.table) for s in report.source)])
    print(f"{'table':<{width}}  {'rows':>8}  {'copied':>8}  {'checksum':<16}  verdict")
    for s in report.source:
        d = after.get(s.table)
        same = d == s
        print(f"{s.table:<{width}}  {s.rows:>8}  {d.rows if d else '-':>8}  "
              f"{s.checksum[:16]:<16}  {'ok' if same else 'DIFFERS'}")
    total = sum(s.rows for s in report.source)
    if not report.identical:
        print(f"swissbot db copy: the copy in {_shown(args.destination)} differs from the "
              "source (see DIFFERS above)", file=sys.stderr)
        return EXIT_FAILED
    print(f"copied {total} rows in {len(report.source)} tables from {_shown(args.source)} to "
          f"{_shown(args.destination)}: identical")
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    from storage.moving import check_database
    from storage.schema import UnusableDatabase

    target = args.database
    if target is None:
        from bot.settings import Settings

        target = str(Settings().database)
    problem = _missing_file(target)
    if problem is not None:
        print(f"swissbot db check: {problem}", file=sys.stderr)
        return EXIT_FAILED
    try:
        report = asyncio.run(check_database(target))
    except UnusableDatabase as exc:
        print(f"swissbot db check: {exc}", file=sys.stderr)
        return EXIT_FAILED
    for problem in report.problems:
        print(f"{_shown(target)}: {problem}")
    if not report.ok:
        print(f"swissbot db check: {len(report.problems)} problem(s) in {_shown(target)}",
              file=sys.stderr)
        return EXIT_FAILED
    print(f"{_shown(target)}: ok ({report.backend}, schema {report.version})")
    return EXIT_OK
