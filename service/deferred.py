"""Standings announced after the commit, off the event loop.

The standings a round's last result announces (``standings``, ``final_standings``), those of
``/tournament finish`` and those a corrected result carries (``result_corrected``) are, for
a big event, about a second of tiebreak arithmetic at 3,000 players. Computed inside the
operation's write transaction and in the event loop, they held the database and stalled
every guild for that second. For an event of ``SWISSBOT_PAIRING_INLINE_BELOW`` players or
more (the threshold of the pairing and of ``/standings``), instead:

1. The operation writes the announcement in its own transaction, with everything but the
   standings, and ``deferred`` = what to compute: the round (``after_round``), ``final``,
   whether the top cut's placings are shown, where the table goes in the payload, and the
   tournament's **revision** at that moment (migration 0014). The row is not posted, and the
   later rows of its channel wait behind it, so the channel keeps its order.
2. After the commit (``service.operation``, around every public operation), the snapshot is
   read in one read transaction with the revision, the table is computed in a thread
   (``PairingPool.off_loop``), and a second short write transaction fills the payload in
   if the revision is still the one read (else it reads and computes again), exactly once
   (``UPDATE ... WHERE deferred IS NOT NULL``), with what the announcement brings along
   (the placing DMs of ``final_standings``).

Stale: if the revision named in step 1 is no longer the current one (the event changed
between the two steps: a late join, a withdrawal, a correction that announces itself), the
table is computed from the event as it is now, still after the named round; if that round
is gone or no longer complete (undone), the announcement is dropped (kept, never posted,
with the reason in ``last_error``): it would describe a round that no longer exists.

The top cut's seeding (``service.playoffs.Playoffs.cut``) goes the same way for a big event: the
``swiss_final`` announcement is written deferred with ``cut`` in its spec; the second step
computes the final table and who is still in (in a thread), then seeds the bracket, fills the
announcement, queues the bracket's and records the cut, in its one short transaction. Until
then ``/round next`` answers that the cut is being seeded.

A process that stops between the two steps leaves the row deferred; the bot completes it
at start-up (:meth:`DeferredCompletion.complete_announcements`, also run with the timers), and
only then does its channel move on. Small events keep computing inline, in the transaction,
as before (well under the ~50 ms budget).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from service.base import Context, part
from service.model import (
    Snapshot,
    SnapshotRows,
    build_snapshot,
    load_snapshot,
    read_snapshot,
    settings_of,
)
from service.operation import operation, written_now
from service.outbox import GIVEN_UP
from service.playoff_state import load_bracket
from service.present import standings_payload, standings_view, with_placings
from service.views import StandingsView
from storage import journal
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.tournaments import TournamentRow

if TYPE_CHECKING:
    from service.announcer import Announcer
    from storage.journal import OutboxRow

log = logging.getLogger(__name__)

#: Tries to compute and store a table while the event keeps changing under it.
ATTEMPTS = 3


def _with_table(payload: dict[str, Any], key: str | None,
                table: dict[str, Any]) -> dict[str, Any]:
    """The payload with the standings in place: at the top (``standings`` and
    ``final_standings``) or under ``key`` (``result_corrected``'s ``standings``)."""
    return {**payload, **table} if key is None else {**payload, key: table}


@part
class DeferredPosts:
    """Writes the standings announcements: inline for a small event, deferred for a big one."""

    ctx: Context
    announcer: Announcer

    async def announce_standings(
        self, conn: Connection, t: TournamentRow, kind: str, payload: dict[str, Any], *,
        after_round: int | None = None, final: bool = False, placings: bool = False,
        key: str | None = None,
    ) -> int:
        """Queue ``kind`` with the standings after ``after_round`` (None: every round) in
        ``payload`` (at the top, or under ``key``), with the top cut's placings when
        ``placings``: computed here for a small event, after the commit for a big one
        (module docstring)."""
        players = await player_repo.count_entrants(conn, t.id)
        if not self.ctx.pairing.offloads(players):
            snapshot = await load_snapshot(conn, t)
            view = standings_view(t, snapshot, after_round=after_round, final=final)
            if placings:
                view = with_placings(view, await load_bracket(conn, t.id), after_round)
            return await self.announcer.announce(
                conn, t, kind, _with_table(payload, key, standings_payload(view)))
        spec = {"revision": await tournament_repo.revision(conn, t.id),
                "after_round": after_round, "final": final, "placings": placings, "key": key}
        return await self.announce_deferred(conn, t, kind, payload, spec)

    async def announce_deferred(self, conn: Connection, t: TournamentRow, kind: str,
                                 payload: dict[str, Any], spec: dict[str, Any]) -> int:
        """Queue ``kind`` deferred by ``spec`` (module docstring), completed after the
        commit of the operation running now."""
        row_id = await self.announcer.announce(conn, t, kind, payload, deferred=spec)
        written = written_now()
        if written is not None:
            written.append(row_id)
        return row_id


class CutSeeding(Protocol):
    """The second step of a deferred top cut (``service.playoffs.Playoffs``, which writes
    its deferred posts here): seed the bracket from the table computed."""

    async def seed_deferred(self, conn: Connection, t: TournamentRow, row: OutboxRow,
                            table: StandingsView, entrants: list[int]) -> bool: ...


@part
class DeferredCompletion:
    """Completes the deferred announcements after their operation (and the recovery of
    those a stopped process left); a top cut's seeding through ``playoffs``."""

    ctx: Context
    announcer: Announcer
    playoffs: CutSeeding

    @operation
    async def complete_announcements(
        self, tournament_id: int | None = None, *, older_than: timedelta | None = None
    ) -> int:
        """Complete every deferred announcement (of one tournament, or all; only those
        written more than ``older_than`` ago: the others are still being completed by their
        operation): the recovery after a process stopped between an operation and its
        standings (the bot runs it at start-up, and with the timers for those older than a
        minute). Returns how many were completed now."""
        before = None if older_than is None else self.ctx.now() - older_than
        async with self.ctx.db.transaction(readonly=True) as conn:
            ids = await journal.deferred_ids(conn, tournament_id, created_before=before)
        done = 0
        for row_id in ids:
            if await self.complete_announcement(row_id) is not None:
                done += 1
        return done

    async def complete_all(self, ids: list[int]) -> None:
        for row_id in ids:
            try:
                await self.complete_announcement(row_id)
            except Exception:  # left deferred: the recovery completes it later
                log.exception("could not complete the deferred announcement %d", row_id)

    async def complete_announcement(self, row_id: int) -> StandingsView | None:
        """Compute and store the standings of the deferred announcement ``row_id`` (module
        docstring). Returns the table stored, or None when there was nothing to do (already
        completed, dropped, or still changing after :data:`ATTEMPTS` tries)."""
        for _attempt in range(ATTEMPTS):
            async with self.ctx.db.transaction(readonly=True) as conn:
                row = await journal.get_outbox(conn, row_id)
                if row is None or row.deferred is None or row.tournament_id is None:
                    return None
                t = await tournament_repo.get_tournament(conn, row.tournament_id)
                if t is None:
                    return None
                spec = row.deferred
                after_round = spec.get("after_round")
                cut = spec.get("cut")  # the top cut's seeding (service.playoffs._cut)
                needed = after_round if cut is None else cut["round"]
                revision = await tournament_repo.revision(conn, t.id)
                gone = None
                if needed is not None:
                    rnd = await round_repo.get_round(conn, t.id, int(needed))
                    if rnd is None or rnd.state != "complete":
                        gone = (f"round {needed} is no longer complete (undone?): its "
                                "standings were not posted")
                rows = await read_snapshot(conn, t) if gone is None else None
                bracket = await load_bracket(conn, t.id) if spec.get("placings") else None
            if rows is None:
                async with self.ctx.db.transaction() as conn:
                    await journal.drop_deferred(conn, row_id, str(gone), GIVEN_UP)
                return None
            view, entrants = await self.ctx.pairing.off_loop(
                len(rows.players), _table, t, rows, after_round, bool(spec.get("final")))
            if spec.get("placings"):
                view = with_placings(view, bracket, after_round)
            body = _with_table(row.payload, spec.get("key"), standings_payload(view))
            async with self.ctx.db.transaction() as conn:
                fresh = await tournament_repo.get_tournament(conn, t.id)
                if fresh is None:
                    return None
                if (await tournament_repo.revision(conn, t.id) != revision
                        or _terms(fresh) != _terms(t)):
                    continue  # changed while it was computed: read it again
                if cut is not None:  # the bracket seeded from the table, with its posts
                    seeded = await self.playoffs.seed_deferred(
                        conn, fresh, row, view, entrants)
                    return view if seeded else None
                if not await journal.fill_deferred(conn, row_id, body):
                    return None  # another process completed it meanwhile
                shown = {k: v for k, v in body.items() if k not in ("tournament", "pictures")}
                await self.announcer.announced(conn, t, row.kind, shown)
            return view
        log.warning("the standings of announcement %d kept changing; left for later", row_id)
        return None


def _table(t: TournamentRow, rows: SnapshotRows, after_round: int | None,
           final: bool) -> tuple[StandingsView, list[int]]:
    """The model built from the rows read, its standings, and who of them is still in (a
    top cut's entrants) (in a thread, for a big event: thousands of rows of Python)."""
    snapshot = build_snapshot(t, rows)
    table = standings_view(t, snapshot, after_round=after_round, final=final)
    return table, still_in(table, snapshot)


def still_in(table: StandingsView, snapshot: Snapshot) -> list[int]:
    """The players of ``table`` (in its order) who can be seeded: active, not withdrawn."""
    return [row.player_id for row in table.rows
            if snapshot.by_id[row.player_id].status == "active"
            and snapshot.by_id[row.player_id].withdrawn_round is None]


def _terms(row: TournamentRow) -> tuple[Any, ...]:
    """What of the tournament row the standings depend on besides the revision."""
    settings = settings_of(row)
    return (row.name, row.status, settings.tiebreaks, settings.tiebreak_rules,
            settings.rounds, settings.scoring)
