"""Render pairing drafts and the requests waiting for organisers (issue 15 items 4, 5, 7).

Pure, like :mod:`bot.render.tournament`: views in, embeds out, every part cut to Discord's
limits (a draft of 500 boards still fits one embed: the boards are counted, not all listed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.render import limits
from bot.render.format import plain, seat
from bot.render.limits import add_field
from bot.render.tournament import ALERT_COLOUR, BYE_TEXT, INFO_COLOUR

if TYPE_CHECKING:
    from service.views import DraftEdit, DraftView, RequestsView

#: What the draft embed's description may use: the fields (warnings, notes) need the rest of
#: the 6,000 characters of one embed.
DRAFT_DESCRIPTION = 3000
#: Engine explanations shown (the audit log keeps them all).
DRAFT_NOTES = 8


def _cut_lines(lines: Sequence[str], limit: int, what: str) -> str:
    """Whole lines up to ``limit`` characters, then how many are not shown."""
    kept: list[str] = []
    for index, line in enumerate(lines):
        more = f"\n… and {len(lines) - index} more {what}"
        if len("\n".join([*kept, line])) + len(more) > limit:
            return "\n".join(kept) + more
        kept.append(line)
    return "\n".join(kept)


def draft(view: DraftView) -> discord.Embed:
    """``/round preview``, ``/round draft`` and the answers to edits: organisers only."""
    name = plain(view.tournament_name, 80)
    versus = "–" if view.use_colours else "vs"
    lines = [f"`{b.board:>3}` {seat(b.white)} {versus} {seat(b.black)}" for b in view.boards]
    lines += [f"`bye` {seat(s)} ({BYE_TEXT.get(kind, kind)})" for s, kind in view.byes]
    state = " · ⚠️ OUT OF DATE" if view.stale else ""
    embed = discord.Embed(
        title=f"{name} · Round {view.round_number} · draft v{view.version}{state}",
        description=_cut_lines(lines, DRAFT_DESCRIPTION, "lines") or "—",
        colour=ALERT_COLOUR if view.stale or view.warnings else INFO_COLOUR,
    )
    if view.warnings:
        add_field(embed, f"⚠️ Warnings ({len(view.warnings)})",
                  _cut_lines([plain(w, 200) for w in view.warnings], limits.FIELD_VALUE,
                             "warnings"), inline=False)
    if view.notes:
        notes = [f"`{plain(n, 150)}`" for n in view.notes[:DRAFT_NOTES]]
        if len(view.notes) > DRAFT_NOTES:
            notes.append(f"… and {len(view.notes) - DRAFT_NOTES} more")
        add_field(embed, "Engine explanations", _cut_lines(notes, limits.FIELD_VALUE, "notes"),
                  inline=False)
    footer = ("Not published. Edit with /round swap, /round pair, /round bye; publish with "
              f"/round publish version:{view.version}.")
    if view.stale:
        footer = "Results or players changed since: run /round preview again."
    embed.set_footer(text=footer)
    return embed


def draft_edit(edit: DraftEdit) -> str:
    """The answer to an edit: applied, or the warnings waiting for confirmation."""
    who = " and ".join(f"**{plain(n, 60)}**" for n in edit.players)
    if not edit.applied:
        warnings = "\n".join(f"• {plain(w, 200)}" for w in edit.new_warnings[:10])
        return limits.fit_content(
            f"⚠️ This {edit.action} ({who}) breaks a rule the draft did not break:\n{warnings}\n"
            "Apply it anyway with the button, or leave the draft as it is."
        )
    return f"Draft edited ({edit.action}: {who}): now version {edit.draft.version}."


def add_requests(embed: discord.Embed, requests: RequestsView) -> None:
    """The requests waiting for organisers and the waitlist, under ``/tournament info``
    (organisers only), each field cut to Discord's 1,024 characters."""
    lines = [f"bye r{b.round} ({b.kind}): {seat(b.player)}" for b in requests.byes]
    lines += [f"leave: {seat(s)}" for s in requests.leaves]
    if lines:
        add_field(embed, f"Waiting for approval ({len(lines)})",
                  _cut_lines(lines, limits.FIELD_VALUE, "requests")
                  + "\n(buttons below, or /admin approve, /admin deny)", inline=False)
    if requests.waiting:
        waiting = [f"{w.position}. <@{w.user_id}>" for w in requests.waiting]
        add_field(embed, f"Waitlist ({len(waiting)})",
                  _cut_lines(waiting, limits.FIELD_VALUE, "waiting"), inline=False)
