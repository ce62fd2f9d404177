"""The same /report twice: the second gives the reporter the prompt again (the first answer
may never have arrived), changes nothing and queues nothing; a different one is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import AlreadyReportedError
from storage import journal
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL


async def test_the_same_report_again_is_the_prompt_again(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(organiser(), "Again", 3)
        for uid in (101, 102, 103, 104):
            await service.join(member(uid))
        view = await service.start_tournament(organiser())
        game = view.games[0]
        reporter = member(game.white.user_id)
        first = await service.report_result(reporter, "win")
        await service.set_dm(member(game.black.user_id), True)
        async with service.db.transaction(readonly=True) as conn:
            before = (len(await journal.list_outbox(conn)),
                      len(await journal.list_audit(conn, view.tournament_id)))
        again = await service.report_result(reporter, "win")
        assert again.status == first.status == "awaiting_confirmation"
        assert again.game.id == game.id and again.opponent.user_id == game.black.user_id
        async with service.db.transaction(readonly=True) as conn:
            after = (len(await journal.list_outbox(conn)),
                     len(await journal.list_audit(conn, view.tournament_id)))
        assert after == before  # no second DM, no second audit entry
        with pytest.raises(AlreadyReportedError, match="You already reported 1-0"):
            await service.report_result(reporter, "draw")
        done = await service.confirm_result(member(game.black.user_id), game.id)
        assert done.game.state == "final" and done.game.result == "1-0"
        assert (await service.get_game(GUILD, game.id)).state == "final"
