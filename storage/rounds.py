"""Repository: rounds, games (with the report / confirm / dispute trail), byes, bye requests
and forbidden pairs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from storage.connection import Connection, Row, dialect, insert_returning_id
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class RoundRow:
    id: int
    tournament_id: int
    number: int
    state: str  # playing, complete
    paired_at: datetime
    paired_by: int | None
    forced: bool
    deadline: datetime | None
    completed_at: datetime | None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    tournament_id: int
    round_id: int
    round_number: int
    board: int
    white_id: int
    black_id: int
    result: str
    white_games: int | None
    black_games: int | None
    state: str  # pending, reported, disputed, final
    reported_result: str | None
    reported_white_games: int | None
    reported_black_games: int | None
    reported_by: int | None
    disputed_by: int | None
    disputed_result: str | None
    confirmed_by: int | None
    set_by_user: int | None


@dataclass(frozen=True, slots=True)
class RoundEventRow:
    """A round was paired or undone at ``at`` (millisecond precision)."""

    round_number: int
    event: str  # paired, undone
    at: datetime
    actor_id: int


@dataclass(frozen=True, slots=True)
class ByeRow:
    round_number: int
    player_id: int
    kind: str


@dataclass(frozen=True, slots=True)
class ByeRequestRow:
    player_id: int
    round_number: int
    kind: str
    status: str = "approved"  # a player's own request is "pending" until an organiser approves


def _round(row: Row) -> RoundRow:
    return RoundRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        number=row["number"],
        state=row["state"],
        paired_at=from_text(row["paired_at"]),  # type: ignore[arg-type]
        paired_by=row["paired_by"],
        forced=bool(row["forced"]),
        deadline=from_text(row["deadline"]),
        completed_at=from_text(row["completed_at"]),
    )


_GAME_COLUMNS = (
    "g.id, g.tournament_id, g.round_id, r.number AS round_number, g.board, g.white_id,"
    " g.black_id, g.result, g.white_games, g.black_games, g.state, g.reported_result,"
    " g.reported_white_games, g.reported_black_games, g.reported_by, g.disputed_by,"
    " g.disputed_result, g.confirmed_by, g.set_by_user"
)


def _game(row: Row) -> GameRow:
    return GameRow(*tuple(row))


# -- rounds --------------------------------------------------------------------------------------
async def list_rounds(conn: Connection, tournament_id: int) -> list[RoundRow]:
    async with conn.execute(
        "SELECT * FROM rounds WHERE tournament_id = ? ORDER BY number", (tournament_id,)
    ) as cur:
        return [_round(row) for row in await cur.fetchall()]


async def last_round(conn: Connection, tournament_id: int) -> RoundRow | None:
    async with conn.execute(
        "SELECT * FROM rounds WHERE tournament_id = ? ORDER BY number DESC LIMIT 1",
        (tournament_id,),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _round(row)


async def get_round(
    conn: Connection, tournament_id: int, number: int
) -> RoundRow | None:
    async with conn.execute(
        "SELECT * FROM rounds WHERE tournament_id = ? AND number = ?", (tournament_id, number)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _round(row)


async def insert_round(
    conn: Connection,
    *,
    tournament_id: int,
    number: int,
    now: datetime,
    paired_by: int | None,
    forced: bool,
    deadline: datetime | None,
) -> int:
    """Insert the round; UNIQUE (tournament_id, number) makes a racing duplicate fail."""
    return await insert_returning_id(
        conn,
        "INSERT INTO rounds (tournament_id, number, paired_at, paired_by, forced, deadline)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, number, to_text(now), paired_by, int(forced),
         None if deadline is None else to_text(deadline)),
    )


async def complete_round(conn: Connection, round_id: int, now: datetime) -> bool:
    """Mark the round complete; True only for the call that changed it."""
    cur = await conn.execute(
        "UPDATE rounds SET state = 'complete', completed_at = ? WHERE id = ?"
        " AND state = 'playing'",
        (to_text(now), round_id),
    )
    return cur.rowcount == 1


async def reopen_round(conn: Connection, round_id: int) -> None:
    await conn.execute(
        "UPDATE rounds SET state = 'playing', completed_at = NULL WHERE id = ?", (round_id,)
    )


async def delete_round(conn: Connection, round_id: int) -> None:
    await conn.execute("DELETE FROM games WHERE round_id = ?", (round_id,))
    await conn.execute("DELETE FROM byes WHERE round_id = ?", (round_id,))
    await conn.execute("DELETE FROM rounds WHERE id = ?", (round_id,))


# -- round events (see migration 0003) ------------------------------------------------------------
def epoch_ms(moment: datetime) -> int:
    """Milliseconds since the Unix epoch (a naive datetime means UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


async def record_round_event(
    conn: Connection,
    tournament_id: int,
    round_number: int,
    event: str,
    *,
    at: datetime,
    actor_id: int,
) -> None:
    await conn.execute(
        "INSERT INTO round_events (tournament_id, round_number, event, at_ms, actor_id)"
        " VALUES (?, ?, ?, ?, ?)",
        (tournament_id, round_number, event, epoch_ms(at), actor_id),
    )


async def latest_round_event(conn: Connection, tournament_id: int) -> RoundEventRow | None:
    """The tournament's latest round event (a round paired or undone), if any."""
    async with conn.execute(
        "SELECT round_number, event, at_ms, actor_id FROM round_events"
        " WHERE tournament_id = ? ORDER BY id DESC LIMIT 1",
        (tournament_id,),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _event(row)


async def last_round_event(
    conn: Connection, tournament_id: int, round_number: int
) -> RoundEventRow | None:
    """What happened last to round ``round_number`` (paired or undone), if anything."""
    async with conn.execute(
        "SELECT round_number, event, at_ms, actor_id FROM round_events"
        " WHERE tournament_id = ? AND round_number = ? ORDER BY id DESC LIMIT 1",
        (tournament_id, round_number),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _event(row)


def _event(row: Row) -> RoundEventRow:
    return RoundEventRow(
        round_number=row["round_number"],
        event=row["event"],
        at=datetime.fromtimestamp(row["at_ms"] / 1000, tz=UTC),
        actor_id=row["actor_id"],
    )


# -- games ---------------------------------------------------------------------------------------
async def insert_game(
    conn: Connection,
    *,
    tournament_id: int,
    round_id: int,
    board: int,
    white_id: int,
    black_id: int,
) -> int:
    return await insert_returning_id(
        conn,
        "INSERT INTO games (tournament_id, round_id, board, white_id, black_id)"
        " VALUES (?, ?, ?, ?, ?)",
        (tournament_id, round_id, board, white_id, black_id),
    )


async def insert_games(
    conn: Connection,
    *,
    tournament_id: int,
    round_id: int,
    pairs: list[tuple[int, int]],
) -> None:
    """Every board of a round at once (board = position + 1), in one statement whose rows
    the database reads from one JSON text (``pairs`` as ``[[white, black], ...]``).

    Before, ``executemany``: on SQLite it bound every row in Python in aiosqlite's thread
    (6.7 against 4.3 ms for the 1,500 boards of a 3,000-player round, and twice that while
    the event loop competed for the GIL), on PostgreSQL it cost ~136 ms (asyncpg 0.32, one
    bind and execute per row) with the store's connection held. Issue 13."""
    await conn.execute(dialect(conn).INSERT_GAMES_FROM_JSON,
                       (tournament_id, round_id,
                        json.dumps([[white, black] for white, black in pairs])))


async def list_games(
    conn: Connection, tournament_id: int, round_number: int | None = None
) -> list[GameRow]:
    return game_rows(await fetch_games(conn, tournament_id, round_number))


def game_rows(rows: list[Row]) -> list[GameRow]:
    return [_game(row) for row in rows]


async def fetch_games(
    conn: Connection, tournament_id: int, round_number: int | None = None
) -> list[Row]:
    """:func:`list_games` as the database gives them (:func:`game_rows` turns them into
    rows: for every game of a big event, best done outside the event loop)."""
    sql = (
        f"SELECT {_GAME_COLUMNS} FROM games g JOIN rounds r ON r.id = g.round_id"
        " WHERE g.tournament_id = ?"
    )
    params: list[int] = [tournament_id]
    if round_number is not None:
        sql += " AND r.number = ?"
        params.append(round_number)
    async with conn.execute(sql + " ORDER BY r.number, g.board", params) as cur:
        return list(await cur.fetchall())


async def game_of_player(conn: Connection, round_id: int, player_id: int) -> GameRow | None:
    """The game ``player_id`` plays in round ``round_id`` (the first by board), through the
    indexes on the players' columns: a report reads one game, not the round's thousand."""
    async with conn.execute(
        f"SELECT {_GAME_COLUMNS} FROM games g JOIN rounds r ON r.id = g.round_id"
        " WHERE g.round_id = ? AND (g.white_id = ? OR g.black_id = ?)"
        " ORDER BY g.board LIMIT 1",
        (round_id, player_id, player_id),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _game(row)


async def get_game(conn: Connection, game_id: int) -> GameRow | None:
    async with conn.execute(
        f"SELECT {_GAME_COLUMNS} FROM games g JOIN rounds r ON r.id = g.round_id WHERE g.id = ?",
        (game_id,),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _game(row)


async def record_report(
    conn: Connection,
    game_id: int,
    *,
    result: str,
    white_games: int | None,
    black_games: int | None,
    reporter: int,
    now: datetime,
) -> bool:
    """pending -> reported; False if the game was no longer pending (a racing report)."""
    cur = await conn.execute(
        "UPDATE games SET state = 'reported', reported_result = ?, reported_white_games = ?,"
        " reported_black_games = ?, reported_by = ?, reported_at = ?"
        " WHERE id = ? AND state = 'pending'",
        (result, white_games, black_games, reporter, to_text(now), game_id),
    )
    return cur.rowcount == 1


async def confirm_report(
    conn: Connection,
    game_id: int,
    *,
    confirmer: int | None,
    now: datetime,
    organiser_user: int | None = None,
) -> bool:
    """reported -> final with the reported result; False if it was not 'reported' any more,
    which makes a double-clicked (or concurrent) confirmation record one result.
    ``confirmer`` is the opponent's player id, or None when an organiser (``organiser_user``,
    a Discord user id) confirmed."""
    cur = await conn.execute(
        "UPDATE games SET state = 'final', result = reported_result,"
        " white_games = reported_white_games, black_games = reported_black_games,"
        " confirmed_by = ?, set_by_user = COALESCE(?, set_by_user), finalised_at = ?"
        " WHERE id = ? AND state = 'reported'",
        (confirmer, organiser_user, to_text(now), game_id),
    )
    return cur.rowcount == 1


async def record_dispute(
    conn: Connection,
    game_id: int,
    *,
    disputer: int | None,
    result: str | None,
    now: datetime,
) -> bool:
    cur = await conn.execute(
        "UPDATE games SET state = 'disputed', disputed_by = ?, disputed_result = ?,"
        " disputed_at = ? WHERE id = ? AND state = 'reported'",
        (disputer, result, to_text(now), game_id),
    )
    return cur.rowcount == 1


async def set_final_result(
    conn: Connection,
    game_id: int,
    *,
    result: str,
    white_games: int | None,
    black_games: int | None,
    user_id: int,
    now: datetime,
) -> None:
    """An organiser's decision: final whatever the state was."""
    await conn.execute(
        "UPDATE games SET state = 'final', result = ?, white_games = ?, black_games = ?,"
        " set_by_user = ?, finalised_at = ? WHERE id = ?",
        (result, white_games, black_games, user_id, to_text(now), game_id),
    )


async def count_unfinished(conn: Connection, round_id: int) -> int:
    async with conn.execute(
        "SELECT COUNT(*) FROM games WHERE round_id = ? AND state <> 'final'", (round_id,)
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def count_open(conn: Connection, round_id: int) -> tuple[int, int]:
    """(games without a final result, of them reported and waiting for confirmation)."""
    async with conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN state = 'reported' AND reported_result IS"
        " NOT NULL THEN 1 ELSE 0 END), 0) FROM games WHERE round_id = ? AND state <> 'final'",
        (round_id,),
    ) as cur:
        row = await cur.fetchone()
    return (0, 0) if row is None else (int(row[0]), int(row[1]))


async def count_final(conn: Connection, round_id: int) -> int:
    async with conn.execute(
        "SELECT COUNT(*) FROM games WHERE round_id = ? AND state = 'final'", (round_id,)
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def count_games_of(conn: Connection, player_id: int) -> int:
    async with conn.execute(
        "SELECT COUNT(*) FROM games WHERE white_id = ? OR black_id = ?", (player_id, player_id)
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def count_results_of(conn: Connection, player_id: int) -> int:
    """The player's games with a final result (what a drop keeps in the standings)."""
    async with conn.execute(
        "SELECT COUNT(*) FROM games WHERE (white_id = ? OR black_id = ?) AND state = 'final'",
        (player_id, player_id),
    ) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


# -- byes ----------------------------------------------------------------------------------------
async def insert_bye(
    conn: Connection, *, tournament_id: int, round_id: int, player_id: int, kind: str
) -> None:
    await conn.execute(
        "INSERT INTO byes (tournament_id, round_id, player_id, kind) VALUES (?, ?, ?, ?)",
        (tournament_id, round_id, player_id, kind),
    )


async def list_byes(
    conn: Connection, tournament_id: int, round_number: int | None = None
) -> list[ByeRow]:
    sql = (
        "SELECT r.number, b.player_id, b.kind FROM byes b JOIN rounds r ON r.id = b.round_id"
        " WHERE b.tournament_id = ?"
    )
    params: list[int] = [tournament_id]
    if round_number is not None:
        sql += " AND r.number = ?"
        params.append(round_number)
    async with conn.execute(sql + " ORDER BY r.number, b.kind <> 'pairing', b.id", params) as cur:
        return [ByeRow(row[0], row[1], row[2]) for row in await cur.fetchall()]


async def delete_byes_of(conn: Connection, player_id: int) -> None:
    await conn.execute("DELETE FROM byes WHERE player_id = ?", (player_id,))


# -- bye requests --------------------------------------------------------------------------------
async def upsert_bye_request(
    conn: Connection,
    *,
    tournament_id: int,
    player_id: int,
    round_number: int,
    kind: str,
    requested_by: int,
    now: datetime,
    status: str = "approved",
) -> None:
    await conn.execute(
        "INSERT INTO bye_requests (tournament_id, player_id, round_number, kind, requested_by,"
        " created_at, status) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id,"
        " player_id, round_number) DO UPDATE SET kind = excluded.kind,"
        " requested_by = excluded.requested_by, created_at = excluded.created_at,"
        " status = excluded.status",
        (tournament_id, player_id, round_number, kind, requested_by, to_text(now), status),
    )


async def approve_bye_request(
    conn: Connection, tournament_id: int, player_id: int, round_number: int
) -> bool:
    """Pending -> approved; False if there is no pending request (already decided)."""
    cur = await conn.execute(
        "UPDATE bye_requests SET status = 'approved' WHERE tournament_id = ? AND player_id = ?"
        " AND round_number = ? AND status = 'pending'",
        (tournament_id, player_id, round_number),
    )
    return cur.rowcount == 1


async def delete_bye_request(
    conn: Connection, tournament_id: int, player_id: int, round_number: int
) -> bool:
    cur = await conn.execute(
        "DELETE FROM bye_requests WHERE tournament_id = ? AND player_id = ? AND round_number = ?",
        (tournament_id, player_id, round_number),
    )
    return cur.rowcount == 1


async def list_bye_requests(
    conn: Connection, tournament_id: int
) -> list[ByeRequestRow]:
    async with conn.execute(
        "SELECT player_id, round_number, kind, status FROM bye_requests"
        " WHERE tournament_id = ? ORDER BY round_number, id",
        (tournament_id,),
    ) as cur:
        return [ByeRequestRow(row[0], row[1], row[2], row[3]) for row in await cur.fetchall()]


# -- forbidden pairs -----------------------------------------------------------------------------
async def insert_forbidden_pair(
    conn: Connection, tournament_id: int, a: int, b: int, now: datetime
) -> bool:
    low, high = sorted((a, b))
    cur = await conn.execute(
        "INSERT INTO forbidden_pairs (tournament_id, player_a, player_b, created_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (tournament_id, low, high, to_text(now)),
    )
    return cur.rowcount == 1


async def list_forbidden_pairs(
    conn: Connection, tournament_id: int
) -> list[tuple[int, int]]:
    async with conn.execute(
        "SELECT player_a, player_b FROM forbidden_pairs WHERE tournament_id = ? ORDER BY id",
        (tournament_id,),
    ) as cur:
        return [(row[0], row[1]) for row in await cur.fetchall()]


async def game_ids(conn: Connection, round_id: int) -> list[int]:
    """The ids of a round's games in board order: one column, no row objects (the big round
    just stored needs them for its announcement, built elsewhere)."""
    async with conn.execute(
        "SELECT id FROM games WHERE round_id = ? ORDER BY board", (round_id,)
    ) as cur:
        return [int(row[0]) for row in await cur.fetchall()]
