"""The texts of destructive organiser actions: the confirmation prompt and what was done."""

from __future__ import annotations

import discord

from bot.render.format import plain
from bot.render.limits import fit_content
from i18n import _, ngettext
from service import ActionPreview, PlayerView, RoundView, StandingsView, TournamentInfo

TITLES = {"next": "Pair the next round?", "undo": "Undo the round?",
          "finish": "Finish the tournament?", "cancel": "Cancel the tournament?",
          "drop": "Drop the player?"}


def prompt_text(preview: ActionPreview) -> str:
    """"⚠️ Pair the next round? This closes round 2: 3 open games become double forfeits,
    then pairs round 3 of 'Friday Blitz'." with what the buttons do."""
    # The consequence quotes names as stored: their Markdown must show as typed.
    consequence = discord.utils.escape_markdown(preview.consequence, as_needed=True)
    return fit_content(
        f"⚠️ **{TITLES[preview.action]}** This {consequence}.\n"
        "**Confirm** does it now, **Cancel** leaves everything as it is. This prompt is for "
        "the event as it is now: once anything it names changes (a round paired or undone, "
        "a player dropped), it is refused."
    )


def paired_text(view: RoundView, verb: str) -> str:
    games, byes = len(view.games), len(view.byes)
    name, number = plain(view.tournament_name), view.number
    bye_text = ", " + ngettext("{n} bye", "{n} byes", byes) if byes else ""
    boards = ngettext("{n} board", "{n} boards", games) + bye_text
    if verb == "started":
        return _("▶️ **{name}** has started: round 1 is paired ({boards}).",
                 name=name, boards=boards)
    if view.stage:  # a playoff round
        matches = ngettext("{n} match", "{n} matches", games) + bye_text
        return _("**{stage}** of **{name}**: paired as round {round} ({matches}).",
                 stage=view.stage, name=name, round=number, matches=matches)
    return _("Round {round} of **{name}** is paired ({boards}).",
             round=number, name=name, boards=boards)


def undone_text(view: RoundView) -> str:
    return _("Round {round} of **{name}** is undone.", round=view.number,
             name=plain(view.tournament_name))


def finished_text(view: StandingsView) -> str:
    if view.placings:  # a top cut: the Swiss is over, the bracket is seeded
        return _("🏁 The Swiss of **{name}** is over: the top {count} are seeded into the "
                 "playoffs. `/round next` pairs the first playoff round.",
                 name=plain(view.tournament_name), count=len(view.placings))
    return _("🏁 **{name}** is finished.", name=plain(view.tournament_name))


def cancelled_text(info: TournamentInfo) -> str:
    return _("**{name}** is cancelled.", name=plain(info.name))


def dropped_text(player: PlayerView) -> str:
    return _("**{name}** is withdrawn.", name=plain(player.name))


DISMISSED = "✋ Cancelled: nothing was done."
