"""What both backends share about the schema: the migration files' numbering, the errors."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class UnusableDatabase(RuntimeError):
    """The database file cannot be used; the message is one line for the operator."""


class MigrationError(UnusableDatabase):
    """The migration files are inconsistent or the database is newer than this code."""


def checked_migrations(entries: list[tuple[str, str]]) -> list[tuple[int, str, str]]:
    """``(file name, sql)`` pairs -> ``(version, name, sql)`` sorted, numbered 1, 2, 3, ..."""
    found: list[tuple[int, str, str]] = []
    for name, sql in entries:
        match = _MIGRATION_NAME.match(name)
        if match is None:
            raise MigrationError(f"migration file {name!r} is not named NNNN_description.sql")
        found.append((int(match.group(1)), name, sql))
    found.sort()
    for expected, (version, name, _) in enumerate(found, start=1):
        if version != expected:
            raise MigrationError(f"migration {name} should be number {expected:04d}")
    return found


def migration_files(directory: Path | None = None) -> list[tuple[int, str, str]]:
    """The numbered SQLite migrations as ``(version, file name, sql)``, in order.

    Versions must be 1, 2, 3, ... without gaps: ``PRAGMA user_version`` records the last one
    applied, so a gap would silently skip a file. (PostgreSQL's twins are in
    storage/migrations_postgresql, see :mod:`storage.dialects.postgresql`.)
    """
    if directory is None:
        entries = [
            (entry.name, entry.read_text(encoding="utf-8"))
            for entry in resources.files("storage").joinpath("migrations").iterdir()
            if entry.name.endswith(".sql")
        ]
    else:
        entries = [(p.name, p.read_text(encoding="utf-8")) for p in directory.glob("*.sql")]
    return checked_migrations(entries)
