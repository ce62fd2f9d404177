"""A read-only web page per event, served by the bot process with aiohttp.

* ``GET /e/{token}``: the page; ``GET /e/{token}/data.json``: what it shows, polled every
  few seconds by the page's script so it updates itself. ``/static/live.js`` and ``.css`` are
  fixed strings. Anything else is 404: no directory listing, no index of guilds or events, and
  an unknown token looks exactly like a mistyped path.
* The token (``secrets.token_urlsafe(16)``, stored per event) is the only key: no guild or
  event id appears in a URL, and the page shows one event of one guild.
* No write actions: only GET/HEAD routes exist. ``/healthz`` and ``/readyz`` (bot.health)
  answer the bot's supervisor.
* Every user text reaches the browser as JSON and is put in the page with ``textContent``;
  the page's HTML is escaped on the server. The Content-Security-Policy allows only our own
  script and stylesheet, so even a slip could not run injected code.
* Reads are the service's short read transactions (WAL readers never block the bot's
  writes); the JSON is built in the handler, nothing blocks the event loop for long.
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.health import HealthProbe, add_health_routes
from bot.web.serving import serve
from service import LiveEventView, format_points
from service.present import format_value

log = logging.getLogger(__name__)

SERVICE = web.AppKey("service", object)

#: Seconds between two polls of the page's script.
POLL_SECONDS = 5

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
    return web.Response(text=page_html(event), content_type="text/html", charset="utf-8")


async def _data(request: web.Request) -> web.Response:
    event = await _event(request)
    return web.Response(text=json.dumps(event_json(event), ensure_ascii=False),
                        content_type="application/json", charset="utf-8")


async def _script(request: web.Request) -> web.Response:
    return web.Response(text=SCRIPT, content_type="application/javascript", charset="utf-8")


async def _style(request: web.Request) -> web.Response:
    return web.Response(text=STYLE, content_type="text/css", charset="utf-8")


# -- content ---------------------------------------------------------------------------------
_RESULT = {"*": "…", "1/2-1/2": "½-½", "+--": "+ −", "--+": "− +", "---": "− −"}


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
                       "result": _RESULT.get(g.result, g.result),
                       "final": g.state == "final"} for g in rnd.games],
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


def page_html(event: LiveEventView) -> str:
    name = html.escape(event.info.name)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{name} · swissbot</title>
<link rel="stylesheet" href="/static/live.css">
<script src="/static/live.js" defer></script>
</head>
<body data-poll="{POLL_SECONDS}">
<header><h1 id="title">{name}</h1><p id="state">Loading…</p></header>
<main>
<section><h2>Standings</h2><table id="standings"></table></section>
<section><h2 id="round-title">Pairings</h2><table id="pairings"></table>
<p id="byes"></p></section>
<section><h2>Crosstable</h2><div class="scroll"><table id="crosstable"></table></div>
<p id="crosstable-legend" class="legend"></p></section>
</main>
<footer>Read-only page, updates by itself · swissbot</footer>
</body>
</html>
"""


SCRIPT = r"""'use strict';
// Renders data.json with textContent only: player names are never parsed as HTML.
(function () {
  const poll = Number(document.body.dataset.poll || 5) * 1000;
  const dataUrl = location.pathname.replace(/\/$/, '') + '/data.json';
  let last = '';

  function cell(row, text, cls) {
    const head = row.parentElement && row.parentElement.tagName === 'THEAD';
    const td = document.createElement(head ? 'th' : 'td');
    td.textContent = text;
    if (cls) td.className = cls;
    row.appendChild(td);
  }
  function table(el, head, rows) {
    el.replaceChildren();
    const thead = el.createTHead();
    const hr = thead.insertRow();
    head.forEach(h => cell(hr, h));
    const tbody = el.createTBody();
    rows.forEach(r => {
      const tr = tbody.insertRow();
      if (r.cls) tr.className = r.cls;
      r.cells.forEach(c => cell(tr, c));
    });
  }
  function render(d) {
    document.getElementById('title').textContent = d.name;
    document.title = d.name + ' · swissbot';
    const state = {registration: 'registration open', running: 'running',
                   finished: 'finished', cancelled: 'cancelled'}[d.status] || d.status;
    document.getElementById('state').textContent =
      state + ' · round ' + d.round + ' of ' + d.total_rounds + ' · ' + d.players + ' players';
    const s = d.standings;
    table(document.getElementById('standings'), ['#', 'Player', 'Pts'].concat(s ? s.tiebreaks : []),
      s ? s.rows.map(r => ({cls: r.withdrawn ? 'withdrawn' : '',
        cells: [String(r.rank), r.name, r.points].concat(r.values)})) : []);
    const rnd = d.rounds.length ? d.rounds[d.rounds.length - 1] : null;
    document.getElementById('round-title').textContent =
      rnd ? 'Round ' + rnd.number + (rnd.state === 'complete' ? ' (complete)' : '') : 'Pairings';
    table(document.getElementById('pairings'), ['Board', d.colours ? 'White' : 'Player',
      'Result', d.colours ? 'Black' : 'Player'],
      rnd ? rnd.games.map(g => ({cls: g.final ? '' : 'pending', cells: [String(g.board),
        g.white.name, g.result, g.black.name]})) : []);
    document.getElementById('byes').textContent = rnd && rnd.byes.length
      ? 'Byes: ' + rnd.byes.map(b => b.name + ' (' + b.points + ')').join(', ') : '';
    const c = d.crosstable;
    const rounds = c ? c.after_round : 0;
    const head = ['Rk', 'Player'];
    for (let i = 1; i <= rounds; i++) head.push('R' + i);
    head.push('Pts');
    // the row names the start number ("#7 Ann") that the other rows' cells use
    table(document.getElementById('crosstable'), head,
      c ? c.rows.map(r => ({cls: r.withdrawn ? 'withdrawn' : '',
        cells: [String(r.rank), '#' + r.number + ' ' + r.name].concat(r.cells, [r.points])}))
        : []);
    document.getElementById('crosstable-legend').textContent = c ? c.legend : '';
  }
  async function refresh() {
    try {
      const response = await fetch(dataUrl, {cache: 'no-store'});
      if (response.ok) {
        const text = await response.text();
        if (text !== last) { last = text; render(JSON.parse(text)); }
      }
    } catch (e) { /* the bot restarts: try again at the next poll */ }
    setTimeout(refresh, poll);
  }
  refresh();
})();
"""

STYLE = """
:root { color-scheme: light dark; --bg: #fafafc; --fg: #181a20; --muted: #5c6270;
        --stripe: #eceef4; --accent: #5865f2; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1e1f24; --fg: #f2f3f5; --muted: #a3a9b7; --stripe: #2b2d34; }
}
body { background: var(--bg); color: var(--fg); margin: 0 auto; max-width: 1100px;
       padding: 1rem; font: 15px/1.4 system-ui, sans-serif; }
header { border-bottom: 3px solid var(--accent); margin-bottom: 1rem; }
h1 { margin: 0.2rem 0; overflow-wrap: anywhere; }
#state, footer, .legend { color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 0.25rem 0.5rem; text-align: left; max-width: 22rem; overflow: hidden;
         text-overflow: ellipsis; white-space: nowrap; }
th { color: var(--muted); font-weight: 600; }
tbody tr:nth-child(odd) { background: var(--stripe); }
tr.withdrawn, tr.pending { color: var(--muted); }
.scroll { overflow-x: auto; }
"""


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
