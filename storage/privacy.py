"""Repository: everything stored about one member of one server, to export it or to forget
it, and the retention of finished events.

Where a member's identity is stored, and what forgetting does with it:

* anonymised, the row stays (results and standings stay correct: he still counts as an
  opponent): ``players`` (name -> pseudonym, user id gone; before the start the entry is
  removed, during the event he withdraws), ``lichess_ratings.username``, ``team_members``
  (name -> pseudonym, user id -> minus the row's id: unique, and no Discord member's;
  before the start the membership is removed);
* the id replaced by 0 (the bot) or NULL: ``tournaments.created_by``, ``rounds.paired_by``,
  ``games.set_by_user``, ``bye_requests.requested_by``, ``round_events.actor_id``,
  ``round_drafts.updated_by``, ``decklists.submitted_by``,
  ``decklist_publications.published_by``, ``teams.captain_user_id`` (an organiser acts for
  the team), ``team_lineups.set_by``, ``team_rounds.paired_by``, ``team_matches.finalised_by``;
* deleted: ``player_identity`` (FIDE id, federation, birth date, sex, title, TRF name),
  ``waitlist``, ``dm_settings``, ``lichess_links``, ``lichess_link_requests``,
  ``lichess_tokens``, ``lichess_conflicts``, and the direct messages the outbox holds for him
  (sent or not);
* redacted where they carry his name or id (``storage.redaction``): the outbox payloads
  (delivered or waiting: what is posted later shows the pseudonym), the audit log (marked
  redacted), pairing drafts and round explanations.

Every statement is scoped to the server: a member forgotten in one server stays in another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from storage.connection import Connection
from storage.redaction import Redaction, Rewrites, StoredText
from storage.shards import ALL, Shards
from storage.timefmt import to_text
from storage.tournaments import TournamentRow, get_tournament

#: The guild's tournaments, for ``tournament_id IN (...)``.
_IN_GUILD = "tournament_id IN (SELECT id FROM tournaments WHERE guild_id = ?)"


async def _rows(conn: Connection, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
    async with conn.execute(sql, params) as cur:
        rows = await cur.fetchall()
    # a row iterates its values (asyncpg, sqlite3): its names come from keys()
    return [{key: row[key] for key in row.keys()} for row in rows]  # noqa: SIM118


async def _one(conn: Connection, sql: str, params: tuple[Any, ...]) -> Any:
    async with conn.execute(sql, params) as cur:
        row = await cur.fetchone()
    return None if row is None else row[0]


# -- export ------------------------------------------------------------------------------------
async def member_data(conn: Connection, guild_id: int, user_id: int) -> dict[str, Any]:
    """Everything stored about ``user_id`` in ``guild_id``, as JSON-ready data. The Lichess
    token is never included (only whether one is stored)."""
    entries = await _rows(
        conn,
        "SELECT p.id, p.name, p.rating, p.status, p.number, p.checked_in, p.joined_round,"
        " p.withdrawn_round, p.registered_at, t.id AS tournament_id, t.name AS tournament,"
        " t.status AS tournament_status FROM players p JOIN tournaments t"
        " ON t.id = p.tournament_id WHERE t.guild_id = ? AND p.user_id = ? ORDER BY p.id",
        (guild_id, user_id))
    events = []
    for entry in entries:
        pid = entry.pop("id")
        entry["games"] = await _rows(
            conn,
            "SELECT r.number AS round, g.board, CASE WHEN g.white_id = ? THEN 'white'"
            " ELSE 'black' END AS colour, o.name AS opponent, g.result, g.state,"
            " g.white_games, g.black_games, g.reported_result, g.reported_at"
            " FROM games g JOIN rounds r ON r.id = g.round_id JOIN players o"
            " ON o.id = CASE WHEN g.white_id = ? THEN g.black_id ELSE g.white_id END"
            " WHERE g.white_id = ? OR g.black_id = ? ORDER BY r.number, g.board",
            (pid, pid, pid, pid))
        entry["byes"] = await _rows(
            conn, "SELECT r.number AS round, b.kind FROM byes b JOIN rounds r"
            " ON r.id = b.round_id WHERE b.player_id = ? ORDER BY r.number", (pid,))
        entry["bye_requests"] = await _rows(
            conn, "SELECT round_number, kind, status, created_at FROM bye_requests"
            " WHERE player_id = ? ORDER BY round_number", (pid,))
        entry["decklist"] = await _one(
            conn, "SELECT content FROM decklists WHERE player_id = ?", (pid,))
        entry["rating_fields"] = next(iter(await _rows(
            conn, "SELECT fide_id, federation, birth, sex, title, trf_name, updated_at"
            " FROM player_identity WHERE player_id = ?", (pid,))), None)
        entry["lichess_rating"] = next(iter(await _rows(
            conn, "SELECT username, rating, provisional, fetched_at FROM lichess_ratings"
            " WHERE player_id = ?", (pid,))), None)
        events.append(entry)
    return {
        "server_id": guild_id,
        "user_id": user_id,
        "events": events,
        "teams": await _rows(
            conn, "SELECT tm.name, tm.position, tm.substitute, te.name AS team,"
            " te.captain_user_id = tm.user_id AS captain, t.name AS tournament"
            " FROM team_members tm JOIN teams te ON te.id = tm.team_id JOIN tournaments t"
            " ON t.id = tm.tournament_id WHERE t.guild_id = ? AND tm.user_id = ?"
            " ORDER BY tm.id", (guild_id, user_id)),
        "waiting_lists": await _rows(
            conn, "SELECT w.name, w.rating, w.created_at, t.name AS tournament FROM waitlist w"
            " JOIN tournaments t ON t.id = w.tournament_id WHERE t.guild_id = ?"
            " AND w.user_id = ? ORDER BY w.id", (guild_id, user_id)),
        "direct_messages": next(iter(await _rows(
            conn, "SELECT enabled, closed_at, updated_at FROM dm_settings WHERE guild_id = ?"
            " AND user_id = ?", (guild_id, user_id))), None),
        "lichess": {
            "link": next(iter(await _rows(
                conn, "SELECT lichess_id, username, method, linked_at FROM lichess_links"
                " WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))), None),
            "token_stored": bool(await _one(
                conn, "SELECT COUNT(*) FROM lichess_tokens WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id))),
        },
        "organised": await _rows(
            conn, "SELECT id, name, status, created_at FROM tournaments WHERE guild_id = ?"
            " AND created_by = ? ORDER BY id", (guild_id, user_id)),
        "actions": await _rows(
            conn, "SELECT a.action, t.name AS tournament, a.created_at FROM audit_log a"
            " LEFT JOIN tournaments t ON t.id = a.tournament_id WHERE a.guild_id = ?"
            " AND a.actor_id = ? ORDER BY a.id", (guild_id, user_id)),
        "direct_messages_queued": await _one(
            conn, "SELECT COUNT(*) FROM outbox WHERE guild_id = ? AND channel_id IS NULL"
            " AND delivered_at IS NULL AND payload LIKE ?", (guild_id, f'%"user_id": {user_id}%')),
    }


# -- forget ------------------------------------------------------------------------------------
async def known_names(conn: Connection, guild_id: int, user_id: int) -> set[str]:
    """The names the member is stored under in ``guild_id`` (entries, waiting lists, his
    Lichess account, his name in the audit log)."""
    names: set[str] = set()
    for sql in (
        f"SELECT name FROM players WHERE user_id = ? AND {_IN_GUILD}",
        f"SELECT name FROM waitlist WHERE user_id = ? AND {_IN_GUILD}",
        "SELECT username FROM lichess_links WHERE user_id = ? AND guild_id = ?",
        "SELECT actor_name FROM audit_log WHERE actor_id = ? AND guild_id = ?",
    ):
        names.update(row[0] for row in await _rows_plain(conn, sql, (user_id, guild_id)))
    return {name for name in names if name}


async def _rows_plain(conn: Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    async with conn.execute(sql, params) as cur:
        return list(await cur.fetchall())


async def registrations(conn: Connection, guild_id: int, user_id: int) -> list[TournamentRow]:
    """The events of the guild still taking entries in which the member is entered (a
    forget removes him there, and frees his place)."""
    ids = await _rows_plain(
        conn, "SELECT id FROM tournaments WHERE guild_id = ? AND status = 'registration' AND id"
        " IN (SELECT tournament_id FROM players WHERE user_id = ?) ORDER BY id",
        (guild_id, user_id))
    return [t for (tid,) in ids if (t := await get_tournament(conn, tid)) is not None]


async def next_pseudonym(conn: Connection, guild_id: int, now: datetime) -> str:
    """"Withdrawn player N", N counted per server (the row is locked until the commit, so
    two members forgotten at once get two numbers)."""
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, updated_at, forgotten_players) VALUES (?, ?, 1)"
        " ON CONFLICT (guild_id) DO UPDATE SET"
        " forgotten_players = guild_settings.forgotten_players + 1",
        (guild_id, to_text(now)))
    number = await _one(conn, "SELECT forgotten_players FROM guild_settings WHERE guild_id = ?",
                        (guild_id,))
    return f"Withdrawn player {number}"


@dataclass(frozen=True, slots=True)
class Forgotten:
    """How many stored rows named the member, per table (0 everywhere: nothing was stored)."""

    changed: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.changed.values())


async def _changed(conn: Connection, sql: str, params: tuple[Any, ...]) -> int:
    cur = await conn.execute(sql, params)
    return max(cur.rowcount, 0)


async def forget_member(
    conn: Connection, guild_id: int, redaction: Redaction, now: datetime,
    rewrites: Rewrites | None = None,
) -> Forgotten:
    """Take the member out of every table of ``guild_id`` (see the module's docstring).
    ``rewrites``: the texts naming him, redacted ahead (:func:`texts_naming`)."""
    rewrites = rewrites or Rewrites()
    uid, alias = redaction.user_id, redaction.pseudonym
    changed: dict[str, int] = {}
    g = (uid, guild_id)
    changed["lichess_ratings"] = await _changed(
        conn, "UPDATE lichess_ratings SET username = ? WHERE player_id IN (SELECT id FROM"
        f" players WHERE user_id = ? AND {_IN_GUILD})", (alias, *g))
    changed["player_identity"] = await _changed(
        conn, "DELETE FROM player_identity WHERE player_id IN (SELECT id FROM players WHERE"
        f" user_id = ? AND {_IN_GUILD})", g)
    # before the start the entry goes (nothing was played); during the event he withdraws
    # from the next round on: nobody can report for him any more
    changed["entries"] = await _changed(
        conn, "DELETE FROM players WHERE user_id = ? AND tournament_id IN (SELECT id FROM"
        " tournaments WHERE guild_id = ? AND status = 'registration')", g)
    await conn.execute(
        "UPDATE players SET status = 'withdrawn', withdrawn_round = (SELECT"
        " COALESCE(MAX(r.number), 0) + 1 FROM rounds r WHERE r.tournament_id ="
        " players.tournament_id) WHERE user_id = ? AND status = 'active' AND tournament_id IN"
        " (SELECT id FROM tournaments WHERE guild_id = ? AND status = 'running')", g)
    changed["players"] = await _changed(
        conn, f"UPDATE players SET user_id = NULL, name = ? WHERE user_id = ? AND {_IN_GUILD}",
        (alias, *g))
    changed["team_members"] = await _forget_team_member(conn, guild_id, uid, alias)
    for table in ("waitlist",):
        changed[table] = await _changed(
            conn, f"DELETE FROM {table} WHERE user_id = ? AND {_IN_GUILD}", g)
    for table in ("dm_settings", "lichess_links", "lichess_link_requests", "lichess_tokens"):
        changed[table] = await _changed(
            conn, f"DELETE FROM {table} WHERE user_id = ? AND guild_id = ?", g)
    changed["lichess_conflicts"] = await _changed(
        conn, "DELETE FROM lichess_conflicts WHERE (holder_id = ? OR claimant_id = ?)"
        " AND guild_id = ?", (uid, uid, guild_id))
    for table, column, blank in (
        ("rounds", "paired_by", "NULL"), ("games", "set_by_user", "NULL"),
        ("bye_requests", "requested_by", "0"), ("round_events", "actor_id", "0"),
        ("round_drafts", "updated_by", "0"), ("decklists", "submitted_by", "0"),
        ("decklist_publications", "published_by", "0"), ("teams", "captain_user_id", "0"),
        ("team_rounds", "paired_by", "NULL"),
        ("team_matches", "finalised_by", "NULL"),
    ):
        changed[f"{table}.{column}"] = await _changed(
            conn, f"UPDATE {table} SET {column} = {blank} WHERE {column} = ? AND {_IN_GUILD}", g)
    changed["team_lineups.set_by"] = await _changed(
        conn, "UPDATE team_lineups SET set_by = 0 WHERE set_by = ? AND team_id IN (SELECT id"
        f" FROM teams WHERE {_IN_GUILD})", g)
    changed["tournaments.created_by"] = await _changed(
        conn, "UPDATE tournaments SET created_by = 0 WHERE created_by = ? AND guild_id = ?", g)
    changed["direct_messages"] = await _delete_direct_messages(conn, guild_id, uid)
    for spec in _TEXTS:
        changed[f"{spec[0]}.{spec[1]}"] = await _redact(conn, spec, guild_id, redaction,
                                                        rewrites)
    changed["audit_log"] = await _redact_audit(conn, guild_id, redaction, now, rewrites)
    return Forgotten(changed)


async def _forget_team_member(conn: Connection, guild_id: int, user_id: int, alias: str
                              ) -> int:
    """Before the start the membership goes; later the member row stays (the boards name it)
    under the pseudonym, its user id minus the row's id (unique, and no Discord member's)."""
    removed = await _changed(
        conn, "DELETE FROM team_members WHERE user_id = ? AND tournament_id IN (SELECT id FROM"
        " tournaments WHERE guild_id = ? AND status = 'registration')", (user_id, guild_id))
    return removed + await _changed(
        conn, f"UPDATE team_members SET user_id = -id, name = ? WHERE user_id = ? AND {_IN_GUILD}",
        (alias, user_id, guild_id))


async def _delete_direct_messages(conn: Connection, guild_id: int, user_id: int) -> int:
    """The member's direct messages, sent or waiting: a DM has no channel and names its
    recipient (``service.notify.queue_dm``)."""
    ids = [row[0] for row in await _rows_plain(
        conn, "SELECT id, payload FROM outbox WHERE guild_id = ? AND channel_id IS NULL"
        " AND payload LIKE ?", (guild_id, f"%{user_id}%"))
        if json.loads(row[1]).get("user_id") == user_id]
    for outbox_id in ids:
        await conn.execute("DELETE FROM posted_messages WHERE outbox_id = ?", (outbox_id,))
        await conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))
    return len(ids)


def _like_any(column: str, needles: list[str]) -> tuple[str, tuple[str, ...]]:
    """``column`` contains any of ``needles`` (their LIKE wildcards taken literally)."""
    return (" OR ".join(f"{column} LIKE ? ESCAPE '\\'" for _ in needles),
            tuple(f"%{_escape_like(n)}%" for n in needles))


def _escape_like(text: str) -> str:
    # LIKE's wildcards in a name are matched literally (ESCAPE '\')
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


#: The texts (JSON mostly) that may name him: (table, column, key column, the guild's rows).
_TEXTS = (
    ("outbox", "payload", "id", "guild_id = ?"),
    # the problems told to organisers ("... left the server"): plain text
    ("outbox", "last_error", "id", "guild_id = ?"),
    ("game_threads", "problem", "game_id", "guild_id = ?"),
    ("lichess_games", "problem", "game_id", _IN_GUILD),
    ("round_drafts", "body", "tournament_id", _IN_GUILD),
    ("round_explanations", "data", "round_id",
     f"round_id IN (SELECT id FROM rounds WHERE {_IN_GUILD})"),
)
_AUDIT = "audit_log WHERE guild_id = ? AND (actor_id = ? OR {before} OR {after})"


async def texts_naming(conn: Connection, guild_id: int, redaction: Redaction
                       ) -> list[StoredText]:
    """Every stored JSON text of the guild that may name the member (a LIKE filter keeps the
    thousands of others out of Python), to redact ahead of the forget."""
    texts: list[StoredText] = []
    for table, column, key, where in _TEXTS:
        like, needles = _like_any(column, redaction.needles())
        for row_key, text in await _rows_plain(
                conn, f"SELECT {key}, {column} FROM {table} WHERE ({where}) AND ({like})",
                (guild_id, *needles)):
            texts.append((table, column, row_key, text))
    sql, params = _audit_query(guild_id, redaction)
    for audit_id, _actor, _name, before, after in await _rows_plain(conn, sql, params):
        texts += [("audit_log", "before", audit_id, before),
                  ("audit_log", "after", audit_id, after)]
    return texts


async def _redact(
    conn: Connection, spec: tuple[str, str, str, str], guild_id: int, redaction: Redaction,
    rewrites: Rewrites,
) -> int:
    """Rewrite ``table.column`` (JSON text) where it names the member; returns rows changed."""
    table, column, key, where = spec
    like, needles = _like_any(column, redaction.needles())
    rows = await _rows_plain(
        conn, f"SELECT {key}, {column} FROM {table} WHERE ({where}) AND ({like})",
        (guild_id, *needles))
    count = 0
    for row_key, text in rows:
        redacted = rewrites.text(redaction, table, column, row_key, text)
        if redacted != text:
            await conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?",
                               (redacted, row_key))
            count += 1
    return count


def _audit_query(guild_id: int, redaction: Redaction) -> tuple[str, tuple[Any, ...]]:
    before, before_needles = _like_any("before", redaction.needles())
    after, after_needles = _like_any("after", redaction.needles())
    return ("SELECT id, actor_id, actor_name, before, after FROM "
            + _AUDIT.format(before=before, after=after),
            (guild_id, redaction.user_id, *before_needles, *after_needles))


async def _redact_audit(conn: Connection, guild_id: int, redaction: Redaction,
                        now: datetime, rewrites: Rewrites) -> int:
    """The audit entries that name the member keep what happened and when, marked redacted:
    his own entries lose his id and name, the others' lose his name and id in their data."""
    sql, params = _audit_query(guild_id, redaction)
    count = 0
    for audit_id, actor_id, actor_name, before, after in await _rows_plain(conn, sql, params):
        mine = actor_id == redaction.user_id
        new = (0 if mine else actor_id, redaction.pseudonym if mine else actor_name,
               rewrites.text(redaction, "audit_log", "before", audit_id, before),
               rewrites.text(redaction, "audit_log", "after", audit_id, after))
        if new != (actor_id, actor_name, before, after):
            await conn.execute(
                "UPDATE audit_log SET actor_id = ?, actor_name = ?, before = ?, after = ?,"
                " redacted_at = ? WHERE id = ?", (*new, to_text(now), audit_id))
            count += 1
    return count


# -- retention ---------------------------------------------------------------------------------
async def set_retention_days(conn: Connection, guild_id: int, days: int, now: datetime) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, updated_at, retention_days) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET retention_days = excluded.retention_days,"
        " updated_at = excluded.updated_at", (guild_id, to_text(now), days))


async def retention_days(conn: Connection, guild_id: int) -> int:
    return int(await _one(conn, "SELECT retention_days FROM guild_settings WHERE guild_id = ?",
                          (guild_id,)) or 0)


@dataclass(frozen=True, slots=True)
class Expired:
    """A finished or cancelled event past its server's retention."""

    tournament_id: int
    guild_id: int
    name: str
    channel_id: int | None
    export_id: int | None  # its last export's outbox row, once queued
    export_delivered: bool


async def expired_events(conn: Connection, now: datetime, shards: Shards = ALL) -> list[Expired]:
    """The events to export or delete now (each server's own retention; 0 keeps for good).
    Run every few seconds: the shortest retention of any server bounds the events read (the
    events that ended since are not even read); each server's own cut-off is applied here,
    on ISO text that sorts as time."""
    shortest = await _one(conn, "SELECT MIN(retention_days) FROM guild_settings"
                                " WHERE retention_days > 0", ())
    if shortest is None:
        return []
    owned, params = shards.where("t.guild_id")
    rows = await _rows_plain(
        conn,
        "SELECT t.id, t.guild_id, t.name, COALESCE(t.channel_id, s.default_channel_id),"
        " t.retention_export_id, o.delivered_at, t.finished_at, s.retention_days"
        " FROM tournaments t JOIN guild_settings s ON s.guild_id = t.guild_id"
        " LEFT JOIN outbox o ON o.id = t.retention_export_id"
        " WHERE s.retention_days > 0 AND t.status IN ('finished', 'cancelled')"
        f" AND t.finished_at <= ? AND {owned} ORDER BY t.id",
        (to_text(now - timedelta(days=int(shortest))), *params))
    return [
        Expired(tid, gid, name, channel, export_id, delivered is not None)
        for tid, gid, name, channel, export_id, delivered, finished, days in rows
        if finished <= to_text(now - timedelta(days=int(days)))
    ]


async def claim_export(conn: Connection, tournament_id: int) -> bool:
    """Mark the event's last export as being queued: True for the one caller that may queue
    it (a second process, or a second pass, finds it marked)."""
    cur = await conn.execute(
        "UPDATE tournaments SET retention_export_id = 0 WHERE id = ?"
        " AND retention_export_id IS NULL", (tournament_id,))
    return cur.rowcount == 1


async def set_export(conn: Connection, tournament_id: int, outbox_id: int) -> None:
    await conn.execute("UPDATE tournaments SET retention_export_id = ? WHERE id = ?",
                       (outbox_id, tournament_id))


async def delete_event(conn: Connection, tournament_id: int, now: datetime) -> bool:
    """Delete the event and everything stored for it; its audit entries stay, redacted
    (what happened and when, no data, no longer tied to the event). False when it is gone."""
    # locks the row first: a second process deleting it at once waits here, then finds it
    # gone (a plain SELECT would let both go on, and both record the deletion)
    cur = await conn.execute("UPDATE tournaments SET retention_export_id = retention_export_id"
                             " WHERE id = ?", (tournament_id,))
    if cur.rowcount != 1:
        return False
    await conn.execute(
        "UPDATE audit_log SET tournament_id = NULL, actor_id = 0, actor_name = '', before = NULL,"
        " after = NULL, redacted_at = ? WHERE tournament_id = ?", (to_text(now), tournament_id))
    # what refers to the event without a cascade
    await conn.execute("DELETE FROM report_prompts WHERE game_id IN (SELECT id FROM games"
                       " WHERE tournament_id = ?)", (tournament_id,))
    for table in ("game_threads", "thread_notices", "pairing_runs"):
        await conn.execute(f"DELETE FROM {table} WHERE tournament_id = ?", (tournament_id,))
    await conn.execute("DELETE FROM posted_messages WHERE outbox_id IN (SELECT id FROM outbox"
                       " WHERE tournament_id = ?)", (tournament_id,))
    await conn.execute("DELETE FROM outbox WHERE tournament_id = ?", (tournament_id,))
    # the games name their players without a cascade: they go first
    await conn.execute("DELETE FROM rounds WHERE tournament_id = ?", (tournament_id,))
    await conn.execute("DELETE FROM tournaments WHERE id = ?", (tournament_id,))
    return True
