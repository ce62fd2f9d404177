"""Prometheus metrics (``SWISSBOT_METRICS_PORT``): what an operator watches.

Counters and histograms are updated where things happen (one hook each: the command tree's
completion and error paths, the outbox delivery, the pairing runs); gauges of state (the
outbox backlog, the gateway, the database connections) are read when Prometheus scrapes.

Labels are bounded and carry no user data: command names (the bot's own), outcomes, the
service's refusal codes, announcement outcomes, shard numbers. Never a guild, channel, user
or event, nor any name typed by a user.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

from bot.health import CHECK_TIMEOUT_SECONDS, HealthProbe, add_health_routes, gateway_connected
from bot.web.serving import serve
from service.pairing_timing import run_observers

log = logging.getLogger(__name__)

#: swissbot's own registry: the metrics of this process, nothing a library registered.
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # memory, CPU time, open files (Linux)

COMMANDS = Counter(
    "swissbot_commands", "Slash commands answered, by command and outcome (ok, refused, "
    "error); code is the refusal's stable code", ["command", "outcome", "code"],
    registry=REGISTRY)
COMMAND_SECONDS = Histogram(
    "swissbot_command_duration_seconds", "Time from receiving a slash command to its end",
    ["command"], registry=REGISTRY,
    buckets=(0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
DELIVERIES = Counter(
    "swissbot_outbox_deliveries", "Announcements the outbox handled, by outcome: delivered, "
    "retry (failed, tried again later), given_up", ["outcome"], registry=REGISTRY)
PAIRINGS = Counter(
    "swissbot_pairing_runs", "Pairing runs, by where they ran (inline, worker) and outcome",
    ["where", "outcome"], registry=REGISTRY)
PAIRING_SECONDS = Histogram(
    "swissbot_pairing_duration_seconds", "Pairing run durations, by where they ran",
    ["where"], registry=REGISTRY,
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0))
OUTBOX_DEPTH = Gauge(
    "swissbot_outbox_depth", "Announcements not yet posted (given-up ones excluded)",
    registry=REGISTRY)
OUTBOX_OLDEST = Gauge(
    "swissbot_outbox_oldest_seconds", "Age of the oldest announcement not yet posted (0 when "
    "there is none)", registry=REGISTRY)
OUTBOX_OLDEST_DUE = Gauge(
    "swissbot_outbox_oldest_due_seconds", "How long the longest-waiting due announcement "
    "has waited (0 when none is due)", registry=REGISTRY)
DATABASE_UP = Gauge(
    "swissbot_database_up", "1 when the last scrape's database read answered in time",
    registry=REGISTRY)
DATABASE_CONNECTIONS = Gauge(
    "swissbot_database_connections", "Database connections: open, in_use, max",
    ["state"], registry=REGISTRY)
GATEWAY_CONNECTED = Gauge(
    "swissbot_gateway_connected", "1 when every gateway connection is open and ready",
    registry=REGISTRY)
GATEWAY_LATENCY = Gauge(
    "swissbot_gateway_latency_seconds", "Heartbeat round trip to Discord's gateway, per shard "
    "(NaN before the first heartbeat)", ["shard"], registry=REGISTRY)

#: Where a command's start time waits for its end (``Interaction.extras``).
_STARTED = "swissbot_metrics_started"


def command_started(interaction: Any) -> None:
    interaction.extras[_STARTED] = time.perf_counter()


def command_finished(interaction: Any, outcome: str, code: str = "") -> None:
    """Count a slash command: ``outcome`` ok, refused (``code`` says why) or error."""
    command = getattr(interaction, "command", None)
    name = command.qualified_name if command is not None else "unknown"
    COMMANDS.labels(name, outcome, code).inc()
    started = interaction.extras.get(_STARTED)
    if started is not None:
        COMMAND_SECONDS.labels(name).observe(time.perf_counter() - started)


async def _command_completed(interaction: Any, command: Any) -> None:
    command_finished(interaction, "ok")


def delivered() -> None:
    DELIVERIES.labels("delivered").inc()


def delivery_retried() -> None:
    DELIVERIES.labels("retry").inc()


def delivery_given_up() -> None:
    DELIVERIES.labels("given_up").inc()


def _pairing_run(where: str, outcome: str, seconds: float) -> None:
    PAIRINGS.labels(where, outcome).inc()
    PAIRING_SECONDS.labels(where).observe(seconds)


def watch(bot: Any) -> None:
    """Count ``bot``'s completed commands and this process's pairing runs (the errors are
    counted by the command tree, bot.errors)."""
    bot.add_listener(_command_completed, "on_app_command_completion")
    if _pairing_run not in run_observers:
        run_observers.append(_pairing_run)


# -- the scrape ------------------------------------------------------------------------------
async def refresh(bot: Any, *, timeout: float = CHECK_TIMEOUT_SECONDS) -> None:
    """Read the state gauges now (a scrape)."""
    service = bot.service
    try:
        outbox = await asyncio.wait_for(service.outbox_health(), timeout)
    except Exception as exc:  # a scrape reports the failure, it never raises it
        log.warning("metrics: the outbox could not be read: %s", type(exc).__name__)
        DATABASE_UP.set(0)
        for gauge in (OUTBOX_DEPTH, OUTBOX_OLDEST, OUTBOX_OLDEST_DUE):
            gauge.set(math.nan)
    else:
        DATABASE_UP.set(1)
        OUTBOX_DEPTH.set(outbox.depth)
        OUTBOX_OLDEST.set(outbox.oldest_seconds)
        OUTBOX_OLDEST_DUE.set(outbox.oldest_due_seconds)
    usage_of = getattr(service, "database_usage", None)
    usage = usage_of() if usage_of is not None else None
    if usage is not None:
        DATABASE_CONNECTIONS.labels("open").set(usage.size)
        DATABASE_CONNECTIONS.labels("in_use").set(usage.in_use)
        DATABASE_CONNECTIONS.labels("max").set(usage.maximum)
    GATEWAY_CONNECTED.set(1 if gateway_connected(bot) else 0)
    for shard, latency in _latencies(bot):
        GATEWAY_LATENCY.labels(str(shard)).set(latency)


def _latencies(bot: Any) -> list[tuple[int, float]]:
    latencies = getattr(bot, "latencies", None)  # AutoShardedClient: one per shard
    if isinstance(latencies, list):
        return latencies
    return [(getattr(bot, "shard_id", None) or 0, bot.latency)]


BOT = web.AppKey("bot", object)


async def _metrics(request: web.Request) -> web.Response:
    await refresh(request.app[BOT])
    body = generate_latest(REGISTRY)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST,
                                            "Cache-Control": "no-store"})


def build_app(bot: Any, probe: HealthProbe) -> web.Application:
    """``/metrics``, ``/healthz`` and ``/readyz`` (GET and HEAD; anything else is 405, any
    other path 404)."""
    app = web.Application()
    app[BOT] = bot
    app.router.add_get("/metrics", _metrics, allow_head=True)
    add_health_routes(app, probe)
    return app


class MetricsServer:
    """The metrics port's aiohttp server, started and stopped with the bot."""

    def __init__(self, bot: Any, probe: HealthProbe, *, host: str, port: int) -> None:
        self.app = build_app(bot, probe)
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner, self.port = await serve(self.app, self.host, self.port,
                                              "SWISSBOT_METRICS_PORT")
        log.info("metrics served on http://%s:%s/metrics", self.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()


async def start_monitoring(bot: Any, probe: HealthProbe) -> MetricsServer | None:
    """Count ``bot``'s commands and runs; serve the metrics when ``SWISSBOT_METRICS_PORT``
    is set (returns the server, None otherwise)."""
    watch(bot)
    port = bot.settings.metrics_port
    if port is None:
        return None
    server = MetricsServer(bot, probe, host=bot.settings.metrics_host, port=port)
    await server.start()
    return server
