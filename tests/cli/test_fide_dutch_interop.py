"""Interop: a bot tournament paired with fide-dutch, exported as TRF (``/tournament export
trf``, then rewritten by ``swissbot header``), passes the FIDE-endorsed engine's check mode:
``bbpPairings --dutch FILE -c`` pairs every round again and prints no difference.

bbpPairings 6.0.0 checks the 2025 rules, 5.0.1 the 2017 rules. They are an oracle run from
outside (../shared/tools/bbpPairings, or $SWISSBOT_SHARED/tools/bbpPairings); the test skips
with a message when they are absent.
"""

from __future__ import annotations

import os
import random
import subprocess
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from cli.main import main
from service import TournamentService
from swiss.model import Color, Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig
from swiss.trf import parse_trf, write_trf
from tests.pairing_helpers import new_tournament, play
from tests.paths import REPO
from tests.service_helpers import GUILD, member, open_service, organiser

ROOT = REPO
_SHARED = [Path(os.environ["SWISSBOT_SHARED"])] if os.environ.get("SWISSBOT_SHARED") else []
_SHARED += [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
BINARY = {"2025": "bbpPairings-6.0.0", "2017": "bbpPairings-5.0.1"}
ORG = organiser()
ROUNDS = 5


def _oracle(rules: str) -> Path:
    for shared in _SHARED:
        path = shared / "tools" / "bbpPairings" / BINARY[rules]
        if path.exists():
            return path
    pytest.skip(f"{BINARY[rules]} not found in ../shared/tools/bbpPairings (nor "
                "$SWISSBOT_SHARED): the interop check needs the FIDE-endorsed engine")


async def _play(service: TournamentService, rules: str, players: int) -> str:
    """A whole event through the service: results vary by board and round (wins, draws,
    losses, one forfeit), one player withdraws after round 2; returns the TRF export."""
    await service.create_tournament(ORG, "Interop Open", ROUNDS, system="fide-dutch",
                                    dutch_rules=rules, seed=3)
    for index in range(players):
        await service.join(member(100 + index), rating=2200 - 17 * index)
    await service.start_tournament(ORG)
    for number in range(1, ROUNDS + 1):
        view = await service.pairings(GUILD, round_number=number)
        for game in view.games:
            if number == 2 and game.board == 2:
                result = "forfeit_win"  # white wins by forfeit: scores, does not count as played
            else:
                result = ["win", "draw", "loss"][(game.board * 7 + number * 3) % 3]
            await service.set_result(ORG, number, f"#{game.white.number}", result)
        if number == 2:
            await service.drop_player(ORG, f"#{players}")
        if number < ROUNDS:
            await service.pair_next_round(ORG)
    await service.set_trf_header(ORG, {"city": "Oslo", "federation": "NOR",
                                       "start": "2026-05-01", "end": "2026-05-03",
                                       "chief-arbiter": "Ann Arbiter"})
    return (await service.export(GUILD, "trf")).content


def _check(oracle: Path, trf: Path) -> None:
    run = subprocess.run([str(oracle), "--dutch", str(trf.resolve()), "-c"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    # bbp prints "<name>: Round #k" per round, and a "Checker pairings / Tournament pairings"
    # table under every round it would have paired differently.
    for number in range(1, ROUNDS + 1):
        assert f"Round #{number}" in run.stdout, run.stdout
    assert "Checker pairings" not in run.stdout, run.stdout


@pytest.mark.parametrize("rules", ["2025", "2017"])
@pytest.mark.parametrize("players", [11, 14])
async def test_bbppairings_check_mode_finds_no_difference(
    tmp_path: Path, rules: str, players: int
) -> None:
    oracle = _oracle(rules)
    async with open_service(tmp_path / "t.sqlite3") as service:
        text = await _play(service, rules, players)
    exported = tmp_path / "export.trf"
    exported.write_text(text, encoding="utf-8")
    assert "XXR 5" in text.splitlines() and "XXC white1" in text.splitlines()
    assert "022 Oslo" in text.splitlines()
    _check(oracle, exported)
    # The command-line path: swissbot reads the export and writes it again.
    rewritten = tmp_path / "cli.trf"
    assert main(["header", str(exported), "--set", "time-control=90 min + 30 s",
                 "-o", str(rewritten)]) == 0
    assert "122 90 min + 30 s" in rewritten.read_text(encoding="utf-8").splitlines()
    _check(oracle, rewritten)


def test_check_mode_reports_a_difference(tmp_path: Path) -> None:
    """The check above can fail: a round 1 with the colours of board 1 swapped (the rules
    give the top seed white: XXC white1) is reported."""
    oracle = _oracle("2025")
    players = tuple(Player(id=i, name=f"P{i}", rating=2000 - i) for i in range(1, 5))
    swapped = Round(1, (Game(3, 1, Result.WHITE_WINS, board=1),
                        Game(4, 2, Result.WHITE_WINS, board=2)))
    path = tmp_path / "swapped.trf"
    path.write_text(write_trf(Tournament(players=players, rounds=(swapped,), total_rounds=2,
                                         initial_color=Color.WHITE)), encoding="utf-8")
    run = subprocess.run([str(oracle), "--dutch", str(path), "-c"], capture_output=True,
                         text=True, timeout=60, check=False)
    assert "Checker pairings" in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("rules", ["2025", "2017"])
@pytest.mark.parametrize("seed", [1, 2])
def test_accelerated_tournament_written_by_swissbot_passes_the_check(
    tmp_path: Path, rules: str, seed: int
) -> None:
    """A tournament built in code with Baku-like acceleration (``Tournament.acceleration``),
    paired round by round with fide-dutch: the writer's XXA lines make bbpPairings pair every
    round the same way (its check mode reports no difference), and the file reads back as
    the same tournament."""
    oracle = _oracle(rules)
    one, half = Fraction(1), Fraction(1, 2)
    top = range(1, 8)
    acceleration = {1: dict.fromkeys(top, one), 2: dict.fromkeys(top, one),
                    3: dict.fromkeys(top, half)}
    t = replace(new_tournament(15, rounds=ROUNDS), acceleration=acceleration)
    config = PairingConfig(system="fide-dutch", rules=rules)
    rng = random.Random(seed)
    for _ in range(ROUNDS):
        t = play(t, config, rng)
    text = write_trf(t)
    assert "XXA    1  1.0  1.0  0.5" in text.splitlines()
    assert parse_trf(text).tournament.acceleration == acceleration
    path = tmp_path / "accelerated.trf"
    path.write_text(text, encoding="utf-8")
    _check(oracle, path)
