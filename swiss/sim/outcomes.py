"""Game outcome models: the probability of a white win, a black win and a draw.

* :class:`Milvang` -- Otto Milvang's model (FIDE SPP, 2016), fitted on 3.9 million rated games
  and used by the paper: piecewise quadratic in the rating difference, with a mean-rating
  dependent shape, a white advantage and draws that rise with the level of play.
* :class:`EloLogistic` -- the plain Elo curve E = 1 / (1 + 10^(-d/400)) with no colour effect
  and an optional draw share; for events without draws (most e-sports and card games).

Models take the *true* strengths of White and Black (the paper does so to get unbiased results)
and are pure functions; :func:`draw_result` turns probabilities and a uniform draw into a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from swiss.model import Result
from swiss.numbers import NumberError, parse_real


class OutcomeModel(Protocol):
    """Anything that gives (P(white wins), P(black wins), P(draw)) for two strengths."""

    def probabilities(self, white: float, black: float) -> tuple[float, float, float]: ...

    def describe(self) -> str: ...

    def plain(self) -> str: ...


# Milvang's table: centre, centre value (constant, q^2 factor), lower and upper limits
# (constant, factor of the mean rating), for the white win and the black win curves.
_W_CENTRE, _B_CENTRE = 40.0, -80.0
_W_CV, _B_CV = (0.45, -0.10), (0.46, -0.13)
_W_LL, _B_LL = (-1492.0, 0.391), (-1753.0, 0.416)
_W_UL, _B_UL = (1691.0, -0.428), (1428.0, -0.388)


def milvang_probabilities(white: float, black: float) -> tuple[float, float, float]:
    """Milvang's (P(white wins), P(black wins), P(draw)) for ratings ``white`` and ``black``.

    Check values (shared/notes/simulation.md): 2467 vs 2344 gives 0.511 / 0.138 / 0.351.
    """
    mean = (white + black) / 2
    diff = white - black
    q = (mean - 1200.0) / 1200.0 if mean > 1200.0 else 0.0
    q2 = q * q
    p_white = _rising(
        diff, _W_CENTRE, _W_CV[0] + _W_CV[1] * q2,
        _W_LL[0] + _W_LL[1] * mean, _W_UL[0] + _W_UL[1] * mean,
    )
    p_black = 1.0 - _rising(
        diff, _B_CENTRE, 1.0 - (_B_CV[0] + _B_CV[1] * q2),
        _B_LL[0] + _B_LL[1] * mean, _B_UL[0] + _B_UL[1] * mean,
    )
    # Pd is never negative for ratings 1000..2800; clamp the rounding noise beyond that.
    p_draw = max(0.0, 1.0 - p_white - p_black)
    total = p_white + p_black + p_draw
    return p_white / total, p_black / total, p_draw / total


def _rising(diff: float, centre: float, value: float, lower: float, upper: float) -> float:
    """A curve rising from 0 (at ``lower``) through ``value`` (at ``centre``) to 1 (``upper``).

    Two quadratic pieces meeting at the centre: the white-win probability is this curve with
    White's parameters, the black-win probability is one minus it with Black's.
    """
    if diff <= lower:
        return 0.0
    if diff <= centre:
        return value * ((diff - lower) / (centre - lower)) ** 2
    if diff <= upper:
        return 1.0 - (1.0 - value) * ((diff - upper) / (centre - upper)) ** 2
    return 1.0


@dataclass(frozen=True, slots=True)
class Milvang:
    """Milvang's model on true strengths (the paper's choice)."""

    def probabilities(self, white: float, black: float) -> tuple[float, float, float]:
        return milvang_probabilities(white, black)

    def describe(self) -> str:
        return "milvang"

    def plain(self) -> str:
        return "results as in rated chess games (Milvang's model, draws included)"


@dataclass(frozen=True, slots=True)
class EloLogistic:
    """The Elo logistic curve; ``draw`` is the draw probability between equal players.

    The expected score stays exactly E = 1 / (1 + 10^(-(white - black) / 400)); draws shrink
    with the gap so that P(white wins) = E - P(draw) / 2 never goes negative.
    """

    draw: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.draw < 1.0:
            raise ValueError("the draw share of the Elo model must be in [0, 1)")

    def probabilities(self, white: float, black: float) -> tuple[float, float, float]:
        expected = 1.0 / (1.0 + 10.0 ** (-(white - black) / 400.0))
        p_draw = min(self.draw, 2.0 * min(expected, 1.0 - expected))
        return expected - p_draw / 2, 1.0 - expected - p_draw / 2, p_draw

    def describe(self) -> str:
        return f"elo:{self.draw:g}" if self.draw else "elo"

    def plain(self) -> str:
        draws = f"{self.draw:.0%} draws between equal players" if self.draw else "no draws"
        return f"results by the Elo curve ({draws})"


def parse_model(spec: str) -> OutcomeModel:
    """``milvang`` (default), ``elo`` (no draws) or ``elo:DRAW`` (e.g. ``elo:0.3``)."""
    key, _, arg = spec.strip().lower().partition(":")
    if key == "milvang" and not arg:
        return Milvang()
    if key in ("elo", "logistic"):
        if not arg:
            return EloLogistic()
        try:
            draw = parse_real(arg, "the draw share", low=0, high=1)
        except NumberError as exc:
            raise ValueError(f"outcome model {spec!r}: {exc.reason}") from None
        return EloLogistic(draw)
    raise ValueError(f"unknown outcome model {spec!r}; use 'milvang', 'elo' or 'elo:DRAW'")


def draw_result(probabilities: tuple[float, float, float], u: float) -> Result:
    """The result for a uniform draw ``u`` in [0, 1): white win, then black win, then draw."""
    p_white, p_black, _p_draw = probabilities
    if u < p_white:
        return Result.WHITE_WINS
    if u < p_white + p_black:
        return Result.BLACK_WINS
    return Result.DRAW
