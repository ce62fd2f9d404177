"""One strict parser for every number that comes from outside: TRF fields, scoring values and
command-line options.

Python's own ``int``, ``float`` and ``Fraction`` accept far more than a person means to type:
``int("²")`` passes ``str.isdigit`` and then fails, ``int("١٢")`` is 12, ``int("1_000")`` is
1000, ``Fraction("1e99999999")`` builds a hundred-million-digit integer (a hang) and
``float(Fraction("1e400"))`` raises :class:`OverflowError`. Every parser here therefore

* accepts ASCII digits only (``0-9``, an optional leading ``-`` where negatives make sense, one
  ``.`` in decimals, one ``/`` in fractions where allowed): no exponents, signs ``+``,
  underscores, spaces or other scripts' digits;
* bounds the length *before* converting (so no input can cost more than a few microseconds),
  then the value, the number of decimals and the denominator;
* returns exact values: :class:`int` for whole numbers, :class:`~fractions.Fraction` for points
  and other fractional values (``0.1`` is exactly 1/10), :class:`float` only where the caller
  computes in floating point anyway (simulation parameters), and then always finite;
* raises :class:`NumberError` whose message names the value (``what``), what was wrong and the
  allowed range, and whose :attr:`NumberError.offset` is the 0-based position of the first
  offending character (callers that know the column add it to report line and column).

The module is pure: no I/O, no imports from the rest of the project.
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = [
    "MAX_SEED",
    "NumberError",
    "parse_fraction",
    "parse_int",
    "parse_real",
]

MAX_SEED = 2**63 - 1  # seeds: any non-negative 64-bit signed integer (numpy and SQLite take it)
_MAX_LENGTH = 40  # no number we accept needs more characters than this
_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?", re.ASCII)
_RATIO = re.compile(r"-?[0-9]+/[0-9]+", re.ASCII)


class NumberError(ValueError):
    """A number from outside that is malformed or out of bounds.

    ``reason`` is the message; ``offset`` the 0-based index in the text where the problem starts
    (0 when it concerns the whole value).
    """

    def __init__(self, reason: str, offset: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


def _show(text: str) -> str:
    """The offending text for a message: quoted, and cut short if long (messages stay small)."""
    return repr(text) if len(text) <= 24 else repr(text[:20]) + "..."


def _first_bad(text: str, allowed: str) -> int:
    for index, char in enumerate(text):
        if char not in allowed:
            return index
    return 0


def _check_shape(text: str, what: str, pattern: re.Pattern[str], allowed: str, kind: str) -> None:
    if not text:
        raise NumberError(f"{what} is blank")
    if len(text) > _MAX_LENGTH:
        raise NumberError(f"{what} {_show(text)} is too long for a number "
                          f"(at most {_MAX_LENGTH} characters)")
    if pattern.fullmatch(text):
        return
    offset = _first_bad(text, allowed)
    char = text[offset]
    if char.isdigit() or char.isnumeric():
        raise NumberError(f"{what} {_show(text)} is not {kind}: {char!r} is not one of the "
                          "ASCII digits 0-9", offset)
    raise NumberError(f"{what} {_show(text)} is not {kind}", offset)


def _digit_count(low: int, high: int) -> int:
    return max(len(str(abs(low))), len(str(abs(high))))


def parse_int(text: str, what: str, *, low: int, high: int) -> int:
    """A whole number in ``low..high`` written with ASCII digits (a ``-`` only if ``low < 0``).

    >>> parse_int("42", "the round", low=1, high=99)
    42
    >>> parse_int("²", "the round", low=1, high=99)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    swiss.numbers.NumberError: the round '²' is not a whole number: '²' is not one of the ASCII...
    """
    allowed = "0123456789" + ("-" if low < 0 else "")
    _check_shape(text, what, _WHOLE, allowed, "a whole number")
    if text.startswith("-") and low >= 0:
        raise NumberError(f"{what} must be {low} or more (got {_show(text)})")
    digits = text.lstrip("-").lstrip("0")
    if len(digits) > _digit_count(low, high):  # too big to convert cheaply, and out of range
        raise NumberError(f"{what} {_show(text)} is out of range: it must be {low}..{high}")
    value = int(text)
    if not low <= value <= high:
        raise NumberError(f"{what} {text} is out of range: it must be {low}..{high}")
    return value


def parse_fraction(
    text: str,
    what: str,
    *,
    low: Fraction | int,
    high: Fraction | int,
    decimals: int = 4,
    ratios: bool = False,
    max_denominator: int = 1000,
    low_open: bool = False,
) -> Fraction:
    """An exact value in ``low..high``: a decimal such as ``2``, ``-1`` or ``0.5`` (at most
    ``decimals`` decimals), or with ``ratios`` also ``p/q`` (``1/3``; ``q`` at most
    ``max_denominator``). ``low_open`` excludes ``low`` itself ("must be positive" for 0).

    >>> parse_fraction("0.1", "--beta", low=0, high=100, low_open=True)
    Fraction(1, 10)
    >>> parse_fraction("1e400", "win points", low=-1000, high=1000)
    Traceback (most recent call last):
    ...
    swiss.numbers.NumberError: win points '1e400' is not a number (e.g. 2, -1 or 0.5)
    """
    low, high = Fraction(low), Fraction(high)
    example = "2, -1 or 0.5" if low < 0 else "2 or 0.5"
    if ratios:
        example += " or 1/3"
    allowed = "0123456789." + ("-" if low < 0 else "") + ("/" if ratios else "")
    pattern = _RATIO if ratios and "/" in text else _DECIMAL
    _check_shape(text, what, pattern, allowed, f"a number (e.g. {example})")
    if text.startswith("-") and low >= 0:
        least = "positive" if low == 0 and low_open else f"{_plain(low)} or more"
        raise NumberError(f"{what} must be {least} (got {_show(text)})")
    limit = _digit_count(int(low), int(high)) + 1
    if "/" in text:
        top, _, bottom = text.lstrip("-").partition("/")
        if len(bottom.lstrip("0")) > len(str(max_denominator)) or int(bottom) > max_denominator:
            raise NumberError(f"{what} {_show(text)}: the denominator must be "
                              f"1..{max_denominator}", text.index("/") + 1)
        if int(bottom) == 0:
            raise NumberError(f"{what} {_show(text)} divides by zero", text.index("/") + 1)
        if len(top.lstrip("0")) > limit + len(str(max_denominator)):
            raise NumberError(f"{what} {_show(text)} is out of range: it must be "
                              f"{_plain(low)}..{_plain(high)}")
    else:
        whole, _, fraction = text.lstrip("-").partition(".")
        if len(fraction) > decimals:
            raise NumberError(f"{what} {_show(text)} has more than {decimals} decimals",
                              text.index(".") + 1 + decimals)
        if len(whole.lstrip("0")) > limit:
            raise NumberError(f"{what} {_show(text)} is out of range: it must be "
                              f"{_plain(low)}..{_plain(high)}")
    value = Fraction(text)
    if value < low or value > high or (low_open and value == low):
        if low_open and low == 0 and value <= 0:
            raise NumberError(f"{what} must be positive (got {text})")
        bound = f"more than {_plain(low)} and at most {_plain(high)}" if low_open else \
            f"{_plain(low)}..{_plain(high)}"
        raise NumberError(f"{what} {text} is out of range: it must be {bound}")
    return value


def parse_real(text: str, what: str, *, low: float, high: float, decimals: int = 6) -> float:
    """A finite decimal in ``low..high`` (no exponent, ``nan`` or ``inf``), as a float, for
    parameters the caller computes with in floating point (simulation strengths, draw shares).

    >>> parse_real("0.3", "the draw share", low=0, high=1)
    0.3
    """
    return float(parse_fraction(text, what, low=Fraction(low), high=Fraction(high),
                                decimals=decimals))


def _plain(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))
