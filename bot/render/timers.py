"""Announcements of the stored timers (service.timers): deadline reminders and actions,
no-show claims, automatic drops and scheduled rounds.

Pings are exact: a reminder pings the players of the open games only, a deadline that needs a
decision pings the organiser role only, a no-show claim pings the opponent only.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.render.format import plain, seat
from bot.render.lichess import lichess_facts
from bot.render.message import Outgoing
from bot.render.paginate import Line, paginate
from i18n import stored
from swiss.wording import plural

REMINDER_COLOUR = discord.Colour.orange()
ALERT_COLOUR = discord.Colour.red()
INFO_COLOUR = discord.Colour.dark_teal()
RESULT_TEXT = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "+--": "1F-0F", "--+": "0F-1F",
               "---": "0F-0F"}
ACTION_TEXT = {"reporter-wins": "the report stands", "draw": "draw",
               "double-loss": "double loss"}
#: The custom_id template of the no-show objection button (cogs.views answers it).
NOSHOW_OBJECT_ID = "swissbot:noshow-object:{game}"


def _seat(data: dict[str, Any]) -> SimpleNamespace:
    return SimpleNamespace(name=str(data.get("name", "?")), user_id=data.get("user_id"),
                           number=data.get("number"))


def _pair(item: dict[str, Any]) -> str:
    white, black = seat(_seat(item["white"])), seat(_seat(item["black"]))
    white, black = seat(_seat(item["white"])), seat(_seat(item["black"]))
    return f"board {item.get('board')}: {white} vs {black}"


def _users(item: dict[str, Any]) -> tuple[int, ...]:
    return tuple(u for u in (item["white"].get("user_id"), item["black"].get("user_id")) if u)


def timer_announcement(kind: str, payload: dict[str, Any], name: str) -> list[Outgoing]:
    title = plain(name, 80)
    number = payload.get("round")
    if kind == "deadline_reminder":
        games = payload.get("games", [])
        deadline = payload.get("deadline_unix")
        when = f"<t:{deadline}:R> (<t:{deadline}:t>)" if deadline else "soon"
        lines = [Line(_pair(g), _users(g)) for g in games]
        return paginate(
            f"{title} · round {number}: the deadline is {_minutes(payload)} away",
            lines, colour=REMINDER_COLOUR,
            intro=f"These games have no final result yet. The round ends {when}: report "
                  "with `/report`.",
            content=f"⏰ Round {number}: report your result before the deadline {when}.",
        )
    if kind == "deadline_passed":
        decided = payload.get("decided", [])
        waiting = payload.get("waiting", [])
        role = payload.get("organiser_role_id")
        lines = [Line(f"{_pair(d)} → **{RESULT_TEXT.get(d.get('result', ''), '?')}** "
                      f"({ACTION_TEXT.get(d.get('why', ''), d.get('why', ''))})")
                 for d in decided]
        lines += [Line(f"{_pair(w)} → waiting for an organiser") for w in waiting]
        who = f"<@&{role}>" if role and waiting else "Organisers"
        content = f"⌛ Round {number} of **{title}** reached its deadline."
        if waiting:
            content += (f" {who}: {plural(len(waiting), 'game')} "
                        f"{'needs' if len(waiting) == 1 else 'need'} a decision (`/result set`).")
        return paginate(
            f"{title} · round {number}: deadline passed", lines, colour=ALERT_COLOUR,
            content=content, mention_roles=(role,) if role and waiting else (),
        )
    if kind == "noshow_claim":
        claimant, opponent = _seat(payload["claimant"]), _seat(payload["opponent"])
        ends = payload.get("ends_unix")
        ping = (opponent.user_id,) if opponent.user_id else ()
        return [Outgoing(
            content=f"🚷 {seat(opponent, number=False)}: {plain(claimant.name, 60)} says you "
                    f"did not show up for round {number}, board {payload.get('board')}. If you "
                    f"are here, press **I am here** (or `/report object`) before <t:{ends}:t> "
                    f"(<t:{ends}:R>); otherwise the game is a forfeit win for "
                    f"{plain(claimant.name, 60)}.{lichess_facts(payload.get('lichess'))}",
            mention_users=ping,
            buttons=(("I am here", NOSHOW_OBJECT_ID.format(game=payload.get("game_id"))),),
        )]
    if kind == "noshow_objection":
        claimant, opponent = _seat(payload["claimant"]), _seat(payload["opponent"])
        return [Outgoing(
            content=f"🙋 Round {number}, board {payload.get('board')}: "
                    f"{plain(opponent.name, 60)} is here; the no-show claim of "
                    f"{plain(claimant.name, 60)} lapses. Play the game and report as usual."
        )]
    if kind == "noshow_forfeit":
        claimant, opponent = _seat(payload["claimant"]), _seat(payload["opponent"])
        return [Outgoing(
            content=f"🚷 Round {number}, board {payload.get('board')}: "
                    f"{plain(opponent.name, 60)} did not show up; forfeit win for "
                    f"{plain(claimant.name, 60)}. An organiser can change it with "
                    "`/result set`."
        )]
    if kind == "player_dropped":
        player = _seat(payload["player"])
        missed = plural(int(payload.get("missed") or 0), "game")
        return [Outgoing(
            content=f"👋 {plain(player.name, 60)} missed {missed} in a "
                    f"row and was dropped from **{title}** (after round {number}). An organiser "
                    "can correct the results with `/result set`."
        )]
    if kind == "round_scheduled":
        at = payload.get("at_unix")
        return [Outgoing(
            content=f"🗓️ Round {number} of **{title}** starts <t:{at}:F> (<t:{at}:R>)."
        )]
    # timer_failed
    return [Outgoing(embeds=[discord.Embed(
        title=f"{title} · a timer could not act",
        description=f"{plain(str(payload.get('kind', '')), 40)} of round {number}: "
                    f"{plain(stored(payload.get('error', '')), 1500)}",
        colour=ALERT_COLOUR,
    )])]


def _minutes(payload: dict[str, Any]) -> str:
    minutes = int(payload.get("minutes_left") or 0)
    if minutes >= 120 and minutes % 60 == 0:
        return f"{minutes // 60} hours"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
