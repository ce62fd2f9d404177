"""How good a tournament was: ranking quality against the true strength order, and fairness.

Ranking quality compares the final ranking (best first) with the order of true strengths:

* :func:`kendall_tau` -- normalized Kendall tau in [-1, 1]: 1 - 4 D / (n (n - 1)) with D the
  number of discordant pairs (1 = identical, -1 = reversed). The paper's main measure.
* :func:`spearman_rho` -- normalized Spearman rho in [-1, 1]: 1 - 6 sum d^2 / (n (n^2 - 1)).
* :func:`ndcg` -- normalized discounted cumulative gain: the player of true rank ``t`` (1 =
  strongest) is worth ``n + 1 - t``; the gain at position ``i`` of the ranking is discounted by
  ``log2(i + 1)``; divided by the ideal order's value, so 1 = identical. Puts the emphasis on the
  top of the ranking.

Both orders are strict (strengths are continuous and the final ranking ends in a lot), so the
tie corrections of tau-b and of the rank-correlation Spearman rho do not apply.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def _positions(ranking: Sequence[int], reference: Sequence[int]) -> np.ndarray:
    """For each place of ``reference``, where that item stands in ``ranking`` (0-based)."""
    if len(ranking) != len(reference) or set(ranking) != set(reference):
        raise ValueError("the two rankings must order the same items")
    if len(set(ranking)) != len(ranking):
        raise ValueError("a ranking must not repeat an item")
    where = {item: i for i, item in enumerate(ranking)}
    return np.fromiter((where[item] for item in reference), dtype=np.int64, count=len(reference))


def discordant_pairs(ranking: Sequence[int], reference: Sequence[int]) -> int:
    """Pairs of items ordered one way in ``ranking`` and the other way in ``reference``."""
    pos = _positions(ranking, reference)
    # pos[i] > pos[j] for i < j is an inversion; n is the number of players, so O(n^2) is fine.
    return int(np.triu(pos[:, None] > pos[None, :], k=1).sum())


def kendall_tau(ranking: Sequence[int], reference: Sequence[int]) -> float:
    """Normalized Kendall tau between two strict rankings of the same items, in [-1, 1]."""
    n = len(reference)
    if n < 2:
        raise ValueError("Kendall tau needs at least two items")
    return 1.0 - 4.0 * discordant_pairs(ranking, reference) / (n * (n - 1))


def spearman_rho(ranking: Sequence[int], reference: Sequence[int]) -> float:
    """Normalized Spearman rho between two strict rankings of the same items, in [-1, 1]."""
    n = len(reference)
    if n < 2:
        raise ValueError("Spearman rho needs at least two items")
    pos = _positions(ranking, reference)
    d = pos - np.arange(n)
    return 1.0 - 6.0 * float(np.dot(d, d)) / (n * (n * n - 1))


def ndcg(ranking: Sequence[int], reference: Sequence[int]) -> float:
    """Normalized DCG of ``ranking`` with linear relevance from the ``reference`` order."""
    n = len(reference)
    if n < 1:
        raise ValueError("NDCG needs at least one item")
    relevance = {item: n - i for i, item in enumerate(reference)}
    _positions(ranking, reference)  # validates
    discount = 1.0 / np.log2(np.arange(2, n + 2))
    gains = np.fromiter((relevance[item] for item in ranking), dtype=np.float64, count=n)
    ideal = np.arange(n, 0, -1, dtype=np.float64)
    return float(np.dot(gains, discount) / np.dot(ideal, discount))


def mean_ci95(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation 95 % confidence interval."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return math.nan, math.nan
    mean = float(arr.mean())
    if arr.size < 2:
        return mean, math.nan
    return mean, 1.959963984540054 * float(arr.std(ddof=1)) / math.sqrt(arr.size)
