"""Round 1 of ``fide-dutch`` against bbpPairings: the graph-free path of blank rounds.

    .venv/bin/python scripts/dutch_round1.py --rules 2025 --cases 300 [--seed 1]
                                             [--max-players 1000] [--out diffs/]

Each case is a round-1 TRF made here (no game played): 5 to ``--max-players`` players, odd
and even fields, half- and zero-point byes requested for round 1, players absent from it,
ratings in random order (``XXC rank`` when the pairing numbers are not the ids), either
initial colour, the point systems of the corpus, 1-11 rounds, and one of: no acceleration,
random ``XXA`` lines (one to four score groups, a Baku-like top half), or the Baku code
(``192 ..._BAKU``, both engines computing the points). Both engines pair it; the pairs (with
colours) and the PAB are compared. Prints the identity rate, how many cases took the
graph-free path (:mod:`swiss.pairing.fide_dutch.blank`), and writes the first differing cases
as TRF files (with bbp's pairs). Skips when ../shared is absent. Nothing is written to the
repository unless ``--out`` points there.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import dutch_differential as dd

from swiss.model import ByeKind, Color, Player, Scoring, Tournament
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch.blank import is_blank_round
from swiss.pairing.fide_dutch.players import dutch_players
from swiss.trf import parse_trf, write_trf


def make_case(rng: random.Random, rules: str, max_players: int) -> tuple[str, Tournament]:
    """A random round-1 TRF and the tournament it describes."""
    n = min(max_players, rng.choice([rng.randint(5, 30), rng.randint(5, 200),
                                     rng.randint(5, max_players)]))
    # (bbpPairings 5.0.1 ignores 192 lines, and so does --rules 2017: a plain case there)
    kind = rng.choice(["plain", "xxa", "baku"])
    points = rng.choice(dd.BAKU_POINTS if kind == "baku" else dd.POINTS)
    win, draw, pab = points
    ratings = [rng.randint(1400, 2700) for _ in range(n)]
    ranked = sorted(range(1, n + 1), key=lambda pid: -ratings[pid - 1])
    shuffled = rng.random() < 0.3  # pairing numbers not the ids: XXC rank
    order = {pid: (i + 1 if shuffled else 0) for i, pid in enumerate(ranked)}
    players = tuple(Player(pid, f"P{pid}", ratings[pid - 1] if not shuffled else 0,
                           order=order[pid]) for pid in range(1, n + 1))
    if not shuffled:  # pairing number = id: ratings must descend with the id
        players = tuple(Player(pid, f"P{pid}", r) for pid, r in
                        zip(range(1, n + 1), sorted(ratings, reverse=True), strict=True))
    rounds = rng.randint(1, 11)
    t = Tournament(players=players, total_rounds=rounds,
                   initial_color=rng.choice([Color.WHITE, Color.BLACK]),
                   scoring=Scoring.custom(win, draw, 0, pab))
    ids = list(range(1, n + 1))
    if rng.random() < 0.5:  # byes requested for round 1
        for pid in rng.sample(ids, k=rng.randint(1, max(1, n // 8))):
            t = t.with_requested_bye(1, pid, rng.choice([ByeKind.HALF, ByeKind.ZERO]))
    if rng.random() < 0.4:  # absent from round 1 on
        for pid in rng.sample(ids, k=rng.randint(1, max(1, n // 10))):
            if pid not in t.requested_byes.get(1, {}):
                t = t.with_withdrawal(pid, 1)
    text = write_trf(t)
    extra: list[str] = []
    if kind == "xxa":
        groups = rng.randint(1, 4)
        values = [Fraction(0), draw, win, win + draw, 2 * win][:groups + 1]
        seeds = sorted(ids, key=lambda pid: players[pid - 1].seed)
        for pid in seeds[:n // 2] if rng.random() < 0.5 else rng.sample(ids, k=n // 2):
            v = rng.choice(values[1:]) if groups > 1 else win
            extra.append(f"XXA {pid:4d}" + f" {float(v):4.1f}" + "  0.0" * (rounds - 1))
    elif kind == "baku":
        extra.append(f"192 {dd.BAKU_CODE[rules]}")
    if extra:
        text = text.rstrip("\n") + "\n" + "\n".join(extra) + "\n"
    return text, parse_trf(text).tournament


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="2025", choices=sorted(dd.BINARY))
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=1000)
    parser.add_argument("--out", default="dutch-round1-differences")
    parser.add_argument("--keep", type=int, default=10)
    args = parser.parse_args()
    oracle = dd.find_oracle(args.rules)
    if oracle is None:
        print(f"skipped: {dd.TOOLS / dd.BINARY[args.rules]} not found (../shared is absent)")
        return 0
    rng = random.Random(args.seed)
    same = blank = kept = 0
    largest = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.trf"
        for number in range(1, args.cases + 1):
            text, case = make_case(rng, args.rules, args.max_players)
            path.write_text(text)
            run, want = dd.oracle_pairing(oracle, path)
            to_pair = [p.id for p in case.players if case.is_active(p.id, 1)
                       and p.id not in case.requested_byes.get(1, {})]
            try:
                players = dutch_players(case, 1, to_pair, args.rules)
                blank += is_blank_round(players, case.forbidden_pairs)
                res = pair_round(case, PairingConfig(system="fide-dutch", rules=args.rules,
                                                     explain=False))
                got = (frozenset((g.white, g.black) for g in res.games), res.pairing_bye)
            except (PairingError, ValueError) as exc:
                got = None
                print(f"case {number}: swissbot: {exc}", file=sys.stderr)
            largest = max(largest, len(case.players))
            if got == want:
                same += 1
            elif kept < args.keep:
                kept += 1
                dd.keep_case(Path(args.out), f"{args.rules}-round1-{number:04d}", text,
                             run.stdout + run.stderr)
            if number % 50 == 0:
                print(f"... {number} cases, {same} identical", file=sys.stderr)
    print(f"fide-dutch {args.rules} round 1 vs {oracle.name}: {same}/{args.cases} identical "
          f"({100 * same / max(args.cases, 1):.1f}%); graph-free path in {blank}; "
          f"largest field {largest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

