"""A pairing cut short by a stop or a crash of the bot: its organiser is told what happened.

The run keeps the command's reply (application id and token, never shown) while it runs; a
restarted bot hands each interrupted run to the bot's ``tell`` (which edits the command's
answer) and the channel is told only when that was not possible. A stop of the bot interrupts
the worker pairings so that their commands answer before it goes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
from datetime import timedelta
from pathlib import Path

import pytest

from service import TournamentService
from service.errors import PairingFailedError
from service.views import DeferredReply, InterruptedPairing
from storage import pairing_runs as run_repo
from tests.pairing_jobs import endless_pairing
from tests.service.test_pairing_runs import (
    ORG,
    _finish_round,
    _marker,
    _running,
    _wait_for_marker,
    pooled,
)
from tests.service_helpers import GUILD

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

SECRET = "interaction-token-secret"
TEXT = ("Pairing round 2 of 'Cup 1000' was interrupted by a restart of the bot; nothing was "
        "changed: run /round next again.")


def _reply(service: TournamentService, minutes: float = 15) -> DeferredReply:
    return DeferredReply(application_id=77, token=SECRET,
                         until=service.now() + timedelta(minutes=minutes))


async def _left_behind(service: TournamentService, tid: int, reply: DeferredReply | None
                       ) -> None:
    """The marker a bot of this host killed mid-pairing leaves (its pid is not running)."""
    now = service.now()
    async with service.db.transaction() as conn:
        assert await run_repo.claim_run(
            conn, tournament_id=tid, round_number=2, players=8, token="dead",
            owner=f"{socket.gethostname()}:{os.getpid()}", now=now,
            expires_at=now + timedelta(minutes=5),
            reply=None if reply is None else (reply.application_id, reply.token, reply.until))


@pytest.mark.slow
async def test_a_told_organiser_gets_no_channel_post_and_the_token_goes_with_the_run(
    tmp_path: Path,
) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _finish_round(service)
        await _left_behind(service, tid, _reply(service))
        marker = await _marker(service, tid)
        assert marker is not None and marker.reply_token == SECRET
        assert SECRET not in repr(marker)  # a repr (a log line, a traceback) never shows it
        before = len(await service.announcements(tid))
        told: list[InterruptedPairing] = []

        async def tell(run: InterruptedPairing) -> bool:
            told.append(run)
            return True

        assert await service.recover_pairings(tell) == [tid]
        (run,) = told
        assert (run.round_number, run.text) == (2, TEXT)
        assert run.reply == _reply(service) and SECRET not in repr(run)
        assert await _marker(service, tid) is None  # and the token with it
        assert len(await service.announcements(tid)) == before  # the command was answered
        assert (await service.pair_next_round(ORG)).number == 2


@pytest.mark.parametrize("reply", ["refused", "none"])
async def test_the_channel_is_told_when_the_command_cannot_be(
    tmp_path: Path, reply: str
) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _finish_round(service)
        await _left_behind(service, tid, _reply(service) if reply == "refused" else None)
        asked: list[int] = []

        async def tell(run: InterruptedPairing) -> bool:
            asked.append(run.tournament_id)
            return False  # the token expired, or Discord refused it

        assert await service.recover_pairings(tell) == [tid]
        assert asked == ([tid] if reply == "refused" else [])  # no command: nothing to ask
        failed = (await service.announcements(tid))[-1]
        assert failed.kind == "pairing_failed" and "replaces" not in failed.payload
        assert failed.payload["error"] == TEXT


async def test_a_run_ended_meanwhile_is_not_ended_twice(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _left_behind(service, tid, None)
        (run,) = await service.interrupted_pairings()
        assert await service.end_interrupted_pairing(run, told=False)
        before = len(await service.announcements(tid))
        assert not await service.end_interrupted_pairing(run, told=False)  # another process's
        assert len(await service.announcements(tid)) == before


async def test_a_reply_that_expired_is_not_kept(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", job=endless_pairing) as service:
        tid = await _running(service)
        await _finish_round(service)
        actor = dataclasses.replace(ORG, reply=_reply(service, minutes=0))
        pairing = asyncio.create_task(service.pair_next_round(actor))
        marker = await _wait_for_marker(service, tid)
        assert (marker.reply_application_id, marker.reply_token) == (None, None)
        service.pairing.interrupt()
        with pytest.raises(PairingFailedError):
            await pairing


async def test_a_stop_interrupts_a_worker_pairing_and_its_command_says_so(
    tmp_path: Path,
) -> None:
    async with pooled(tmp_path / "t.sqlite3", job=endless_pairing) as service:
        tid = await _running(service)
        await _finish_round(service)
        actor = dataclasses.replace(ORG, reply=_reply(service))
        pairing = asyncio.create_task(service.pair_next_round(actor))
        marker = await _wait_for_marker(service, tid)
        assert marker.reply_token == SECRET
        assert service.pairing.interrupt() == 1
        with pytest.raises(PairingFailedError) as refused:
            await asyncio.wait_for(pairing, 10)
        assert refused.value.message == TEXT
        assert await _marker(service, tid) is None
        # the stopping pool starts no other worker pairing: it refuses at once
        with pytest.raises(PairingFailedError, match="interrupted by a restart"):
            await service.pair_next_round(ORG)
        service.pairing.close()  # as new: the next start pairs again
        assert (await service.pairings(GUILD)).number == 1
