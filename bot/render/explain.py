"""Explanations and decklists as Discord messages: ``/why``, ``/tiebreak``, ``/decklist``.

Every reply is one embed within Discord's limits (1,024 per field, 25 fields, 6,000 per
embed); when the whole working does not fit, the embed says so and the full text is attached
as a .txt file. User text (names inside the service's sentences, decklists) is made inert:
no Markdown, no mentions.
"""

from __future__ import annotations

import discord

from bot.render import limits
from bot.render.format import code_safe, discord_timestamp, plain, point_phrase, seat, seat_text
from bot.render.message import Outgoing, TextFile
from service import DecklistStatus, DecklistView, TiebreakView, WhyView
from service.limits import clip

COLOUR = discord.Colour.blurple()
FIELD_TEXT = 1000  # a margin under 1,024 for the "…" and the article line
MAX_FIELDS = limits.FIELDS - 1  # room for the "full working attached" note
EMBED_BUDGET = 5800


def _sentence(text: str) -> str:
    return plain(text, FIELD_TEXT)


def _fit(embed: discord.Embed, full_text: str, filename: str) -> Outgoing:
    """The embed alone when it fits; otherwise cut, with the whole text attached."""
    if not limits.problems(None, [embed]) and limits.embed_size(embed) <= EMBED_BUDGET:
        return Outgoing(embeds=[embed])
    while embed.fields and (len(embed.fields) > MAX_FIELDS or
                            limits.embed_size(embed) > EMBED_BUDGET - 200):
        embed.remove_field(len(embed.fields) - 1)
    limits.add_field(embed, "More", f"The full working is in the attached `{filename}`.",
                     inline=False)
    return Outgoing(embeds=[embed], files=[TextFile(filename, full_text)])


def render_why(view: WhyView) -> Outgoing:
    """Why this opponent, colour or bye: one field per reason, then the engine's own data."""
    if view.opponent is None:
        kind = "the pairing bye" if view.bye_kind == "pairing" else f"a {view.bye_kind} bye"
        summary = f"{seat(view.player)} had {kind}."
    else:
        colour = f" with {view.colour}" if view.colour else ""
        summary = f"{seat(view.player)} played {seat(view.opponent)}{colour}."
    embed = discord.Embed(
        title=clip(f"Why: round {view.round} of {view.tournament_name}", limits.EMBED_TITLE),
        description=summary, colour=COLOUR,
    )
    for heading, sentence in view.reasons:
        limits.add_field(embed, heading, _sentence(sentence), inline=False)
    engine = code_safe(view.engine, 900).rstrip()
    limits.add_field(embed, "Engine (as swissbot pair --explain)", f"`{engine}`", inline=False)
    full = "\n\n".join([f"Round {view.round} of {view.tournament_name}: "
                        f"{seat_text(view.player)}",
                        *(f"{h}: {s}" for h, s in view.reasons), f"Engine: {view.engine}"])
    return _fit(embed, full, f"why-round-{view.round}.txt")


def render_tiebreaks(view: TiebreakView) -> Outgoing:
    """Each tiebreak value with its working, the article and the rules edition."""
    embed = discord.Embed(
        title=clip(f"Tiebreaks: {view.player.name} in {view.tournament_name}",
                   limits.EMBED_TITLE),
        description=(
            f"{seat(view.player)}: place {view.rank}, {point_phrase(view.points)} after "
            f"round {view.after_round}.\nFIDE C.07 edition {view.edition}; unplayed rounds: "
            f"{view.unplayed_rule}."
        ),
        colour=COLOUR,
    )
    full = [f"{seat_text(view.player)} in {view.tournament_name}: place {view.rank}, "
            f"{point_phrase(view.points)} after round {view.after_round}; FIDE C.07 "
            f"edition {view.edition}; unplayed rounds: {view.unplayed_rule}.", ""]
    if not view.lines:
        limits.add_field(embed, "Tiebreaks", "This tournament uses no tiebreaks.",
                         inline=False)
    for line in view.lines:
        article = plain(line.article, 200)
        body = plain(line.text, FIELD_TEXT - len(article) - 4)
        limits.add_field(embed, f"{line.acronym} = {line.value}", f"{body}\n*{article}*",
                         inline=False)
        full.append(f"{line.acronym} = {line.value}: {line.text} ({line.article})")
    return _fit(embed, "\n".join(full), "tiebreaks.txt")


def _deck_body(view: DecklistView) -> str:
    if view.mode == "link":
        return f"`{view.content}`"
    text = view.content
    if "\n" not in text and ";" in text:  # slash options are one line: ";" separates entries
        text = "\n".join(part.strip() for part in text.split(";") if part.strip())
    # A code block shows the list as typed: no Markdown, no mentions; no backticks can end it.
    return "```\n" + text.replace("`", "'") + "\n```"


def render_decklist(view: DecklistView, *, note: str = "") -> Outgoing:
    state = "published" if view.published else "hidden until the organisers publish them"
    embed = discord.Embed(
        title=clip(f"Decklist: {view.player.name}", limits.EMBED_TITLE),
        description=clip(_deck_body(view), limits.EMBED_DESCRIPTION),
        colour=COLOUR,
    )
    if view.mode == "link":
        embed.url = view.content  # only http(s) links are accepted (service.decklists)
    embed.set_footer(text=clip(f"{view.tournament_name} · submitted "
                               f"{view.submitted_at:%Y-%m-%d %H:%M} UTC · decklists {state}",
                               limits.FOOTER))
    return Outgoing(content=note, embeds=[embed])


def render_decklist_status(status: DecklistStatus, *, title: str = "Decklists") -> Outgoing:
    deadline = ("the start" if status.deadline is None
                else f"{discord_timestamp(status.deadline, 'F')} "
                     f"({discord_timestamp(status.deadline)})")
    published = ("not yet published" if status.published_at is None
                 else f"published {discord_timestamp(status.published_at, 'F')}")
    embed = discord.Embed(
        title=clip(f"{title}: {status.tournament_name}", limits.EMBED_TITLE),
        description=f"Mode: {status.mode}; submissions close at {deadline}; {published}.",
        colour=COLOUR,
    )
    for name, seats in (("Submitted", status.submitted), ("Missing", status.missing)):
        listed = ", ".join(seat(s) for s in seats)
        limits.add_field(embed, f"{name} ({len(seats)})", listed or "nobody", inline=False)
    full = "\n".join([f"{name}: " + ", ".join(seat_text(s) for s in seats)
                      for name, seats in (("Submitted", status.submitted),
                                          ("Missing", status.missing))])
    if any(len(", ".join(seat(s) for s in seats)) > limits.FIELD_VALUE
           for seats in (status.submitted, status.missing)):
        return Outgoing(embeds=[embed], files=[TextFile("decklists.txt", full)])
    return Outgoing(embeds=[embed])

