"""The live pages' app served for a test: an aiohttp test client over build_app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.web.app import build_app


@asynccontextmanager
async def web_client(service: Any) -> AsyncIterator[TestClient]:
    client = TestClient(TestServer(build_app(service)))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()
