"""Discord's size limits for what the bot sends, and the checks that keep every message within
them (https://discord.com/developers/docs/resources/message#create-message). A message over a
limit is refused with HTTP 400, so the user would get no answer at all.

The limits on user *input* (names, rounds, minutes, tiebreak lists) are in
:mod:`service.limits`.
"""

from __future__ import annotations

from typing import Any

import discord

from service.limits import clip

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256


def fit_content(text: str) -> str:
    """Message content cut to Discord's 2,000 characters (the last resort for a reply whose
    parts were each bounded but whose sum is not)."""
    return clip(text, CONTENT)


def add_field(embed: discord.Embed, name: str, value: str, *, inline: bool = True) -> None:
    """``embed.add_field`` with the name and value cut to Discord's limits (an empty value is
    refused by Discord: it becomes a dash)."""
    embed.add_field(
        name=clip(name, FIELD_NAME) or "—", value=clip(value, FIELD_VALUE) or "—", inline=inline
    )


def embed_size(embed: discord.Embed | dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6,000 (title, description, field names
    and values, footer, author)."""
    data: dict[str, Any] = embed.to_dict() if isinstance(embed, discord.Embed) else embed  # type: ignore[assignment]
    total = len(data.get("title") or "") + len(data.get("description") or "")
    total += len((data.get("footer") or {}).get("text") or "")
    total += len((data.get("author") or {}).get("name") or "")
    for field in data.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def problems(content: str | None, embeds: list[discord.Embed] | list[dict[str, Any]]) -> list[str]:
    """Every way a message breaks Discord's limits (empty when it fits)."""
    found = []
    if content is not None and len(content) > CONTENT:
        found.append(f"content has {len(content)} characters (limit {CONTENT})")
    if len(embeds) > EMBEDS:
        found.append(f"{len(embeds)} embeds (limit {EMBEDS})")
    total = 0
    for embed in embeds:
        data: dict[str, Any] = embed.to_dict() if isinstance(embed, discord.Embed) else embed  # type: ignore[assignment]
        if len(data.get("title") or "") > EMBED_TITLE:
            found.append("embed title too long")
        if len(data.get("description") or "") > EMBED_DESCRIPTION:
            found.append("embed description too long")
        if len((data.get("footer") or {}).get("text") or "") > FOOTER:
            found.append("embed footer too long")
        fields = data.get("fields") or []
        if len(fields) > FIELDS:
            found.append(f"{len(fields)} fields (limit {FIELDS})")
        for field in fields:
            if len(field.get("name") or "") > FIELD_NAME:
                found.append("field name too long")
            if len(field.get("value") or "") > FIELD_VALUE:
                found.append(f"field value has {len(field.get('value') or '')} characters")
            if not field.get("name") or not field.get("value"):
                found.append("empty field name or value")
        total += embed_size(data)
    if total > EMBED_TOTAL:
        found.append(f"embeds have {total} characters (limit {EMBED_TOTAL})")
    return found
