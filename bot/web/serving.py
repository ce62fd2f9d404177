"""Starting an aiohttp application on a host and port (the live pages, the metrics)."""

from __future__ import annotations

from aiohttp import web


class PortUnavailable(Exception):
    """The bot cannot listen where a setting says (the port is taken, the host is not one of
    this machine's addresses): one line naming the setting, for the operator."""


async def serve(app: web.Application, host: str, port: int,
                setting: str) -> tuple[web.AppRunner, int]:
    """Serve ``app``; returns its runner (``cleanup()`` stops it) and the port it listens
    on: the one asked for, or the one the system chose for port 0 (tests). Raises
    :class:`PortUnavailable` naming ``setting`` when it cannot listen there."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        reason = exc.strerror or str(exc)
        raise PortUnavailable(f"cannot listen on {host}:{port} ({setting}): {reason}") from None
    if port == 0:
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            port = sockets[0].getsockname()[1]
    return runner, port
