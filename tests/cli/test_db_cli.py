"""``swissbot db copy`` and ``swissbot db check`` (issue 17, item 4): a tournament moves from
SQLite to PostgreSQL and back identical by checksum, a non-empty destination is refused
without --force, the copied database takes new rows (sequences reset), and check finds
orphans and lagging sequences on either backend."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from cli.main import main
from service import TournamentService
from storage.db import connect
from storage.moving import foreign_key_order, table_sums
from tests.pg_cluster import Cluster
from tests.service.test_service_tournament import play_round
from tests.service_helpers import Clock, member, organiser

ORG = organiser()


async def _played(path: Path) -> None:
    """A SQLite file with a tournament two rounds in: players, games, byes, audit, outbox."""
    async with await connect(path) as db:
        service = TournamentService(db, clock=Clock())
        await service.create_tournament(ORG, "Moving Cup", 4, seed=7)
        for uid in range(1, 8):
            await service.join(member(100 + uid, name=f"Ann\t{uid} 'é'\n"), rating=1500 + uid)
        view = await service.start_tournament(ORG)
        await play_round(service, view)
        await play_round(service, await service.pair_next_round(ORG))


async def _sums(target: str) -> list[object]:
    async with await connect(target, migrate=False) as db, db.transaction(readonly=True) as conn:
        return await table_sums(conn)  # type: ignore[return-value]


async def _new_pg(cluster: Cluster, name: str) -> str:
    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await admin.close()
    return cluster.url(name)


def test_round_trip_sqlite_postgresql_sqlite_is_identical(
    tmp_path: Path, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source, back = tmp_path / "club.sqlite3", tmp_path / "back.sqlite3"
    asyncio.run(_played(source))
    url = asyncio.run(_new_pg(pg_cluster, "roundtrip"))

    assert main(["db", "copy", str(source), url]) == 0
    out = capsys.readouterr().out
    assert "games" in out and "DIFFERS" not in out and "identical" in out
    assert main(["db", "copy", url, f"sqlite:///{back}"]) == 0
    original = asyncio.run(_sums(str(source)))
    assert asyncio.run(_sums(url)) == original
    assert asyncio.run(_sums(str(back))) == original
    assert any(s.rows > 0 for s in original if s.table == "games")  # type: ignore[attr-defined]
    assert main(["db", "check", url]) == 0
    assert main(["db", "check", str(back)]) == 0

    # the copy is a working database: new rows get fresh ids (sequences were reset)
    async def more() -> int:
        async with await connect(url) as db:
            service = TournamentService(db, clock=Clock())
            info = await service.create_tournament(organiser(guild=2), "After the move", 3)
            return info.id

    assert asyncio.run(more()) == 2


def test_a_non_empty_destination_is_refused_unless_forced(
    tmp_path: Path, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "club.sqlite3"
    asyncio.run(_played(source))
    url = asyncio.run(_new_pg(pg_cluster, "busy"))
    assert main(["db", "copy", str(source), url]) == 0
    capsys.readouterr()
    assert main(["db", "copy", str(source), url]) == 1
    assert "not empty" in capsys.readouterr().err
    assert main(["db", "copy", str(source), url, "--force"]) == 0
    assert asyncio.run(_sums(url)) == asyncio.run(_sums(str(source)))
    # and into a non-empty SQLite file (its audit log refuses DELETE: lifted for the copy only)
    other = tmp_path / "other.sqlite3"
    asyncio.run(_played(other))
    assert main(["db", "copy", url, str(other)]) == 1
    assert main(["db", "copy", url, str(other), "--force"]) == 0
    assert asyncio.run(_sums(str(other))) == asyncio.run(_sums(str(source)))
    with sqlite3.connect(other) as raw, pytest.raises(sqlite3.IntegrityError, match="append"):
        raw.execute("DELETE FROM audit_log")


def test_a_missing_source_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "copy", str(tmp_path / "nope.sqlite3"), str(tmp_path / "x")]) == 1
    assert "no such database file" in capsys.readouterr().err
    assert not (tmp_path / "nope.sqlite3").exists()
    assert main(["db", "check", str(tmp_path / "nope.sqlite3")]) == 1


def test_check_finds_an_orphan_in_sqlite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    asyncio.run(_played(path))
    assert main(["db", "check", str(path)]) == 0
    assert "ok (sqlite" in capsys.readouterr().out
    with sqlite3.connect(path) as raw:  # foreign keys are off on a plain connection
        raw.execute("INSERT INTO players (tournament_id, name, registered_at)"
                    " VALUES (999, 'Orphan', '2026-01-01T00:00:00+00:00')")
    assert main(["db", "check", str(path)]) == 1
    assert "players row" in capsys.readouterr().out


def test_check_finds_orphans_and_lagging_sequences_in_postgresql(
    tmp_path: Path, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "club.sqlite3"
    asyncio.run(_played(source))
    url = asyncio.run(_new_pg(pg_cluster, "damaged"))
    assert main(["db", "copy", str(source), url]) == 0
    assert main(["db", "check", url]) == 0
    capsys.readouterr()

    async def damage() -> None:
        raw = await asyncpg.connect(url)
        try:
            await raw.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), 1)")
            await raw.execute("ALTER TABLE players DISABLE TRIGGER ALL")  # FK checks off
            await raw.execute("INSERT INTO players (tournament_id, name, registered_at)"
                              " VALUES (999, 'Orphan', '2026-01-01T00:00:00+00:00')")
            await raw.execute("ALTER TABLE players ENABLE TRIGGER ALL")
        finally:
            await raw.close()

    asyncio.run(damage())
    assert main(["db", "check", url]) == 1
    out = capsys.readouterr().out
    assert "players row(s) point to a missing tournaments row" in out
    assert "games_id_seq" in out and "collide" in out


def test_foreign_key_order_puts_parents_first() -> None:
    order = foreign_key_order(
        ["games", "players", "rounds", "tournaments"],
        [("games", "rounds"), ("games", "players"), ("rounds", "tournaments"),
         ("players", "tournaments"), ("games", "games")],
    )
    assert order.index("tournaments") < order.index("rounds") < order.index("games")
    assert order.index("players") < order.index("games")
