"""The user docs describe the software as it is: no work log (issue numbers, sessions, branch
names), each slash command listed once, and the permission table names the commands that
carry each operation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import REPO

DOCS = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
WORK_LOG = re.compile(
    r"\bissue \d+\b|\bthis (session|branch)\b|\bh\d\d-[a-z0-9-]+|\(h\d\d\)",
    re.IGNORECASE)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_docs_read_as_references_not_work_logs(path: Path) -> None:
    found = [f"{number}: {match.group(0)}"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for match in WORK_LOG.finditer(line)]
    assert not found, f"{path.name} reads as a work log: {found[:10]}"


def _command_rows(text: str, heading: str) -> list[str]:
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| `/")]


def test_the_command_table_lists_each_command_once() -> None:
    text = (REPO / "docs" / "discord.md").read_text(encoding="utf-8")
    rows = _command_rows(text, "## Slash commands and the end-to-end test that covers each")
    names = [row.split("|")[1].strip() for row in rows]
    assert len(rows) > 30
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_the_permission_table_names_the_bye_request_commands() -> None:
    text = (REPO / "docs" / "discord.md").read_text(encoding="utf-8")
    rows = {row.split("|")[1].strip(): row for row in text.splitlines()
            if row.startswith("| `") and row.count("|") == 4}
    assert "`/bye request`" in rows["`request_bye`"]
    assert "`/bye cancel`" in rows["`cancel_bye_request`"]
    assert "service only" not in rows["`cancel_bye_request`"]
