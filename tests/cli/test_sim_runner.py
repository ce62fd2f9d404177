"""Simulated tournaments: measures recomputed by hand, determinism, the external engine."""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest

from cli.simulation.experiment import (
    ExternalEngineError,
    ExternalPairer,
    SystemSpec,
    parse_pairs,
    run_experiment,
    summarize,
)
from swiss.model import Color, Result
from swiss.sim.measures import kendall_tau
from swiss.sim.runner import SimulationConfig, make_players, play_tournament
from swiss.state import player_states

SMALL = SimulationConfig(players=6, rounds=3, tiebreaks="none", seed=11)


def _lexicographic_best_gap(tournament, strength, beta=Fraction(2)):
    """Brute force over every pairing of the next round: the paper's maximum strength gap."""
    states = player_states(tournament)
    ids = [p.id for p in tournament.players]

    def matchings(rest):
        if not rest:
            yield []
            return
        a = rest[0]
        for b in rest[1:]:
            if states[a].times_met(b):
                continue
            left = [x for x in rest if x not in (a, b)]
            for m in matchings(left):
                yield [(a, b), *m]

    def key(m):
        bound = sum(abs(states[a].color_diff + states[b].color_diff) >= 2 * beta for a, b in m)
        score = sum(abs(states[a].score - states[b].score) for a, b in m)
        colour = sum(abs(states[a].color_diff + states[b].color_diff) for a, b in m)
        gap = sum(abs(strength[a] - strength[b]) for a, b in m)
        return (-bound, -score, -colour, gap)

    return key(max(matchings(ids), key=key))[3]


@pytest.mark.parametrize("system", ["dutch", "burstein", "monrad", "random", "random2"])
def test_measures_of_a_tiny_tournament_recomputed_by_hand(system):
    sim = play_tournament(SMALL, system, 3)
    t, strength, m = sim.tournament, sim.strengths, sim.measures
    assert len(t.rounds) == 3 and all(len(r.games) == 3 for r in t.rounds)

    floats = games = paradox = draws = 0
    gap_total = max_total = 0.0
    acd = []
    for r in range(3):
        before = player_states(t, r)
        max_total += _lexicographic_best_gap(t.without_last_round() if r == 2 else
                                             _first_rounds(t, r), strength)
        for g in t.rounds[r].games:
            games += 1
            gap_total += abs(strength[g.white] - strength[g.black])
            floats += before[g.white].score != before[g.black].score
            draws += g.result is Result.DRAW
            winner = {Result.WHITE_WINS: g.white, Result.BLACK_WINS: g.black}.get(g.result)
            if winner is not None:
                loser = g.opponent_of(winner)
                paradox += strength[winner] < strength[loser]
        after = player_states(t, r + 1)
        acd.append(sum(abs(st.color_diff) for st in after.values()))

    assert m.games == games == 9
    assert m.float_pairs == floats == sum(m.floats)
    assert len(m.floats) == 3 and m.floats[0] == 0  # nobody floats in round 1
    assert m.draws == draws
    assert m.acd == tuple(acd)
    assert m.acd[0] == 6 and m.acd[2] >= 6  # every odd round leaves |cd| >= 1 for everyone
    assert m.mean_strength_diff == pytest.approx(gap_total / games)
    assert m.paradoxical_share == pytest.approx(paradox / games)
    assert m.strength_diff_ratio == pytest.approx(gap_total / max_total)
    assert m.strength_diff_ratio <= 1 + 1e-9

    # The final ranking is by points (then lot here), and the measures compare it with truth.
    points = player_states(t)
    ranked_points = [points[pid].score for pid in sim.ranking]
    assert ranked_points == sorted(ranked_points, reverse=True)
    truth = sorted(strength, key=lambda pid: -strength[pid])
    assert m.kendall_tau == pytest.approx(kendall_tau(list(sim.ranking), truth))
    assert m.winner_is_strongest == (sim.ranking[0] == truth[0])


def _first_rounds(t, r):
    from dataclasses import replace

    return replace(t, rounds=t.rounds[:r])


def test_players_are_seeded_by_elo_and_shared_by_every_system():
    players, strength = make_players(SimulationConfig(), 7)
    ratings = [p.rating for p in players]
    assert ratings == sorted(ratings, reverse=True)
    assert [p.id for p in players] == list(range(1, 33))
    assert all(1400 <= s <= 2200 for s in strength.values())
    a = play_tournament(SMALL, "dutch", 0)
    b = play_tournament(SMALL, "monrad", 0)
    assert a.strengths == b.strengths
    assert a.tournament.players == b.tournament.players


def test_same_seed_same_tournament_other_seed_other_tournament():
    a = play_tournament(SMALL, "random", 5)
    b = play_tournament(SMALL, "random", 5)
    c = play_tournament(SimulationConfig(players=6, rounds=3, tiebreaks="none", seed=12),
                        "random", 5)
    assert a.tournament == b.tournament and a.measures == b.measures
    assert a.strengths != c.strengths


def test_results_do_not_depend_on_the_number_of_jobs():
    config = SimulationConfig(players=8, rounds=4, seed=3)  # with the FIDE tiebreaks
    specs = [SystemSpec("dutch"), SystemSpec("random2")]
    one = run_experiment(config, specs, 23, jobs=1)
    two = run_experiment(config, specs, 23, jobs=2)
    assert one == two
    assert [m.index for m in one["dutch"]] == list(range(23))
    assert summarize(one) == summarize(two)


def test_progress_is_reported_up_to_the_total():
    seen = []
    run_experiment(SMALL, [SystemSpec("burstein")], 5, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)


def test_beta_point_one_keeps_every_colour_difference_within_one():
    # The appendix: beta in (0, 0.5] means acd = 0 after even rounds and n after odd ones, and
    # nobody gets the same colour three times in a row.
    config = SimulationConfig(players=10, rounds=5, beta=Fraction(1, 10), tiebreaks="none")
    for index in range(3):
        sim = play_tournament(config, "dutch", index)
        assert sim.measures.acd == (10, 0, 10, 0, 10)
        for st in player_states(sim.tournament).values():
            assert Color.NONE not in st.colors
            assert all(not (a is b is c) for a, b, c in zip(st.colors, st.colors[1:],
                                                             st.colors[2:], strict=False))


# -- the external engine --------------------------------------------------------------------
def test_external_engine_through_swissbot_pair_matches_our_engine():
    config = SimulationConfig(players=8, rounds=3, tiebreaks="none", seed=2)
    # As bbpPairings is called: the pairs go to the file {out}.
    command = f"{sys.executable} -m cli pair {{trf}} --system dutch -o {{out}}"
    external = play_tournament(config, "dutch", 0, ExternalPairer(command))
    internal = play_tournament(config, "dutch", 0)
    assert external.tournament.rounds == internal.tournament.rounds
    assert external.measures == internal.measures


def test_external_engine_errors_are_clear():
    config = SimulationConfig(players=4, rounds=2, tiebreaks="none")
    with pytest.raises(ExternalEngineError, match="not found"):
        play_tournament(config, "x", 0, ExternalPairer("no-such-engine-here {trf}"))
    failing = f"{sys.executable} -c 'import sys; sys.exit(\"boom\")' {{trf}}"
    with pytest.raises(ExternalEngineError, match=r"exited with code 1.*boom"):
        play_tournament(config, "x", 0, ExternalPairer(failing))
    silent = f"{sys.executable} -c pass {{trf}} {{out}}"
    with pytest.raises(ExternalEngineError, match="no pairs file"):
        play_tournament(config, "x", 0, ExternalPairer(silent))
    with pytest.raises(ValueError, match=r"\{trf\}"):
        ExternalPairer("bbpPairings --dutch")


def test_parse_pairs_reads_the_bbp_format_and_rejects_garbage():
    t = play_tournament(SimulationConfig(players=4, rounds=1, tiebreaks="none"), "dutch", 0)
    empty = _first_rounds(t.tournament, 0)
    rnd = parse_pairs("2\n1 3\n4 2\n", empty)
    assert [(g.white, g.black) for g in rnd.games] == [(1, 3), (4, 2)]
    assert rnd.number == 1 and rnd.byes == ()
    for bad, why in (("", "pair count"), ("3\n1 2\n3 4\n", "announced 3"),
                     ("2\n1 2\n2 3\n", "repeated player 2"), ("2\n1 2\n3 x\n", "bad pair line"),
                     ("2\n1 2\n3 9\n", "unknown")):
        with pytest.raises(ExternalEngineError, match=why):
            parse_pairs(bad, empty)


@pytest.mark.parametrize("system", ["dutch", "burstein", "monrad", "random", "random2"])
def test_the_papers_literal_weights_play_valid_tournaments(system):
    config = SimulationConfig(players=12, rounds=5, tiebreaks="none", weights="paper", seed=4)
    sim = play_tournament(config, system, 0)
    states = player_states(sim.tournament)
    assert all(max(st.opponents.values()) == 1 for st in states.values())  # no rematch
    assert all(abs(st.color_diff) <= 2 for st in states.values())
    again = play_tournament(config, system, 0)
    assert again.measures == sim.measures
    with pytest.raises(ValueError, match="weights"):
        SimulationConfig(weights="exact")


def test_buchholz_shortcut_gives_the_standings_order():
    from swiss.sim.runner import _strict_buchholz_order
    from swiss.standings import compute_standings

    config = SimulationConfig(players=16, rounds=5, tiebreaks="none", seed=8)
    shortcut_used = 0
    for index in range(60):
        t = play_tournament(config, ("dutch", "random")[index % 2], index).tournament
        full = [row.player_id for row in compute_standings(t, "fide", final_key="lot").rows]
        strict = _strict_buchholz_order(t)
        if strict is not None:
            shortcut_used += 1
            assert strict == full
        fide = SimulationConfig(players=16, rounds=5, tiebreaks="fide", seed=8)
        from swiss.sim.runner import final_ranking

        assert final_ranking(t, fide, 0) == full
    assert shortcut_used >= 5  # the shortcut was really exercised
