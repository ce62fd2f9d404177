"""The reply of ``/tournament export``: the files, and what could not be attached."""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from service import ExportFile

#: Discord's attachments per message.
MAX_FILES = 10


def export_reply(exported: Sequence[ExportFile], size_limit: int
                 ) -> tuple[str, list[discord.File]]:
    """The text and the attachments: each file that fits Discord's ``size_limit`` (bytes,
    the interaction's), the others named with their size and what to ask for instead."""
    files: list[discord.File] = []
    lines: list[str] = []
    too_big: list[str] = []
    for item in exported:
        data = item.content.encode("utf-8")
        if len(data) > size_limit or len(files) == MAX_FILES:
            too_big.append(f"`{item.filename}` ({_megabytes(len(data))})")
            continue
        files.append(discord.File(io.BytesIO(data), item.filename))
        lines.append(f"`{item.filename}`")
    text = ", ".join(lines)
    if too_big:
        text += (f"\nToo large to attach (Discord allows {_megabytes(size_limit)} per file "
                 f"here): {', '.join(too_big)}. Ask for one table at a time, as CSV.")
    notes = sorted({item.note for item in exported if item.note})
    return "\n".join([text.strip(), *notes]), files


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"
