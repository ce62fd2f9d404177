"""The answers of ``/lichess`` (cogs/lichess.py) and the claim alert of the outbox."""

from __future__ import annotations

from typing import Any

from bot.render.format import plain
from bot.render.limits import fit_content
from bot.render.message import Outgoing
from i18n import _
from service.lichess_views import (
    LINK_MINUTES,
    LichessEventView,
    LichessRatingView,
    LinkCodeView,
    LinksView,
    OAuthStartView,
)

#: Characters per message of links (Discord allows 2,000).
MESSAGE_BUDGET = 1900

#: Rows of the organisers' list of links before "and N more".
MAX_LINK_ROWS = 40


def link_code(view: LinkCodeView) -> str:
    return fit_content(
        f"To prove that **{plain(view.username, 30)}** is yours, paste this code into the "
        f"**Bio** or the **Location** of your Lichess profile ({view.profile_url}), save, then "
        f"run `/lichess verify`:\n```\n{view.code}\n```\nThe code works once, until "
        f"<t:{int(view.expires_at.timestamp())}:t> ({LINK_MINUTES} minutes). You can remove it "
        "from your profile afterwards.")


def oauth_start(view: OAuthStartView) -> str:
    return fit_content(
        f"Open this link and approve on Lichess (it asks for no permission beyond your "
        f"username); it works once, until <t:{int(view.expires_at.timestamp())}:t>:\n"
        f"<{view.url}>")


def linked(username: str) -> str:
    return (f"✅ Your Discord account is linked to the Lichess account **{plain(username, 30)}** "
            "on this server.")


def links(view: LinksView) -> str:
    if not view.links and not view.conflicts:
        return "Nobody on this server has linked a Lichess account yet."
    rows = [f"<@{x.user_id}> → **{plain(x.username, 30)}** ({x.method})"
            for x in view.links[:MAX_LINK_ROWS]]
    if len(view.links) > MAX_LINK_ROWS:
        rows.append(f"…and {len(view.links) - MAX_LINK_ROWS} more.")
    text = f"**Lichess links ({len(view.links)})**\n" + "\n".join(rows)
    if view.conflicts:
        refused = [f"<t:{int(c.at.timestamp())}:f> <@{c.claimant_id}> claimed "
                   f"**{plain(c.username, 30)}**, linked to <@{c.holder_id}>"
                   for c in view.conflicts]
        text += ("\n\n**Refused claims** (an account already linked to another member)\n"
                 + "\n".join(refused))
    return fit_content(text)


#: The pairing systems of chess events: an event with one of them, colours and chess
#: scoring is told of /lichess event when it is created.
CHESS_SYSTEMS = frozenset({"dutch", "fide-dutch", "burstein", "monrad", "rating-gap"})


def event_hint(settings: Any) -> str:
    """The line of /tournament create's answer that makes /lichess event known, for a chess
    event (empty for others): it must be run before anyone joins."""
    if (getattr(settings, "system", None) not in CHESS_SYSTEMS
            or getattr(settings, "scoring", None) != "chess"
            or not getattr(settings, "colours", False)):
        return ""
    return ("\n♟️ Played on Lichess? Before anyone joins, `/lichess event clock:3+2` makes "
            "the bot create each game there, seed by Lichess ratings and read the results.")


def event(view: LichessEventView | None, tournament: str | None) -> str:
    if view is None:
        return f"**{plain(tournament or 'The event', 80)}** is no longer played on Lichess."
    return (f"♟️ **{plain(view.tournament, 80)}** is played on Lichess, clock {view.clock} "
            f"({'rated' if view.rated else 'casual'}); players join with their Lichess "
            f"**{view.speed}** rating, which is read again at the start. Linking an account "
            "(`/lichess link`) is needed to join.")


def ratings(rows: list[LichessRatingView]) -> str:
    if not rows:
        return "No Lichess ratings for this event (is it played on Lichess?)."
    lines = [f"{plain(r.name, 40)} (**{plain(r.username, 30)}**) {r.shown}" for r in rows]
    return fit_content("Lichess ratings (`?` = provisional)\n" + "\n".join(lines))


def conflict_alert(payload: dict[str, Any]) -> Outgoing:
    return Outgoing(content=fit_content(
        f"⚠️ <@{int(payload.get('claimant_id', 0))}> tried to link the Lichess account "
        f"**{plain(str(payload.get('username', '?')), 30)}**, which is linked to "
        f"<@{int(payload.get('holder_id', 0))}>: refused. Organisers, `/lichess links` shows "
        "every link."))


def game_links(payload: dict[str, Any]) -> list[Outgoing]:
    """Each board's Lichess links, in as many messages as Discord's limit needs."""
    name = (payload.get("tournament") or {}).get("name", "the tournament")
    head = (f"♟️ **{plain(name, 80)}**, round {payload.get('round')}: your games on Lichess. "
            "Open the link of your colour; only the two paired players can join.")
    lines = [f"Board {b['board']}: {plain(str(b['white']), 40)} ([white]({b['url_white']})) "
             f"vs {plain(str(b['black']), 40)} ([black]({b['url_black']}))"
             for b in payload.get("boards", [])]
    messages: list[Outgoing] = []
    current = head
    for line in lines:
        if len(current) + 1 + len(line) > MESSAGE_BUDGET:
            messages.append(Outgoing(content=current))
            current = line
        else:
            current += "\n" + line
    messages.append(Outgoing(content=current))
    return messages


def problem_alert(payload: dict[str, Any]) -> Outgoing:
    name = (payload.get("tournament") or {}).get("name", "the tournament")
    return Outgoing(content=fit_content(
        f"⚠️ **{plain(name, 80)}**, round {payload.get('round')} board {payload.get('board')}: "
        f"the game on Lichess ({payload.get('url')}) does not count: "
        f"{plain(str(payload.get('problem', '?')), 200)}. Organisers: `/result set` the board, "
        "or the players report it with `/report`."))


def outage(payload: dict[str, Any]) -> Outgoing:
    name = plain((payload.get("tournament") or {}).get("name", "the tournament"), 80)
    if payload.get("back"):
        return Outgoing(content=_("✅ Lichess answers again: the games and results of "
                                  "**{tournament}** are being caught up.", tournament=name))
    return Outgoing(content=fit_content(_(
        "⏳ Lichess cannot be reached ({problem}): the games and results of **{tournament}** "
        "wait and nothing is lost; I catch up as soon as it answers. Players can still "
        "`/report`.", problem=plain(str(payload.get("problem")), 120), tournament=name)))


def lichess_facts(facts: Any) -> str:
    """What Lichess showed when a no-show was claimed on it (empty for other events)."""
    if not isinstance(facts, dict):
        return ""
    status = str(facts.get("status", "?"))
    game = (_("nobody has started it") if status == "not joined"
            else _("it ended without a move ({status})", status=plain(status, 20)))
    opponent = _("online") if facts.get("opponent_online") else _("offline")
    return "\n" + _("On Lichess: {claimant} is online; {opponent} is {state}; the game "
                    "(<https://lichess.org/{game_id}>) {game}.",
                    claimant=plain(str(facts.get("claimant", "?")), 30),
                    opponent=plain(str(facts.get("opponent", "?")), 30), state=opponent,
                    game_id=plain(str(facts.get("game", "")), 12), game=game)
