"""Render an outbox announcement (``kind`` + JSON payload written by the service).

Payloads are plain JSON (see ``service.present.round_payload`` / ``standings_payload``);
here they are turned back into light objects with the attributes the view renderers read, so
announcements and command replies share one renderer.
"""

from __future__ import annotations

import logging
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import discord

from bot.render import lichess as lichess_render
from bot.render import teams as team_render
from bot.render import tournament as views
from bot.render.bracket import bracket_message
from bot.render.format import plain, seat
from bot.render.message import Outgoing, TextFile
from bot.render.notify import dm_closed, thread_problem
from bot.render.timers import timer_announcement
from i18n import _, ngettext, speaking, stored

log = logging.getLogger(__name__)

#: Rows of the standings posted after each round (the full table is attached beyond).
STANDINGS_TOP = 50


def render_announcement(
    kind: str,
    payload: dict[str, Any],
    *,
    organiser_role_id: int | None = None,
    owner_id: int | None = None,
    language: str | None = None,
) -> list[Outgoing]:
    """The messages for one announcement, in posting order, in the language the outbox row
    was queued with (the server's ``/config language`` then), else ``language`` (the server's
    Discord locale), else English."""
    with speaking(payload.get("language") or language):
        return _messages(kind, payload, organiser_role_id=organiser_role_id, owner_id=owner_id)


def _messages(
    kind: str, payload: dict[str, Any], *, organiser_role_id: int | None, owner_id: int | None,
) -> list[Outgoing]:
    name = (payload.get("tournament") or {}).get("name", "the tournament")
    match kind:
        case "pairings":
            return views.pairings(round_from_payload(payload))
        case "round_results":
            return views.round_results(round_from_payload(payload))
        case "standings" | "final_standings":
            table = standings_from_payload(payload, name)
            if table.final_result:  # a top cut: the playoff placing, then the Swiss order
                return views.final_result(table)
            # after each round the top of the table is enough in the channel (the whole table
            # is attached); the final standings are posted in full
            return views.standings(table, limit=None if table.final else STANDINGS_TOP)
        case "team_pairings":
            return team_render.pairings(name, payload.get("round") or {})
        case "team_standings":
            return team_render.standings(name, payload)
        case "dispute":
            game = game_from_payload(payload["game"])
            game.reported_result = payload.get("reported_result") or game.reported_result
            game.disputed_result = payload.get("disputed_result")
            return [views.dispute_alert(game, organiser_role_id, name, owner_id=owner_id)]
        case "result_corrected":
            game = game_from_payload(payload["game"])
            previous = views.RESULT_TEXT.get(payload.get("previous_result", ""), _("pending"))
            text = _(
                "✏️ **{name}**, round {round} board {board}: result set to {white} **{result}** "
                "{black} (was {previous}) by {by}.", name=plain(name, 80), round=game.round,
                board=game.board, white=seat(game.white, number=False),
                result=views.result_text(game), black=seat(game.black, number=False),
                previous=previous, by=_by(payload))
            return [Outgoing(content=text)]
        case "result_settled":
            return [_result_settled(payload, name)]
        case "round_undone":
            return [
                Outgoing(
                    content=_("↩️ Round {round} of **{name}** was undone by {by}; its pairings "
                              "are void.", round=payload.get("round"), name=plain(name, 80),
                              by=_by(payload))
                )
            ]
        case "tournament_cancelled":
            return [
                Outgoing(
                    content=_("🛑 **{name}** was cancelled by {by}.", name=plain(name, 80),
                              by=_by(payload))
                )
            ]
        case "bracket":
            return [bracket_message(payload)]
        case "lichess_conflict":
            return [lichess_render.conflict_alert(payload)]
        case "lichess_games":
            return lichess_render.game_links(payload)
        case "lichess_problem":
            return [lichess_render.problem_alert(payload)]
        case "lichess_outage":
            return [lichess_render.outage(payload)]
        case "swiss_final":
            table = standings_from_payload(payload.get("standings") or {}, name)
            # the Swiss's table, not the final one (that comes when the playoffs end)
            messages = views.standings(table, limit=STANDINGS_TOP, state=_("Swiss standings"))
            messages[0].content = _(
                "🏁 The Swiss of **{name}** is over: the top {count} advance to the playoffs "
                "(`/round next` pairs them).", name=plain(name, 80),
                count=int(payload.get("seeded", 0)))
            return messages
        case "player_notice":
            # one player told the outcome of his request or his promotion: he alone is pinged
            user_id = int(payload.get("user_id", 0))
            return [Outgoing(content=f"<@{user_id}> {plain(stored(payload.get('text', '')), 1500)}",
                             mention_users=(user_id,))]
        case "checkin_open":
            users = [int(u) for u in payload.get("users") or []]
            until = payload.get("until")
            if until is None:
                text = _("✅ Check-in for **{name}** is open: use `/checkin`.",
                         name=plain(name, 80))
            else:
                closes = f"<t:{int(until)}:f>"
                text = _("✅ Check-in for **{name}** is open until {time}: use `/checkin`.",
                         name=plain(name, 80), time=closes)
            return views.ping_lines(text, users)
        case "thread_problem":
            return [thread_problem(payload)]
        case "dm_closed":
            return [dm_closed(payload)]
        case "retention_export":
            files = [TextFile(f["filename"], f["content"]) for f in payload.get("files", [])]
            return [Outgoing(
                content=_("🗄️ **{name}** ended long enough ago to be deleted under this "
                          "server's retention setting (/config retention): here is its last "
                          "export. It is deleted once this is posted.", name=plain(name, 80)),
                files=files[:10])]
        case "tournament_started":
            return [Outgoing(content=_("▶️ **{name}** has started.", name=plain(name, 80)))]
        case "pairing_progress":
            # edited into the pairings post when they are ready (bot.delivery)
            return [Outgoing(content=ngettext(
                "⏳ Pairing round {round} of **{name}** for {n} player...",
                "⏳ Pairing round {round} of **{name}** for {n} players...",
                int(payload.get("players", 0)), round=int(payload.get("round", 0)),
                name=plain(name, 80)))]
        case "pairing_failed":
            return [
                Outgoing(
                    embeds=[
                        discord.Embed(
                            title=_("{name} · round {round} was not paired",
                                    name=plain(name, 80), round=int(payload.get("round", 0))),
                            description=plain(stored(payload.get("error", "")), 1500),
                            colour=views.ALERT_COLOUR,
                        )
                    ]
                )
            ]
        case "auto_advance_failed":
            return [
                Outgoing(
                    embeds=[
                        discord.Embed(
                            title=_("{name} · the next round could not be paired",
                                    name=plain(name, 80)),
                            description=plain(stored(payload.get("error", "")), 1500) + "\n"
                            + _("An organiser can fix it and use `/round next`."),
                            colour=views.ALERT_COLOUR,
                        )
                    ]
                )
            ]
        case "deadline_reminder" | "deadline_passed" | "noshow_claim" | "noshow_objection" \
                | "noshow_forfeit" | "player_dropped" | "round_scheduled" | "timer_failed":
            return timer_announcement(kind, payload, name)
    log.warning("no renderer for announcement kind %r; posting it as text", kind)
    return [Outgoing(content=f"{plain(name, 80)}: {plain(kind.replace('_', ' '), 100)}")]


def _by(payload: dict[str, Any]) -> str:
    """Who did it (a name as stored), else "an organiser"."""
    return plain(str(payload["by"]), 60) if payload.get("by") else _("an organiser")


def _seat(data: dict[str, Any]) -> SimpleNamespace:
    return SimpleNamespace(
        player_id=data.get("player_id"),
        number=data.get("number"),
        name=str(data.get("name", "?")),
        user_id=data.get("user_id"),
    )


def _result_settled(payload: dict[str, Any], name: str) -> Outgoing:
    """An organiser decided a reported or disputed game: both players are pinged (only
    them), in the game's thread or the event's channel."""
    game = game_from_payload(payload["game"])
    said = views.RESULT_TEXT
    was = payload.get("was")
    if was == "disputed":
        before = _("It was disputed: reported {reported}, disputed as {disputed}.",
                   reported=said.get(payload.get("reported_result"), "?"),
                   disputed=said.get(payload.get("disputed_result"), "?"))
    elif was == "reported":
        before = _("It was reported as {reported}.",
                   reported=said.get(payload.get("reported_result"), "?"))
    else:
        before = _("It was {previous}.",
                   previous=said.get(payload.get("previous_result"), _("pending")))
    # the seats are mentions for members: they ping those two and nobody else
    players = [s.user_id for s in (game.white, game.black) if s.user_id is not None]
    text = _(
        "⚖️ **{tournament}**, round {round} board {board}: {by} set the result: {white} "
        "**{result}** {black}. {before}", tournament=plain(name, 80), round=game.round,
        board=game.board,
        by=plain(str(payload["by"] if "by" in payload else _("an organiser")), 60),
        white=seat(game.white, number=False), result=views.result_text(game),
        black=seat(game.black, number=False), before=before)
    return Outgoing(content=text, mention_users=tuple(players))


def game_from_payload(data: dict[str, Any]) -> SimpleNamespace:
    fields = {
        "id": None,
        "round": 0,
        "board": 0,
        "result": "*",
        "state": "pending",
        "white_games": None,
        "black_games": None,
        "reported_result": None,
        "reported_by": None,
        "disputed_by": None,
        "disputed_result": None,
    }
    fields.update({k: v for k, v in data.items() if k not in ("white", "black")})
    return SimpleNamespace(**fields, white=_seat(data["white"]), black=_seat(data["black"]))


def round_from_payload(payload: dict[str, Any]) -> SimpleNamespace:
    deadline = payload.get("deadline")
    return SimpleNamespace(
        tournament_name=(payload.get("tournament") or {}).get("name", "Tournament"),
        number=payload.get("number", payload.get("round")),
        total_rounds=payload.get("total_rounds", "?"),
        state=payload.get("state", "playing"),
        games=tuple(game_from_payload(g) for g in payload.get("games", [])),
        byes=tuple(
            SimpleNamespace(player=_seat(b["player"]), kind=b.get("kind", "pairing"),
                            points=b.get("points", ""))
            for b in payload.get("byes", [])
        ),
        deadline=datetime.fromisoformat(deadline) if deadline else None,
        use_colours=payload.get("use_colours", True),
        stage=payload.get("stage"),
        playoff_note=payload.get("playoff_note", ""),
        seeds=tuple(tuple(pair) for pair in payload.get("seeds") or ()),
    )


def standings_from_payload(payload: dict[str, Any], name: str) -> SimpleNamespace:
    """The table of a standings payload; a top cut's final result (rows with a ``place``)
    in the order of the places, each shown as the row's rank."""
    result = payload.get("rows", [])
    final_result = bool(result) and all("place" in r for r in result)
    if final_result:
        result = sorted(result, key=lambda r: r["place"])
    rows = tuple(
        SimpleNamespace(
            rank=r["place"] if final_result else r["rank"],
            player_id=r.get("player_id"),
            number=r.get("number"),
            name=str(r.get("name", "?")),
            user_id=r.get("user_id"),
            points=r.get("points", ""),
            values=tuple(r.get("values", ())),
            withdrawn=bool(r.get("withdrawn", False)),
        )
        for r in result
    )
    return SimpleNamespace(
        final_result=final_result,
        tournament_name=name,
        after_round=payload.get("after_round", 0),
        total_rounds=payload.get("total_rounds", 0),
        final=bool(payload.get("final", False)),
        tiebreaks=tuple(payload.get("tiebreaks", ())),
        rows=rows,
        placings=tuple(SimpleNamespace(**p) for p in payload.get("placings", ())),
    )
