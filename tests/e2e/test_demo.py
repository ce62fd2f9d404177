"""``swissbot demo``: a whole tournament in the sandbox, printed as it happens."""

from __future__ import annotations

import io

import pytest

from cli.demo_tournament import run_demo
from cli.main import main


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
    assert "Final standings" in out and out.rstrip().endswith("requests to the sandbox).")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "1"], "--players must be between 2 and 5000"),
        (["--rounds", "0"], "--rounds must be between 1 and 20"),
        (["--system", "swiss"], "--system must be one of"),
        (["--players", "4", "--rounds", "4"], "--rounds must be smaller than --players"),
    ],
)
def test_demo_rejects_bad_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", *argv]) == 3
    assert message in capsys.readouterr().err
