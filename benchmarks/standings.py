"""Standings benchmark: seconds per compute_standings call on random Swiss-like events.

Run: ``.venv/bin/python benchmarks/standings.py``. Prints one line per (players, rounds,
tiebreak list): the mean time of a call and the time of one explain_player call. The events
are random (seeded) pairings with random results, a pairing bye for the odd player out and a
few forfeits: the work per call does not depend on how good the pairings are.
"""

from __future__ import annotations

import random
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


def main() -> None:
    print(f"{'players':>7} {'rounds':>6} {'tiebreaks':<10} {'standings s':>12} {'explain s':>10}")
    for players, rounds, repeat in ((32, 7, 20), (201, 9, 5), (2001, 11, 1)):
        event = random_event(players, rounds)
        for tiebreaks in ("fide", "mtg"):
            per_call = timed(lambda e=event, t=tiebreaks: compute_standings(e, t), repeat)
            explain = timed(lambda e=event, t=tiebreaks: explain_player(e, 1, t), 1)
            print(f"{players:>7} {rounds:>6} {tiebreaks:<10} {per_call:>12.4f} {explain:>10.4f}")


if __name__ == "__main__":
    main()
