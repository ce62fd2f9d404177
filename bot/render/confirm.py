"""The texts of destructive organiser actions: the confirmation prompt and what was done."""

from __future__ import annotations

import discord

from bot.render.format import plain
from bot.render.limits import fit_content
from service import ActionPreview, PlayerView, RoundView, StandingsView, TournamentInfo
from swiss.wording import plural

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
    bye_text = f", {byes} bye{'s' if byes != 1 else ''}" if byes else ""
    if verb == "started":
        return f"▶️ **{name}** has started: round 1 is paired ({plural(games, 'board')}{bye_text})."
    if view.stage:  # a playoff round
        return (f"**{view.stage}** of **{name}**: paired as round {number} ({games} "
                f"match{'es' if games != 1 else ''}{bye_text}).")
    return f"Round {number} of **{name}** is paired ({plural(games, 'board')}{bye_text})."


def undone_text(view: RoundView) -> str:
    return f"Round {view.number} of **{plain(view.tournament_name)}** is undone."


def finished_text(view: StandingsView) -> str:
    if view.placings:  # a top cut: the Swiss is over, the bracket is seeded
        return (f"🏁 The Swiss of **{plain(view.tournament_name)}** is over: the top "
                f"{len(view.placings)} are seeded into the playoffs. `/round next` pairs the "
                "first playoff round.")
    return f"🏁 **{plain(view.tournament_name)}** is finished."


def cancelled_text(info: TournamentInfo) -> str:
    return f"**{plain(info.name)}** is cancelled."


def dropped_text(player: PlayerView) -> str:
    return f"**{plain(player.name)}** is withdrawn."


DISMISSED = "✋ Cancelled: nothing was done."
