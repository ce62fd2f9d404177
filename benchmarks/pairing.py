"""Seconds and memory of one round as a user pairs it, on event histories of any shape.

Each cell writes the event (``swiss.histories``: ``--history`` shape, ``--round`` the round to
pair) as a TRF-16 file, then runs one fresh ``swissbot pair --system SYSTEM FILE`` process
and reports its wall seconds, CPU seconds (user + system, from ``os.wait4``: on a shared
machine the wall clock mostly measures the other processes' load) and peak RSS. Start-up,
reading the file and printing the pairs are included, as a user would see them. The median of
``--repeat`` fresh processes is shown (peak RSS: the largest). Figures, not a test.

    python benchmarks/pairing.py                                  # 1,000 and 3,000 players
    python benchmarks/pairing.py --history dutch --round 5 --sizes 9998
    python benchmarks/pairing.py --history all --sizes 9998 --repeat 3 --json out.json

TRF-16's start numbers have four digits, so the largest event is 9,999 players.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from swiss.histories import KINDS, history
from swiss.trf.writer import write_trf

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("burstein", "dutch", "monrad", "fide-dutch:2025", "fide-dutch:2017")
GOALS = "goals: 1,000 players 1 s, 3,000 players 10 s, 10,000 players 60 s and 2 GB"


def swissbot() -> list[str]:
    """The ``swissbot`` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("swissbot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cli"]


def run_once(command: list[str], timeout: float,
             output: Path | None = None) -> dict[str, float]:
    """Wall and CPU seconds and peak RSS (MB) of one process running ``command`` (its
    standard output into the file ``output``, if given)."""
    sink = output.open("wb") if output else subprocess.DEVNULL
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    if output:
        sink.close()  # type: ignore[union-attr]
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            process.kill()
            os.wait4(process.pid, 0)
            return {"timeout": timeout}
        time.sleep(0.005)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.stderr.write(process.stderr.read().decode() if process.stderr else "")
    return {"seconds": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "exit": process.returncode}


def measure(path: Path, system: str, repeat: int, timeout: float) -> dict[str, float]:
    name, _, rules = system.partition(":")
    command = [*swissbot(), "pair", "--system", name, str(path)]
    if rules:
        command += ["--rules", rules]
    runs = [run_once(command, timeout) for _ in range(repeat)]
    done = [r for r in runs if "seconds" in r]
    if len(done) < len(runs):
        return {"timeout": timeout}
    return {"seconds": statistics.median(r["seconds"] for r in done),
            "cpu": statistics.median(r["cpu"] for r in done),
            "peak_mb": max(r["peak_mb"] for r in done),
            "exit": max(r["exit"] for r in done), "runs": len(done)}


def cell_text(cell: dict[str, float]) -> str:
    if "timeout" in cell:
        return f">{cell['timeout']:.0f} s"
    flag = "" if cell["exit"] == 0 else f" exit {cell['exit']:.0f}"
    return f"{cell['seconds']:6.2f} / {cell['cpu']:6.2f} s {cell['peak_mb']:6.0f} MB{flag}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", default="project", choices=(*KINDS, "all"),
                        help="the shape of the rounds played before (all: each in turn)")
    parser.add_argument("--round", type=int, default=7, help="the round to pair (default 7)")
    parser.add_argument("--total-rounds", type=int, default=11,
                        help="the event's announced rounds (default 11)")
    parser.add_argument("--sizes", default="1000,3000")
    parser.add_argument("--systems", default=",".join(SYSTEMS),
                        help="comma-separated; fide-dutch:2025 and fide-dutch:2017 name the "
                             "edition")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--json", help="also write the measurements to this file")
    args = parser.parse_args()
    kinds = KINDS if args.history == "all" else (args.history,)
    systems = args.systems.split(",")
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"round {args.round} of {args.total_rounds}; median of {args.repeat} fresh "
          f"`swissbot pair` processes: wall / CPU seconds, peak RSS; {GOALS}")
    print(f"{'history':>8} {'players':>8} " + " ".join(f"{s:>31}" for s in systems))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for n in sizes:
                event = history(kind, n, args.round - 1, seed=args.seed)
                event = replace(event, total_rounds=max(args.total_rounds, args.round))
                path = Path(tmp) / f"{kind}-{n}.trf"
                path.write_text(write_trf(event))
                cells = {s: measure(path, s, args.repeat, args.timeout) for s in systems}
                rows.append({"history": kind, "players": n, "round": args.round,
                             "cells": cells})
                print(f"{kind:>8} {n:>8} " + " ".join(f"{cell_text(c):>31}"
                                                     for c in cells.values()), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
