"""Rendering: the service's views as Discord messages within Discord's limits."""

from bot.render.format import discord_timestamp, plain, points
from bot.render.message import Outgoing, TextFile, allowed_mentions
from bot.render.paginate import Line, paginate

__all__ = [
    "Line",
    "Outgoing",
    "TextFile",
    "allowed_mentions",
    "discord_timestamp",
    "paginate",
    "plain",
    "points",
]
