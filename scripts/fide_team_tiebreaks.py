"""Compare swissbot's team tie-breaks (FIDE C.07) with gacrux's tiebreakchecker.

Generates team events (:mod:`swiss.teams.generate`, paired round by round by swissbot's
FIDE team pairing), lets gacrux's ``tiebreakchecker`` compute every tie-break of
:data:`TIEBREAKS` on the final file, and compares each team's values with
:mod:`swiss.teams.tiebreaks`. gacrux runs as a separate program: pass its interpreter with
``--gacrux-python`` (a virtual environment where ``pip install gacrux`` was run) or the
``GACRUX_PYTHON`` variable.

    python scripts/fide_team_tiebreaks.py --events 40 --first-seed 0 \
        --record tests/fixtures/fide-team-tiebreaks/corpus-0000.jsonl

``--record`` writes one JSON line per event: the seed, the pairings of each round and
gacrux's value of each tie-break per team (in TPN order), after a first line naming the
gacrux version and command. tests/swiss/test_fide_team_tiebreaks.py replays them without gacrux.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the pairing differential's helpers

from fide_team_differential import gacrux_arguments, gacrux_parser

from swiss.pairing.types import PairingError
from swiss.teams.fide_team import pair_fide_team
from swiss.teams.generate import RoundPlay, event_spec, play_round, write_trf
from swiss.teams.tiebreaks import team_standings
from swiss.teams.trf import parse_team_trf

# Every tie-break is asked after the primary score (PTS), as a standings list would.
TIEBREAKS = (
    "MPTS", "GPTS", "BH:MP", "BH:GP", "BH:MP/C1", "BH:GP/C1", "BH:MP/C2", "BH:MP/M1",
    "BH:GP/M1", "FB:MP", "FB:GP", "SB:MP", "SB:GP", "EMMSB", "EMGSB", "EGMSB", "EGGSB",
    "ESB", "PS:MP", "PS:GP", "WIN", "WON", "BPG", "BWG", "BC",
)
DE_LIST = ("PTS", "DE")  # DE among the teams tied on the primary score


def gacrux_command(python: str, path: str, rounds: int | str, tiebreaks: tuple[str, ...]
                   ) -> list[str]:
    # -s: these are Swiss events (gacrux reads an event where every team met every other
    # as a round robin, whose byes count differently). -n: the standings after the rounds
    # played (an event that found no legal pairing stops before the announced XXR).
    return [python, "-m", "gacrux.tiebreakchecker", "-i", path, "-s", "-n", str(rounds),
            "-dT", "-t", *tiebreaks]


def gacrux_version(python: str) -> str:
    done = subprocess.run([python, "-m", "gacrux.tiebreakchecker", "-V"], capture_output=True,
                          text=True, check=False)
    return (done.stdout + done.stderr).strip().splitlines()[-1] if done.returncode == 0 else "?"


def gacrux_values(python: str, text: str, rounds: int, tiebreaks: tuple[str, ...]
                  ) -> dict[str, list[str]] | str:
    """gacrux's value of each tie-break, per team in TPN order (as printed), or its error."""
    with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as handle:
        handle.write(text)
        path = handle.name
    try:
        done = subprocess.run(gacrux_command(python, path, rounds, tiebreaks), capture_output=True,
                              text=True, check=False)
    finally:
        os.unlink(path)
    lines = [line.split("\t") for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines or lines[0][:2] != ["StartNo", "Rank"]:
        return f"gacrux failed: {done.stderr.strip()[-300:] or done.stdout[-300:]}"
    rows = sorted(lines[1:], key=lambda row: int(row[0]))
    return {name: [row[column] for row in rows]
            for column, name in enumerate(lines[0]) if column >= 2}


def play_event(seed: int) -> tuple[str, list[dict]]:
    """A generated event paired to its end by swissbot: its final TRF and its rounds."""
    spec = event_spec(seed)
    played: list[RoundPlay] = []
    rounds: list[dict] = []
    for round_number in range(1, spec.rounds + 1):
        event = parse_team_trf(write_trf(spec, played))
        try:
            pairing = pair_fide_team(event.teams, event.rules, round_number, spec.rounds)
        except PairingError:
            break  # no legal pairing: the event ends here
        pairs = [(p.white, p.black) for p in pairing.pairs]
        rounds.append({"pairs": pairs, "bye": pairing.bye})
        played.append(play_round(spec, round_number, pairs, pairing.bye))
    return write_trf(spec, played), rounds


def rebuild(seed: int, rounds: list[dict]) -> str:
    """The final TRF of a recorded event."""
    spec = event_spec(seed)
    played = [play_round(spec, number, [tuple(p) for p in r["pairs"]], r["bye"])
              for number, r in enumerate(rounds, start=1)]
    return write_trf(spec, played)


def ours(text: str) -> dict[str, list[Fraction]]:
    """swissbot's value of each tie-break, per team in TPN order."""
    event = parse_team_trf(text)
    values: dict[str, list[Fraction]] = {}
    for names in (TIEBREAKS, DE_LIST[1:]):
        specs, rows = team_standings(event.teams, event.rules.primary, names,
                                     total_rounds=event.total_rounds)
        by_tpn = sorted(rows, key=lambda row: row.tpn)
        for index, spec in enumerate(specs, start=1):
            values[spec.acronym] = [row.values[index] for row in by_tpn]
    return values


def compare(recorded: dict[str, list[str]], mine: dict[str, list[Fraction]]
            ) -> list[tuple[str, int, str, Fraction]]:
    """(tie-break, TPN, gacrux's value, ours) for every value that differs."""
    differences = []
    for name, theirs in recorded.items():
        for tpn, (text, value) in enumerate(zip(theirs, mine[name], strict=True), start=1):
            if Fraction(text) != value:
                differences.append((name, tpn, text, value))
    return differences


def main() -> int:
    args = gacrux_arguments(gacrux_parser(__doc__.split("\n\n")[0], "gacrux's values"))
    version = gacrux_version(args.gacrux_python)
    record = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    if record:
        command = " ".join(gacrux_command("python", "EVENT.trf", "ROUNDS", TIEBREAKS))
        de_command = " ".join(gacrux_command("python", "EVENT.trf", "ROUNDS", DE_LIST))
        record.write(json.dumps({"gacrux": version, "command": command,
                                 "de_command": de_command,
                                 "generator": "swiss.teams.generate"}) + "\n")
    differing: Counter = Counter()
    compared = 0
    for seed in range(args.first_seed, args.first_seed + args.events):
        text, rounds = play_event(seed)
        if not rounds:
            continue  # not even round 1 could be paired: no standings to compare
        theirs = gacrux_values(args.gacrux_python, text, len(rounds), TIEBREAKS)
        de = gacrux_values(args.gacrux_python, text, len(rounds), DE_LIST)
        if isinstance(theirs, str) or isinstance(de, str):
            print(f"seed {seed}: {theirs if isinstance(theirs, str) else de}")
            continue
        theirs["DE"] = de["DE"]
        for name, tpn, text_value, value in compare(theirs, ours(text)):
            differing[name] += 1
            print(f"seed {seed} {name} team {tpn}: gacrux {text_value}, swissbot {value}")
        compared += sum(len(v) for v in theirs.values())
        if record:
            record.write(json.dumps({"seed": seed, "rounds": rounds, "values": theirs},
                                    separators=(",", ":")) + "\n")
            record.flush()
    if record:
        record.close()
    print(f"gacrux {version}: {compared} values in {args.events} events, "
          f"{compared - sum(differing.values())} identical")
    for name, count in sorted(differing.items()):
        print(f"  {name}: {count} differ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
