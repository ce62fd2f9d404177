"""A round of 9,998 players fits in a 2.5 GB address space, on every shape of event history.

Each case writes the event (``swiss.histories``, round 7 after six played rounds) as a TRF
file and runs one ``swissbot pair`` process under ``prlimit --as`` of 2.5 GB (virtual memory,
so the limit holds whatever the machine's free memory): a structure growing with the square
of the players, or with the listed edges past what the round needs, fails it as a
MemoryError (exit code other than 0). The exact engine's graphs are also checked against
their stated bounds (``swiss.pairing.sparse``: edges per player). Minutes per case, so opt-in:
``SWISSBOT_SCALE_TESTS=1 pytest -m scale tests/cli/test_scale_memory.py``.
"""

from __future__ import annotations

import json
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


# The stated bounds of the exact engine's graphs (swiss.pairing.sparse): the largest graph a
# solve ran on stays within GRAPH_PER_PLAYER edges per player, plus one solve's additions
# (per_vertex = 5 per vertex) past it; the random systems' round 1 keeps nothing of the
# square of the players (their draws are made on demand).
_STATS = """
import json, sys
from dataclasses import replace
from swiss.histories import history
from swiss.pairing import PairingConfig, pair_round
kind, system, played = sys.argv[1], sys.argv[2], int(sys.argv[3])
event = replace(history(kind, {players}, played, seed=1), total_rounds=11)
print(json.dumps(dict(pair_round(event, PairingConfig(system=system)).stats)))
"""


@pytest.mark.parametrize(("kind", "played"), [(kind, 6) for kind in KINDS]
                         + [("random", 0)])
@pytest.mark.parametrize("system", ["burstein", "dutch", "monrad", "random", "random2"])
def test_the_graphs_of_a_ten_thousand_player_round_keep_their_stated_bounds(
        kind: str, played: int, system: str) -> None:
    from swiss.pairing.exact import MAX_PRUNES
    from swiss.pairing.sparse import GRAPH_PER_PLAYER

    command = ["prlimit", f"--as={ADDRESS_SPACE}", sys.executable, "-c",
               _STATS.format(players=PLAYERS), kind, system, str(played)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    stats = json.loads(done.stdout.splitlines()[-1])
    assert stats["largest_graph"] <= (GRAPH_PER_PLAYER + 5) * (PLAYERS + 1)
    assert stats["prunes"] <= MAX_PRUNES
