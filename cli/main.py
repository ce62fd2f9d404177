"""The ``swissbot`` command line: one sub-command per module of this package.

Each module exposes ``register(subparsers)`` which adds its parser and sets ``func`` to a
callable taking the parsed arguments and returning the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK, EXIT_USAGE

# Order is the order of ``swissbot --help``.
COMMAND_MODULES: tuple[str, ...] = (
    "run",
    "demo",
    "pair",
    "standings",
    "simulate",
    "sandbox",
)

__all__ = ["EXIT_INVALID_INPUT", "EXIT_NO_PAIRING", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="swissbot",
        description="Swiss-system tournaments: the Discord bot and its pairing tools.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(func(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
