"""``/healthz`` and ``/readyz``: what a supervisor (Kubernetes, Docker, systemd) asks the bot.

* ``/healthz``: the process answers (its event loop runs). Always 200 while it does.
* ``/readyz``: 200 when the database answers, the gateway is connected and the outbox is not
  stuck (no announcement has been due for longer than ``SWISSBOT_OUTBOX_STUCK_SECONDS``);
  503 otherwise. The body names each check and its state, nothing else: no guild, channel,
  user or event appears.

GET and HEAD only; aiohttp answers any other method with 405.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

#: A check that takes longer than this counts as failed: a probe must answer quickly, and a
#: database that takes seconds for ``SELECT 1`` is not ready.
CHECK_TIMEOUT_SECONDS = 2.0


def gateway_connected(client: Any) -> bool:
    """Every gateway connection of this process is open and has received READY."""
    if client.is_closed() or not client.is_ready():
        return False
    shards = getattr(client, "shards", None)
    if isinstance(shards, dict):  # AutoShardedClient: one connection per shard
        return bool(shards) and not any(shard.is_closed() for shard in shards.values())
    ws = getattr(client, "ws", None)
    return ws is not None and bool(ws.open)


@dataclass(frozen=True)
class Readiness:
    """Each check's state (``"ok"`` or why not) and whether all passed."""

    checks: dict[str, str]

    @property
    def ready(self) -> bool:
        return all(state == "ok" for state in self.checks.values())

    def text(self) -> str:
        lines = [f"{name}: {state}" for name, state in self.checks.items()]
        return "\n".join(["ready" if self.ready else "not ready", *lines]) + "\n"


class HealthProbe:
    """The readiness checks of one bot: its Discord client and its service."""

    def __init__(self, client: Any, service: Any, *, stuck_after: float,
                 timeout: float = CHECK_TIMEOUT_SECONDS) -> None:
        self.client = client
        self.service = service
        self.stuck_after = stuck_after
        self.timeout = timeout

    async def readiness(self) -> Readiness:
        checks = {"database": await self._database()}
        checks["gateway"] = "ok" if gateway_connected(self.client) else "disconnected"
        checks["outbox"] = await self._outbox() if checks["database"] == "ok" else "unknown"
        return Readiness(checks)

    async def _database(self) -> str:
        try:
            await asyncio.wait_for(self.service.database_ping(), self.timeout)
        except TimeoutError:
            return f"no answer within {self.timeout:g}s"
        except Exception as exc:  # the driver's own error: its type says enough, no details
            log.warning("readiness: the database is unreachable: %s", type(exc).__name__)
            return "unreachable"
        return "ok"

    async def _outbox(self) -> str:
        try:
            outbox = await asyncio.wait_for(self.service.outbox_health(), self.timeout)
        except Exception:  # TimeoutError included: reported, not raised, by a probe
            return "unknown"
        if outbox.oldest_due_seconds > self.stuck_after:
            return (f"stuck (an announcement has waited {outbox.oldest_due_seconds:.0f}s, "
                    f"limit {self.stuck_after:g}s)")
        return "ok"


PROBE = web.AppKey("health_probe", HealthProbe)


def add_health_routes(app: web.Application, probe: HealthProbe) -> None:
    """``/healthz`` and ``/readyz`` on ``app`` (GET and HEAD)."""
    app[PROBE] = probe
    app.router.add_get("/healthz", _healthz, allow_head=True)
    app.router.add_get("/readyz", _readyz, allow_head=True)


async def _healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n", headers={"Cache-Control": "no-store"})


async def _readyz(request: web.Request) -> web.Response:
    readiness = await request.app[PROBE].readiness()
    return web.Response(text=readiness.text(), status=200 if readiness.ready else 503,
                        headers={"Cache-Control": "no-store"})


def probe_for(bot: Any) -> HealthProbe:
    """The probe of a running ``SwissBot`` (its settings name the stuck-outbox limit)."""
    return HealthProbe(bot, bot.service, stuck_after=bot.settings.outbox_stuck_seconds)
