"""Repository: the append-only audit log and the outbox of announcements.

The outbox is written in the same transaction as the change it announces, so an announcement
exists if and only if the change happened. The bot's delivery task reads the pending rows and
marks each delivered exactly once (``UPDATE ... WHERE delivered_at IS NULL``).

Several bot processes may share the database: each one first :func:`claims <claim>` a few due
rows with a lease, delivers them, and marks them delivered or failed (which ends the lease).
A process renews the leases it holds while it runs (:func:`renew`), so a short lease is enough
and the rows of a process that died are free again soon after.

Order per channel is kept here, not in a process's memory: a row is due only when every
earlier row of its channel is delivered or given up (``next_attempt_at`` in the year 9999).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection, Row, dialect, insert_returning_id
from storage.shards import ALL, Shards
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    guild_id: int
    tournament_id: int | None
    actor_id: int
    actor_name: str
    action: str
    before: Any
    after: Any
    created_at: datetime


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    guild_id: int
    channel_id: int | None
    tournament_id: int | None
    kind: str
    payload: dict[str, Any]
    created_at: datetime
    delivered_at: datetime | None
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    claimed_by: str | None = None  # the process delivering it (migration 0011)
    lease_until: datetime | None = None
    # What is still to compute before it can be posted (migration 0014), else None.
    deferred: dict[str, Any] | None = None
    # The payload's JSON, left unparsed by outbox_rows(unparsed_from=...): payload is {}.
    payload_text: str | None = None


class EncodedJSON(str):
    """An audit value already encoded by :func:`encode_audit` (a big event's, in a thread):
    stored as it is, not encoded again."""


def encode_audit(value: Any) -> EncodedJSON | None:
    """The audit log's JSON of ``value``, exactly as :func:`append_audit` would store it."""
    return None if value is None else EncodedJSON(json.dumps(value, sort_keys=True,
                                                             default=str))


def _dumps(value: Any) -> str | None:
    if isinstance(value, EncodedJSON):
        return str(value)
    return encode_audit(value)


async def append_audit(
    conn: Connection,
    *,
    guild_id: int,
    tournament_id: int | None,
    actor_id: int,
    actor_name: str,
    action: str,
    before: Any,
    after: Any,
    now: datetime,
) -> None:
    await conn.execute(
        "INSERT INTO audit_log (guild_id, tournament_id, actor_id, actor_name, action, before,"
        " after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, tournament_id, actor_id, actor_name, action, _dumps(before), _dumps(after),
         to_text(now)),
    )


async def list_audit(conn: Connection, tournament_id: int) -> list[AuditRow]:
    async with conn.execute(
        "SELECT * FROM audit_log WHERE tournament_id = ? ORDER BY id", (tournament_id,)
    ) as cur:
        rows = await cur.fetchall()
    return [
        AuditRow(
            id=row["id"],
            guild_id=row["guild_id"],
            tournament_id=row["tournament_id"],
            actor_id=row["actor_id"],
            actor_name=row["actor_name"],
            action=row["action"],
            before=None if row["before"] is None else json.loads(row["before"]),
            after=None if row["after"] is None else json.loads(row["after"]),
            created_at=from_text(row["created_at"]),  # type: ignore[arg-type]
        )
        for row in rows
    ]


def _outbox(row: Row, unparsed_from: int | None = None) -> OutboxRow:
    text = row["payload"]
    unparsed = unparsed_from is not None and len(text) >= unparsed_from
    return OutboxRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        tournament_id=row["tournament_id"],
        kind=row["kind"],
        payload={} if unparsed else json.loads(text),
        payload_text=text if unparsed else None,
        created_at=from_text(row["created_at"]),  # type: ignore[arg-type]
        delivered_at=from_text(row["delivered_at"]),
        attempts=row["attempts"],
        next_attempt_at=from_text(row["next_attempt_at"]),  # type: ignore[arg-type]
        last_error=row["last_error"],
        claimed_by=row["claimed_by"],
        lease_until=from_text(row["lease_until"]),
        deferred=None if row["deferred"] is None else json.loads(row["deferred"]),
    )


async def enqueue(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int | None,
    tournament_id: int | None,
    kind: str,
    payload: dict[str, Any],
    now: datetime,
    deferred: dict[str, Any] | None = None,
    text: str | None = None,
) -> int:
    """Queue an announcement; with ``deferred`` (what is still to compute, JSON) it is not
    posted, nor anything after it in its channel, until :func:`fill_deferred` completes it.
    ``text``: ``payload`` already encoded (its JSON text), by a quicker way."""
    stamp = to_text(now)
    return await insert_returning_id(
        conn,
        "INSERT INTO outbox (guild_id, channel_id, tournament_id, kind, payload, created_at,"
        " next_attempt_at, deferred) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, tournament_id, kind,
         json.dumps(payload, default=str) if text is None else text, stamp, stamp,
         _dumps(deferred)),
    )


async def fill_deferred(conn: Connection, outbox_id: int, payload: dict[str, Any]) -> bool:
    """Complete a deferred announcement with its ``payload``: True for the one call that
    did (a second one, or one for a row already completed or dropped, changes nothing)."""
    cur = await conn.execute(
        "UPDATE outbox SET payload = ?, deferred = NULL WHERE id = ? AND deferred IS NOT NULL",
        (json.dumps(payload, default=str), outbox_id),
    )
    return cur.rowcount == 1


async def drop_deferred(conn: Connection, outbox_id: int, reason: str, never: datetime) -> bool:
    """Give up a deferred announcement (what it described is gone: its round was undone):
    kept for the record, never posted (due at ``never``), no longer holding its channel."""
    cur = await conn.execute(
        "UPDATE outbox SET deferred = NULL, last_error = ?, next_attempt_at = ? WHERE id = ?"
        " AND deferred IS NOT NULL",
        (reason[:500], to_text(never), outbox_id),
    )
    return cur.rowcount == 1


async def deferred_of(conn: Connection, tournament_id: int, kind: str) -> int | None:
    """The id of the tournament's announcement of ``kind`` that still waits for its payload
    (a big event's top cut being seeded after its operation's commit), else None."""
    async with conn.execute(
        "SELECT id FROM outbox WHERE tournament_id = ? AND kind = ? AND deferred IS NOT NULL"
        " ORDER BY id LIMIT 1", (tournament_id, kind),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else int(row[0])


async def deferred_ids(conn: Connection, tournament_id: int | None = None, *,
                       created_before: datetime | None = None) -> list[int]:
    """The announcements still waiting for their payload (of one tournament, written before
    a moment), oldest first."""
    sql = "SELECT id FROM outbox WHERE deferred IS NOT NULL"
    params: list[Any] = []
    if tournament_id is not None:
        sql += " AND tournament_id = ?"
        params.append(tournament_id)
    if created_before is not None:
        sql += " AND created_at < ?"
        params.append(to_text(created_before))
    async with conn.execute(sql + " ORDER BY id", params) as cur:
        return [int(row[0]) for row in await cur.fetchall()]


# A row waits while an earlier row of its channel is still deferred (its payload is being
# computed): the channel's announcements keep their order.
_NOT_BEHIND_DEFERRED = (
    " AND o.deferred IS NULL AND NOT EXISTS (SELECT 1 FROM outbox AS d WHERE"
    " d.channel_id = o.channel_id AND d.id < o.id AND d.deferred IS NOT NULL)"
)


async def pending(
    conn: Connection, now: datetime, limit: int = 50
) -> list[OutboxRow]:
    """Undelivered rows whose next attempt is due, oldest first (not a deferred one, nor
    one behind a deferred one in its channel)."""
    async with conn.execute(
        "SELECT * FROM outbox AS o WHERE o.delivered_at IS NULL AND o.next_attempt_at <= ?"
        f"{_NOT_BEHIND_DEFERRED} ORDER BY o.id LIMIT ?",
        (to_text(now), limit),
    ) as cur:
        return [_outbox(row) for row in await cur.fetchall()]


async def claim(
    conn: Connection,
    *,
    claimant: str,
    now: datetime,
    lease_until: datetime,
    limit: int = 20,
    shards: Shards = ALL,
) -> list[OutboxRow]:
    """Claim up to ``limit`` due rows for ``claimant`` until ``lease_until``, oldest first.

    One atomic ``UPDATE ... WHERE id IN (SELECT ... LIMIT n) RETURNING``: a row is claimable
    when it is undelivered, due, of a guild on ``shards``, and not leased by another process
    (no lease, an expired one, or our own). A row also waits while an earlier row of its
    channel is pending and not due to ``claimant`` now: waiting for its retry after a failed
    attempt, leased by another process (perhaps one that died holding it), or deferred (its
    standings are being computed, migration 0014). Given-up rows hold nothing back.

    On SQLite the statement runs under the ``BEGIN IMMEDIATE`` write lock, so two claimants
    are serialised. On PostgreSQL (READ COMMITTED) the claim first takes a transaction-level
    advisory lock, so claims are serialised there too and each one sees the rows the
    previous one took (skipping them as merely locked let a claim take a later row of their
    channel); the subquery keeps ``FOR UPDATE SKIP LOCKED`` so a claim never waits for a row
    another process is marking or renewing.
    """
    return [_outbox(row) for row in await claim_unparsed(
        conn, claimant=claimant, now=now, lease_until=lease_until, limit=limit, shards=shards)]


async def claim_unparsed(
    conn: Connection,
    *,
    claimant: str,
    now: datetime,
    lease_until: datetime,
    limit: int = 20,
    shards: Shards = ALL,
) -> list[Row]:
    """:func:`claim`, the rows as the database gave them: turn them into outbox rows with
    :func:`outbox_rows` after the transaction (a big round's pairings payload is 600 kB of
    JSON: parsed inside, it would hold the database for every guild meanwhile)."""
    if dialect(conn).NAME == "postgresql":
        # One claim at a time (until its transaction ends): a claim must see the rows another
        # one is taking, or, skipping them as locked, it would take a later row of their
        # channel and post it first. A claim is one short statement: the wait is short.
        await conn.execute("SELECT pg_advisory_xact_lock(?)", (CLAIM_LOCK_KEY,))
    async with conn.execute(*_claim_statement(conn, claimant, now, lease_until, limit,
                                              shards)) as cur:
        return await claimed_rows(cur)


def outbox_rows(rows: list[Row], *, unparsed_from: int | None = None) -> list[OutboxRow]:
    """The rows as outbox rows; a payload of ``unparsed_from`` characters or more is left
    as JSON text (``payload_text``) for the caller to parse elsewhere."""
    return [_outbox(row, unparsed_from) for row in rows]


async def claimed_rows(cur: Any) -> list[Row]:
    """The claimed rows in id order (RETURNING has no defined order)."""
    return sorted(await cur.fetchall(), key=lambda row: row["id"])


#: The PostgreSQL advisory lock that serialises the claims (any 64-bit number of our own).
CLAIM_LOCK_KEY = 0x5377_6973_734F_7574  # "SwissOut"
#: ``next_attempt_at`` of a given-up row starts with this (service.outbox.GIVEN_UP is in the
#: year 9999): such a row holds nothing back. The same text is in the index of migration 0016.
GIVEN_UP_TEXT = "9999"

# A row waits while an earlier row of its channel is pending and not due to this claimant now:
# still deferred, waiting for its retry (a failed attempt), or leased by another process. An
# earlier row that IS due to this claimant comes first in the same claim (ORDER BY id), so a
# channel's rows go out in order whichever process claims them, across restarts.
_IN_CHANNEL_ORDER = (
    " AND NOT EXISTS (SELECT 1 FROM outbox AS e WHERE e.channel_id = o.channel_id"
    f" AND e.id < o.id AND e.delivered_at IS NULL AND e.next_attempt_at < '{GIVEN_UP_TEXT}'"
    " AND (e.next_attempt_at > ? OR e.deferred IS NOT NULL"
    " OR (e.lease_until > ? AND e.claimed_by <> ?)))"
)


def _claim_statement(
    conn: Connection, claimant: str, now: datetime, lease_until: datetime, limit: int,
    shards: Shards,
) -> tuple[str, tuple[Any, ...]]:
    mine, params = shards.where("o.guild_id")
    stamp = to_text(now)
    pick = (
        "SELECT o.id FROM outbox AS o WHERE o.delivered_at IS NULL AND o.next_attempt_at <= ?"
        " AND o.deferred IS NULL"
        " AND (o.lease_until IS NULL OR o.lease_until <= ? OR o.claimed_by = ?)"
        f" AND {mine}{_IN_CHANNEL_ORDER}"
        " ORDER BY o.id LIMIT ?"
    )
    pick_args = (stamp, stamp, claimant, *params, stamp, stamp, claimant, limit)
    set_args = (claimant, to_text(lease_until))
    # -- PostgreSQL variant: the only dialect difference of the claim ------------------------
    if dialect(conn).NAME == "postgresql":
        # The pick is materialised once: inside ``id IN (SELECT ... LIMIT n)`` the planner
        # may run the subquery again per outer row (a semi-join), and a claim then takes more
        # than ``limit`` rows, later rows of a channel among them.
        sql = (f"WITH picked AS MATERIALIZED ({pick} FOR UPDATE SKIP LOCKED)"
               " UPDATE outbox SET claimed_by = ?, lease_until = ?"
               " WHERE id IN (SELECT id FROM picked) RETURNING *")
        return sql, (*pick_args, *set_args)
    sql = f"UPDATE outbox SET claimed_by = ?, lease_until = ? WHERE id IN ({pick}) RETURNING *"
    return sql, (*set_args, *pick_args)


async def renew(conn: Connection, claimant: str, lease_until: datetime) -> int:
    """Extend ``claimant``'s leases on its undelivered rows to ``lease_until`` (a process
    renews them while it runs); returns how many it holds."""
    cur = await conn.execute(
        "UPDATE outbox SET lease_until = ? WHERE claimed_by = ? AND delivered_at IS NULL",
        (to_text(lease_until), claimant),
    )
    return cur.rowcount


async def claimants(conn: Connection, now: datetime) -> list[str]:
    """The processes holding a lease that has not expired, on undelivered rows."""
    async with conn.execute(
        "SELECT DISTINCT claimed_by FROM outbox WHERE delivered_at IS NULL"
        " AND claimed_by IS NOT NULL AND lease_until > ? ORDER BY claimed_by",
        (to_text(now),),
    ) as cur:
        return [str(row[0]) for row in await cur.fetchall()]


async def release(conn: Connection, claimant: str, ids: list[int] | None = None) -> int:
    """End ``claimant``'s leases on its undelivered rows (all, or ``ids``): another process
    may take them at once (a clean shutdown, or rows a pass did not reach)."""
    sql = ("UPDATE outbox SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?"
           " AND delivered_at IS NULL")
    params: list[object] = [claimant]
    if ids is not None:
        if not ids:
            return 0
        sql += f" AND id IN ({', '.join('?' for _ in ids)})"
        params += ids
    cur = await conn.execute(sql, params)
    return cur.rowcount


async def list_outbox(
    conn: Connection, tournament_id: int | None = None
) -> list[OutboxRow]:
    sql = "SELECT * FROM outbox"
    params: tuple[int, ...] = ()
    if tournament_id is not None:
        sql += " WHERE tournament_id = ?"
        params = (tournament_id,)
    async with conn.execute(sql + " ORDER BY id", params) as cur:
        return [_outbox(row) for row in await cur.fetchall()]


async def mark_delivered(conn: Connection, outbox_id: int, now: datetime) -> bool:
    """True for the one call that delivered it; later calls return False."""
    cur = await conn.execute(
        "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, claimed_by = NULL,"
        " lease_until = NULL WHERE id = ? AND delivered_at IS NULL",
        (to_text(now), outbox_id),
    )
    return cur.rowcount == 1


async def get_outbox(conn: Connection, outbox_id: int) -> OutboxRow | None:
    async with conn.execute("SELECT * FROM outbox WHERE id = ?", (outbox_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else _outbox(row)


async def delivery_problem(conn: Connection, tournament_id: int) -> str | None:
    """The error of the tournament's oldest failing announcement, unless a later one of the
    same tournament was delivered since (then the problem is over)."""
    async with conn.execute(
        "SELECT last_error FROM outbox WHERE tournament_id = ? AND delivered_at IS NULL"
        " AND attempts > 0 AND last_error IS NOT NULL AND id > COALESCE((SELECT MAX(id)"
        " FROM outbox WHERE tournament_id = ? AND delivered_at IS NOT NULL), 0)"
        " ORDER BY id LIMIT 1",
        (tournament_id, tournament_id),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else str(row[0])


async def mark_failed(
    conn: Connection, outbox_id: int, *, error: str, retry_at: datetime
) -> bool:
    cur = await conn.execute(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,"
        " claimed_by = NULL, lease_until = NULL WHERE id = ? AND delivered_at IS NULL",
        (error[:500], to_text(retry_at), outbox_id),
    )
    return cur.rowcount == 1
