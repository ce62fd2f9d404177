"""The TRF package's modules import in one direction only (issue 12: no import circle).

format (the layout) <- scan (lines and fields) and writer; scan <- writer (it reads the 250
acceleration lines it writes back, to know what XXA must add); writer <- document; scan and
document <- reader. Nothing imports the reader but the package, and format imports no TRF
module at all (it used to import the writer lazily, a circle format <-> writer).
"""

from __future__ import annotations

import ast
from pathlib import Path

import swiss.trf

PACKAGE = Path(swiss.trf.__file__).parent
ALLOWED = {
    "format": set(),
    "pairs": set(),
    "header": set(),
    "scan": {"format"},
    "writer": {"format", "scan"},
    "document": {"format", "writer"},
    "reader": {"format", "scan", "document"},
    "player_fields": {"format"},
}


def trf_imports(module: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):  # walk: lazy imports inside functions count too
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.startswith("swiss.trf."):
            found.add(node.module.removeprefix("swiss.trf."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("swiss.trf.") for a in node.names
                      if a.name.startswith("swiss.trf.")}
    return found


def test_trf_modules_import_in_one_direction() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert modules == set(ALLOWED), "declare a new TRF module's allowed imports in ALLOWED"
    for module, allowed in ALLOWED.items():
        assert trf_imports(module) <= allowed, module


def test_the_public_api_is_unchanged() -> None:
    assert set(swiss.trf.__all__) >= {"TrfError", "TrfPlayerInfo", "TrfTournament",
                                      "format_pairs", "parse_trf", "write_trf"}
