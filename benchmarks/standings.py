"""Standings benchmark: seconds per compute_standings call on random Swiss-like events.

Run: ``.venv/bin/python benchmarks/standings.py`` (``--quick`` skips 10,000 players). Prints one
line per (players, rounds, tiebreak list, C.07 edition): the mean time of a call and the time of
one explain_player call. ``every`` is every FIDE tie-break of the 2026 table (BH-C1, BH, FB, AOB,
SB, PS, KS, DE, WIN, WON, BPG, BWG, REP, STD, ARO, TPR, PTP, APRO, APPO, RTNG, TPN). The events
are random (seeded) pairings with random results, a pairing bye for the odd player out and a
few forfeits: the work per call does not depend on how good the pairings are.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Tournament
from swiss.standings import compute_standings, explain_player

RESULTS = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW] * 10 + [
    Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN,
]


def random_event(players: int, rounds: int, seed: int = 1) -> Tournament:
    rng = random.Random(seed)
    roster = tuple(Player(i, f"P{i}", rng.randint(1200, 2700)) for i in range(1, players + 1))
    played: list[Round] = []
    for number in range(1, rounds + 1):
        ids = [p.id for p in roster]
        rng.shuffle(ids)
        pairs = zip(ids[0::2], ids[1::2], strict=False)
        games = tuple(Game(a, b, rng.choice(RESULTS)) for a, b in pairs)
        byes = (Bye(ids[-1], ByeKind.PAIRING),) if len(ids) % 2 else ()
        played.append(Round(number, games, byes))
    return Tournament(roster, tuple(played), total_rounds=rounds)


def timed(function: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


EVERY = [
    "BH-C1", "BH", "FB", "AOB", "SB", "PS", "KS", "DE", "WIN", "WON", "BPG", "BWG", "REP", "STD",
    "ARO", "TPR", "PTP", "APRO", "APPO", "RTNG", "TPN",
]
LISTS: dict[str, str | list[str]] = {"fide": "fide", "mtg": "mtg", "every": EVERY}


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    sizes = [(32, 7, 20), (201, 9, 5), (2001, 11, 1)] + ([] if quick else [(10000, 11, 1)])
    print(f"{'players':>7} {'rounds':>6} {'tiebreaks':<10} {'rules':<5} "
          f"{'standings s':>12} {'explain s':>10}")
    for players, rounds, repeat in sizes:
        event = random_event(players, rounds)
        for name, tiebreaks in LISTS.items():
            for rules in ("2026", "2024"):
                if name == "mtg" and rules == "2024":
                    continue  # no C.07 tie-break in it: same work
                per_call = timed(
                    lambda e=event, t=tiebreaks, r=rules: compute_standings(e, t, rules=r),
                    repeat,
                )
                explain = timed(
                    lambda e=event, t=tiebreaks, r=rules: explain_player(e, 1, t, rules=r), 1
                )
                print(f"{players:>7} {rounds:>6} {name:<10} {rules:<5} "
                      f"{per_call:>12.4f} {explain:>10.4f}", flush=True)


if __name__ == "__main__":
    main()
