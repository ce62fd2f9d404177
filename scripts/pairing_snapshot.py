"""Print every round of a FIDE Dutch conformance corpus as our engine pairs it, in full.

    .venv/bin/python scripts/pairing_snapshot.py [--rules 2025|2017] [--system fide-dutch]
                                                 [--backend auto] [--only tNNNN] > FILE

One line per case (``tNNNN/round-KK``): the games in board order with their colours, the
byes, the packed total weight, the backend, the notes, the explanations and the matching
statistics. Two snapshots of the same corpus taken with two versions of the code are
identical (``cmp``) exactly when the engine behaved the same on every case, which is what a
refactoring must show; ``scripts/dutch_corpus.py`` compares with bbpPairings instead.
``--system`` pairs the same tournaments with another system (``--backend`` for the MWM ones).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from swiss.pairing import PairingConfig, PairingError, pair_round  # noqa: E402
from swiss.trf import parse_trf  # noqa: E402


def snapshot_line(trf: Path, config: PairingConfig) -> str:
    """One case as a line: the full pairing result, or the error the engine raised."""
    parsed = parse_trf(trf.read_text())
    name = f"{trf.parent.name}/{trf.stem}"
    try:
        result = pair_round(parsed.tournament, config, states=parsed.states)
    except PairingError as exc:
        return f"{name} error {type(exc).__name__}: {exc}"
    games = " ".join(f"{g.white}-{g.black}" for g in result.games)
    byes = " ".join(f"{b.player}:{b.kind.name}" for b in result.byes)
    # The explanations are long: their digest shows any change as well as the full text.
    why = hashlib.sha256(repr(result.explanations).encode()).hexdigest()[:16]
    return (f"{name} games {games} | byes {byes} | weight {result.total_weight} | "
            f"backend {result.backend} | notes {list(result.notes)} | explain {why} | "
            f"stats {dict(result.stats)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="2025", choices=("2025", "2017"))
    parser.add_argument("--system", default="fide-dutch")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--only", default=None, help="only the cases whose path holds this")
    args = parser.parse_args()
    config = PairingConfig(system=args.system, rules=args.rules, backend=args.backend)
    base = ROOT / "tests" / "fixtures" / f"dutch-{args.rules}"
    cases = sorted(p for p in base.glob("t*/round-*.trf")
                   if args.only is None or args.only in str(p))
    if not cases:
        print(f"no cases under {base}", file=sys.stderr)
        return 2
    for trf in cases:
        print(snapshot_line(trf, config), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
