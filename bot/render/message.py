"""What the bot sends: content, embeds, text attachments, and exactly who may be pinged."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord


@dataclass(frozen=True, slots=True)
class TextFile:
    """A text attachment (e.g. the full pairings of a large round)."""

    filename: str
    text: str

    def to_file(self) -> discord.File:
        return discord.File(io.BytesIO(self.text.encode("utf-8")), filename=self.filename)


@dataclass(frozen=True, slots=True)
class BinaryFile:
    """A binary attachment (the bracket picture)."""

    filename: str
    data: bytes

    def to_file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename)


@dataclass(slots=True)
class Outgoing:
    """One Discord message, ready to send.

    Only the users in ``mention_users`` and the roles in ``mention_roles`` can be pinged:
    ``allowed_mentions`` never lets anything in user-supplied text (a tournament or guest name)
    ping @everyone, @here, a role or another member.
    """

    content: str = ""
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[TextFile | BinaryFile] = field(default_factory=list)
    mention_users: tuple[int, ...] = ()
    mention_roles: tuple[int, ...] = ()
    # (label, custom_id) buttons. Announcements are rendered without the cogs, so only the
    # custom_id is known here: the cog's dynamic item of the same template answers the click.
    buttons: tuple[tuple[str, str], ...] = ()

    def allowed_mentions(self) -> discord.AllowedMentions:
        return allowed_mentions(self.mention_users, self.mention_roles)

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``Messageable.send`` / ``followup.send``."""
        kwargs: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            kwargs["content"] = self.content
        if self.embeds:
            kwargs["embeds"] = list(self.embeds)
        if self.files:
            kwargs["files"] = [f.to_file() for f in self.files]
        if self.buttons:
            view = discord.ui.View(timeout=None)
            for label, custom_id in self.buttons:
                view.add_item(discord.ui.Button(label=label, custom_id=custom_id,
                                                style=discord.ButtonStyle.primary))
            kwargs["view"] = view
        return kwargs


def allowed_mentions(
    users: Sequence[int] = (), roles: Sequence[int] = ()
) -> discord.AllowedMentions:
    """Ping exactly these users and roles; never @everyone / @here."""
    return discord.AllowedMentions(
        everyone=False,
        users=[discord.Object(u) for u in users] if users else False,
        roles=[discord.Object(r) for r in roles] if roles else False,
        replied_user=False,
    )
