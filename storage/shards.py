"""Which guilds a process serves when the bot runs as several processes (Discord sharding).

Discord puts guild ``g`` on shard ``(g >> 22) % shard_count``: the gateway of that shard
carries the guild's events (its slash commands included). A process that runs only some of
the shards must also do only those guilds' background work (deliver their outbox rows, fire
their timers, pair their auto-advancing rounds), or two processes would race for it.

:class:`Shards` is that choice; :meth:`Shards.where` turns it into a SQL condition, the same
text for SQLite and PostgreSQL (``>>`` and ``%`` on 64-bit integers exist in both).
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard that carries ``guild_id``'s events."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards ``ids`` out of ``count``. ``ALL`` (one shard of one) owns every guild."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be between 0 and {self.count - 1}")

    @property
    def everything(self) -> bool:
        """True when these shards cover every guild (no filter needed)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        return self.everything or shard_of(guild_id, self.count) in self.ids

    def where(self, column: str) -> tuple[str, tuple[int, ...]]:
        """``(sql, params)``: a condition true for the rows whose guild ``column`` is ours.
        ``column`` is code, never user text."""
        if self.everything:
            return "1 = 1", ()
        marks = ", ".join("?" for _ in self.ids)
        return f"(({column} >> 22) % ?) IN ({marks})", (self.count, *sorted(self.ids))


ALL = ALL_SHARDS = Shards(1, frozenset({0}))
