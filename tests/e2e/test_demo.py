"""``swissbot demo``: a whole tournament in the sandbox, printed as it happens."""

from __future__ import annotations

import io

import pytest

from cli.demo_tournament import run_demo
from cli.main import main
from swiss.pairing.types import SYSTEMS


async def test_demo_plays_a_whole_tournament() -> None:
    out = io.StringIO()
    result = await run_demo(players=7, rounds=3, system="dutch", seed=3, out=out)
    text = out.getvalue()
    assert result.errors == []
    assert "/tournament create" in text and "/join rating:" in text
    for number in (1, 2, 3):
        assert f"Round {number} of 3 · pairings" in text
    assert "bye" in text  # seven players: someone sits out each round
    assert "clicks [Confirm]" in text and "clicks [Dispute]" in text
    assert "a result needs your decision" in text  # the dispute reached the organisers
    assert "Final standings" in text
    assert "<@" not in text  # mentions are shown as names
    assert result.seconds < 60


def test_demo_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.logs.configure_logging", lambda *a, **k: None)  # keep pytest's
    assert main(["demo", "--players", "4", "--rounds", "2", "--system", "monrad"]) == 0
    out = capsys.readouterr().out
    assert "Final standings" in out and "requests to the sandbox; the bot's heartbeat at " \
        "most" in out


async def test_a_refused_step_stops_the_demo_at_once_with_the_bots_answer() -> None:
    """A step the bot refuses (here a system name it does not know, as `fide-dutch` was once
    refused) ends the demo there, quoting the bot's answer, instead of waiting for a reply
    that never comes."""
    out = io.StringIO()
    result = await run_demo(players=4, rounds=2, system="swiss", seed=1, out=out)
    assert result.failure is not None
    assert result.failure.startswith("/tournament create was refused: ")
    assert "'swiss' is not a choice for `system`: choose one of dutch" in result.failure
    assert result.timings == []  # nobody joined: it stopped at the refused step
    assert result.errors == [] and result.exit_code == 0  # the bot itself is fine
    assert result.seconds < 60


@pytest.mark.slow
def test_the_demo_runs_every_system(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--system all`: one tournament with each system, by the names the bot offers."""
    monkeypatch.setattr("bot.logs.configure_logging", lambda *a, **k: None)
    assert main(["demo", "--players", "4", "--rounds", "1", "--system", "all"]) == 0
    out = capsys.readouterr().out
    for system in SYSTEMS:
        assert f"swissbot demo · 4 players · 1 rounds · {system}" in out
    assert out.count("Final standings") == len(SYSTEMS)


def test_the_demo_plays_the_fide_dutch_by_its_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.logs.configure_logging", lambda *a, **k: None)
    assert main(["demo", "--players", "5", "--rounds", "2", "--system", "fide-dutch",
                 "--rules", "2017"]) == 0
    out = capsys.readouterr().out
    assert "· fide-dutch (2017 rules) ·" in out and "Final standings" in out


def test_demo_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "4", "--rounds", "4"]) == 3
    assert "--rounds must be smaller than --players" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--system", "swiss"], "unknown pairing system 'swiss': choose one of dutch"),
        (["--system", "dutch", "--rules", "2017"], "applies to fide-dutch only"),
        (["--system", "all", "--rules", "2017"], "with --system all each system plays"),
    ],
)
def test_demo_refuses_a_system_it_does_not_know_before_starting(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", *argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.startswith("usage: swissbot demo ") and message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "1"], "argument --players: value 1 is out of range: it must be 2..5000"),
        (["--players", "١٢"], "'١' is not one of the ASCII digits 0-9"),
        (["--rounds", "0"], "argument --rounds: value 0 is out of range: it must be 1..20"),
        (["--seed", "١٢"], "argument --seed"),
        (["--seed", "99999999999999999999"], "it must be 0..9223372036854775807"),
        (["--players", "1_000"], "is not a whole number"),
    ],
)
def test_demo_numbers_are_ascii_and_bounded(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
