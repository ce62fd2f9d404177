"""Cross-check swissbot's tie-breaks against FIDE's reference code (not run by pytest).

The reference is Otto Milvang's TieBreakServer, published on PyPI as ``gacrux``. It is not a
dependency of swissbot: install it in a separate environment and point ``--gacrux`` at that
environment's python::

    python -m venv /tmp/ref && /tmp/ref/bin/pip install gacrux
    .venv/bin/python -m tests.tiebreak_crosscheck --gacrux /tmp/ref/bin/python \\
        --rules 2026 --events 40 BH BH/C1 SB FB

Random Swiss events (forfeits, double forfeits, byes of every kind, absences, withdrawals) are
written as TRF with a start date (042) for the edition and ``092 ... Swiss-System`` (without it
the reference reads events with as many rounds as players as round robins). Each tie-break is
computed in its own reference run: the reference keeps state between the tie-breaks of one run
(FB changes the values computed after it). Prints every difference and a summary; exit code 1
when something differs.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from datetime import date
from fractions import Fraction
from pathlib import Path

from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Tournament
from swiss.standings import compute_standings
from swiss.trf.writer import write_trf

RESULTS = (
    [Result.WHITE_WINS] * 6 + [Result.BLACK_WINS] * 6 + [Result.DRAW] * 5
    + [Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT]
)
START = {"2026": date(2026, 3, 10), "2024": date(2025, 5, 5)}


def random_event(seed: int, unrated: float) -> Tournament:
    """5-14 players, 2-7 rounds, random pairings (repeats allowed) and unplayed rounds."""
    rng = random.Random(seed)
    n, rounds = rng.randint(5, 14), rng.randint(2, 7)
    players = tuple(
        Player(i, f"P{i}", 0 if rng.random() < unrated else rng.randint(1400, 2500))
        for i in range(1, n + 1)
    )
    played: list[Round] = []
    withdrawn: dict[int, int] = {}
    kinds = {"half": ByeKind.HALF, "zero": ByeKind.ZERO, "full": ByeKind.FULL}
    for number in range(1, rounds + 1):
        ids = [p.id for p in players if p.id not in withdrawn]
        rng.shuffle(ids)
        away = rng.choice([0, 0, 1, 1, 2])
        byes: list[Bye] = []
        for pid in ids[:away]:
            kind = rng.choice(["half", "zero", "full", "absent", "withdraw"])
            if kind in kinds:
                byes.append(Bye(pid, kinds[kind]))
            elif kind == "withdraw":
                withdrawn[pid] = number
        present = ids[away:]
        if len(present) % 2:
            byes.append(Bye(present.pop(), ByeKind.PAIRING))
        games = tuple(
            Game(a, b, rng.choice(RESULTS))
            for a, b in zip(present[0::2], present[1::2], strict=True)
        )
        played.append(Round(number, games, tuple(byes)))
    return Tournament(players, tuple(played), total_rounds=rounds, withdrawn=withdrawn)


def reference(gacrux: str, path: Path, acronym: str) -> dict[int, Fraction | None]:
    """One tie-break of every player from ``gacrux.tiebreakchecker`` (None: no value)."""
    out = subprocess.run(
        [gacrux, "-m", "gacrux.tiebreakchecker", "-i", str(path), "-s", "-t", "PTS", acronym,
         "-F", "TXT"],
        capture_output=True, text=True, check=True,
    ).stdout
    table: dict[int, Fraction | None] = {}
    for line in out.splitlines()[1:]:
        cells = line.split("\t")
        if cells[0].isdigit():
            table[int(cells[0])] = None if cells[3] in ("-0", "None") else Fraction(cells[3])
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gacrux", required=True, help="python of an environment with gacrux")
    parser.add_argument("--rules", choices=("2026", "2024"), default="2026")
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--unrated", type=float, default=0.0, help="share of unrated players")
    parser.add_argument("tiebreaks", nargs="+", help="acronyms in TRF spelling: BH/C1, SB, ...")
    args = parser.parse_args(argv)
    differ = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.events):
            event = random_event(seed, args.unrated)
            path = Path(tmp) / f"event{seed}.trf"
            header = f"042 {START[args.rules]:%Y/%m/%d}\n092 Individual: Swiss-System\n"
            path.write_text(header + write_trf(event), encoding="latin-1")
            mine = compute_standings(event, args.tiebreaks, rules=args.rules)
            for index, acronym in enumerate(args.tiebreaks):
                theirs = reference(args.gacrux, path, acronym)
                for row in mine.rows:
                    total += 1
                    expected = theirs[row.player_id]
                    if Fraction(row.values[index]) != (expected or 0):
                        differ += 1
                        print(f"event {seed} player {row.player_id} {acronym}: "
                              f"swissbot {row.values[index]} reference {expected}")
    print(f"{total} values compared ({args.rules}), {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
