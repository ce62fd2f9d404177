"""``swissbot pair --system fide-team|esports-swiss``: team TRF files in, bbpPairings-style
pairs out; bad files refused with their line and column, exit code 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE, main
from swiss.teams.generate import EventSpec, play_round, write_trf
from swiss.teams.trf import rules_from_code


def spec(teams: int, boards: int = 2, code: str = "FIDE_TEAM_TYPEA_MP_GP") -> EventSpec:
    ratings = tuple(tuple(2500 - 10 * t - b for b in range(boards)) for t in range(teams))
    return EventSpec(1, teams, boards, 5, code, ratings)


def roster(team: int, *members: str) -> str:
    """A 013 record as the generator writes it."""
    return f"013 {f'Team {team}':<32}" + " ".join(f"{m:>4}" for m in members)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["pair", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_fide_team_round_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, write_trf(spec(9), []))
    assert run(capsys, "--system", "fide-team", path) == (
        EXIT_OK, "4\n1 5\n6 2\n3 7\n8 4\n9 0\n", "")


def test_fide_team_round_two_reads_the_boards(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    event = spec(8)
    first = play_round(event, 1, [(1, 5), (6, 2), (3, 7), (8, 4)], None)
    code, out, err = run(capsys, "--system", "fide-team", write(tmp_path,
                                                                write_trf(event, [first])))
    assert code == EXIT_OK and err == ""
    lines = out.splitlines()
    assert lines[0] == "4"
    met = {frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)), frozenset((4, 8))}
    assert not met & {frozenset(map(int, line.split())) for line in lines[1:]}


def test_esports_swiss_round_one_and_best_of(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, write_trf(spec(16, boards=1), []))
    code, out, _ = run(capsys, "--system", "esports-swiss", path)
    assert code == EXIT_OK
    assert out.splitlines()[:3] == ["8", "1 9 1", "2 10 1"]


def test_esports_swiss_wins_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, write_trf(spec(4, boards=1), []))
    code, out, _ = run(capsys, "--system", "esports-swiss", "--wins", "1", path)
    assert (code, out) == (EXIT_OK, "2\n1 3 3\n2 4 3\n")  # one win decides: best of three
    for bad in ("x", "0", "100"):
        with pytest.raises(SystemExit) as exit_:
            run(capsys, "--system", "esports-swiss", "--wins", bad, path)
        out, err = capsys.readouterr()
        assert (exit_.value.code, out) == (EXIT_USAGE, "") and "--wins" in err


@pytest.mark.parametrize("system", ["fide-team", "burstein", "fide-dutch"])
def test_wins_with_another_system_is_a_usage_error(system: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``--wins`` means something to the e-sports stage only: elsewhere it is refused, not
    ignored."""
    path = write(tmp_path, write_trf(spec(4, boards=1), []))
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "--system", system, "--wins", "2", path)
    out, err = capsys.readouterr()
    assert (exit_.value.code, out) == (EXIT_USAGE, "")
    assert "--wins applies to --system esports-swiss only" in err


def test_esports_swiss_refuses_a_drawn_match(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    event = spec(4, boards=2)
    drawn = play_round(event, 1, [(1, 3), (2, 4)], None)
    drawn = type(drawn)(drawn.pairs, None, (("1", "0"), ("1", "1")))
    code, _, err = run(capsys, "--system", "esports-swiss",
                       write(tmp_path, write_trf(event, [drawn])))
    assert code == EXIT_INVALID_INPUT and "drew" in err


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace(roster(2, "3", "4"), roster(2, "1", "4")),
     "player 1 is in two teams"),
    (lambda t: t.replace(roster(2, "3", "4"), roster(2, "3", "99")),
     "team member 99 has no player record"),
    (lambda t: t.replace("192 FIDE_TEAM_TYPEA_MP_GP", "192 FIDE_TEAM_TYPEC"),
     "line 4, column 5: 'FIDE_TEAM_TYPEC' is not a FIDE team Swiss type"),
    (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("013")),
     "no team records"),
    (lambda t: t.replace(roster(3, "5", "6"), roster(3, "5", "x6")),
     "team member 'x6' is not a starting rank"),
])
def test_bad_team_files_are_refused_with_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change, message: str) -> None:
    text = write_trf(spec(4), [])
    assert roster(2, "3", "4") in text and roster(3, "5", "6") in text
    code, out, err = run(capsys, "--system", "fide-team", write(tmp_path, change(text)))
    assert (code, out) == (EXIT_INVALID_INPUT, "")
    assert message in err
    assert "line" in err


def test_a_missing_file_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--system", "fide-team", "/nonexistent/event.trf")
    assert code == EXIT_INVALID_INPUT and "cannot read" in err


@pytest.mark.parametrize(("code", "model", "primary", "secondary"), [
    ("FIDE_TEAM", "type-a", "mp", True),
    ("FIDE_TEAM_BAKU", "type-a", "mp", True),
    ("FIDE_TEAM_TYPEB_GP_MP", "type-b", "gp", True),
    ("FIDE_TEAM_TYPEA_MP", "type-a", "mp", False),
    ("FIDE_TEAM_GP", "none", "gp", False),
    ("FIDE_TEAM_MP_GP_BAKU", "none", "mp", True),
])
def test_tournament_type_codes(code: str, model: str, primary: str, secondary: bool) -> None:
    found = rules_from_code(code)
    assert found is not None
    rules, _named = found
    assert (rules.colour_model, rules.primary, rules.use_secondary) == (model, primary,
                                                                        secondary)


@pytest.mark.parametrize("code", ["FIDE_DUTCH", "FIDE_TEAM_MP_MP", "FIDE_TEAM_XP"])
def test_other_codes_are_not_team_codes(code: str) -> None:
    assert rules_from_code(code) is None
