"""The answer to ``/admin rating``: the rating changed, and what it did to the seeding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.format import plain
from i18n import _, ngettext
from service.limits import clip

if TYPE_CHECKING:
    from service.players import RatingChange

#: Moved players listed (the rest are counted), to stay well within a message.
MOVES_SHOWN = 20


def rating_text(change: RatingChange) -> str:
    player = change.player
    who = plain(player.name, 80)
    lines = [_("Rating of **{name}**: {before} → {after}.", name=who, before=change.before,
               after=player.rating)]
    if change.started:
        if player.number is not None:
            lines.append(_("The event has started: pairing numbers stay (#{number}), and "
                           "nothing already paired changes.", number=player.number))
        else:
            lines.append(_("The event has started: pairing numbers stay, and nothing already "
                           "paired changes."))
    elif change.seed_before is None or change.seed_before == change.seed_after:
        if change.seed_after is None:
            lines.append(_("The seeding does not change."))
        else:
            lines.append(_("The seeding does not change (#{seed}).", seed=change.seed_after))
    else:
        lines.append(_("Seeding: {name} #{before} → #{after}.", name=who,
                       before=change.seed_before, after=change.seed_after))
        others = [m for m in change.moved if m.after != change.seed_after]
        shown = ", ".join(f"{plain(m.name, 40)} #{m.before} → #{m.after}"
                          for m in others[:MOVES_SHOWN])
        if len(others) > MOVES_SHOWN:
            hidden = len(others) - MOVES_SHOWN
            shown = ngettext("{players} and {n} more", "{players} and {n} more", hidden,
                             players=shown)
        if shown:
            lines.append(_("Moved: {players}.", players=shown))
    return clip("\n".join(lines), 1900)
