"""Ranking-quality measures against hand examples and scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.sim.measures import discordant_pairs, kendall_tau, mean_ci95, ndcg, spearman_rho

scipy_stats = pytest.importorskip("scipy.stats")

TRUTH = [10, 20, 30, 40]


def test_identical_and_reversed_rankings():
    assert kendall_tau(TRUTH, TRUTH) == 1.0
    assert spearman_rho(TRUTH, TRUTH) == 1.0
    assert ndcg(TRUTH, TRUTH) == 1.0
    reverse = TRUTH[::-1]
    assert kendall_tau(reverse, TRUTH) == -1.0
    assert spearman_rho(reverse, TRUTH) == -1.0


def test_one_swap_by_hand():
    ranking = [20, 10, 30, 40]  # the two best swapped
    assert discordant_pairs(ranking, TRUTH) == 1
    assert kendall_tau(ranking, TRUTH) == pytest.approx(1 - 4 * 1 / 12)  # 2/3
    assert spearman_rho(ranking, TRUTH) == pytest.approx(1 - 6 * 2 / 60)  # 0.8
    # relevance 4,3,2,1; DCG = 3/1 + 4/log2(3) + 2/2 + 1/log2(5)
    dcg = 3 + 4 / math.log2(3) + 2 / 2 + 1 / math.log2(5)
    ideal = 4 + 3 / math.log2(3) + 2 / 2 + 1 / math.log2(5)
    assert ndcg(ranking, TRUTH) == pytest.approx(dcg / ideal)


def test_ndcg_cares_about_the_top_more_than_the_bottom():
    top_swap = [20, 10, 30, 40]
    bottom_swap = [10, 20, 40, 30]
    assert kendall_tau(top_swap, TRUTH) == kendall_tau(bottom_swap, TRUTH)
    assert ndcg(top_swap, TRUTH) < ndcg(bottom_swap, TRUTH)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(1, 13))))
def test_against_scipy(ranking):
    truth = list(range(1, 13))
    pos_truth = np.arange(12)
    pos_ranking = np.array([ranking.index(x) for x in truth])
    tau = scipy_stats.kendalltau(pos_truth, pos_ranking).statistic
    rho = scipy_stats.spearmanr(pos_truth, pos_ranking).statistic
    assert kendall_tau(ranking, truth) == pytest.approx(tau)
    assert spearman_rho(ranking, truth) == pytest.approx(rho)
    assert 0 < ndcg(ranking, truth) <= 1


def test_rankings_must_hold_the_same_items():
    with pytest.raises(ValueError, match="same items"):
        kendall_tau([1, 2, 3], [1, 2, 4])
    with pytest.raises(ValueError, match="repeat"):
        kendall_tau([1, 1, 2], [1, 2, 1])


def test_mean_ci95():
    mean, half = mean_ci95([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(1.959963984540054 * np.std([1, 2, 3, 4], ddof=1) / 2)
    assert math.isnan(mean_ci95([])[0])
