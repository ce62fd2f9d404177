"""Wiring Lichess into the bot: the HTTP client and the token cipher handed to the service,
and the page Lichess sends a member back to after the OAuth approval
(``GET /lichess/oauth?code=...&state=...``, served by the bot's web server)."""

from __future__ import annotations

import html
import logging
from typing import Any

from aiohttp import web

from bot.lichess.client import LichessClient
from bot.lichess.secrets import FernetCipher

log = logging.getLogger(__name__)

CALLBACK_PATH = "/lichess/oauth"
_SERVICE = web.AppKey("lichess_service", object)
_REDIRECT = web.AppKey("lichess_redirect", str)


def callback_url(public_url: str) -> str:
    return public_url.rstrip("/") + CALLBACK_PATH


def attach(service: Any, settings: Any) -> LichessClient | None:
    """Give the service a Lichess client (unless a test gave it one) and, with
    SWISSBOT_SECRET_KEY set, the cipher that lets it keep OAuth tokens."""
    if getattr(service, "lichess", None) is not None:
        return None
    client = LichessClient(settings.lichess_url)
    service.lichess = client
    if settings.secret_key is not None and settings.secret_key.get_secret_value().strip():
        service.token_cipher = FernetCipher(settings.secret_key.get_secret_value())
    return client


def add_routes(app: web.Application, service: Any, public_url: str) -> None:
    app[_SERVICE] = service
    app[_REDIRECT] = callback_url(public_url)
    app.router.add_get(CALLBACK_PATH, _callback)


async def _callback(request: web.Request) -> web.Response:
    from service import ServiceError

    service = request.app[_SERVICE]
    query = request.query
    try:
        link = await service.lichess_oauth_finish(  # type: ignore[attr-defined]
            query.get("state", ""), query.get("code"), request.app[_REDIRECT],
            error=query.get("error"))
    except ServiceError as error:
        return _page("Not linked", str(error), status=400)
    return _page("Linked", f"Your Discord account is now linked to the Lichess account "
                           f"{link.username} on this server. You can close this page.")


def _page(title: str, text: str, *, status: int = 200) -> web.Response:
    body = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}"
            f" · swissbot</title></head><body><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(text)}</p></body></html>")
    return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
