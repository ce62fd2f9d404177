"""Record a big fide-dutch round bracket by bracket, and replay it to one bracket.

A 10,000-player round takes minutes to reach its late brackets on a slow engine; this
records every bracket's result (pairs, floaters, PAB, and the optimum handed to the next
bracket) once, so that one bracket can then be paired for real, timed and profiled, with
the brackets before it taken from the recording, and compared with the recorded result::

    python scripts/dutch_replay.py record --players 10000 --rules 2025 --out rec.json
    python scripts/dutch_replay.py replay --players 10000 --rules 2025 --record rec.json \
        --bracket 6 [--profile b6.prof]
    python scripts/dutch_replay.py compare rec.json other.json

The round is ``benchmarks/pairing.py``'s: ``history("project", N, 6, seed=N)``, round 7. The
engine itself is not changed (``_pair_bracket`` is wrapped); a 2017 recording of a round
above the old whole-round memory count needs no switch any more. Exit status of
``replay`` and ``compare``: 0 when the results are the same, 1 when they differ.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from swiss.histories import history
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.fide_dutch import engine


class _Stop(Exception):
    """Raised after the replayed bracket: the rest of the round is not paired."""


def _as_json(out: tuple[Any, Any, Any], hint: list[tuple[int, int]]) -> dict[str, Any]:
    pairs, floaters, bye = out
    return {"pairs": [list(p) for p in pairs], "floaters": list(floaters), "bye": bye,
            "hint": [list(h) for h in hint]}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def record(players: int, rules: str, out: Path) -> None:
    brackets: list[dict[str, Any]] = []
    inner = engine._pair_bracket

    def wrapped(ctx: Any, ra: Any, unpaired: list[int], bracket: list[int], movers: set[int],
                nxt: list[int], sinks: bool = False) -> Any:
        start = time.process_time()
        result = inner(ctx, ra, unpaired, bracket, movers, nxt, sinks)
        row = _as_json(result, list(ctx.hint))
        row["cpu"] = time.process_time() - start
        row["sizes"] = [len(bracket), len(movers), len(nxt), len(unpaired), sinks]
        brackets.append(row)
        out.write_text(json.dumps(brackets))  # (after each bracket: usable if stopped)
        print(len(brackets) - 1, row["sizes"], f"{row['cpu']:.2f} s CPU, peak "
              f"{_peak_mb():.0f} MB", flush=True)
        return result

    engine._pair_bracket = wrapped  # type: ignore[assignment]
    tournament = history("project", players, 6, seed=players)
    start = time.process_time()
    pair_round(tournament, PairingConfig(system="fide-dutch", rules=rules))
    print(f"round: {time.process_time() - start:.2f} s CPU, peak {_peak_mb():.0f} MB")


def replay(players: int, rules: str, recorded: Path, index: int,
           profile: Path | None) -> bool:
    brackets = json.loads(recorded.read_text())
    inner = engine._pair_bracket
    calls = 0
    same = False

    def wrapped(ctx: Any, ra: Any, unpaired: list[int], bracket: list[int], movers: set[int],
                nxt: list[int], sinks: bool = False) -> Any:
        nonlocal calls, same
        at = calls
        calls += 1
        if at < index:
            row = brackets[at]
            ctx.hint = [tuple(h) for h in row["hint"]]
            return ([tuple(p) for p in row["pairs"]], list(row["floaters"]), row["bye"])
        print("bracket", at, [len(bracket), len(movers), len(nxt), len(unpaired), sinks],
              flush=True)
        prof = cProfile.Profile() if profile else None
        start = time.process_time()
        if prof:
            prof.enable()
        result = inner(ctx, ra, unpaired, bracket, movers, nxt, sinks)
        if prof:
            prof.disable()
            prof.dump_stats(str(profile))
        print(f"{time.process_time() - start:.2f} s CPU, peak {_peak_mb():.0f} MB")
        mine = _as_json(result, list(ctx.hint))
        same = at < len(brackets) and all(mine[k] == brackets[at][k] for k in mine)
        print("same as recorded:", same)
        raise _Stop

    engine._pair_bracket = wrapped  # type: ignore[assignment]
    tournament = history("project", players, 6, seed=players)
    try:
        pair_round(tournament, PairingConfig(system="fide-dutch", rules=rules))
    except _Stop:
        return same
    raise SystemExit(f"the round has only {calls} brackets")


def compare(first: Path, second: Path) -> bool:
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    keys = ("pairs", "floaters", "bye", "hint")
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=False))
              if any(x[k] != y[k] for k in keys)]
    print(f"{len(a)} and {len(b)} brackets; differing: {differ or 'none'}")
    return len(a) == len(b) and not differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    for mode in ("record", "replay"):
        p = sub.add_parser(mode)
        p.add_argument("--players", type=int, default=10000)
        p.add_argument("--rules", choices=("2025", "2017"), default="2025")
        if mode == "record":
            p.add_argument("--out", type=Path, required=True)
        else:
            p.add_argument("--record", type=Path, required=True)
            p.add_argument("--bracket", type=int, required=True)
            p.add_argument("--profile", type=Path)
    p = sub.add_parser("compare")
    p.add_argument("first", type=Path)
    p.add_argument("second", type=Path)
    args = parser.parse_args()
    if args.mode == "record":
        record(args.players, args.rules, args.out)
    elif args.mode == "replay":
        sys.exit(0 if replay(args.players, args.rules, args.record, args.bracket,
                             args.profile) else 1)
    else:
        sys.exit(0 if compare(args.first, args.second) else 1)


if __name__ == "__main__":
    main()
