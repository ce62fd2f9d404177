"""Where an event's live page is reachable (no aiohttp import: the cogs and the delivery use it)."""

from __future__ import annotations

from typing import Any


def live_pages_on(client: Any) -> bool:
    """True when the bot serves the pages and SWISSBOT_PUBLIC_URL says where."""
    settings = getattr(client, "settings", None)
    return bool(settings is not None and settings.web_port is not None and settings.public_url)


def live_page_url(client: Any, token: str) -> str:
    return f"{client.settings.public_url}/e/{token}"
