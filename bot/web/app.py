"""A read-only web page per event, served by the bot process with aiohttp.

* ``GET /e/{token}`` (or ``/e/{token}/``): the page, rendered on the server (bot.web.page) so
  it reads without JavaScript; ``?round=N`` picks the round whose pairings it shows. Its
  script (bot.web.static) refreshes it every few seconds. ``GET /e/{token}/data.json``: the
  same content as JSON, for other programs. ``/static/live.js`` and ``.css`` are fixed
  strings. Anything else is 404: no directory listing, no index of guilds or events, and an
  unknown token looks exactly like a mistyped path.
* The token (``secrets.token_urlsafe(16)``, stored per event) is the only key: no guild or
  event id appears in a URL, and the page shows one event of one guild.
* No write actions: only GET/HEAD routes exist. ``/healthz`` and ``/readyz`` (bot.health)
  answer the bot's supervisor.
* Every user text is escaped on the server; the script parses the page with ``DOMParser``,
  which runs no script. The Content-Security-Policy allows only our own script and
  stylesheet, so even a slip could not run injected code.
* Reads are the service's short read transactions (WAL readers never block the bot's
  writes); the HTML and JSON of a big event are built in a worker thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.health import HealthProbe, add_health_routes
from bot.web.page import page_html, result_text, selected_round
from bot.web.serving import serve
from bot.web.static import SCRIPT, STYLE
from service import LiveEventView, format_points
from service.present import format_value

log = logging.getLogger(__name__)

SERVICE = web.AppKey("service", object)

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token must not leak to other sites
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


@web.middleware
async def _secure(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:  # 404 and 405 carry the headers too
        exc.headers.update(SECURITY_HEADERS)
        raise
    response.headers.update(SECURITY_HEADERS)
    return response


def build_app(service: Any, health: HealthProbe | None = None) -> web.Application:
    app = web.Application(middlewares=[_secure])
    app[SERVICE] = service
    if health is not None:  # /healthz and /readyz for the supervisor (bot.health)
        add_health_routes(app, health)
    app.router.add_get("/e/{token}", _page, allow_head=True)
    app.router.add_get("/e/{token}/", _page, allow_head=True)
    app.router.add_get("/e/{token}/data.json", _data, allow_head=True)
    app.router.add_get("/static/live.js", _script, allow_head=True)
    app.router.add_get("/static/live.css", _style, allow_head=True)
    return app


async def _event(request: web.Request) -> LiveEventView:
    event = await request.app[SERVICE].live_event(request.match_info["token"])
    if event is None:
        raise web.HTTPNotFound(text="404: Not Found")
    return event


async def _page(request: web.Request) -> web.Response:
    event = await _event(request)
    shown = selected_round(event, request.query.get("round"))
    text = await _built(event, page_html, event, shown)
    return web.Response(text=text, content_type="text/html", charset="utf-8")


async def _data(request: web.Request) -> web.Response:
    event = await _event(request)
    text = await _built(event, _json_text, event)
    return web.Response(text=text, content_type="application/json", charset="utf-8")


def _json_text(event: LiveEventView) -> str:
    return json.dumps(event_json(event), ensure_ascii=False)


#: Players above which the page is built in a worker thread (a few ms per hundred rows of
#: standings and crosstable: a big event's page would hold the event loop too long).
THREAD_ABOVE_PLAYERS = 200


async def _built(event: LiveEventView, build: Callable[..., str], *args: Any) -> str:
    rows = len(event.standings.rows) if event.standings is not None else 0
    if rows > THREAD_ABOVE_PLAYERS:
        return await asyncio.to_thread(build, *args)
    return build(*args)


async def _script(request: web.Request) -> web.Response:
    return web.Response(text=SCRIPT, content_type="application/javascript", charset="utf-8")


async def _style(request: web.Request) -> web.Response:
    return web.Response(text=STYLE, content_type="text/css", charset="utf-8")


# -- content ---------------------------------------------------------------------------------
def event_json(event: LiveEventView) -> dict[str, Any]:
    """What the page shows. No Discord ids: names, numbers and results only."""
    info = event.info
    rounds = []
    for rnd in event.rounds:
        rounds.append({
            "number": rnd.number,
            "state": rnd.state,
            "games": [{"board": g.board,
                       "white": {"name": g.white.name, "number": g.white.number},
                       "black": {"name": g.black.name, "number": g.black.number},
                       "result": result_text(g.result),
                       "final": g.state == "final",
                       "url": event.game_urls.get(g.id)} for g in rnd.games],
            "byes": [{"name": b.player.name, "number": b.player.number, "kind": b.kind,
                      "points": format_points(b.points)} for b in rnd.byes],
        })
    body: dict[str, Any] = {
        "name": info.name, "status": info.status, "round": info.current_round,
        "total_rounds": info.settings.rounds, "players": info.players,
        "colours": info.settings.colours, "rounds": rounds,
        "standings": None, "crosstable": None,
    }
    if event.standings is not None:
        s = event.standings
        body["standings"] = {
            "after_round": s.after_round, "final": s.final, "tiebreaks": list(s.tiebreaks),
            "rows": [{"rank": r.rank, "number": r.number, "name": r.name,
                      "points": format_points(r.points),
                      "values": [format_value(v) for v in r.values],
                      "withdrawn": r.withdrawn} for r in s.rows],
        }
    if event.crosstable is not None:
        c = event.crosstable
        body["crosstable"] = {
            "after_round": c.after_round,
            "rows": [{"rank": r.rank, "number": r.number, "name": r.name,
                      "cells": list(r.cells), "points": format_points(r.points),
                      "withdrawn": r.withdrawn} for r in c.rows],
            "legend": c.legend,
        }
    return body


class LiveServer:
    """The aiohttp server, started and stopped with the bot."""

    def __init__(self, service: Any, *, host: str, port: int,
                 health: HealthProbe | None = None,
                 routes: Callable[[web.Application], None] | None = None) -> None:
        self.service = service
        self.host = host
        self.port = port
        self.health = health
        self.routes = routes  # more pages (the Lichess OAuth return)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = build_app(self.service, self.health)
        if self.routes is not None:
            self.routes(app)
        self._runner, self.port = await serve(app, self.host, self.port, "SWISSBOT_WEB_PORT")
        log.info("live pages served on http://%s:%s/e/<token>", self.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
