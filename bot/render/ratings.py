"""The answer to ``/admin rating``: the rating changed, and what it did to the seeding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.format import plain
from service.limits import clip

if TYPE_CHECKING:
    from service.players import RatingChange

#: Moved players listed (the rest are counted), to stay well within a message.
MOVES_SHOWN = 20


def rating_text(change: RatingChange) -> str:
    player = change.player
    who = plain(player.name, 80)
    lines = [f"Rating of **{who}**: {change.before} → {player.rating}."]
    if change.started:
        number = f" (#{player.number})" if player.number is not None else ""
        lines.append(f"The event has started: pairing numbers stay{number}, and nothing "
                     "already paired changes.")
    elif change.seed_before is None or change.seed_before == change.seed_after:
        seed = "" if change.seed_after is None else f" (#{change.seed_after})"
        lines.append(f"The seeding does not change{seed}.")
    else:
        lines.append(f"Seeding: {who} #{change.seed_before} → #{change.seed_after}.")
        others = [m for m in change.moved if m.after != change.seed_after]
        shown = ", ".join(f"{plain(m.name, 40)} #{m.before} → #{m.after}"
                          for m in others[:MOVES_SHOWN])
        if len(others) > MOVES_SHOWN:
            shown += f" and {len(others) - MOVES_SHOWN} more"
        if shown:
            lines.append(f"Moved: {shown}.")
    return clip("\n".join(lines), 1900)
