"""Differential test of ``fide-dutch`` against bbpPairings on fresh random tournaments.

    .venv/bin/python scripts/dutch_differential.py --rules 2025 --rounds 2000 [--seed 1]
                                                   [--out diffs/] [--keep 10] [--accelerate]
                                                   [--baku]

bbpPairings' own generator (``-g CONFIG -s SEED``) builds each tournament (5-300 players,
forfeits, half-point byes, absences, the point systems of the conformance corpus); every round
is cut out as a case (rounds before it played, pre-assigned byes of that round kept), paired by
both engines and compared (set of coloured pairs and the PAB). ``--accelerate`` adds random
``XXA`` lines (accelerated pairings) to every case; ``--baku`` adds the TRF-2026 line
``192 FIDE_DUTCH_2025_BAKU`` (2017: ``192 FIDE_DUTCH_BAKU``) instead, so that both engines
compute Baku acceleration themselves (point systems where a draw is half a win only, as the
method needs). Prints the identity rate and
writes the first differing cases as TRF files (with bbp's pairs next to them). Needs the
oracle binaries in ../shared/tools/bbpPairings (relative to the repository); skips otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from swiss.model import ByeKind, Color, Scoring, Tournament  # noqa: E402
from swiss.pairing import PairingConfig, PairingError, pair_round  # noqa: E402
from swiss.trf import parse_trf, read_pairs, write_trf  # noqa: E402

# ../shared next to the checkout (or next to the folder of worktrees); $SWISSBOT_SHARED wins.
_SHARED = [Path(os.environ["SWISSBOT_SHARED"])] if os.environ.get("SWISSBOT_SHARED") else []
_SHARED += [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
TOOLS = next((p for p in _SHARED if p.exists()), _SHARED[0]) / "tools" / "bbpPairings"
BINARY = {"2025": "bbpPairings-6.0.0", "2017": "bbpPairings-5.0.1"}
POINTS = [  # (win, draw, pab) as in the corpus
    (Fraction(1), Fraction(1, 2), Fraction(1)), (Fraction(3), Fraction(1), Fraction(3)),
    (Fraction(2), Fraction(1), Fraction(2)), (Fraction(1), Fraction(1, 2), Fraction(1, 2)),
    (Fraction(3), Fraction(1), Fraction(1)),
]

# The Baku method needs a draw to be half a win and a loss 0 (bbpPairings refuses others).
BAKU_POINTS = [p for p in POINTS if p[1] * 2 == p[0]]
BAKU_CODE = {"2025": "FIDE_DUTCH_2025_BAKU", "2017": "FIDE_DUTCH_BAKU"}


def find_oracle(rules: str) -> Path | None:
    path = TOOLS / BINARY[rules]
    return path if path.exists() else None


# A round's pairing as compared: the set of (white, black) pairs and the PAB's player id.
Pairing = tuple[frozenset[tuple[int, int]], int | None]


def oracle_pairing(oracle: Path, path: Path) -> tuple[subprocess.CompletedProcess[str],
                                                      Pairing | None]:
    """bbpPairings ``--dutch FILE -p`` on the TRF at ``path``: its run (exit code 0: paired,
    1: no legal pairing, anything else: it refused the file) and its pairing (None unless 0)."""
    run = subprocess.run([str(oracle), "--dutch", str(path), "-p"],
                         capture_output=True, text=True, timeout=600, check=False)
    return run, (read_pairs(run.stdout) if run.returncode == 0 else None)


def swissbot_pairing(case: Tournament, rules: str) -> Pairing | None:
    """swissbot's fide-dutch pairing of ``case`` (None: no legal pairing, as exit 1)."""
    try:
        res = pair_round(case, PairingConfig(system="fide-dutch", rules=rules, explain=False))
    except PairingError:
        return None
    return frozenset((g.white, g.black) for g in res.games), res.pairing_bye


def keep_case(out: Path, name: str, text: str, oracle_output: str) -> None:
    """Write a differing case (the TRF and bbpPairings' output beside it) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.trf").write_text(text)
    (out / f"{name}.pairs").write_text(oracle_output)
    print(f"differs: {out / name}.trf")


def config_text(rng: random.Random, points: tuple[Fraction, Fraction, Fraction],
                max_players: int = 300, min_players: int = 0) -> tuple[str, int]:
    if min_players:
        players = rng.randint(min_players, max(min_players, max_players))
    else:
        players = rng.choice([rng.randint(5, 40), rng.randint(5, 100), rng.randint(5, 300)])
        players = min(players, max_players)
    rounds = min(rng.randint(3, 11), players - 1)
    kind = rng.choice(["clean", "forfeits", "hbyes", "retired", "mixed"])
    forfeit = rng.randint(4, 25) if kind in ("forfeits", "mixed") else 100000
    retired = rng.randint(2, 10) if kind in ("retired", "mixed") else 100000
    hbye = rng.randint(2, 8) if kind in ("hbyes", "mixed") else 100000
    win, draw, pab = points
    text = "\n".join([
        f"PlayersNumber={players}", f"RoundsNumber={rounds}",
        f"DrawPercentage={rng.randint(0, 60)}", f"ForfeitRate={forfeit}",
        f"RetiredRate={retired}", f"HalfPointByeRate={hbye}",
        "HighestRating=2700", "LowestRating=1400",
        f"PointsForWin={float(win)}", f"PointsForDraw={float(draw)}", "PointsForLoss=0",
        "PointsForZPB=0", "PointsForForfeitLoss=0", f"PointsForPAB={float(pab)}",
    ])
    return text + "\n", rounds


def bb_lines(points: tuple[Fraction, Fraction, Fraction]) -> list[str]:
    win, draw, pab = points
    if points == POINTS[0]:
        return []
    lines = [f"BBW {float(win):4.1f}", f"BBD {float(draw):4.1f}"]
    if pab != win:
        lines.append(f"BBU {float(pab):4.1f}")
    return lines


def xxa_lines(rng: random.Random, full: Tournament, win: Fraction, draw: Fraction) -> list[str]:
    """Random accelerated pairings as TRF ``XXA`` lines (extra points per player and round).

    Baku-like: the top half by pairing number gets a win's points in the first ``a`` rounds
    (``a`` from 1 to 3) and a draw's in the next one; a few other players get a draw's points
    in a random round, so that the extra points also cut across score groups.
    """
    rounds = full.total_rounds
    a = rng.randint(1, min(3, rounds))
    ids = sorted(p.id for p in full.players)
    top = set(sorted(full.players, key=lambda p: p.seed)[:len(ids) // 2])
    extra: dict[int, list[Fraction]] = {pid: [Fraction(0)] * rounds for pid in ids}
    for p in top:
        for r in range(min(a + 1, rounds)):
            extra[p.id][r] = win if r < a else draw
    for pid in rng.sample(ids, k=min(len(ids), rng.randint(0, 3))):
        extra[pid][rng.randrange(rounds)] += draw
    lines = []
    for pid in ids:
        if any(extra[pid]):
            lines.append(f"XXA {pid:4d}" + "".join(f" {float(v):4.1f}" for v in extra[pid]))
    return lines


def cut(full: Tournament, k: int) -> Tournament:
    """The tournament before round ``k``, with round ``k``'s half/zero-point byes requested."""
    requested = {}
    if k <= full.rounds_played:
        requested = {b.player: b.kind for b in full.rounds[k - 1].byes
                     if b.kind in (ByeKind.HALF, ByeKind.ZERO)}
    return dataclasses.replace(full, rounds=full.rounds[:k - 1],
                               requested_byes={k: requested} if requested else {})


def initial_colour(full: Tournament) -> Color:
    first = full.rounds[0]
    for p in sorted(full.players, key=lambda p: p.seed):
        game = first.game_of(p.id)
        if game is not None:
            return game.color_of(p.id)
    return Color.WHITE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="2025", choices=sorted(BINARY))
    parser.add_argument("--rounds", type=int, default=200, help="rounds (cases) to compare")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="dutch-differences")
    parser.add_argument("--max-players", type=int, default=300,
                        help="cap the field size (default 300)")
    parser.add_argument("--min-players", type=int, default=0,
                        help="draw the field size uniformly from this to --max-players")
    parser.add_argument("--implicit-from", type=int, default=None, metavar="N",
                        help="keep the separable edges implicit from N unpaired players "
                             "(engine.IMPLICIT_MIN_PLAYERS; 0: every bracket)")
    parser.add_argument("--keep", type=int, default=10, help="differing cases to write")
    parser.add_argument("--accelerate", action="store_true",
                        help="add random accelerated pairings (XXA lines) to every case")
    parser.add_argument("--baku", action="store_true",
                        help="add a 192 ..._BAKU line to every case (Baku acceleration)")
    args = parser.parse_args()
    if args.implicit_from is not None:
        from swiss.pairing.fide_dutch import engine

        engine.IMPLICIT_MIN_PLAYERS = args.implicit_from
    oracle = find_oracle(args.rules)
    if oracle is None:
        print(f"skipped: {TOOLS / BINARY[args.rules]} not found (../shared is absent)")
        return 0
    rng = random.Random(args.seed)
    out = Path(args.out)
    same = total = kept = errors = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tournament_no = 0
        while total < args.rounds:
            tournament_no += 1
            points = rng.choice(BAKU_POINTS if args.baku else POINTS)
            cfg, rounds = config_text(rng, points, args.max_players, args.min_players)
            (work / "gen.cfg").write_text(cfg)
            gen = subprocess.run(
                [str(oracle), "--dutch", "-g", str(work / "gen.cfg"), "-o", str(work / "g.trf"),
                 "-s", str(rng.randint(1, 10**9))], capture_output=True, timeout=600)
            if gen.returncode != 0:
                continue
            raw = (work / "g.trf").read_text().replace("\r\n", "\n").replace("\r", "\n")
            header = [f"XXR {rounds}", *bb_lines(points)]
            try:
                full = parse_trf("\n".join(header) + "\n" + raw).tournament
            except Exception as exc:  # report and move on
                print(f"tournament {tournament_no}: unreadable generator output: {exc}")
                continue
            win, draw, pab = points
            full = dataclasses.replace(
                full, total_rounds=rounds, initial_color=initial_colour(full),
                scoring=Scoring.custom(win, draw, 0, pab))
            xxa = xxa_lines(rng, full, win, draw) if args.accelerate else []
            if args.baku:
                xxa.append(f"192 {BAKU_CODE[args.rules]}")
            for k in range(1, full.rounds_played + 1):
                if total >= args.rounds:
                    break
                text = write_trf(cut(full, k))
                if xxa:
                    text = text.rstrip("\n") + "\n" + "\n".join(xxa) + "\n"
                case = parse_trf(text).tournament
                path = work / "case.trf"
                path.write_text(text)
                run, want = oracle_pairing(oracle, path)
                if run.returncode not in (0, 1):
                    errors += 1
                    continue
                got = swissbot_pairing(case, args.rules)
                total += 1
                if got == want:
                    same += 1
                elif kept < args.keep:
                    kept += 1
                    keep_case(out, f"{args.rules}-t{tournament_no:04d}-round-{k:02d}", text,
                              run.stdout)
            print(f"... {total} rounds, {same} identical", file=sys.stderr)
    rate = 100 * same / max(total, 1)
    print(f"fide-dutch {args.rules} vs {oracle.name}: {same}/{total} identical ({rate:.1f}%)"
          + (f"; {errors} oracle errors skipped" if errors else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
