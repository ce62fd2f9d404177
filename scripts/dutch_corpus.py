"""Pair every round of the FIDE Dutch conformance corpora and print the identity rate.

    .venv/bin/python scripts/dutch_corpus.py [--rules 2025|2017] [--show N] [--only tNNNN]
                                             [--implicit-from N]

A round is identical when the set of (white, black) pairs and the pairing-allocated bye equal
bbpPairings' (tests/fixtures/dutch-<rules>/tNNNN/round-KK.pairs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from swiss.pairing import PairingConfig, PairingError, pair_round  # noqa: E402
from swiss.trf import parse_trf, read_pairs  # noqa: E402


def expected(path: Path) -> tuple[frozenset[tuple[int, int]], int | None]:
    return read_pairs(path.read_text())


def ours(trf: Path, rules: str) -> tuple[frozenset[tuple[int, int]], int | None] | str:
    parsed = parse_trf(trf.read_text())
    try:
        result = pair_round(parsed.tournament, PairingConfig(system="fide-dutch", rules=rules),
                            states=parsed.states)
    except PairingError as exc:
        return f"no pairing: {exc}"
    return frozenset((g.white, g.black) for g in result.games), result.pairing_bye


def cases(rules: str, only: str | None = None) -> list[Path]:
    base = ROOT / "tests" / "fixtures" / f"dutch-{rules}"
    return sorted(p for p in base.glob("t*/round-*.trf") if only is None or only in str(p))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="2025")
    parser.add_argument("--show", type=int, default=5)
    parser.add_argument("--only", default=None)
    parser.add_argument("--list", default=None, metavar="FILE",
                        help="write every differing case as '<rules> tNNNN/round-KK' to FILE")
    parser.add_argument("--implicit-from", type=int, default=None, metavar="N",
                        help="keep the separable edges implicit from N unpaired players "
                             "(engine.IMPLICIT_MIN_PLAYERS; 0: every bracket)")
    args = parser.parse_args()
    if args.implicit_from is not None:
        from swiss.pairing.fide_dutch import engine

        engine.IMPLICIT_MIN_PLAYERS = args.implicit_from
    same = 0
    diffs: list[str] = []
    all_cases = cases(args.rules, args.only)
    for trf in all_cases:
        want = expected(trf.with_suffix(".pairs"))
        got = ours(trf, args.rules)
        if got == want:
            same += 1
            continue
        name = f"{trf.parent.name}/{trf.stem}"
        diffs.append(name)
        if len(diffs) <= args.show:
            if isinstance(got, str):
                print(f"{name}: {got}")
            else:
                print(f"{name}: bye want {want[1]} got {got[1]}; "
                      f"want-only {sorted(want[0] - got[0])} got-only {sorted(got[0] - want[0])}")
    if args.list:
        Path(args.list).write_text("".join(f"{args.rules} {d}\n" for d in diffs))
    total = len(all_cases)
    print(f"dutch-{args.rules}: {same}/{total} identical ({100 * same / max(total, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
