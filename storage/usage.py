"""How many database connections are open and in use (both backends report it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PoolUsage:
    """Database connections: open ones, how many of them an operation holds now, and the
    most there can be."""

    size: int
    in_use: int
    maximum: int
