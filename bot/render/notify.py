"""Rendering for issue 16: the message opening a game thread (with its result buttons), the
thread's name, the organisers' notice when threads cannot be opened, and the direct messages.

The buttons are plain components whose custom_ids the play cog's dynamic items recognise
(``swissbot:result:<game>:<white|draw|black>`` in a thread, ``swissbot:dm:<confirm|dispute>:
<guild>:<game>`` in a DM); the views are stopped so that the sender does not also listen.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from bot.render.format import discord_timestamp, plain, point_phrase, seat
from bot.render.limits import fit_content
from bot.render.message import Outgoing
from i18n import _
from service.limits import MAX_THREAD_NAME, clip
from swiss.wording import plural

RESULT_BUTTONS = (("white", "White won", discord.ButtonStyle.secondary),
                  ("draw", "Draw", discord.ButtonStyle.secondary),
                  ("black", "Black won", discord.ButtonStyle.secondary))
# Without colours (match play) the buttons name the seats instead.
SEAT_LABELS = {"white": "{first} won", "black": "{second} won"}
DM_BUTTONS = (("confirm", "Confirm", discord.ButtonStyle.success),
              ("dispute", "Dispute", discord.ButtonStyle.danger))


def dm_prompt_buttons(guild_id: Any, game_id: Any, *, disabled: bool = False) -> discord.ui.View:
    """Confirm / Dispute of a DM prompt (the custom_id names the guild: a DM has none);
    ``disabled`` once the result is settled."""
    view = discord.ui.View(timeout=None)
    for action, label, style in DM_BUTTONS:
        view.add_item(discord.ui.Button(
            label=label, style=style, disabled=disabled,
            custom_id=f"swissbot:dm:{action}:{guild_id}:{game_id}"))
    view.stop()  # the clicks are handled by the dynamic item registered by the cogs
    return view


def report_prompt_buttons(game_id: int, *, disabled: bool = False) -> discord.ui.View:
    """Confirm / Dispute of a report prompt in a channel or thread (the custom_ids of
    ``cogs.views.ReportButton``); ``disabled`` once the result is settled."""
    view = discord.ui.View(timeout=None)
    for action, label, style in DM_BUTTONS:
        view.add_item(discord.ui.Button(label=label, style=style, disabled=disabled,
                                        custom_id=f"swissbot:{action}:{game_id}"))
    view.stop()
    return view


def _name(payload: dict[str, Any]) -> str:
    return str((payload.get("tournament") or {}).get("name", "the tournament"))


def _seat(data: dict[str, Any]) -> Any:
    class _S:
        name = str(data.get("name", "?"))
        user_id = data.get("user_id")
        number = data.get("number")
    return _S()


def thread_name(payload: dict[str, Any]) -> str:
    """``R2 B3 · Ann – Bob`` (plain text: Discord shows thread names without Markdown)."""
    game = payload["game"]
    white = " ".join(str(game["white"].get("name", "?")).split())
    black = " ".join(str(game["black"].get("name", "?")).split())
    text = f"R{payload.get('round')} B{game.get('board')} · {clip(white, 40)} – {clip(black, 40)}"
    return clip(text, MAX_THREAD_NAME)


def result_buttons(game_id: int, white: str, black: str, *, colours: bool = True
                   ) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for side, label, style in RESULT_BUTTONS:
        if not colours and side != "draw":
            who = white if side == "white" else black
            label = clip(f"{' '.join(who.split())} won", 80)
        view.add_item(discord.ui.Button(label=label, style=style,
                                        custom_id=f"swissbot:result:{game_id}:{side}"))
    view.stop()  # the play cog's dynamic item answers the clicks
    return view


def thread_opening(payload: dict[str, Any]) -> Outgoing:
    """The pairing posted in a game's thread, pinging its two players (and nobody else)."""
    game = payload["game"]
    white, black = _seat(game["white"]), _seat(game["black"])
    colours = payload.get("use_colours", True)
    versus = "(white) vs" if colours else "vs"
    tail = " (black)" if colours else ""
    lines = [
        f"**{plain(_name(payload), 80)}** · round {payload.get('round')} of "
        f"{payload.get('total_rounds', '?')} · board {game.get('board')}",
        f"{seat(white)} {versus} {seat(black)}{tail}",
    ]
    if payload.get("deadline_unix"):
        moment = datetime.fromtimestamp(int(payload["deadline_unix"]), UTC)
        lines.append(f"Deadline {discord_timestamp(moment, 'f')} "
                     f"({discord_timestamp(moment, 'R')}).")
    lines.append("Play here, then report with the buttons below (or `/report`); your opponent "
                 "confirms. This thread is archived when the result is final.")
    users = tuple(u for u in (white.user_id, black.user_id) if u)
    return Outgoing(content=fit_content("\n".join(lines)), mention_users=users)


def thread_problem(payload: dict[str, Any]) -> Outgoing:
    return Outgoing(content=fit_content(
        f"⚠️ Organisers of **{plain(_name(payload), 80)}**: I could not open every game thread "
        f"of round {payload.get('round')}: {plain(str(payload.get('problem', '')), 600)}. The "
        "pairings are in this channel as usual; players report with `/report`."
    ))


def dm_closed(payload: dict[str, Any]) -> Outgoing:
    user = payload.get("user_id")
    return Outgoing(content=fit_content(
        f"<@{user}>, I cannot send you direct messages about **{plain(_name(payload), 80)}** "
        "(your DMs are closed to me), so I stopped trying. Allow direct messages from this "
        "server's members (Privacy Settings), then run `/notify dm:on` again."
    ), mention_users=(int(user),) if user else ())


def dm_message(kind: str, payload: dict[str, Any]) -> tuple[Outgoing, discord.ui.View | None]:
    """A direct message and its buttons (the result prompt has Confirm / Dispute)."""
    name = plain(_name(payload), 80)
    match kind:
        case "dm_pairing":
            if "bye" in payload:
                text = (f"**{name}**, round {payload.get('round')}: you have a bye "
                        f"({plain(str(payload.get('bye', '')), 10)} pt).")
            else:
                colour = payload.get("colour") if payload.get("use_colours", True) else None
                with_colour = f" with **{colour}**" if colour else ""
                text = (f"**{name}**, round {payload.get('round')}: you play "
                        f"**{plain(str(payload.get('opponent', '?')), 60)}**{with_colour} on "
                        f"board {payload.get('board')}.")
            if payload.get("deadline_unix"):
                moment = datetime.fromtimestamp(int(payload["deadline_unix"]), UTC)
                text += f" Deadline {discord_timestamp(moment, 'R')}."
            return Outgoing(content=fit_content(text)), None
        case "dm_confirm":
            text = (f"**{name}**, round {payload.get('round')} board {payload.get('board')}: "
                    f"{plain(str(payload.get('reporter', '?')), 60)} reported "
                    f"{plain(str(payload.get('white', '?')), 60)} **"
                    f"{plain(str(payload.get('reported', '?')), 20)}** "
                    f"{plain(str(payload.get('black', '?')), 60)}. Confirm or dispute it here "
                    "or in the server.")
            return Outgoing(content=fit_content(text)), dm_prompt_buttons(
                payload.get("guild_id"), payload.get("game_id"))
        case "dm_lichess":
            return Outgoing(content=lichess_dm(name, payload)), None
        case "dm_final":
            text = (f"**{name}** is over: you finished **#{payload.get('rank')}** of "
                    f"{plural(int(payload.get('players') or 0), 'player')} with "
                    f"{point_phrase(plain(str(payload.get('points', '')), 10))}. "
                    "Thanks for playing!")
            return Outgoing(content=fit_content(text)), None
    # dm_reminder
    return Outgoing(content=fit_content(_reminder_text(name, payload))), None


def lichess_dm(name: str, payload: dict[str, Any]) -> str:
    """The player's own link to his game on Lichess (the link of his colour only)."""
    return fit_content(
        f"♟️ **{name}**, round {payload.get('round')} board {payload.get('board')}: your game "
        f"against **{plain(str(payload.get('opponent', '?')), 60)}** is on Lichess; you play "
        f"**{plain(str(payload.get('colour', '?')), 5)}**: {link(payload.get('url'))}\n"
        "Only you two can join it; the result is read from Lichess when the game ends.")


def lichess_thread(payload: dict[str, Any]) -> Outgoing:
    """Both links of the board's game on Lichess, in its thread (no ping: the thread's
    opening pinged the players already)."""
    return Outgoing(content=fit_content(
        f"♟️ The game is on Lichess. {plain(str(payload.get('white', '?')), 60)}, white: "
        f"{link(payload.get('url_white'))}\n{plain(str(payload.get('black', '?')), 60)}, black: "
        f"{link(payload.get('url_black'))}\nOnly you two can join it; the result is read from "
        "Lichess when the game ends."))


def link(url: Any) -> str:
    """A Lichess link as Discord shows it (no preview), or a dash when it is not one."""
    text = str(url or "")
    if not text.startswith(("https://", "http://")) or any(c in text for c in " <>\n"):
        return "-"
    return f"<{text[:300]}>"


def _reminder_text(name: str, payload: dict[str, Any]) -> str:
    """The deadline reminder by DM: the player's own game and what he still has to do."""
    opponent = plain(str(payload.get("opponent") or _("your opponent")), 60)
    text = _("⏰ **{tournament}**, round {round}, board {board} against **{opponent}**: ",
             tournament=name, round=payload.get("round"), board=payload.get("board"),
             opponent=opponent)
    if payload.get("deadline_unix"):
        moment = datetime.fromtimestamp(int(payload["deadline_unix"]), UTC)
        text += _("the deadline is {countdown} ({time}). ",
                  countdown=discord_timestamp(moment, "R"), time=discord_timestamp(moment, "t"))
    if payload.get("to_confirm"):
        return text + _("Your opponent reported the result: confirm or dispute it in the "
                        "server.")
    return text + _("Report your result with `/report` in the server.")
