"""Numeric command-line options read strictly, as argparse ``type=`` functions.

``type=int`` would take ``١٢`` (Arabic-Indic twelve), ``1_000`` and a twenty-digit seed; these
read ASCII digits only, within the option's range (:mod:`swiss.numbers`). A bad value is
argparse's usage error: exit code 2, the option named, what was wrong and the range.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from swiss.numbers import NumberError, parse_fraction, parse_int


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number in ``low..high``."""

    def read(text: str) -> int:
        try:
            return parse_int(text, "value", low=low, high=high)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(exc.reason) from None

    read.__name__ = f"whole number {low}..{high}"  # argparse names the type in some errors
    return read


def exact(**bounds: Any) -> Callable[[str], Fraction]:
    """An argparse ``type`` for an exact value (:func:`swiss.numbers.parse_fraction` with
    ``bounds``: ``low``, ``high``, ``decimals``, ``ratios``, ``low_open``)."""

    def read(text: str) -> Fraction:
        try:
            return parse_fraction(text, "value", **bounds)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(exc.reason) from None

    read.__name__ = "number"
    return read


class UsageError(Exception):
    """A bad option value found after parsing (one option depends on another): reported by
    ``cli.main`` as argparse reports its own, with the sub-command's usage and exit code 2."""


def system_option(
    name: str, edition: str | None, *, systems: tuple[str, ...] | None = None
) -> tuple[str, str]:
    """``--system`` and ``--rules`` read together (:func:`swiss.pairing.names
    .system_and_edition`): the system and its edition, or :class:`UsageError`."""
    from swiss.pairing.names import SystemNameError, system_and_edition

    try:
        if systems is None:
            return system_and_edition(name, edition)
        return system_and_edition(name, edition, systems=systems)
    except SystemNameError as exc:
        raise UsageError(f"--system/--rules: {exc}") from None
