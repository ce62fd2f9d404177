"""Render the service's result objects (``service.views``) as Discord messages.

Renderers are pure: they take views and return :class:`~bot.render.message.Outgoing` lists or
embeds. Only attribute access is used, so they do not import the service.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.render import limits
from bot.render.format import code_safe, discord_timestamp, plain, points, seat, seat_text
from bot.render.limits import add_field, fit_content
from bot.render.message import Outgoing, TextFile
from bot.render.paginate import Line, paginate
from bot.standings_columns import DECIDER, deciders, legend, table_cells
from swiss.moments import format_duration
from swiss.wording import plural, point_count

if TYPE_CHECKING:
    from service.views import (
        GameView,
        PlayerView,
        ReportOutcome,
        RoundView,
        StandingsView,
        TournamentInfo,
    )

#: Beyond this many boards the full list is also attached as a text file.
ATTACH_AFTER_BOARDS = 100
#: Beyond this many rows the full standings are also attached as a text file.
ATTACH_AFTER_ROWS = 100
#: Tiebreak columns shown in the embed table (phones wrap wider tables); the attachment and
#: /tournament export have them all.
EMBED_TIEBREAKS = 4

PAIRINGS_COLOUR = discord.Colour.blurple()
RESULTS_COLOUR = discord.Colour.green()
STANDINGS_COLOUR = discord.Colour.gold()
ALERT_COLOUR = discord.Colour.red()
INFO_COLOUR = discord.Colour.dark_teal()

RESULT_TEXT = {
    "*": "…",
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "½-½",
    "+--": "1F-0F",
    "--+": "0F-1F",
    "---": "0F-0F",
}
BYE_TEXT = {"pairing": "pairing bye", "half": "half-point bye", "full": "full-point bye",
            "zero": "zero-point bye"}


def result_text(game: GameView) -> str:
    text = RESULT_TEXT.get(game.result, game.result)
    if game.white_games is not None and game.black_games is not None:
        text += f" ({game.white_games}-{game.black_games})"
    return text


def _versus(round_: RoundView) -> str:
    return "–" if round_.use_colours else "vs"


def _game_users(game: GameView) -> tuple[int, ...]:
    return tuple(u for u in (game.white.user_id, game.black.user_id) if u is not None)


def pairings(round_: RoundView, *, mention_players: bool = True) -> list[Outgoing]:
    """The pairings of a round, pinging the paired players (and only them)."""
    name = plain(round_.tournament_name, 80)
    stage = getattr(round_, "stage", None)  # a playoff round (top cut)
    title = f"{name} · Round {round_.number} of {round_.total_rounds} · pairings"
    if stage:
        title = f"{name} · {stage} (round {round_.number}) · pairings"
    seeds = {int(number): int(seed) for number, seed in getattr(round_, "seeds", ())}
    lines = [
        Line(
            _match_line(game, seeds) if stage and seeds else
            f"`{game.board:>3}` {seat(game.white)} {_versus(round_)} {seat(game.black)}",
            _game_users(game) if mention_players else (),
        )
        for game in round_.games
    ]
    for bye in round_.byes:
        lines.append(
            Line(
                f"`bye` {seat(bye.player)} · goes through to the next round" if stage else
                f"`bye` {seat(bye.player)} · {BYE_TEXT.get(bye.kind, bye.kind)} "
                f"({point_count(bye.points)})",
                (bye.player.user_id,) if mention_players and bye.player.user_id else (),
            )
        )
    intro_parts = []
    if round_.deadline is not None:
        intro_parts.append(
            f"Deadline {discord_timestamp(round_.deadline, 'f')} "
            f"({discord_timestamp(round_.deadline, 'R')})"
        )
    if stage:
        intro_parts.append(getattr(round_, "playoff_note", ""))
    intro_parts.append("Report your result with `/report`.")
    footer = "White is listed first." if round_.use_colours else ""
    if stage:
        footer = ("The higher seed (seed in brackets) is listed first, as in the bracket."
                  if seeds else "The first listed plays white / first in game 1.")
    attachment = None
    if len(round_.games) > ATTACH_AFTER_BOARDS:
        attachment = TextFile(
            f"round-{round_.number}-pairings.txt", pairings_text(round_)
        )
    return paginate(
        title,
        lines,
        colour=PAIRINGS_COLOUR,
        intro="\n".join(intro_parts),
        footer=footer,
        content=f"**{stage}** of **{name}**: paired (round {round_.number})." if stage else
        f"**Round {round_.number}** of **{name}** is paired.",
        attachment=attachment,
    )


def _match_line(game: GameView, seeds: dict[int, int]) -> str:
    """A playoff match as the bracket shows it: the higher seed first, each with his seed."""
    def seed(side: Any) -> int:
        return seeds.get(side.number, 0) if side.number is not None else 0

    high, low = sorted((game.white, game.black), key=lambda side: seed(side) or 10**6)
    return (f"`{game.board:>3}` ({seed(high)}) {seat(high, number=False)} v "
            f"({seed(low)}) {seat(low, number=False)}")


def pairings_text(round_: RoundView) -> str:
    """The pairings as a plain-text table (the attachment for big rounds)."""
    rows = [f"{round_.tournament_name} - round {round_.number} of {round_.total_rounds}", ""]
    sep = " - " if round_.use_colours else " vs "
    for game in round_.games:
        rows.append(f"{game.board:>4}  {seat_text(game.white)}{sep}{seat_text(game.black)}")
    for bye in round_.byes:
        rows.append(f" bye  {seat_text(bye.player)} ({BYE_TEXT.get(bye.kind, bye.kind)})")
    return "\n".join(rows) + "\n"


def round_results(round_: RoundView) -> list[Outgoing]:
    """The results of a completed round (no pings)."""
    name = plain(round_.tournament_name, 80)
    lines = [
        Line(
            f"`{game.board:>3}` {seat(game.white, number=False)} **{result_text(game)}** "
            f"{seat(game.black, number=False)}"
        )
        for game in round_.games
    ]
    lines += [
        Line(f"`bye` {seat(b.player, number=False)} · {BYE_TEXT.get(b.kind, b.kind)}")
        for b in round_.byes
    ]
    attachment = None
    if len(round_.games) > ATTACH_AFTER_BOARDS:
        text = "\n".join(
            f"{g.board:>4}  {seat_text(g.white)} {result_text(g)} {seat_text(g.black)}"
            for g in round_.games
        )
        attachment = TextFile(f"round-{round_.number}-results.txt", text + "\n")
    stage = getattr(round_, "stage", None)
    return paginate(
        f"{name} · {stage} (round {round_.number}) results" if stage else
        f"{name} · Round {round_.number} results",
        lines,
        colour=RESULTS_COLOUR,
        attachment=attachment,
    )


def standings(view: StandingsView, *, limit: int | None = None, state: str | None = None
              ) -> list[Outgoing]:
    """A standings table (code block) split within limits; the full table is attached when it
    has more than :data:`ATTACH_AFTER_ROWS` rows. ``limit`` shows only the top rows;
    ``state`` names the table ("Swiss standings") instead of its round."""
    name = plain(view.tournament_name, 80)
    content = f"🏆 **Final standings** of **{name}**" if view.final and state is None else ""
    state = state or standings_state(view)
    title = f"{name} · {state}"
    placings = getattr(view, "placings", ())
    if placings:
        title = f"{name} · Swiss {state}"
        content = fit_content(placing_text(placings, name))
    return _table_posts(view, title=title, state=state, content=content, limit=limit)


def standings_state(view: StandingsView) -> str:
    """What the table shows: final, after a complete round, or with a round still in play
    (its results so far count: it is not "after" that round yet)."""
    if view.final:
        return "final standings"
    if getattr(view, "in_play", False):
        return f"standings with round {view.after_round} in play"
    return f"standings after round {view.after_round}"


def final_result(view: StandingsView) -> list[Outgoing]:
    """The one final post of an event with a top cut: the playoff placing, then the table in
    the order of the final result (its rows are sorted by place and ranked by it)."""
    name = plain(view.tournament_name, 80)
    placings = getattr(view, "placings", ())
    content = f"🏆 **Final result** of **{name}**"
    if placings:
        content = fit_content(content + "\n" + placing_text(placings, name))
    return _table_posts(view, title=f"{name} · final result", state="final result",
                        content=content, limit=None)


def _table_posts(view: StandingsView, *, title: str, state: str, content: str,
                 limit: int | None) -> list[Outgoing]:
    header, rows = standings_table(view, max_tiebreaks=EMBED_TIEBREAKS)
    notes = table_notes(view, EMBED_TIEBREAKS)
    truncated = limit is not None and len(rows) > limit
    shown = rows[:limit] if truncated else rows
    if truncated:
        shown = [*shown, f"… {len(rows) - len(shown)} more in the attached file"]
    attachment = None
    if len(rows) > ATTACH_AFTER_ROWS or truncated:
        full_header, full_rows = standings_table(view)
        attachment = TextFile(
            f"{'-'.join(state.lower().split())}.txt" if view.final
            else f"standings-round-{view.after_round}.txt",
            "\n".join([view.tournament_name, state, "", full_header, *full_rows, "",
                       *table_notes(view, None)]).rstrip() + "\n",
        )
    footer = ""
    if view.tiebreaks:
        rules = getattr(view, "rules", "")  # announcements rebuilt from old payloads lack it
        footer = f"Tiebreaks (FIDE C.07 {rules}): " if rules else "Tiebreaks: "
        footer += ", ".join(view.tiebreaks)
        if len(view.tiebreaks) > EMBED_TIEBREAKS:
            footer += f" (the first {EMBED_TIEBREAKS} are shown)"
        footer = "\n".join([footer, *notes])
        ties_note = getattr(view, "ties_note", "")
        if ties_note:  # what C.07 says about ties left after every tiebreak; kept short since
            # the footer repeats on every embed and counts towards the 6,000 per message
            footer = (footer + "\n" + ties_note)[: limits.FOOTER // 2]
    return paginate(
        title,
        [Line(r) for r in shown],
        colour=STANDINGS_COLOUR,
        header=header,
        code_block=True,
        footer=footer,
        content=content,
        attachment=attachment,
    )


def table_notes(view: StandingsView, max_tiebreaks: int | None) -> list[str]:
    """The legend lines the shown table needs (the decider mark, lower-is-better, "–")."""
    names, cells = table_cells(view, max_tiebreaks)
    return legend(view, names, bool(deciders(view, cells)))


def placing_text(placings: Sequence[Any], name: str) -> str:
    """The top cut's placing, best first, grouped by place ("Semi-finalists: A, B")."""
    groups: dict[str, list[str]] = {}
    for p in placings:
        groups.setdefault(p.place, []).append(f"{plain(p.name, 32)} ({p.seed})")
    medal = {"Winner": "🥇 ", "Finalist": "🥈 "}
    lines = [f"🏆 **Playoffs of {name}** (seed in brackets)"]
    for place, names in groups.items():
        label = place + "s" if len(names) > 1 and place.endswith("ist") else place
        lines.append(f"{medal.get(place, '')}**{label}**: {', '.join(names)}")
    return "\n".join(lines)


def standings_table(
    view: StandingsView, *, max_tiebreaks: int | None = None
) -> tuple[str, list[str]]:
    """The header and rows of the fixed-width standings table: each tiebreak column in one
    number format, "–" where it does not apply yet, ``*`` by the tiebreak that put a row
    ahead of the next one on the same points (:mod:`bot.standings_columns`)."""
    width = max([4, *(len(" ".join(r.name.split())) for r in view.rows)])
    width = min(width, 22)
    names, cells = table_cells(view, max_tiebreaks)
    decided = deciders(view, cells)
    header = f"{'#':>3} {'Name':<{width}} {'Pts':>4}" + "".join(f" {t[:6]:>5} " for t in names)
    rows = []
    for index, row in enumerate(view.rows):
        values = "".join(f" {v:>5}{DECIDER if decided.get(index) == column else ' '}"
                         for column, v in enumerate(cells[index])).rstrip()
        mark = " (w)" if row.withdrawn else ""
        rows.append(
            f"{row.rank:>3} {code_safe(row.name, width)} {points(row.points):>4}{values}{mark}"
        )
    return header, rows


#: Who may click a report's buttons besides the opponent (the service enforces the same).
ORGANISERS_TEXT = "an organiser (Manage Server or the organiser role)"


def report_prompt(outcome: ReportOutcome) -> Outgoing:
    """The public message a report creates; its buttons say who may click them: the opponent,
    or an organiser (for a guest opponent, only an organiser)."""
    game = outcome.game
    reporter, opponent = outcome.reporter, outcome.opponent
    reported = game.reported_result or game.result
    embed = discord.Embed(
        title=f"Round {game.round}, board {game.board}: result reported",
        description=(
            f"{seat(game.white)} **{RESULT_TEXT.get(reported, reported)}"
            f"{_games_suffix(game)}** {seat(game.black)}\n"
            f"Reported by {seat(reporter, number=False)}."
        ),
        colour=RESULTS_COLOUR,
    )
    if opponent.user_id is not None:
        content = (f"<@{opponent.user_id}>, please **Confirm** or **Dispute** this result "
                   f"(or {ORGANISERS_TEXT} can).")
        # footers are plain text: the name as stored, cut short
        embed.set_footer(
            text=f"Only {opponent.name[:40]} or {ORGANISERS_TEXT} can click these buttons."
        )
        return Outgoing(content=content, embeds=[embed], mention_users=(opponent.user_id,))
    embed.set_footer(text=f"Only {ORGANISERS_TEXT} can click these buttons.")
    return Outgoing(
        content=f"{seat(opponent, number=False)} is a guest: {ORGANISERS_TEXT} must "
        "**Confirm** or **Dispute** this result.",
        embeds=[embed],
    )


def prompt_closed(game: GameView | None) -> str:
    """The new content of a report prompt answered another way (its buttons are disabled)."""
    if game is None:
        return "↩️ This round was undone: the report no longer applies."
    where = f"Round {game.round}, board {game.board}"
    if game.state == "final":
        return (
            f"✅ {where}: {seat(game.white, number=False)} **{result_text(game)}** "
            f"{seat(game.black, number=False)} is final."
        )
    if game.state == "disputed":
        return f"⚠️ {where}: the result is **disputed**; an organiser will decide."
    return f"{where}: this report no longer applies."


def _games_suffix(game: GameView) -> str:
    if game.white_games is None or game.black_games is None:
        return ""
    return f" ({game.white_games}-{game.black_games})"


def report_answer(outcome: ReportOutcome) -> str:
    """What the report message says once it is confirmed, final at once or disputed."""
    game = outcome.game
    if outcome.status == "final":
        text = (
            f"✅ Round {game.round}, board {game.board}: {seat(game.white, number=False)} "
            f"**{result_text(game)}** {seat(game.black, number=False)} is final."
        )
        if outcome.tournament_finished:
            text += " That was the last game of the tournament."
        elif outcome.round_complete:
            text += f" Round {game.round} is complete."
        return text
    if outcome.status == "disputed":
        return (
            f"⚠️ Round {game.round}, board {game.board}: the result is **disputed**; "
            "an organiser will decide."
        )
    return f"Result reported; waiting for {seat(outcome.opponent, number=False)} to confirm."


def dispute_alert(
    game: GameView, organiser_role_id: int | None, tournament: str, *, owner_id: int | None = None
) -> Outgoing:
    """Tell the organisers that a result needs their decision. Pings their role only; with
    no organiser role set, the server owner (else it says that nobody could be pinged)."""
    if organiser_role_id:
        who, roles, users = f"<@&{organiser_role_id}>", (organiser_role_id,), ()
    elif owner_id:
        who, roles, users = f"<@{owner_id}> (no organiser role is set)", (), (owner_id,)
    else:
        who, roles, users = "Organisers (no organiser role is set, nobody was pinged)", (), ()
    reported = game.reported_result or "?"
    disputed = game.disputed_result
    lines = [
        f"{seat(game.white)} vs {seat(game.black)}",
        f"Reported: **{RESULT_TEXT.get(reported, reported)}**",
    ]
    if disputed:
        lines.append(f"Disputed, claiming: **{RESULT_TEXT.get(disputed, disputed)}**")
    lines.append("Decide with `/result set`.")
    if not organiser_role_id:
        lines.append("A server manager can choose who is pinged with `/config organiser-role`.")
    embed = discord.Embed(
        title=f"{plain(tournament, 80)} · round {game.round}, board {game.board} disputed",
        description="\n".join(lines),
        colour=ALERT_COLOUR,
    )
    return Outgoing(
        content=f"{who}: a result needs your decision.", embeds=[embed], mention_roles=roles,
        mention_users=users,
    )


def tournament_info(info: TournamentInfo) -> discord.Embed:
    """``/tournament info``."""
    s = info.settings
    embed = discord.Embed(title=plain(info.name, 200), colour=INFO_COLOUR)
    add_field(embed, "Status", info.status)
    round_text = f"{info.current_round} of {s.rounds}"
    if info.current_round > s.rounds:  # the rounds after the Swiss are the top cut's
        round_text = f"{info.current_round} (playoffs after {s.rounds} Swiss rounds)"
    if info.round_state:
        round_text += f" ({info.round_state})"
    add_field(embed, "Round", round_text)
    add_field(embed, "Players", str(info.players))
    system = s.system
    if system == "fide-dutch":
        system += f" ({getattr(s, 'dutch_rules', '2025')} rules)"
    add_field(embed, "System", system)
    add_field(embed, "Scoring", s.scoring)
    add_field(embed, "Tiebreaks", s.tiebreaks or "—")
    add_field(embed, "Colours", "yes" if s.colours else "no")
    add_field(embed, "Rematches", s.rematches)
    top_cut = getattr(s, "top_cut", 0)
    if top_cut:
        add_field(embed, "Top cut", f"top {top_cut}, best of {s.playoff_best_of}; higher seed "
                  f"plays {s.playoff_privilege} in game 1")
    if s.deadline_minutes:
        add_field(embed, "Round deadline", format_duration(s.deadline_minutes))
    if s.auto_advance_minutes is not None:
        add_field(embed, "Auto-advance",
                  f"{format_duration(s.auto_advance_minutes)} after a round")
    if s.reminders or s.deadline_action != "none":
        action = s.deadline_action
        if action == "reporter-wins":
            action += f", else {s.deadline_fallback}"
        reminders = f"reminders {s.reminders} min before; " if s.reminders else ""
        add_field(embed, "At the deadline", f"{reminders}{action}")
    if s.noshow_grace_minutes is not None:
        drop = (f"; dropped after {s.noshow_drop_after} in a row" if s.noshow_drop_after
                else "")
        add_field(embed, "No-shows",
                  f"claim after {format_duration(s.noshow_grace_minutes)}{drop}")
    if s.first_round_at is not None:
        start = datetime.fromisoformat(s.first_round_at)
        every = (f", then every {format_duration(s.round_interval_minutes)}"
                 if s.round_interval_minutes else "")
        add_field(embed, "Schedule", f"round 1 {discord_timestamp(start, 'F')} "
                  f"({discord_timestamp(start)}){every}")
    if getattr(s, "game_threads", False):
        add_field(embed, "Game threads", "a thread per board")
    if info.channel_id:
        add_field(embed, "Channel", f"<#{info.channel_id}>")
    if info.auto_advance_due is not None:
        add_field(embed, "Next round", discord_timestamp(info.auto_advance_due))
    if info.delivery_problem:
        add_field(embed, "⚠️ Announcements failing", info.delivery_problem, inline=False)
    for note in info.notes:  # a typed local time that happens twice: which one was taken
        add_field(embed, "Note", note, inline=False)
    embed.set_footer(text=f"Tournament #{info.id} · seed {info.seed}")
    return embed


#: Players listed by /tournament info (the rest are counted).
INFO_PLAYERS = 40


def trf_header(header: dict[str, str]) -> str:
    """The TRF report header as the export writes it (one line per code, 112 per deputy),
    in a code block: the values are the organiser's text, shown inert."""
    from swiss.trf.header import header_lines

    lines = header_lines(header, skip=())
    if not lines:
        return ("The TRF header is empty: the export writes the tournament's name (012) and "
                "counts the players (062, 072).")
    body = "\n".join(line.replace("`", "'") for line in lines)
    return fit_content("TRF report header (062/072 are counted when not set):\n"
                       f"```\n{body}\n```")


def add_players(embed: discord.Embed, players: Sequence[PlayerView]) -> None:
    """The players field of ``/tournament info`` (cut to one field's 1,024 characters)."""
    if not players:
        return
    lines = [player_line(p) for p in players[:INFO_PLAYERS]]
    if len(players) > INFO_PLAYERS:
        lines.append(f"… and {len(players) - INFO_PLAYERS} more")
    text = "\n".join(lines)
    if len(text) > limits.FIELD_VALUE:
        # cut at a line, saying how many are not shown, rather than mid-mention
        kept: list[str] = []
        for line in lines:
            more = f"\n… and {len(players) - len(kept) - 1} more"
            if len("\n".join([*kept, line])) + len(more) > limits.FIELD_VALUE:
                break
            kept.append(line)
        text = "\n".join(kept) + f"\n… and {len(players) - len(kept)} more"
    add_field(embed, f"Players ({len(players)})", text, inline=False)


def tournament_list(infos: Sequence[TournamentInfo]) -> discord.Embed:
    """``/tournament list``."""
    if not infos:
        return discord.Embed(
            title="Tournaments",
            description="No tournaments yet. Create one with `/tournament create`.",
            colour=INFO_COLOUR,
        )
    lines = []
    for info in infos[:40]:
        where = f" in <#{info.channel_id}>" if info.channel_id else ""
        lines.append(
            f"**{plain(info.name, 60)}** · {info.status} · round {info.current_round}/"
            f"{info.settings.rounds} · {plural(info.players, 'player')}{where}"
        )
    # 40 lines of long names and channel mentions can pass the 4,096 characters of a
    # description: keep whole lines and count the rest
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) + len("\n… and 9999 more") > limits.EMBED_DESCRIPTION:
            break
        kept.append(line)
    if len(infos) > len(kept):
        kept.append(f"… and {len(infos) - len(kept)} more")
    return discord.Embed(title="Tournaments", description="\n".join(kept), colour=INFO_COLOUR)


def player_line(player: PlayerView) -> str:
    rating = f" ({player.rating})" if player.rating else ""
    who = f"<@{player.user_id}>" if player.user_id is not None else plain(player.name, 60)
    return f"{who}{rating}"


def ping_lines(text: str, users: Sequence[int]) -> list[Outgoing]:
    """``text`` then the mentions of ``users`` (only them pinged), split into messages that
    fit Discord's 2,000 characters."""
    messages: list[Outgoing] = []
    line, batch = text, []
    for uid in users:
        mention = f" <@{uid}>"
        if len(line) + len(mention) > limits.CONTENT:
            messages.append(Outgoing(content=line, mention_users=tuple(batch)))
            line, batch = "", []
        line += mention
        batch.append(uid)
    messages.append(Outgoing(content=line.strip() or text, mention_users=tuple(batch)))
    return messages


def simple(text: str, *, mention_users: Sequence[int] = ()) -> Outgoing:
    return Outgoing(content=text, mention_users=tuple(mention_users))


def timestamp_or_dash(moment: datetime | None) -> str:
    return discord_timestamp(moment) if moment is not None else "—"


def as_dict(embed: discord.Embed) -> dict[str, Any]:
    """The JSON Discord receives for ``embed`` (tests compare against it)."""
    return embed.to_dict()  # type: ignore[return-value]
