"""The operator's view: the metrics' collectors on both backends, /healthz and /readyz, the
metrics endpoint's answers, and the JSON log format (tests/e2e/test_metrics.py watches the
counters move during a real event)."""

from __future__ import annotations

import io
import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import metrics
from bot.health import HealthProbe
from bot.logs import REDACTED, configure_logging
from service import TournamentService
from service.outbox import GIVEN_UP
from service.pairing_pool import PairingPool
from storage import journal
from storage import tournaments as tournament_repo
from tests.service_helpers import Clock, open_database

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def _queue(db: Any, created: datetime, count: int = 1) -> list[int]:
    async with db.transaction() as conn:
        tournament = await tournament_repo.insert_tournament(
            conn, guild_id=7, name=f"Cup {created:%H%M%S} {count}", settings={"rounds": 1},
            seed=1, channel_id=70, created_by=1, now=created)
        return [await journal.enqueue(conn, guild_id=7, channel_id=70,
                                      tournament_id=tournament, kind="standings",
                                      payload={"n": n}, now=created) for n in range(count)]


@pytest.mark.usefixtures("backend")
class TestCollectors:
    async def test_the_outbox_backlog_counts_what_is_still_to_post(self, tmp_path: Path) -> None:
        async with await open_database(tmp_path / "bot.sqlite3") as db:
            service = TournamentService(db, clock=Clock(NOW))
            empty = await service.outbox_health()
            assert (empty.depth, empty.oldest_seconds, empty.oldest_due_seconds) == (0, 0, 0)
            due, done, retrying, dropped = await _queue(db, NOW - timedelta(minutes=10), 4)
            async with db.transaction() as conn:
                await journal.mark_delivered(conn, done, NOW)
                await journal.mark_failed(conn, retrying, error="HTTP 500",
                                          retry_at=NOW + timedelta(minutes=5))
                await journal.mark_failed(conn, dropped, error="gave up", retry_at=GIVEN_UP)
            health = await service.outbox_health()
            # the due row and the one waiting for its retry; not the delivered nor the given up
            assert health.depth == 2
            assert health.oldest_seconds == health.oldest_due_seconds == pytest.approx(600.0)
            async with db.transaction() as conn:
                await journal.mark_delivered(conn, due, NOW)
            health = await service.outbox_health()
            assert health.depth == 1
            assert health.oldest_seconds == pytest.approx(600.0)  # queued 10 minutes ago...
            assert health.oldest_due_seconds == 0.0  # ...but waiting for its retry, not stuck

    async def test_the_connection_use_is_seen_while_an_operation_holds_one(
            self, tmp_path: Path) -> None:
        async with await open_database(tmp_path / "bot.sqlite3") as db:
            service = TournamentService(db, clock=Clock(NOW))
            idle = service.database_usage()
            assert idle is not None and idle.in_use == 0 and idle.size >= 1
            assert idle.maximum >= idle.size
            async with db.transaction():
                busy = service.database_usage()
                assert busy is not None and busy.in_use == 1

    async def test_a_scrape_reads_the_backlog_and_the_pool(self, tmp_path: Path) -> None:
        async with await open_database(tmp_path / "bot.sqlite3") as db:
            service = TournamentService(db, clock=Clock(NOW))
            await _queue(db, NOW - timedelta(seconds=90), 3)
            await metrics.refresh(_client(service))
            value = metrics.REGISTRY.get_sample_value
            assert value("swissbot_outbox_depth") == 3
            assert value("swissbot_outbox_oldest_due_seconds") == pytest.approx(90.0)
            assert value("swissbot_outbox_oldest_seconds") == pytest.approx(90.0)
            assert value("swissbot_database_up") == 1
            assert value("swissbot_database_connections", {"state": "in_use"}) == 0
            assert value("swissbot_gateway_connected") == 1
            assert value("swissbot_gateway_latency_seconds", {"shard": "0"}) == 0.042


def _client(service: Any, *, connected: bool = True) -> Any:
    """What the probe and the scrape read of a discord.py client."""
    return SimpleNamespace(
        service=service, latency=0.042, shard_id=None,
        is_closed=lambda: not connected, is_ready=lambda: connected,
        ws=SimpleNamespace(open=connected),
    )


def _counted(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


async def test_pairing_runs_are_counted_by_place_and_outcome() -> None:
    metrics.watch(SimpleNamespace(add_listener=lambda *a: None))
    pool = PairingPool()
    before_ok = _counted("swissbot_pairing_runs_total", where="inline", outcome="ok")
    before_failed = _counted("swissbot_pairing_runs_total", where="inline", outcome="failed")
    before_timed = _counted("swissbot_pairing_duration_seconds_count", where="inline")

    def pairs(model: Any, config: Any) -> tuple[str, dict[str, Any]]:
        return "paired", {}

    def fails(model: Any, config: Any) -> Any:
        raise ValueError("no pairing")

    assert await pool.run(None, pairs, None, None) == ("paired", {})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await pool.run(None, fails, None, None)  # type: ignore[arg-type]
    assert _counted("swissbot_pairing_runs_total", where="inline", outcome="ok") == before_ok + 1
    assert _counted("swissbot_pairing_runs_total", where="inline",
                    outcome="failed") == before_failed + 1
    assert _counted("swissbot_pairing_duration_seconds_count",
                    where="inline") == before_timed + 2


async def test_a_worker_run_that_overruns_is_counted_as_a_failed_worker_run() -> None:
    from service.pairing_pool import PairingLimits, PairingWorkerFailed
    from tests.pairing_jobs import endless_pairing

    metrics.watch(SimpleNamespace(add_listener=lambda *a: None))
    pool = PairingPool(PairingLimits(time_limit=0.5, inline_below=0))
    before = _counted("swissbot_pairing_runs_total", where="worker", outcome="failed")
    timed = _counted("swissbot_pairing_duration_seconds_sum", where="worker")
    try:
        with pytest.raises(PairingWorkerFailed):
            await pool.run(pool.reserve(), endless_pairing, None, None)  # type: ignore[arg-type]
    finally:
        pool.close()
    assert _counted("swissbot_pairing_runs_total", where="worker",
                    outcome="failed") == before + 1
    assert _counted("swissbot_pairing_duration_seconds_sum", where="worker") - timed >= 0.5


# -- /healthz, /readyz, /metrics ---------------------------------------------------------------
async def _answers(client: Any, service: Any, *paths: str, method: str = "GET",
                   stuck_after: float = 600.0) -> list[tuple[int, str]]:
    probe = HealthProbe(client, service, stuck_after=stuck_after)
    app = metrics.build_app(client, probe)
    async with TestClient(TestServer(app)) as http:
        answers = []
        for path in paths:
            response = await http.request(method, path)
            answers.append((response.status, await response.text()))
        return answers


async def test_health_answers_and_refuses_other_methods(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        service = TournamentService(db, clock=Clock(NOW))
        client = _client(service)
        (healthz, readyz, scrape) = await _answers(client, service,
                                                    "/healthz", "/readyz", "/metrics")
        assert healthz == (200, "ok\n")
        assert readyz == (200, "ready\ndatabase: ok\ngateway: ok\noutbox: ok\n")
        assert scrape[0] == 200 and "swissbot_outbox_depth 0.0" in scrape[1]
        for path in ("/healthz", "/readyz", "/metrics"):
            for method in ("POST", "PUT", "DELETE"):
                [(status, _)] = await _answers(client, service, path, method=method)
                assert status == 405, (method, path)
        missing = await _answers(client, service, "/", "/metrics/x", "/e/x")
        assert [status for status, _ in missing] == [404, 404, 404]


async def test_not_ready_when_the_gateway_is_disconnected(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        service = TournamentService(db, clock=Clock(NOW))
        [(status, text)] = await _answers(_client(service, connected=False), service, "/readyz")
        assert status == 503
        assert "gateway: disconnected" in text and "database: ok" in text


@pytest.mark.usefixtures("backend")
async def test_not_ready_when_the_database_is_unreachable(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    service = TournamentService(db, clock=Clock(NOW))
    await db.close()
    [(status, text), (alive, _)] = await _answers(_client(service), service,
                                                  "/readyz", "/healthz")
    assert status == 503 and "database: ok" not in text and "outbox: unknown" in text
    assert alive == 200  # the process itself is alive: a restart would not fix the database


async def test_not_ready_when_the_outbox_is_stuck(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        service = TournamentService(db, clock=Clock(NOW))
        await _queue(db, NOW - timedelta(minutes=11))
        [(status, text)] = await _answers(_client(service), service, "/readyz")
        assert status == 503 and "outbox: stuck" in text
        [(status, _)] = await _answers(_client(service), service, "/readyz", stuck_after=900)
        assert status == 200


# -- logs -----------------------------------------------------------------------------------------
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def restore_logging() -> Any:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("restore_logging")
def test_json_logs_are_one_object_per_line_without_the_token() -> None:
    stream = io.StringIO()
    configure_logging("INFO", stream=stream, fmt="json", secrets=["s3cret-token"])
    log = logging.getLogger("swissbot.test")
    log.info("connected with %s\nsecond line", "s3cret-token")
    log.warning("header Authorization: Bot %s", TOKEN)
    try:
        raise RuntimeError(f"bad token {TOKEN}")
    except RuntimeError:
        log.exception("failed: \"quoted\" ünïcode")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    entries = [json.loads(line) for line in lines]
    assert [e["level"] for e in entries] == ["INFO", "WARNING", "ERROR"]
    assert {e["logger"] for e in entries} == {"swissbot.test"}
    assert entries[0]["message"] == f"connected with {REDACTED}\nsecond line"
    assert entries[1]["message"] == f"header Authorization: Bot {REDACTED}"
    assert entries[2]["message"] == 'failed: "quoted" ünïcode'
    assert "RuntimeError: bad token [redacted]" in entries[2]["exception"]
    assert datetime.fromisoformat(entries[0]["time"]).tzinfo is not None
    assert "s3cret-token" not in stream.getvalue() and TOKEN not in stream.getvalue()


@pytest.mark.usefixtures("restore_logging")
def test_text_logs_redact_the_token_too() -> None:
    stream = io.StringIO()
    configure_logging("INFO", stream=stream, secrets=["s3cret-token"])
    logging.getLogger("swissbot.test").info("token %s and %s", "s3cret-token", TOKEN)
    line = stream.getvalue()
    assert "swissbot.test: token [redacted] and [redacted]" in line


def test_log_format_and_metrics_settings() -> None:
    from bot.settings import Settings

    settings = Settings(_env_file=None, log_format=" JSON ", metrics_port="9108")  # type: ignore[call-arg]
    assert (settings.log_format, settings.metrics_port, settings.metrics_host) == (
        "json", 9108, "127.0.0.1")
    assert Settings(_env_file=None, metrics_port=" ").metrics_port is None  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="SWISSBOT_LOG_FORMAT must be text or json"):
        Settings(_env_file=None, log_format="xml")  # type: ignore[call-arg]


async def test_the_live_pages_server_answers_the_probes_too(tmp_path: Path) -> None:
    from bot.web.app import build_app

    async with await open_database(tmp_path / "bot.sqlite3") as db:
        service = TournamentService(db, clock=Clock(NOW))
        probe = HealthProbe(_client(service, connected=False), service, stuck_after=600)
        async with TestClient(TestServer(build_app(service, probe))) as http:
            alive = await http.get("/healthz")
            assert alive.status == 200 and alive.headers["X-Content-Type-Options"] == "nosniff"
            ready = await http.get("/readyz")
            assert ready.status == 503 and "gateway: disconnected" in await ready.text()
            assert (await http.post("/readyz")).status == 405
        async with TestClient(TestServer(build_app(service))) as http:
            assert (await http.get("/healthz")).status == 404  # only when the bot asks for them


def test_the_metrics_port_cannot_be_the_live_pages_port() -> None:
    from bot.settings import Settings

    with pytest.raises(ValueError, match="SWISSBOT_METRICS_PORT must differ"):
        Settings(_env_file=None, metrics_port=8080, web_port=8080)  # type: ignore[call-arg]
    assert Settings(_env_file=None, metrics_port=0, web_port=0).metrics_port == 0  # type: ignore[call-arg]
