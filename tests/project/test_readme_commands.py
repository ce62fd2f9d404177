"""The README's slash-command table says what the cogs declare: every command exists, every
option is listed (``tournament`` is implied, see the README), required ones bare, optional
ones in brackets; and every command of the cogs appears in the table."""

from __future__ import annotations

import re

from discord import app_commands

from cogs.admin import AdminCog
from cogs.explain import ExplainCog
from cogs.lichess import LichessCog
from cogs.notify import NotifyCog
from cogs.play import PlayCog
from cogs.privacy import PrivacyCog
from cogs.rounds import RoundCog
from cogs.tables import TablesCog
from cogs.teams import TeamCog
from cogs.tournament import TournamentCog
from tests.paths import REPO

README = REPO / "README.md"


def _declared() -> dict[str, app_commands.Command]:  # type: ignore[type-arg]
    commands: dict[str, app_commands.Command] = {}  # type: ignore[type-arg]
    for cog in (AdminCog(), NotifyCog(), PlayCog(), TournamentCog(), RoundCog(), TablesCog(),
                ExplainCog(), LichessCog(), PrivacyCog(), TeamCog()):
        for command in cog.walk_app_commands():
            if isinstance(command, app_commands.Command):
                commands[command.qualified_name] = command
    return commands


def _documented() -> list[str]:
    """Every backticked ``/command ...`` in the first column of the commands table."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("## Slash commands"):text.index("## Command line")]
    lines = []
    for row in table.splitlines():
        if row.startswith("| `/"):
            first = row.split(" | ")[0]
            lines += re.findall(r"`(/[^`]+)`", first)
    return lines


def test_every_readme_command_line_matches_the_cogs() -> None:
    declared = _declared()
    seen = set()
    for line in _documented():
        words = line.lstrip("/").split()
        for size in (2, 1):
            name = " ".join(words[:size])
            if name in declared:
                break
        else:
            raise AssertionError(f"README documents an unknown command: {line}")
        seen.add(name)
        listed = words[size:]
        required = {w for w in listed if not w.startswith("[")}
        optional = {w.strip("[]") for w in listed if w.startswith("[")}
        params = {p.display_name: p.required for p in declared[name].parameters
                  if p.display_name != "tournament"}
        assert required == {p for p, req in params.items() if req}, line
        assert optional == {p for p, req in params.items() if not req}, line
    assert set(declared) == seen, set(declared) - seen
