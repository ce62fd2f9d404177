"""True playing strengths and the Elo ratings the pairing sees (the paper's player model).

Every simulated player has a *true strength* that decides his results and an *Elo rating* that
only approximates it: Elo is drawn from Normal(strength, (3000 - strength) / 20), so strong
players are rated more accurately, and rounded to an integer like a real rating list. Elo alone
orders the players for pairing (their start numbers); ties in Elo are ordered randomly once.

Strength distributions (:func:`parse_strengths` specs):

* ``uniform:LO:HI`` -- the paper's default, ``uniform:1400:2200``;
* ``normal:MEAN:SD[:LO:HI]`` -- truncated to ``LO..HI`` (default ``MEAN +- 2 SD``: the
  appendix's normal case is ``normal:1800:200``, range 1400..2200);
* ``exp:LO:HI:MEAN`` -- an exponential truncated to ``LO..HI`` whose mean is ``MEAN``: many weak
  players and a few strong ones when ``MEAN`` is below the middle (``exp:1400:2200:1600``), many
  strong and a few weak ones above it (``exp:1400:2200:2000``), as in the appendix.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from swiss.numbers import NumberError, parse_real

Kind = Literal["uniform", "normal", "exp"]


@dataclass(frozen=True, slots=True)
class StrengthDistribution:
    """A distribution of true strengths on ``low..high``; see :func:`parse_strengths`."""

    kind: Kind
    low: float
    high: float
    mean: float
    sd: float = 0.0

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """Draw ``n`` true strengths (float64)."""
        if self.kind == "uniform":
            return rng.uniform(self.low, self.high, n)
        if self.kind == "normal":
            return _truncated_normal(rng, n, self.mean, self.sd, self.low, self.high)
        return _truncated_exponential(rng, n, self.low, self.high, self.mean)

    def describe(self) -> str:
        if self.kind == "uniform":
            return f"uniform:{_num(self.low)}:{_num(self.high)}"
        if self.kind == "normal":
            return f"normal:{_num(self.mean)}:{_num(self.sd)}:{_num(self.low)}:{_num(self.high)}"
        return f"exp:{_num(self.low)}:{_num(self.high)}:{_num(self.mean)}"

    def plain(self) -> str:
        """The distribution in words, rounded to whole rating points (the advisor's line)."""
        low, high, mean, sd = (round(x) for x in (self.low, self.high, self.mean, self.sd))
        if self.kind == "uniform":
            return f"strengths spread evenly from {low} to {high}"
        if self.kind == "normal":
            return f"strengths around {mean} (SD {sd}, from {low} to {high})"
        return f"strengths from {low} to {high}, mostly near {mean}"


MAX_STRENGTH = 100_000
UNIFORM_DEFAULT = StrengthDistribution("uniform", 1400.0, 2200.0, 1800.0)


def parse_strengths(spec: str) -> StrengthDistribution:
    """Parse a strength spec such as ``uniform:1400:2200``; raise ValueError with the reason."""
    parts = [p.strip() for p in spec.strip().split(":")]
    kind = parts[0].lower()
    try:
        # Strengths are Elo-like; the bound keeps every later computation finite.
        values = [parse_real(p, "a parameter", low=-MAX_STRENGTH, high=MAX_STRENGTH)
                  for p in parts[1:]]
    except NumberError as exc:
        raise ValueError(f"strength spec {spec!r}: {exc.reason}") from None
    if kind == "uniform":
        if len(values) != 2:
            raise ValueError(f"strength spec {spec!r}: use uniform:LOW:HIGH")
        low, high = values
        _check_range(spec, low, high)
        return StrengthDistribution("uniform", low, high, (low + high) / 2)
    if kind == "normal":
        if len(values) not in (2, 4):
            raise ValueError(
                f"strength spec {spec!r}: use normal:MEAN:SD or normal:MEAN:SD:LOW:HIGH"
            )
        mean, sd = values[0], values[1]
        if sd <= 0:
            raise ValueError(f"strength spec {spec!r}: the standard deviation must be positive")
        low, high = (values[2], values[3]) if len(values) == 4 else (mean - 2 * sd, mean + 2 * sd)
        _check_range(spec, low, high)
        if not low <= mean <= high:
            raise ValueError(f"strength spec {spec!r}: the mean must lie in LOW..HIGH")
        return StrengthDistribution("normal", low, high, mean, sd)
    if kind in ("exp", "exponential"):
        if len(values) != 3:
            raise ValueError(f"strength spec {spec!r}: use exp:LOW:HIGH:MEAN")
        low, high, mean = values
        _check_range(spec, low, high)
        if not low < mean < high:
            raise ValueError(f"strength spec {spec!r}: the mean must lie strictly inside LOW..HIGH")
        return StrengthDistribution("exp", low, high, mean)
    raise ValueError(
        f"unknown strength distribution {parts[0]!r} in {spec!r}; "
        "use uniform:LOW:HIGH, normal:MEAN:SD[:LOW:HIGH] or exp:LOW:HIGH:MEAN"
    )


def elo_sd(strength: np.ndarray | float) -> np.ndarray | float:
    """The paper's rating noise: sd = (3000 - strength) / 20 (80 at 1400, 40 at 2200)."""
    return (3000.0 - strength) / 20.0


def draw_elo(
    rng: np.random.Generator, strengths: np.ndarray, sd_points: float | None = None
) -> np.ndarray:
    """Integer Elo ratings drawn around the true strengths (never below 0), with the paper's
    noise (:func:`elo_sd`) or ``sd_points`` for everybody."""
    sd = np.maximum(elo_sd(strengths) if sd_points is None else
                    np.full(len(strengths), float(sd_points)), 0.0)
    return np.maximum(np.rint(rng.normal(strengths, sd)), 0).astype(np.int64)


def seeding_order(rng: np.random.Generator, elo: np.ndarray) -> np.ndarray:
    """Indices of the players by Elo, best first; equal ratings in a random order drawn once."""
    lot = rng.permutation(len(elo))
    return np.lexsort((lot, -elo))


# -- samplers ------------------------------------------------------------------------------
def _truncated_normal(
    rng: np.random.Generator, n: int, mean: float, sd: float, low: float, high: float
) -> np.ndarray:
    out = np.empty(0)
    while out.size < n:  # rejection: at +-2 sd about 95 % of draws are kept
        draw = rng.normal(mean, sd, max(2 * (n - out.size), 8))
        out = np.concatenate((out, draw[(draw >= low) & (draw <= high)]))
    return out[:n]


def _truncated_exponential(
    rng: np.random.Generator, n: int, low: float, high: float, mean: float
) -> np.ndarray:
    width = high - low
    middle = (low + high) / 2
    if math.isclose(mean, middle, rel_tol=0, abs_tol=1e-9 * max(1.0, width)):
        return rng.uniform(low, high, n)
    # The density decays away from the end nearest to the mean.
    from_low = mean < middle
    target = (mean - low) if from_low else (high - mean)
    rate = exponential_rate(width, target)
    u = rng.random(n)
    offset = -np.log1p(-u * -math.expm1(-rate * width)) / rate
    return low + offset if from_low else high - offset


def truncated_exponential_mean(rate: float, width: float) -> float:
    """Mean of Exp(rate) truncated to ``0..width``."""
    x = rate * width
    if x < 1e-8:
        return width / 2
    if x > 700:  # the truncation no longer matters (and expm1 would overflow)
        return 1.0 / rate
    return 1.0 / rate - width / math.expm1(x)


def exponential_rate(width: float, target_mean: float) -> float:
    """The rate whose exponential truncated to ``0..width`` has mean ``target_mean``."""
    if not 0 < target_mean < width / 2:
        raise ValueError("the truncated exponential's mean must lie between 0 and half the width")
    lo, hi = 1e-12, 1.0 / target_mean
    while truncated_exponential_mean(hi, width) > target_mean:
        hi *= 2
    for _ in range(200):  # the mean falls monotonically with the rate: bisect
        mid = (lo + hi) / 2
        if truncated_exponential_mean(mid, width) > target_mean:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _check_range(spec: str, low: float, high: float) -> None:
    if not low < high:
        raise ValueError(f"strength spec {spec!r}: LOW must be below HIGH")
    if low < 0:
        raise ValueError(f"strength spec {spec!r}: strengths must not be negative")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)
