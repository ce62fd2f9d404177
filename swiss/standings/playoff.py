"""Ties left after every tie-break, and what the regulations say happens next.

C.07 ranks players by points and then by the ordered tie-break list the event's regulations
give. When the list is exhausted and players are still equal, the regulations of the event decide
between two ways out: a play-off (C.07's play-off part: it must be announced in the event's
regulations, with its format, before the event starts, and is the way for a title or a
qualification place), or, without one, the drawing of lots. swissbot never plays a play-off itself:
:func:`remaining_ties` finds the groups, :func:`next_step` words the rule, and the caller shows it
(``swissbot standings``, the bot's ``/standings``).
"""

from __future__ import annotations

from dataclasses import dataclass

from swiss.standings.editions import EDITION_TITLES
from swiss.standings.ranking import Standings


@dataclass(frozen=True, slots=True)
class RemainingTie:
    """Players equal on points and on every tie-break: they share ``rank``."""

    rank: int
    player_ids: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def places(self) -> str:
        """The places the group shares, e.g. ``"2-3"``."""
        last = self.rank + len(self.player_ids) - 1
        return f"{self.rank}-{last}"


def remaining_ties(standings: Standings, top: int | None = None) -> list[RemainingTie]:
    """The groups of two or more players still sharing a rank, best first.

    ``top`` keeps only the groups that touch the first ``top`` places (e.g. the prize or
    qualification places), which are the ones a play-off can be about.
    """
    groups: dict[int, list[tuple[int, str]]] = {}
    for row in standings.rows:
        groups.setdefault(row.rank, []).append((row.player_id, row.name))
    ties = [
        RemainingTie(rank, tuple(p for p, _ in members), tuple(n for _, n in members))
        for rank, members in sorted(groups.items())
        if len(members) > 1
    ]
    if top is not None:
        ties = [t for t in ties if t.rank <= top]
    return ties


def next_step(standings: Standings, final_key: str = "order") -> str:
    """What happens to the ties left after every tie-break, in one short paragraph.

    ``final_key`` is the order swissbot lists the tied players in meanwhile ("order": initial
    order, "lot": a lot drawn with a seed).
    """
    ties = remaining_ties(standings)
    edition = EDITION_TITLES.get(standings.edition, standings.edition)
    if not ties:
        return f"No tie remains after the tie-breaks ({edition})."
    listed = "; ".join(
        f"places {t.places}: " + ", ".join(f"#{p} {n}".strip() for p, n in zip(
            t.player_ids, t.names, strict=True))
        for t in ties[:5]
    )
    more = f" (and {len(ties) - 5} more groups)" if len(ties) > 5 else ""
    listing = "initial order" if final_key == "order" else "a drawn lot"
    return (
        f"Tied after every tie-break: {listed}{more}. Under {edition}, the event's regulations "
        "decide: a play-off announced in them (for a title or a qualifying place) is played "
        "between the tied players; otherwise the tie is broken by drawing lots. Until then "
        f"swissbot lists them by {listing} and they share the rank."
    )
