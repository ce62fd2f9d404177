"""The nonce of each message the outbox posts (shared by the delivery loop and bot.notify)."""

from __future__ import annotations


def nonce_for(outbox_id: int, part: int) -> str:
    """The nonce of part ``part`` of outbox row ``outbox_id`` (Discord allows 25 characters)."""
    return f"sb{outbox_id}p{part}"
