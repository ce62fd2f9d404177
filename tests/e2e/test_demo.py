"""``swissbot demo``: a whole tournament in the sandbox, printed as it happens."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from cli.demo_bot import DemoBot
from cli.demo_tournament import run_demo
from cli.main import main
from sandbox import FakeDiscord
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


@pytest.mark.slow
def test_demo_on_lichess_links_makes_the_games_there_and_reads_every_result(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``swissbot demo --lichess``: the members link by profile code, the games are made on
    the fake Lichess with their links posted, and the results are read from it: nobody
    reports one."""
    monkeypatch.setattr("bot.logs.configure_logging", lambda *a, **k: None)  # keep pytest's
    assert main(["demo", "--lichess", "--players", "6", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "/lichess verify" in out and "/lichess event" in out
    assert out.count("your games on Lichess") == 2
    assert "?color=white" in out and "?color=black" in out
    assert "/report result" not in out  # every result came from Lichess
    assert "Final standings" in out and "played on Lichess → results read" in out


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
        assert f"swissbot demo · 4 players · 1 round · {system}" in out
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


#: The bot's heartbeat may come this much after its interval in the big demo. discord.py
#: warns ("Can't keep up") at 10 s; a loop kept busy by the bot's own work shows seconds.
MAX_HEARTBEAT_LAG = 5.0


@pytest.mark.slow
async def test_a_big_demo_keeps_the_bots_heartbeat_and_logs_nothing_wrong() -> None:
    """1,000 members play three rounds against the bot in its own process: every step is
    answered, the bot's log has no error, traceback or gateway warning (its shutdown
    included, after SIGTERM: exit 0), and its heartbeat stays on time."""
    out = io.StringIO()
    result = await run_demo(players=1000, rounds=3, system="burstein", seed=2, out=out)
    print(out.getvalue())
    print(f"heartbeat at most {result.heartbeat_lag:.2f} s late; {result.seconds:.1f} s")
    assert result.failure is None
    assert result.errors == []
    assert result.exit_code == 0
    assert 0 <= result.heartbeat_lag < MAX_HEARTBEAT_LAG


async def test_the_demos_bot_stops_when_the_demo_goes(tmp_path: Path) -> None:
    """A demo killed before its clean-up leaves no bot behind: the bot watches the pipe the
    demo holds, and stops as on SIGTERM (exit 0, nothing wrong in its log) when it closes."""
    async with FakeDiscord(heartbeat_interval_ms=1000) as fake:
        guild = fake.add_guild("Watch Club", players=0)
        bot = DemoBot(fake, guild.id, tmp_path / "demo.sqlite3", tmp_path / "bot.log")
        await bot.start()
        try:
            assert bot.process is not None and bot.process.stdin is not None
            bot.process.stdin.close()  # what the system does when the demo process dies
            assert await asyncio.wait_for(bot.process.wait(), 30) == 0
            assert bot.problems() == []
        finally:
            await bot.stop()  # a no-op when it stopped by itself
