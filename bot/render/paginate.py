"""Split long lists (pairings, standings) into messages within Discord's limits.

Limits (https://discord.com/developers/docs/resources/message): content 2000 characters; up to
10 embeds per message, 6000 characters in all of a message's embeds; an embed description
4096, a title 256, a footer 2048. We keep a margin under each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.render import limits
from bot.render.message import Outgoing, TextFile

CONTENT_LIMIT = limits.CONTENT
DESCRIPTION_BUDGET = 3900
MESSAGE_EMBED_BUDGET = 5800
EMBEDS_PER_MESSAGE = limits.EMBEDS
TITLE_LIMIT = limits.EMBED_TITLE


@dataclass(frozen=True, slots=True)
class Line:
    """One row of a list; ``mentions`` are the users this row should ping (in the content)."""

    text: str
    mentions: tuple[int, ...] = ()


def paginate(
    title: str,
    lines: Sequence[Line],
    *,
    colour: discord.Colour,
    intro: str = "",
    footer: str = "",
    header: str = "",
    code_block: bool = False,
    content: str = "",
    attachment: TextFile | None = None,
    mention_roles: Sequence[int] = (),
) -> list[Outgoing]:
    """Pack ``lines`` into embeds and messages.

    ``intro`` opens the first embed's description; ``header`` (e.g. a table header) starts
    every embed's block. ``content`` goes to the first message; each message's content then
    lists the mentions of its own lines, so every paired player is pinged exactly once and
    no message exceeds 2000 characters. ``attachment`` goes on the first message.
    """
    title = title[: TITLE_LIMIT - 12]
    messages: list[Outgoing] = []
    embeds: list[discord.Embed] = []  # closed embeds of the open message
    block: list[str] = []  # lines of the open embed
    mentions: list[int] = []  # of the open message
    closed_chars = 0  # embed characters already used in the open message

    def is_first_embed() -> bool:
        return not messages and not embeds

    def embed_title() -> str:
        return title if is_first_embed() else f"{title} (continued)"

    def description(rows: list[str]) -> str:
        body = "\n".join(([header] if header else []) + rows)
        if code_block:
            body = f"```\n{body}\n```"
        if is_first_embed() and intro:
            body = f"{intro}\n{body}" if rows else intro
        return body

    def embed_chars(rows: list[str]) -> int:
        return len(embed_title()) + len(description(rows)) + len(footer)

    def content_of(users: list[int]) -> str:
        parts = [content.strip()] if not messages and content.strip() else []
        if users:
            parts.append(" ".join(f"<@{u}>" for u in users))
        return "\n".join(parts)

    def close_embed() -> None:
        nonlocal block, closed_chars
        embed = discord.Embed(title=embed_title(), description=description(block), colour=colour)
        if footer:
            embed.set_footer(text=footer)
        closed_chars += embed_chars(block)
        embeds.append(embed)
        block = []

    def close_message() -> None:
        nonlocal embeds, mentions, closed_chars
        if block or not embeds:
            close_embed()
        messages.append(
            Outgoing(
                content=content_of(mentions),
                embeds=embeds,
                mention_users=tuple(mentions),
                mention_roles=tuple(mention_roles) if not messages else (),
            )
        )
        embeds, mentions, closed_chars = [], [], 0

    for line in lines:
        new_users = [u for u in dict.fromkeys(line.mentions) if u not in mentions]
        rows = [*block, line.text]
        fits_content = len(content_of(mentions + new_users)) <= CONTENT_LIMIT - 10
        fits_embed = len(description(rows)) <= DESCRIPTION_BUDGET
        fits_message = closed_chars + embed_chars(rows) <= MESSAGE_EMBED_BUDGET
        if block and not (fits_content and fits_message):
            close_message()
        elif block and not fits_embed:
            close_embed()
            if len(embeds) >= EMBEDS_PER_MESSAGE or (
                closed_chars + embed_chars([line.text]) > MESSAGE_EMBED_BUDGET
            ):
                close_message()
        block.append(line.text)
        mentions.extend(u for u in dict.fromkeys(line.mentions) if u not in mentions)
    close_message()
    if attachment is not None:
        messages[0].files.append(attachment)
    return messages
