"""The simulator's models: strengths, Elo noise, Milvang's outcome model, the Elo curve."""

from __future__ import annotations

import numpy as np
import pytest

from swiss.model import Result
from swiss.sim.outcomes import (
    EloLogistic,
    Milvang,
    draw_result,
    milvang_probabilities,
    parse_model,
)
from swiss.sim.strengths import (
    draw_elo,
    exponential_rate,
    parse_strengths,
    seeding_order,
    truncated_exponential_mean,
)

# shared/notes/simulation.md: the paper's Table 2 and Milvang's own worked example (W / B / D).
CHECK_VALUES = [
    (1200, 1400, (0.263, 0.568, 0.169)),
    (2200, 2400, (0.141, 0.550, 0.309)),
    (2400, 2200, (0.634, 0.104, 0.262)),
    (2467, 2344, (0.511, 0.138, 0.351)),
]


@pytest.mark.parametrize(("white", "black", "expected"), CHECK_VALUES)
def test_milvang_reproduces_the_check_values(white, black, expected):
    got = milvang_probabilities(white, black)
    for g, e in zip(got, expected, strict=True):
        assert g == pytest.approx(e, abs=0.0006)
    assert sum(got) == pytest.approx(1.0)


def test_milvang_paper_table_2_rounded_percentages():
    table = {(1200, 1400): (26, 57, 17), (2200, 2400): (14, 55, 31), (2400, 2200): (63, 11, 26)}
    for (w, b), percent in table.items():
        got = tuple(round(100 * p) for p in milvang_probabilities(w, b))
        # The paper rounds 10.4 % up to 11 %; every other figure matches to the percent.
        assert all(abs(g - e) <= 1 for g, e in zip(got, percent, strict=True))


def test_milvang_properties_white_edge_draws_rise_and_cut_off():
    # White scores a little more than half between equal players.
    for level in (1500, 2000, 2400):
        pw, _pb, pd = milvang_probabilities(level, level)
        assert 0.514 <= pw + pd / 2 <= 0.535  # the notes: 51.5 % to 53 %
    # Draws rise with the level of play (22 %, 32 %, 45 % per the notes).
    draws = [milvang_probabilities(r, r)[2] for r in (1500, 2000, 2400)]
    assert draws == sorted(draws)
    assert draws[0] == pytest.approx(0.22, abs=0.01)
    assert draws[2] == pytest.approx(0.45, abs=0.01)
    # Far beyond ~790 points the weaker player cannot win at all.
    assert milvang_probabilities(2400, 1500)[1] == 0.0
    assert milvang_probabilities(1500, 2400)[0] == 0.0
    # Never negative over the model's range.
    for w in range(1000, 2801, 100):
        for b in range(1000, 2801, 100):
            assert min(milvang_probabilities(w, b)) >= 0.0


def test_elo_logistic_keeps_the_expected_score():
    model = EloLogistic(draw=0.3)
    for gap in (-400, -200, 0, 200, 800):
        pw, pb, pd = model.probabilities(1800 + gap, 1800)
        expected = 1 / (1 + 10 ** (-gap / 400))
        assert pw + pd / 2 == pytest.approx(expected)
        assert min(pw, pb, pd) >= 0 and pw + pb + pd == pytest.approx(1.0)
    assert EloLogistic().probabilities(2000, 1800) == pytest.approx((0.759746926, 0.240253074, 0))
    with pytest.raises(ValueError, match="draw share"):
        EloLogistic(draw=1.5)


def test_parse_model():
    assert isinstance(parse_model("milvang"), Milvang)
    assert parse_model("elo") == EloLogistic()
    assert parse_model("elo:0.25") == EloLogistic(0.25)
    for bad in ("glicko", "elo:x", "milvang:3"):
        with pytest.raises(ValueError):
            parse_model(bad)


def test_draw_result_splits_the_unit_interval():
    probs = (0.5, 0.3, 0.2)
    assert draw_result(probs, 0.0) is Result.WHITE_WINS
    assert draw_result(probs, 0.49) is Result.WHITE_WINS
    assert draw_result(probs, 0.5) is Result.BLACK_WINS
    assert draw_result(probs, 0.79) is Result.BLACK_WINS
    assert draw_result(probs, 0.8) is Result.DRAW


# -- strengths ----------------------------------------------------------------------------
def test_uniform_strengths_stay_in_range():
    dist = parse_strengths("uniform:1400:2200")
    s = dist.sample(np.random.default_rng(1), 20000)
    assert s.min() >= 1400 and s.max() <= 2200
    assert s.mean() == pytest.approx(1800, abs=10)
    assert dist.describe() == "uniform:1400:2200"


def test_normal_strengths_are_truncated_to_two_sd_by_default():
    dist = parse_strengths("normal:1800:200")
    assert (dist.low, dist.high) == (1400, 2200)
    s = dist.sample(np.random.default_rng(2), 20000)
    assert s.min() >= 1400 and s.max() <= 2200
    assert s.mean() == pytest.approx(1800, abs=8)
    # Truncation at +-2 sd shrinks the sd to about 0.88 of the untruncated one.
    assert s.std() == pytest.approx(0.88 * 200, rel=0.03)


@pytest.mark.parametrize("mean", [1600.0, 2000.0, 1500.0])
def test_exponential_strengths_have_the_requested_mean(mean):
    dist = parse_strengths(f"exp:1400:2200:{mean:g}")
    s = dist.sample(np.random.default_rng(3), 40000)
    assert s.min() >= 1400 and s.max() <= 2200
    assert s.mean() == pytest.approx(mean, abs=6)
    # Many weak players for a low mean, many strong ones for a high mean.
    below_middle = float(np.mean(s < 1800))
    assert (below_middle > 0.5) == (mean < 1800)


def test_exponential_rate_solves_the_truncated_mean():
    rate = exponential_rate(800, 200)
    assert truncated_exponential_mean(rate, 800) == pytest.approx(200)
    with pytest.raises(ValueError):
        exponential_rate(800, 500)


@pytest.mark.parametrize(
    "spec",
    ["uniform:2200:1400", "uniform:1400", "normal:1800:-5", "exp:1400:2200:2300", "gauss:1:2",
     "uniform:a:b", "uniform:nan:5"],
)
def test_bad_strength_specs_say_why(spec):
    with pytest.raises(ValueError, match="strength"):
        parse_strengths(spec)


def test_elo_noise_follows_the_paper():
    rng = np.random.default_rng(4)
    for strength, sd in ((1400.0, 80.0), (2200.0, 40.0)):
        elo = draw_elo(rng, np.full(20000, strength))
        assert elo.dtype.kind == "i"
        assert elo.mean() == pytest.approx(strength, abs=2)
        assert elo.std() == pytest.approx(sd, rel=0.03)


def test_seeding_order_sorts_by_elo_and_breaks_ties_by_a_lot_drawn_once():
    elo = np.array([1500, 1700, 1600, 1700, 1500])
    orders = {tuple(seeding_order(np.random.default_rng(s), elo)) for s in range(40)}
    for order in orders:
        ratings = [elo[i] for i in order]
        assert ratings == sorted(ratings, reverse=True)
    assert len(orders) == 4  # both tied pairs come out in both orders
