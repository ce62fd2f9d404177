"""Under ``--policy forbid`` the colour bound (``--beta``) is absolute (issue 11, item 14).

Four players; rounds 1 and 2 gave players 1 and 3 white twice and 2 and 4 black twice, so the
only pairs left without a rematch (1-3 and 2-4) both add up to a colour difference of 4, at
the default bound beta = 2 (|cd_i + cd_j| must stay below 2*beta). ``avoid`` may break the
bound when nothing else works; ``forbid`` must not pair the round at all.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cli.main import EXIT_NO_PAIRING, EXIT_OK, main
from swiss.model import Color, Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.state import player_states
from swiss.trf import write_trf


def cornered() -> Tournament:
    return Tournament(
        players=tuple(Player(id=i, name=f"P{i}", rating=2000 - i) for i in range(1, 5)),
        rounds=(
            Round(1, (Game(1, 2, Result.DRAW, 1), Game(3, 4, Result.DRAW, 2))),
            Round(2, (Game(1, 4, Result.DRAW, 1), Game(3, 2, Result.DRAW, 2))),
        ),
        total_rounds=3,
        initial_color=Color.WHITE,
    )


def test_forbid_refuses_a_round_that_breaks_the_colour_bound() -> None:
    tournament = cornered()
    assert {p: s.color_diff for p, s in player_states(tournament).items()} == {
        1: 2, 2: -2, 3: 2, 4: -2}
    avoided = pair_round(tournament, PairingConfig(system="dutch", policy="avoid"))
    assert {frozenset(g.players) for g in avoided.games} == {frozenset({1, 3}),
                                                             frozenset({2, 4})}
    with pytest.raises(PairingError, match="colour bound is absolute under policy 'forbid'"):
        pair_round(tournament, PairingConfig(system="dutch", policy="forbid"))
    # A wider bound pairs the same round under forbid.
    wide = pair_round(tournament, PairingConfig(system="dutch", policy="forbid",
                                                beta=Fraction(5, 2)))
    assert len(wide.games) == 2


def test_forbid_names_rematches_when_they_are_the_reason() -> None:
    two = Tournament(
        players=(Player(id=1, name="A"), Player(id=2, name="B")),
        rounds=(Round(1, (Game(1, 2, Result.DRAW, 1),)),),
        total_rounds=2,
    )
    with pytest.raises(PairingError, match="rematches and second byes are forbidden"):
        pair_round(two, PairingConfig(system="dutch", policy="forbid"))


@pytest.mark.parametrize("system", ["dutch", "burstein", "monrad", "random", "random2"])
def test_pair_forbid_exits_1_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             system: str) -> None:
    path = tmp_path / "cornered.trf"
    path.write_text(write_trf(cornered()), encoding="utf-8")
    assert main(["pair", "--system", system, str(path)]) == EXIT_OK
    capsys.readouterr()
    code = main(["pair", "--system", system, "--policy", "forbid", str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (EXIT_NO_PAIRING, "")
    assert err.startswith("swissbot pair: no valid pairing: ")
    assert err.lower().count("no valid pairing") == 1, err  # one prefix, not two
    assert "colour bound is absolute under policy 'forbid' (beta 2" in err
    assert main(["pair", "--system", system, "--policy", "forbid", "--beta", "2.5",
                 str(path)]) == EXIT_OK
