"""The test tree says what each test covers: one folder per layer, and a test of a layer uses
nothing above it (a pairing test that needed the database would be a service test)."""

from __future__ import annotations

import ast

import pytest

from tests.paths import TESTS

# a folder's tests may import these of our packages (and test helpers of the same layers)
ALLOWED = {
    "swiss": {"swiss"},
    "storage": {"storage", "swiss"},
    "service": {"service", "storage", "swiss"},
}
OURS = {"swiss", "storage", "service", "bot", "cogs", "cli", "sandbox"}
# the helpers in tests/ and the layer each belongs to
HELPER_LAYER = {
    "pairing_helpers": "swiss", "pairing_jobs": "swiss", "standings_cases": "swiss",
    "tcec_support": "swiss", "tiebreak_crosscheck": "swiss", "pg_cluster": "storage",
    "service_helpers": "service", "lichess_helpers": "service",
}
LAYERS = ("swiss", "storage", "service", "bot", "cli", "project", "e2e")


def _imported_layers(path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] in OURS:
                found.add(parts[0])
            elif parts[0] == "tests" and len(parts) > 1:
                if parts[1] in LAYERS:
                    found.add(parts[1])
                elif parts[1] in HELPER_LAYER:
                    found.add(HELPER_LAYER[parts[1]])
    return found


def test_every_test_module_sits_in_a_layer_folder() -> None:
    loose = sorted(path.name for path in TESTS.glob("test_*.py"))
    assert not loose, f"move these into tests/<layer>/: {loose}"
    folders = {path.parent.name for path in TESTS.glob("*/test_*.py")}
    assert folders <= set(LAYERS), folders - set(LAYERS)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_s_tests_use_nothing_above_it(layer: str) -> None:
    above = {
        path.name: sorted(_imported_layers(path) - ALLOWED[layer])
        for path in sorted((TESTS / layer).glob("test_*.py"))
    }
    offenders = {name: layers for name, layers in above.items() if layers}
    assert not offenders, f"tests/{layer} imports layers above it: {offenders}"
