"""Discord's documented message size limits, enforced by the sandbox the way Discord does (a 400
with code 50035), so the bot's truncation and splitting are really tested."""

from __future__ import annotations

from typing import Any

from sandbox.wire import ApiError, Attachment

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048


def check_message_limits(body: dict[str, Any], files: list[Attachment]) -> None:
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        raise ApiError(400, 50035, f"content: must be {MAX_CONTENT} or fewer in length")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise ApiError(400, 50035, f"embeds: must be {MAX_EMBEDS} or fewer in length")
    total = 0
    for embed in embeds:
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        fields = embed.get("fields") or []
        if len(title) > MAX_EMBED_TITLE or len(description) > MAX_EMBED_DESCRIPTION:
            raise ApiError(400, 50035, "embeds: title or description too long")
        if len(fields) > MAX_FIELDS or len(footer) > MAX_FOOTER:
            raise ApiError(400, 50035, "embeds: too many fields or footer too long")
        for f in fields:
            if len(f.get("name") or "") > MAX_FIELD_NAME or len(f.get("value") or "") > (
                MAX_FIELD_VALUE
            ):
                raise ApiError(400, 50035, "embeds: field too long")
            if not f.get("name") or not f.get("value"):
                raise ApiError(400, 50035, "embeds: field name and value are required")
            total += len(f["name"]) + len(f["value"])
        author = (embed.get("author") or {}).get("name") or ""
        total += len(title) + len(description) + len(footer) + len(author)
    if total > MAX_EMBED_TOTAL:
        raise ApiError(400, 50035, f"embeds: total size must be {MAX_EMBED_TOTAL} or fewer")
    if not content and not embeds and not files and not body.get("components") and (
        "content" in body or "embeds" in body
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")

