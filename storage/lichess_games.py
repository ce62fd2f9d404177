"""Repository: the Lichess game of each board (migration 0018, ``lichess_games``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection
from storage.shards import ALL_SHARDS, Shards
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class BoardToCreate:
    """A board of an event on Lichess that has no Lichess game yet."""

    game_id: int
    tournament_id: int
    guild_id: int
    tournament_name: str
    round_id: int
    round_number: int
    board: int
    white: str  # Lichess usernames
    black: str
    clock_limit: int
    clock_increment: int
    rated: bool
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class GameLinks:
    game_id: int
    challenge_id: str
    url_white: str
    url_black: str


async def boards_to_create(conn: Connection, limit: int,
                           shards: Shards = ALL_SHARDS) -> list[BoardToCreate]:
    """Boards of running events on Lichess, both players linked, without a Lichess game, in
    the order they were paired, of the guilds of ``shards``. Finished games and byes are not
    boards."""
    where, shard_params = shards.where("t.guild_id")
    async with conn.execute(
        "SELECT g.id AS game_id, t.id AS tournament_id, t.guild_id, t.name, r.id AS round_id,"
        " r.number, g.board, lw.username AS white, lb.username AS black, e.clock_limit,"
        " e.clock_increment, e.rated, r.deadline"
        " FROM games g JOIN rounds r ON r.id = g.round_id"
        " JOIN tournaments t ON t.id = g.tournament_id"
        " JOIN lichess_events e ON e.tournament_id = t.id"
        " JOIN players pw ON pw.id = g.white_id JOIN players pb ON pb.id = g.black_id"
        " JOIN lichess_links lw ON lw.guild_id = t.guild_id AND lw.user_id = pw.user_id"
        " JOIN lichess_links lb ON lb.guild_id = t.guild_id AND lb.user_id = pb.user_id"
        " LEFT JOIN lichess_games lg ON lg.game_id = g.id"
        " WHERE lg.game_id IS NULL AND t.status = 'running' AND g.state <> 'final'"
        f" AND {where} ORDER BY g.id LIMIT ?",
        (*shard_params, limit),
    ) as cursor:
        rows = await cursor.fetchall()
    return [_board(row) for row in rows]


def _board(row: Any) -> BoardToCreate:
    return BoardToCreate(
        game_id=int(row["game_id"]), tournament_id=int(row["tournament_id"]),
        guild_id=int(row["guild_id"]), tournament_name=str(row["name"]),
        round_id=int(row["round_id"]), round_number=int(row["number"]),
        board=int(row["board"]), white=str(row["white"]), black=str(row["black"]),
        clock_limit=int(row["clock_limit"]), clock_increment=int(row["clock_increment"]),
        rated=bool(row["rated"]), deadline=from_text(row["deadline"]))


async def insert_game(conn: Connection, tournament_id: int, links: GameLinks,
                      now: datetime) -> bool:
    """Store the board's game: True once; False when the board has one already (a second
    worker) or is gone (its round was undone meanwhile)."""
    async with conn.execute("SELECT 1 FROM games WHERE id = ?", (links.game_id,)) as cursor:
        if await cursor.fetchone() is None:
            return False
    async with conn.execute("SELECT 1 FROM lichess_games WHERE game_id = ?",
                            (links.game_id,)) as cursor:
        if await cursor.fetchone() is not None:
            return False
    await conn.execute(
        "INSERT INTO lichess_games (game_id, tournament_id, challenge_id, url_white, url_black,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (links.game_id, tournament_id, links.challenge_id, links.url_white, links.url_black,
         to_text(now)),
    )
    return True


async def games_of_round(conn: Connection, round_id: int) -> dict[int, GameLinks]:
    """``{game id: links}`` for the round's boards that have a Lichess game."""
    async with conn.execute(
        "SELECT lg.game_id, lg.challenge_id, lg.url_white, lg.url_black FROM lichess_games lg"
        " JOIN games g ON g.id = lg.game_id WHERE g.round_id = ?", (round_id,)
    ) as cursor:
        rows = await cursor.fetchall()
    return {int(r["game_id"]): GameLinks(int(r["game_id"]), str(r["challenge_id"]),
                                         str(r["url_white"]), str(r["url_black"]))
            for r in rows}


async def game_urls(conn: Connection, tournament_id: int) -> dict[int, str]:
    """``{game id: the game's page on Lichess}`` for the event's boards that have one (the
    link without a colour: the page shows the game to anyone once it started)."""
    async with conn.execute(
        "SELECT game_id, url_white FROM lichess_games WHERE tournament_id = ?",
        (tournament_id,)) as cursor:
        rows = await cursor.fetchall()
    return {int(r["game_id"]): str(r["url_white"]).split("?", 1)[0] for r in rows}


async def links_of_game(conn: Connection, game_id: int) -> GameLinks | None:
    """The board's Lichess game, if it has one."""
    async with conn.execute(
        "SELECT game_id, challenge_id, url_white, url_black FROM lichess_games"
        " WHERE game_id = ?", (game_id,)) as cursor:
        r = await cursor.fetchone()
    return None if r is None else GameLinks(int(r["game_id"]), str(r["challenge_id"]),
                                            str(r["url_white"]), str(r["url_black"]))


async def mark_announced(conn: Connection, round_id: int, now: datetime) -> bool:
    """True for the one call that marks the round's links announced."""
    async with conn.execute("SELECT 1 FROM lichess_rounds_announced WHERE round_id = ?",
                            (round_id,)) as cursor:
        if await cursor.fetchone() is not None:
            return False
    await conn.execute(
        "INSERT INTO lichess_rounds_announced (round_id, announced_at) VALUES (?, ?)",
        (round_id, to_text(now)))
    return True


@dataclass(frozen=True, slots=True)
class GameToFollow:
    """A board whose Lichess game is not final yet, with what its game must be."""

    game_id: int
    tournament_id: int
    challenge_id: str
    white: str  # Lichess user ids
    black: str
    clock_limit: int
    clock_increment: int
    created_at: datetime
    problem: str | None


async def games_to_follow(conn: Connection, limit: int,
                          shards: Shards = ALL_SHARDS) -> list[GameToFollow]:
    where, shard_params = shards.where("t.guild_id")
    async with conn.execute(
        "SELECT g.id AS game_id, t.id AS tournament_id, lg.challenge_id, lw.lichess_id AS white,"
        " lb.lichess_id AS black, e.clock_limit, e.clock_increment, lg.created_at, lg.problem"
        " FROM lichess_games lg JOIN games g ON g.id = lg.game_id"
        " JOIN tournaments t ON t.id = g.tournament_id"
        " JOIN lichess_events e ON e.tournament_id = t.id"
        " JOIN players pw ON pw.id = g.white_id JOIN players pb ON pb.id = g.black_id"
        " JOIN lichess_links lw ON lw.guild_id = t.guild_id AND lw.user_id = pw.user_id"
        " JOIN lichess_links lb ON lb.guild_id = t.guild_id AND lb.user_id = pb.user_id"
        " WHERE g.state <> 'final' AND t.status = 'running'"
        f" AND {where} ORDER BY g.id LIMIT ?",
        (*shard_params, limit),
    ) as cursor:
        rows = await cursor.fetchall()
    return [GameToFollow(
        game_id=int(r["game_id"]), tournament_id=int(r["tournament_id"]),
        challenge_id=str(r["challenge_id"]), white=str(r["white"]), black=str(r["black"]),
        clock_limit=int(r["clock_limit"]), clock_increment=int(r["clock_increment"]),
        created_at=from_text(r["created_at"]),  # type: ignore[arg-type]
        problem=r["problem"]) for r in rows]


async def set_problem(conn: Connection, game_id: int, problem: str) -> bool:
    """Record what the organisers are told of the game: True when it is news."""
    cur = await conn.execute(
        "UPDATE lichess_games SET problem = ? WHERE game_id = ?"
        " AND (problem IS NULL OR problem <> ?)", (problem, game_id, problem))
    return cur.rowcount == 1


async def running_events(conn: Connection, shards: Shards = ALL_SHARDS) -> list[int]:
    """The running events on Lichess of the guilds of ``shards``."""
    where, shard_params = shards.where("t.guild_id")
    async with conn.execute(
        "SELECT t.id FROM tournaments t JOIN lichess_events e ON e.tournament_id = t.id"
        f" WHERE t.status = 'running' AND {where} ORDER BY t.id", shard_params,
    ) as cursor:
        return [int(row[0]) for row in await cursor.fetchall()]


async def open_outage(conn: Connection, tournament_id: int, problem: str,
                      now: datetime) -> bool:
    """True when this starts the event's outage (its organisers are to be told)."""
    async with conn.execute("SELECT 1 FROM lichess_outages WHERE tournament_id = ?",
                            (tournament_id,)) as cursor:
        if await cursor.fetchone() is not None:
            return False
    await conn.execute(
        "INSERT INTO lichess_outages (tournament_id, since, problem) VALUES (?, ?, ?)",
        (tournament_id, to_text(now), problem))
    return True


async def close_outages(conn: Connection, shards: Shards = ALL_SHARDS) -> list[int]:
    """End the outages of the guilds of ``shards``: the events that had one."""
    where, shard_params = shards.where("t.guild_id")
    async with conn.execute(
        "SELECT o.tournament_id FROM lichess_outages o JOIN tournaments t"
        f" ON t.id = o.tournament_id WHERE {where}", shard_params,
    ) as cursor:
        ended = [int(row[0]) for row in await cursor.fetchall()]
    for tournament_id in ended:
        await conn.execute("DELETE FROM lichess_outages WHERE tournament_id = ?",
                           (tournament_id,))
    return ended
