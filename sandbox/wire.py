"""What travels between the bot and the sandbox: Discord's constants, the recorded request, the
error shapes, and the reading of a request body (JSON or multipart with files)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

API_PREFIX = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41_250  # long, so discord.py's keep-alive thread never fires mid-test
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Interaction types and callback types (Discord API).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9

# Component types: select menus (string, user, role, mentionable, channel).
STRING_SELECT = 3
SELECT_TYPES = (3, 5, 6, 7, 8)

# Application command option types.
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11


@dataclass
class Attachment:
    filename: str
    content: bytes


@dataclass
class RecordedRequest:
    """One REST request as the bot sent it, and what the sandbox answered."""

    kind: str
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Attachment]
    status: int
    response: Any
    headers: dict[str, str]


class SandboxError(Exception):
    """A test or demo asked the sandbox for something that cannot happen on Discord."""


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # discord.py decodes JSON only when the Content-Type is exactly "application/json".
    all_headers = {"Content-Type": "application/json", "Via": "1.1 sandbox"}
    all_headers.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status=status)


class ApiError(Exception):
    """Raised by a handler: answered as Discord's error body ``{code, message}``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


async def read_body(request: web.Request) -> tuple[Any, list[Attachment]]:
    if not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[Attachment] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":  # type: ignore[union-attr]
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                files.append(Attachment(part.filename or part.name or "file", bytes(data)))  # type: ignore[union-attr]
        return body, files
    text = await request.text()
    return (json.loads(text) if text else None), []

