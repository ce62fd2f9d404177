"""Compare swissbot's FIDE Swiss Team Pairing System (C.04.6) with gacrux, FIDE TEC's engine.

Generates team events (:mod:`swiss.teams.generate`), lets gacrux pair each round, pairs the
same file with swissbot and counts the identical rounds; the history always follows gacrux's
pairings, so every round is compared on the same file. gacrux runs as a separate program
(``pairingchecker -p``): pass its interpreter with ``--gacrux-python`` (a virtual environment
where ``pip install gacrux`` was run) or the ``GACRUX_PYTHON`` variable.

    python scripts/fide_team_differential.py --events 50 --first-seed 0 \
        --record tests/fixtures/fide-team/corpus-0000.jsonl

``--record`` writes one JSON line per event: the seed and gacrux's pairing of each round,
with the gacrux version and command. The events rebuild from the seed and those pairings
(tests/swiss/test_fide_team_corpus.py replays them without gacrux).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from swiss.pairing.types import PairingError
from swiss.teams.fide_team import pair_fide_team
from swiss.teams.generate import RoundPlay, event_spec, play_round, write_trf
from swiss.teams.trf import parse_team_trf


def gacrux_command(python: str, path: str) -> list[str]:
    # No -m: the 192 record names the variant (-m fideteam would also reset the scores to
    # match points first).
    return [python, "-m", "gacrux.pairingchecker", "-i", path, "-p", "-t", "w", "-o", "-"]


def gacrux_version(python: str) -> str:
    done = subprocess.run([python, "-m", "gacrux.pairingchecker", "-V"], capture_output=True,
                          text=True, check=False)
    return (done.stdout + done.stderr).strip().splitlines()[-1] if done.returncode == 0 else "?"


def gacrux_pairing(python: str, text: str) -> tuple[list[tuple[int, int]],
                                                                 int | None] | str:
    """gacrux's pairs (white, black) and bye, or its error text."""
    with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as handle:
        handle.write(text)
        path = handle.name
    try:
        done = subprocess.run(gacrux_command(python, path), capture_output=True,
                              text=True, check=False)
    finally:
        os.unlink(path)
    try:
        answer = json.loads(done.stdout)
        found = answer["pairingResult"]["pairs"]
    except (ValueError, KeyError, TypeError):
        return f"gacrux failed: {done.stderr.strip()[-300:] or done.stdout[-300:]}"
    pairs = [(int(w), int(b)) for w, b in found if int(b) != 0]
    byes = [int(w) for w, b in found if int(b) == 0]
    return pairs, (byes[0] if byes else None)


def ours(text: str, round_number: int) -> tuple[list[tuple[int, int]], int | None] | str:
    event = parse_team_trf(text)
    try:
        pairing = pair_fide_team(event.teams, event.rules, round_number, event.total_rounds)
    except PairingError as exc:
        return f"no pairing: {exc}"
    return [(p.white, p.black) for p in pairing.pairs], pairing.bye


def classify(theirs: tuple, mine: tuple) -> str:
    """'identical', or which part differs first."""
    if theirs == mine:
        return "identical"
    if theirs == ([], None) and isinstance(mine, str) and mine.startswith("no pairing"):
        return "identical"  # both find no legal pairing: the chief arbiter decides
    if isinstance(theirs, str) or isinstance(mine, str):
        return "error"
    (tp, tb), (mp, mb) = theirs, mine
    if tb != mb:
        return "bye"
    if {frozenset(p) for p in tp} != {frozenset(p) for p in mp}:
        return "opponents"
    if set(tp) != set(mp):
        return "colours"
    return "board order"


def run_event(seed: int, python: str, log: list[str]) -> tuple[dict, Counter]:
    spec = event_spec(seed)
    played: list[RoundPlay] = []
    record = {"seed": seed, "rounds": []}
    counts: Counter = Counter()
    for round_number in range(1, spec.rounds + 1):
        text = write_trf(spec, played)
        theirs = gacrux_pairing(python, text)
        mine = ours(text, round_number)
        verdict = classify(theirs, mine)
        counts[verdict] += 1
        if verdict != "identical":
            log.append(f"seed {seed} round {round_number} ({spec.code}, {spec.teams} teams): "
                       f"{verdict}\n  gacrux:   {theirs}\n  swissbot: {mine}")
        if isinstance(theirs, str) or not theirs[0]:
            break  # gacrux failed, or no legal pairing: the event ends here
        pairs, bye = theirs
        record["rounds"].append({"pairs": pairs, "bye": bye})
        played.append(play_round(spec, round_number, pairs, bye))
    return record, counts


def gacrux_parser(description: str, recorded: str) -> argparse.ArgumentParser:
    """The options of a differential run against gacrux (``recorded``: what --record keeps)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--gacrux-python", default=os.environ.get("GACRUX_PYTHON"),
                        help="the Python interpreter that has gacrux installed")
    parser.add_argument("--record", help=f"write the events and {recorded} (JSON lines)")
    return parser


def gacrux_arguments(parser: argparse.ArgumentParser) -> argparse.Namespace:
    args = parser.parse_args()
    if not args.gacrux_python:
        parser.error("name gacrux's interpreter: --gacrux-python or GACRUX_PYTHON")
    return args


def main() -> int:
    parser = gacrux_parser(__doc__.split("\n\n")[0], "gacrux's pairings")
    parser.add_argument("--log", help="write each difference to this file")
    args = gacrux_arguments(parser)
    version = gacrux_version(args.gacrux_python)
    total: Counter = Counter()
    log: list[str] = []
    record = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    if record:  # one line per event as it ends: a stopped run keeps what it compared
        command = " ".join(gacrux_command("python", "EVENT.trf"))
        record.write(json.dumps({"gacrux": version, "command": command,
                                 "generator": "swiss.teams.generate"}) + "\n")
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.events):
        event, counts = run_event(seed, args.gacrux_python, log)
        total += counts
        if record:
            record.write(json.dumps(event, separators=(",", ":")) + "\n")
            record.flush()
    if record:
        record.close()
    rounds = sum(total.values())
    print(f"gacrux {version}: {rounds} rounds in {args.events} events, "
          f"{total['identical']} identical ({100 * total['identical'] / max(rounds, 1):.2f}%), "
          f"{time.perf_counter() - started:.0f} s")
    for verdict, count in sorted(total.items()):
        if verdict != "identical":
            print(f"  {verdict}: {count}")
    if args.log:
        Path(args.log).write_text("\n".join(log) + "\n", encoding="utf-8")
    else:
        print("\n".join(log[:10]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
