"""The ``swissbot`` command line: one sub-command per module of this package.

Each module exposes ``register(subparsers)`` which adds its parser and sets ``func`` to a
callable taking the parsed arguments and returning the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK, EXIT_USAGE
from cli.options import UsageError

# Order is the order of ``swissbot --help``.
COMMAND_MODULES: tuple[str, ...] = (
    "run",
    "demo",
    "pair",
    "standings",
    "header",
    "pgn",
    "simulate",
    "advise",
    "sandbox",
    "db",
)

__all__ = ["EXIT_INVALID_INPUT", "EXIT_NO_PAIRING", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or only the sub-command ``only`` (the others are not imported)."""
    parser = argparse.ArgumentParser(
        prog="swissbot",
        description="Swiss-system tournaments: the Discord bot and its pairing tools.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        if only is None or name == only:
            importlib.import_module(f"cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `swissbot pair FILE` should start fast: import only the named sub-command's module (not
    # the bot, asyncio, the simulator). Anything else (help, a typo) gets the full parser.
    only = argv[0] if argv and argv[0] in COMMAND_MODULES else None
    parser = build_parser(only)
    args, unknown = parser.parse_known_args(argv)
    command = _command_parser(parser, args)
    if unknown:  # the sub-command's usage, not the top level's
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        try:
            code = int(func(args))
        except UsageError as exc:
            command.error(str(exc))  # exits 2
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `swissbot simulate | head`: the reader left; stop quietly, as Unix tools do. Point
        # stdout at /dev/null so the interpreter's final flush does not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _command_parser(parser: argparse.ArgumentParser,
                    args: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost parser ``args`` ran: ``db check``'s for ``swissbot db check``, ``pair``'s
    for ``swissbot pair``, ``parser`` itself without a sub-command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest or "", None) or "")
            if chosen is not None:
                return _command_parser(chosen, args)
    return parser


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
