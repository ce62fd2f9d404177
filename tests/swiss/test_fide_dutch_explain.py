"""``--explain`` for fide-dutch: per board, the criteria that decided it
(swiss.pairing.fide_dutch.explain), on small rounds checked by hand against C.04.3."""

from __future__ import annotations

from pathlib import Path

import pytest

from swiss.model import Bye, ByeKind, Color, Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.fide_dutch.explain import COLOUR_RULES, explain_fide_dutch
from swiss.trf import parse_trf
from tests.paths import FIXTURES

FIDE = PairingConfig(system="fide-dutch")


def _players(n: int) -> tuple[Player, ...]:
    return tuple(Player(id=i, name=f"P{i}", rating=2100 - 10 * i) for i in range(1, n + 1))


def _components(result, white: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    exp = result.explanation_for(white)
    assert exp is not None
    return dict(exp.components)


def test_round_one_top_half_meets_bottom_half_colours_by_board() -> None:
    # Five players: S1 = {1, 2} meets S2 = {3, 4}; the lowest (5) gets the PAB. Nobody has
    # a colour preference, so E.5: the initial colour (white) on board 1, black on board 2.
    t = Tournament(players=_players(5), total_rounds=3, initial_color=Color.WHITE)
    result = pair_round(t, FIDE)
    assert [(g.white, g.black) for g in result.games] == [(1, 3), (4, 2)]
    assert result.pairing_bye == 5
    first = _components(result, 1)
    assert (first["score difference x2"], first["rank higher"], first["rank lower"]) == (0, 1, 3)
    assert first["colour rule"] == 5 and first["preference not met"] == 0
    assert _components(result, 4)["rank higher"] == 2
    bye = _components(result, 5)
    # the lowest-ranked player, nobody eligible below him, nobody excluded by C2
    assert bye == {"bye score x2": 0, "eligible below": 0, "ineligible": 0,
                   "unplayed rounds": 0, "rank": 5}


def test_a_rematch_and_colour_preferences_decide_the_second_round() -> None:
    # Round 1: 1-3 and 4-2 drawn: all four on 1/2. The natural S1/S2 pairing 1-3 is a
    # rematch (C1); of the pairings left, 1-2 / 3-4 grants every colour preference (1 and 4
    # had white, 2 and 3 black), 1-4 / 2-3 none of two: colour preferences (C10) decide.
    r1 = Round(1, (Game(1, 3, Result.DRAW, board=1), Game(4, 2, Result.DRAW, board=2)))
    t = Tournament(players=_players(4), rounds=(r1,), total_rounds=3)
    result = pair_round(t, FIDE)
    assert {(g.white, g.black) for g in result.games} == {(2, 1), (3, 4)}
    top = _components(result, 2)
    assert top["excluded: met"] == 2  # 1 met 3 and 2 met 4, all in the same score group
    assert top["colour rule"] == 1 and top["preference not met"] == 0
    assert top["score difference x2"] == 0


def test_a_downfloat_and_its_repetition_are_shown() -> None:
    # Round 1: 1 beats 3, 2 beats 4 (5 has the PAB). Round 2: 1 and 2 on 1 point with 5 (PAB:
    # a downfloat), 3 and 4 on 0. Three on 1 point: one floats down.
    r1 = Round(1, (Game(1, 3, Result.WHITE_WINS, board=1),
                   Game(4, 2, Result.BLACK_WINS, board=2)),
               (Bye(5, ByeKind.PAIRING),))
    t = Tournament(players=_players(5), rounds=(r1,), total_rounds=3)
    result = pair_round(t, FIDE)
    explained = {(e.white, e.black): dict(e.components) for e in result.explanations}
    floats = [(pair, c) for pair, c in explained.items()
              if pair[1] is not None and c["score difference x2"] == 2]
    assert len(floats) == 1  # exactly one pair across the score groups, a point apart
    (pair, comps), = floats
    if 5 in pair:  # 5 floated down in round 1 (the PAB): floating again repeats it
        assert comps["repeated downfloat"] == 1
    else:
        assert comps["repeated downfloat"] == 0
    assert result.pairing_bye is not None and result.pairing_bye != 5  # no second PAB (C2)
    bye = dict(result.explanation_for(result.pairing_bye).components)  # type: ignore[union-attr]
    assert bye["ineligible"] == 1  # 5, who had the PAB


def _corpus_cases(limit: int) -> list[Path]:
    files = sorted((FIXTURES / "dutch-2025").glob("t*/round-*.trf"))
    return files[:: max(1, len(files) // limit)][:limit]


@pytest.mark.parametrize("path", _corpus_cases(40), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_explanations_agree_with_the_colours_the_engine_gave(path: Path) -> None:
    """On corpus rounds: one explanation per board and PAB; the colour rule named agrees
    with the preferences met (E.1/E.5 meet every preference, E.2-E.4 decide between two
    equal preferences, so exactly one is not met)."""
    t = parse_trf(path.read_text(encoding="utf-8")).tournament
    result = pair_round(t, FIDE)
    assert len(result.explanations) == len(result.games) + (result.pairing_bye is not None)
    assert explain_fide_dutch(t, result, "2025") == result.explanations
    for exp in result.explanations:
        comps = dict(exp.components)
        if exp.black is None:
            continue
        assert comps["colour rule"] in COLOUR_RULES
        expected_missed = 0 if comps["colour rule"] in (1, 5) else 1
        assert comps["preference not met"] == expected_missed, exp.describe()
        assert comps["absolute preference not met"] <= comps["strong preference not met"]
        assert comps["strong preference not met"] <= comps["preference not met"]


def test_a_pair_kept_apart_is_counted_as_excluded() -> None:
    # Round 1, four players, 1 and 3 kept apart: 1-3 (the natural S1/S2 pair) is excluded,
    # so 1 and 3 each have one excluded opponent in their (common) score group.
    t = Tournament(players=_players(4), total_rounds=3,
                   forbidden_pairs=frozenset({frozenset({1, 3})}))
    result = pair_round(t, FIDE)
    pairs = {frozenset((g.white, g.black)) for g in result.games}
    assert frozenset({1, 3}) not in pairs
    for exp in result.explanations:
        comps = dict(exp.components)
        assert comps["excluded: forbidden"] == 1  # 1 on one board, 3 on the other
        assert comps["excluded: met"] == comps["excluded: colour"] == 0
