"""Starting an aiohttp application on a host and port (the live pages, the metrics)."""

from __future__ import annotations

from aiohttp import web


async def serve(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve ``app``; returns its runner (``cleanup()`` stops it) and the port it listens
    on: the one asked for, or the one the system chose for port 0 (tests)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    if port == 0:
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            port = sockets[0].getsockname()[1]
    return runner, port
