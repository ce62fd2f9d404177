"""`swissbot pair` loads only what its system needs: one process per round is how arbiters
and scripts run it, so every module imported is paid on every round.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from swiss.histories import history
from swiss.trf import write_trf

# What one pairing of a player event must not import (each loads modules it never uses).
_TEAM_ENGINES = ("swiss.teams.fide_team", "swiss.teams.esports", "swiss.teams.trf")
_PROBE = """
import json, sys
from cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _modules_of_a_pairing(tmp_path: Path, *options: str) -> set[str]:
    path = tmp_path / "event.trf"
    path.write_text(write_trf(history("dutch", 30, 3, seed=2)))
    done = subprocess.run([sys.executable, "-c", _PROBE, "pair", *options, str(path)],
                          capture_output=True, text=True, check=True, timeout=120)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["code"] == 0
    return set(report["modules"])


@pytest.mark.parametrize("system", ["fide-dutch", "dutch"])
def test_a_player_event_does_not_import_the_team_engines(tmp_path: Path, system: str) -> None:
    modules = _modules_of_a_pairing(tmp_path, "--system", system)
    assert not modules & set(_TEAM_ENGINES)


def test_fide_dutch_does_not_import_the_mwm_weight_model(tmp_path: Path) -> None:
    modules = _modules_of_a_pairing(tmp_path, "--system", "fide-dutch")
    assert "swiss.pairing.fide_dutch.engine" in modules
    assert "swiss.pairing.weights" not in modules
