"""A round of 9,998 players fits in a 2.5 GB address space, on every shape of event history.

Each case writes the event (``swiss.histories``, round 7 after six played rounds) as a TRF
file and runs one ``swissbot pair`` process under ``prlimit --as`` of 2.5 GB (virtual memory,
so the limit holds whatever the machine's free memory): a structure growing with the square
of the players, or with the listed edges past what the round needs, fails it as a
MemoryError (exit code other than 0). Minutes per case, so opt-in:
``SWISSBOT_SCALE_TESTS=1 pytest -m scale tests/cli/test_scale_memory.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from swiss.histories import KINDS, history
from swiss.trf import write_trf

pytestmark = [
    pytest.mark.scale,
    pytest.mark.skipif(not os.environ.get("SWISSBOT_SCALE_TESTS"),
                       reason="10,000-player rounds take minutes: set SWISSBOT_SCALE_TESTS=1"),
    pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs util-linux's prlimit"),
]

PLAYERS = 9_998  # TRF-16's start numbers have four digits
ADDRESS_SPACE = 2_684_354_560  # 2.5 GB
SYSTEMS = [("burstein", "2025"), ("dutch", "2025"), ("monrad", "2025"),
           ("fide-dutch", "2025"), ("fide-dutch", "2017")]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("system", "rules"), SYSTEMS)
def test_a_round_of_ten_thousand_players_fits_in_two_and_a_half_gigabytes(
        tmp_path: Path, kind: str, system: str, rules: str) -> None:
    event = replace(history(kind, PLAYERS, 6, seed=1), total_rounds=11)
    path = tmp_path / "event.trf"
    path.write_text(write_trf(event))
    command = ["prlimit", f"--as={ADDRESS_SPACE}", sys.executable, "-m", "cli", "pair",
               "--system", system, "--rules", rules, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == str(PLAYERS // 2)
