"""The outbox claim on a real PostgreSQL (issue 17): the statement ``storage.journal.claim``
builds for PostgreSQL, run by two sessions at once, gives each row to one of them, and the
second does not wait for the first (``FOR UPDATE SKIP LOCKED``). Without SKIP LOCKED the
second session waits for the first one's row locks and then claims the same rows: the
``IN (subquery)`` is not evaluated again after the wait.

Runs the SQL through psql on a throwaway cluster; skipped (saying why) where the PostgreSQL
server binaries are not installed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from storage import journal
from storage.shards import Shards
from tests.pg_throwaway import Cluster, server_binaries, throwaway_cluster

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SHARD_1 = (1 << 22) | 7  # a guild on shard 1 of 2; 1000 is on shard 0

pytestmark = pytest.mark.skipif(
    server_binaries() is None,
    reason="PostgreSQL server binaries (initdb, pg_ctl, psql) are not installed "
    "(apt-get install postgresql)",
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


class _Capture:
    """Stands in for the PostgreSQL connection: records the statement instead of running it."""

    dialect = "postgresql"

    def __init__(self) -> None:
        self.sql = ""
        self.args: tuple[Any, ...] = ()

    def execute(self, sql: str, args: tuple[Any, ...]) -> Any:
        self.sql, self.args = sql, tuple(args)

        class _Cursor:
            async def __aenter__(self) -> _Cursor:
                return self

            async def __aexit__(self, *exc: object) -> None:
                return None

            async def fetchall(self) -> list[Any]:
                return []

        return _Cursor()


async def _claim_sql(claimant: str, limit: int) -> str:
    """The claim as PostgreSQL receives it: ``$n`` placeholders, bound by EXECUTE."""
    capture = _Capture()
    await journal.claim(capture, claimant=claimant, now=NOW,  # type: ignore[arg-type]
                        lease_until=NOW + timedelta(seconds=60), limit=limit,
                        shards=Shards(2, frozenset({0})))
    numbers = iter(range(1, 100))
    sql = re.sub(r"\?", lambda _: f"${next(numbers)}", capture.sql)
    sql = sql.replace("RETURNING *", "RETURNING id")
    values = ", ".join(f"'{a}'" if isinstance(a, str) else str(a) for a in capture.args)
    return f"PREPARE claim AS {sql};\nEXECUTE claim({values});\n"


def _fill(cluster: Cluster) -> None:
    stamp = "2025-12-31T00:00:00+00:00"
    cluster.psql(
        "DROP TABLE IF EXISTS outbox; CREATE TABLE outbox (id BIGINT PRIMARY KEY, guild_id"
        " BIGINT NOT NULL, channel_id BIGINT, delivered_at TEXT, next_attempt_at TEXT NOT NULL,"
        " claimed_by TEXT, lease_until TEXT);"
        " INSERT INTO outbox (id, guild_id, channel_id, next_attempt_at) SELECT g,"
        f" CASE WHEN g % 4 = 0 THEN {SHARD_1} ELSE 1000 END, 10 + g, '{stamp}'"
        " FROM generate_series(1, 8) AS g;"
    )


async def test_two_sessions_claim_disjoint_rows_without_waiting(cluster: Cluster) -> None:
    _fill(cluster)
    # The first session claims three rows and keeps its transaction (and its row locks) open.
    first = cluster.popen("BEGIN;\n" + await _claim_sql("a", 3)
                          + "SELECT pg_sleep(8);\nCOMMIT;\n")
    for _ in range(600):  # until it sleeps, holding the locks
        if cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                        " AND query LIKE 'SELECT pg_sleep%'") == [["1"]]:
            break
        time.sleep(0.05)
    # A lock wait in the second session is an error here, not a delay: SKIP LOCKED never
    # waits for a row lock (without it this session fails with "lock timeout").
    second = cluster.psql("SET lock_timeout = '1s';\n" + await _claim_sql("b", 3))
    assert first.stdout is not None and first.stderr is not None
    out, err = first.stdout.read(), first.stderr.read()  # a few bytes: no pipe can fill
    assert first.wait(timeout=60) == 0, err
    got_a = sorted(int(line) for line in out.split() if line.strip().isdigit())
    got_b = sorted(int(row[0]) for row in second)
    assert got_a == [1, 2, 3]
    assert got_b == [5, 6, 7]  # skipped the locked rows; 4 and 8 are on the other shard
    owners = cluster.psql("SELECT id, claimed_by FROM outbox WHERE claimed_by IS NOT NULL")
    assert sorted((int(i), who) for i, who in owners) == \
        [(1, "a"), (2, "a"), (3, "a"), (5, "b"), (6, "b"), (7, "b")]
