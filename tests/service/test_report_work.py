"""A report, a confirmation and the list of settled prompts read the game and its two
players, not the whole field: every report of a big event used to read every player and every
game of the round (thousands of rows, for each of thousands of games), which made a
2,000-player round take minutes of the bot's time. Counted in rows read, not timed."""

from __future__ import annotations

from pathlib import Path

import pytest

import storage.players
import storage.rounds
from tests.service_helpers import GUILD, member, open_service, organiser

ORG = organiser(user_id=7)


async def _rows_read_by_a_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 players: int) -> int:
    async with open_service(tmp_path / f"field-{players}.sqlite3") as service:
        await service.create_tournament(ORG, "Field Cup", 2, seed=5)
        for uid in range(101, 101 + players):
            await service.join(member(uid))
        view = await service.start_tournament(ORG)
        first, second = view.games[:2]
        # the first game's prompt is remembered (posted), then settled by its opponent
        await service.report_result(member(first.white.user_id), "win")
        await service.remember_prompt(GUILD, first.id, channel_id=1, message_id=2)

        read = 0

        def counting(module, name):  # type: ignore[no-untyped-def]
            convert = getattr(module, name)

            def counted(row):  # type: ignore[no-untyped-def]
                nonlocal read
                read += 1
                return convert(row)

            monkeypatch.setattr(module, name, counted)

        with monkeypatch.context():
            counting(storage.players, "_player")
            counting(storage.rounds, "_game")
            await service.confirm_result(member(first.black.user_id), first.id)
            await service.report_result(member(second.white.user_id), "draw")
            await service.set_result(ORG, 1, view.games[2].white.user_id, "win")
            prompts = await service.settled_prompts(GUILD)
        assert [p.game_id for p in prompts] == [first.id]
        assert prompts[0].game is not None and prompts[0].game.result == "1-0"
        return read


async def test_a_report_reads_the_same_rows_in_a_small_and_a_big_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = await _rows_read_by_a_report(tmp_path, monkeypatch, 10)
    big = await _rows_read_by_a_report(tmp_path, monkeypatch, 200)
    assert small == big
    assert big < 40  # a handful of rows per step, whatever the size of the field
