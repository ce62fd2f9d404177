"""Simulated team events (``swissbot simulate --teams``): the measures answer to strength,
every format faces the same fields, the command line prints its table and refuses bad input."""

from __future__ import annotations

import numpy as np
import pytest

from cli.main import main
from swiss.sim.outcomes import EloLogistic
from swiss.sim.strengths import parse_strengths
from swiss.sim.teams import (
    ESPORTS_FORMAT,
    TeamSimulationConfig,
    draw_field,
    event_rng,
    fide_team_formats,
    simulate_teams,
)


def config(spread: str, teams: int = 12) -> TeamSimulationConfig:
    return TeamSimulationConfig(teams=teams, boards=2, rounds=min(5, teams - 1),
                                strengths=parse_strengths(spread), model=EloLogistic(),
                                player_sd=0.0, rating_sd=0.0, board_step=0.0)


def mean(values: list[float]) -> float:
    return float(np.mean(values))


def test_the_ranking_follows_true_strength_only_when_strengths_differ() -> None:
    formats = fide_team_formats(("type-a",), ("mp",))
    wide = simulate_teams(config("uniform:0:6000"), formats, 6)["type-a MP first"]
    flat = simulate_teams(config("uniform:2000:2001"), formats, 6)["type-a MP first"]
    assert mean([m.kendall_tau for m in wide]) > 0.85
    assert abs(mean([m.kendall_tau for m in flat])) < 0.35
    assert mean([m.winner_is_strongest for m in wide]) > mean([m.winner_is_strongest
                                                               for m in flat])


def test_esports_advances_the_true_top_half_when_it_is_much_stronger() -> None:
    wide = simulate_teams(config("uniform:0:8000", teams=16), [ESPORTS_FORMAT], 8)
    flat = simulate_teams(config("uniform:2000:2001", teams=16), [ESPORTS_FORMAT], 8)
    assert mean([m.top_half_advanced for m in wide["esports-swiss"]]) > 0.9
    assert 0.2 < mean([m.top_half_advanced for m in flat["esports-swiss"]]) < 0.8
    assert all(np.isnan(m.kendall_tau) for m in wide["esports-swiss"])


@pytest.mark.parametrize("teams", [2, 3, 5])
def test_a_small_stage_plays_to_its_end(teams: int) -> None:
    # The stage ends when every team has its wins or losses, however few teams there are:
    # with a huge gap the stronger half always goes through.
    results = simulate_teams(config("uniform:0:40000", teams=teams), [ESPORTS_FORMAT], 4)
    assert [m.top_half_advanced for m in results["esports-swiss"]] == [1.0] * 4


def test_every_format_faces_the_same_field_and_a_seed_repeats() -> None:
    settings = TeamSimulationConfig(teams=10, boards=4, rounds=4, seed=5)
    first = draw_field(settings, event_rng(settings, 3))
    again = draw_field(settings, event_rng(settings, 3))
    other = draw_field(settings, event_rng(settings, 4))
    assert np.array_equal(first.players, again.players)
    assert not np.array_equal(first.players, other.players)
    # numbered by rating: with no rating noise TPN 1 has the best line-up on average
    exact = TeamSimulationConfig(teams=10, boards=4, rounds=4, rating_sd=0.0, player_sd=0.0)
    drawn = draw_field(exact, event_rng(exact, 0))
    assert drawn.true_order[0] == 1
    assert all(np.diff(drawn.players[0]) <= 0)  # board 1 strongest
    formats = fide_team_formats(("type-b",), ("gp",))
    assert simulate_teams(settings, formats, 3) == simulate_teams(settings, formats, 3)


def test_invalid_settings_say_which() -> None:
    with pytest.raises(ValueError, match="rounds must be between 1 and teams - 1"):
        TeamSimulationConfig(teams=4, rounds=4)


BASE = ["simulate", "--teams", "8", "--boards", "2", "--rounds", "3", "--tournaments", "3"]


def test_the_command_prints_one_row_per_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*BASE, "--system", "fide-team,esports-swiss"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# 3 events per format, 8 teams of 2 boards, 3 rounds")
    assert "Kendall tau" in lines[1] and "true top half advanced" in lines[1]
    labels = [line.split("  ")[0].strip() for line in lines[2:]]
    assert labels == ["type-a MP first", "type-a GP first", "type-b MP first",
                      "type-b GP first", "none MP first", "none GP first", "esports-swiss"]
    assert "±" in lines[2] and lines[-1].split()[1] == "-"


def test_the_same_seed_gives_the_same_table_for_any_jobs(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*BASE, "--jobs", "1", "--markdown"]) == 0
    one = capsys.readouterr().out
    assert main([*BASE, "--jobs", "2", "--markdown"]) == 0
    assert capsys.readouterr().out == one
    assert one.splitlines()[1].startswith("| format |")


@pytest.mark.parametrize("extra, message", [
    (["--system", "swiss-chess"], "unknown team system swiss-chess"),
    (["--rounds", "8"], "--rounds must be between 1 and teams - 1 = 7"),
    (["--strengths", "uniform:3:1"], "strength"),
    (["--out", "somewhere"], "--out does not apply to team events"),
])
def test_bad_options_exit_3_with_the_reason(capsys: pytest.CaptureFixture[str],
                                            extra: list[str], message: str) -> None:
    assert main([*BASE, *extra]) == 3
    assert message in capsys.readouterr().err
