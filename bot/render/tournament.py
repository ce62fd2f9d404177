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
from bot.render.format import (
    code_safe,
    discord_timestamp,
    plain,
    point_phrase,
    points,
    seat,
    seat_text,
)
from bot.render.limits import add_field, fit_content
from bot.render.message import Outgoing, TextFile
from bot.render.paginate import Line, paginate
from bot.standings_columns import DECIDER, deciders, legend, table_cells
from i18n import N_, _, in_words, ngettext
from swiss.moments import format_duration

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
BYE_TEXT = {
    "pairing": N_("pairing bye"),
    "half": N_("half-point bye"),
    "full": N_("full-point bye"),
    "zero": N_("zero-point bye"),
}


def bye_text(kind: str) -> str:
    return in_words(BYE_TEXT, kind)


def result_text(game: GameView) -> str:
    text = RESULT_TEXT.get(game.result, game.result)
    if game.white_games is not None and game.black_games is not None:
        text += f" ({game.white_games}-{game.black_games})"
    return text


def _versus(round_: RoundView) -> str:
    return "–" if round_.use_colours else _("vs")


def _game_users(game: GameView) -> tuple[int, ...]:
    return tuple(u for u in (game.white.user_id, game.black.user_id) if u is not None)


def pairings(round_: RoundView, *, mention_players: bool = True) -> list[Outgoing]:
    """The pairings of a round, pinging the paired players (and only them)."""
    name = plain(round_.tournament_name, 80)
    stage = getattr(round_, "stage", None)  # a playoff round (top cut)
    title = _("{name} · Round {round} of {rounds} · pairings",
              name=name, round=round_.number, rounds=round_.total_rounds)
    if stage:
        title = _("{name} · {stage} (round {round}) · pairings",
                  name=name, stage=stage, round=round_.number)
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
                _("`bye` {player} · goes through to the next round", player=seat(bye.player))
                if stage else
                _("`bye` {player} · {bye} ({points})", player=seat(bye.player),
                  bye=bye_text(bye.kind), points=point_phrase(bye.points)),
                (bye.player.user_id,) if mention_players and bye.player.user_id else (),
            )
        )
    intro_parts = []
    if round_.deadline is not None:
        intro_parts.append(_(
            "Deadline {date} ({countdown})",
            date=discord_timestamp(round_.deadline, "f"),
            countdown=discord_timestamp(round_.deadline, "R")))
    if stage:
        intro_parts.append(getattr(round_, "playoff_note", ""))
    intro_parts.append(ngettext("{n} board. Report your result with `/report`.",
                                "{n} boards. Report your result with `/report`.",
                                len(round_.games)))
    footer = _("White is listed first.") if round_.use_colours else ""
    if stage:
        footer = (_("The higher seed (seed in brackets) is listed first, as in the bracket.")
                  if seeds else _("The first listed plays white / first in game 1."))
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
        content=_("**{stage}** of **{name}**: paired (round {round}).",
                  stage=stage, name=name, round=round_.number) if stage else
        _("**Round {round}** of **{name}** is paired.", round=round_.number, name=name),
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
    rows = [_("{name} - round {round} of {rounds}", name=round_.tournament_name,
              round=round_.number, rounds=round_.total_rounds), ""]
    sep = " - " if round_.use_colours else f" {_('vs')} "
    for game in round_.games:
        rows.append(f"{game.board:>4}  {seat_text(game.white)}{sep}{seat_text(game.black)}")
    for bye in round_.byes:
        rows.append(f" bye  {seat_text(bye.player)} ({bye_text(bye.kind)})")
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
        Line(f"`bye` {seat(b.player, number=False)} · {bye_text(b.kind)}")
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
        _("{name} · {stage} (round {round}) results", name=name, stage=stage,
          round=round_.number) if stage else
        _("{name} · Round {round} results", name=name, round=round_.number),
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
    content = (_("🏆 **Final standings** of **{name}**", name=name)
               if view.final and state is None else "")
    # the attachment's name stays English, like the export's file names
    slug = "-".join((state or "final standings").lower().split())
    state = state or standings_state(view)
    title = f"{name} · {state}"
    placings = getattr(view, "placings", ())
    if placings:
        title = _("{name} · Swiss {state}", name=name, state=state)
        content = fit_content(placing_text(placings, name))
    return _table_posts(view, title=title, state=state, content=content, limit=limit,
                        slug=slug)


def standings_state(view: StandingsView) -> str:
    """What the table shows: final, after a complete round, or with a round still in play
    (its results so far count: it is not "after" that round yet)."""
    if view.final:
        return _("final standings")
    if getattr(view, "in_play", False):
        return _("standings with round {round} in play", round=view.after_round)
    return _("standings after round {round}", round=view.after_round)


def final_result(view: StandingsView) -> list[Outgoing]:
    """The one final post of an event with a top cut: the playoff placing, then the table in
    the order of the final result (its rows are sorted by place and ranked by it)."""
    name = plain(view.tournament_name, 80)
    placings = getattr(view, "placings", ())
    content = _("🏆 **Final result** of **{name}**", name=name)
    if placings:
        content = fit_content(content + "\n" + placing_text(placings, name))
    return _table_posts(view, title=f"{name} · {_('final result')}", state=_("final result"),
                        content=content, limit=None, slug="final-result")


def _table_posts(view: StandingsView, *, title: str, state: str, content: str,
                 limit: int | None, slug: str) -> list[Outgoing]:
    header, rows = standings_table(view, max_tiebreaks=EMBED_TIEBREAKS)
    notes = table_notes(view, EMBED_TIEBREAKS)
    truncated = limit is not None and len(rows) > limit
    shown = rows[:limit] if truncated else rows
    if truncated:
        shown = [*shown, ngettext("… {n} more in the attached file",
                                  "… {n} more in the attached file", len(rows) - len(shown))]
    attachment = None
    if len(rows) > ATTACH_AFTER_ROWS or truncated:
        full_header, full_rows = standings_table(view)
        attachment = TextFile(
            f"{slug}.txt" if view.final
            else f"standings-round-{view.after_round}.txt",
            "\n".join([view.tournament_name, state, "", full_header, *full_rows, "",
                       *table_notes(view, None)]).rstrip() + "\n",
        )
    footer = ""
    if view.tiebreaks:
        rules = getattr(view, "rules", "")  # announcements rebuilt from old payloads lack it
        footer = (_("Tiebreaks (FIDE C.07 {rules}): ", rules=rules) if rules
                  else _("Tiebreaks: "))
        footer += ", ".join(view.tiebreaks)
        if len(view.tiebreaks) > EMBED_TIEBREAKS:
            footer += _(" (the first {count} are shown)", count=EMBED_TIEBREAKS)
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
    lines = [_("🏆 **Playoffs of {tournament}** (seed in brackets)", tournament=name)]
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
    # the column names in the language of the post, at most 4 characters for points
    name_column, points_column = _("Name")[:width], _("Pts")[:4]
    header = (f"{'#':>3} {name_column:<{width}} {points_column:>4}"
              + "".join(f" {t[:6]:>5} " for t in names))
    rows = []
    for index, row in enumerate(view.rows):
        values = "".join(f" {v:>5}{DECIDER if decided.get(index) == column else ' '}"
                         for column, v in enumerate(cells[index])).rstrip()
        mark = _(" (w)") if row.withdrawn else ""
        rows.append(
            f"{row.rank:>3} {code_safe(row.name, width)} {points(row.points):>4}{values}{mark}"
        )
    return header, rows


#: Who may click a report's buttons besides the opponent (the service enforces the same).
ORGANISERS_TEXT = N_("an organiser (Manage Server or the organiser role)")


def report_prompt(outcome: ReportOutcome) -> Outgoing:
    """The public message a report creates; its buttons say who may click them: the opponent,
    or an organiser (for a guest opponent, only an organiser)."""
    game = outcome.game
    reporter, opponent = outcome.reporter, outcome.opponent
    reported = game.reported_result or game.result
    organisers = _(ORGANISERS_TEXT)
    embed = discord.Embed(
        title=_("Round {round}, board {board}: result reported",
                round=game.round, board=game.board),
        description=(
            f"{seat(game.white)} **{RESULT_TEXT.get(reported, reported)}"
            f"{_games_suffix(game)}** {seat(game.black)}\n"
            + _("Reported by {player}.", player=seat(reporter, number=False))
        ),
        colour=RESULTS_COLOUR,
    )
    if opponent.user_id is not None:
        content = _("<@{user}>, please **Confirm** or **Dispute** this result "
                    "(or {organisers} can).", user=opponent.user_id, organisers=organisers)
        # footers are plain text: the name as stored, cut short
        embed.set_footer(
            text=_("Only {name} or {organisers} can click these buttons.",
                   name=opponent.name[:40], organisers=organisers)
        )
        return Outgoing(content=content, embeds=[embed], mention_users=(opponent.user_id,))
    embed.set_footer(text=_("Only {organisers} can click these buttons.",
                            organisers=organisers))
    return Outgoing(
        content=_("{player} is a guest: {organisers} must **Confirm** or **Dispute** this "
                  "result.", player=seat(opponent, number=False), organisers=organisers),
        embeds=[embed],
    )


def prompt_closed(game: GameView | None) -> str:
    """The new content of a report prompt answered another way (its buttons are disabled)."""
    if game is None:
        return _("↩️ This round was undone: the report no longer applies.")
    if game.state == "final":
        return "✅ " + _final_game(game)
    if game.state == "disputed":
        return _disputed(game)
    return _("Round {round}, board {board}: this report no longer applies.",
             round=game.round, board=game.board)


def _final_game(game: GameView) -> str:
    return _("Round {round}, board {board}: {white} **{result}** {black} is final.",
             round=game.round, board=game.board, white=seat(game.white, number=False),
             result=result_text(game), black=seat(game.black, number=False))


def _disputed(game: GameView) -> str:
    return _("⚠️ Round {round}, board {board}: the result is **disputed**; an organiser "
             "will decide.", round=game.round, board=game.board)


def _games_suffix(game: GameView) -> str:
    if game.white_games is None or game.black_games is None:
        return ""
    return f" ({game.white_games}-{game.black_games})"


def report_answer(outcome: ReportOutcome) -> str:
    """What the report message says once it is confirmed, final at once or disputed."""
    game = outcome.game
    if outcome.status == "final":
        text = "✅ " + _final_game(game)
        if outcome.tournament_finished:
            text += " " + _("That was the last game of the tournament.")
        elif outcome.round_complete:
            text += " " + _("Round {round} is complete.", round=game.round)
        return text
    if outcome.status == "disputed":
        return _disputed(game)
    return _("Result reported; waiting for {player} to confirm.",
             player=seat(outcome.opponent, number=False))


def dispute_alert(
    game: GameView, organiser_role_id: int | None, tournament: str, *, owner_id: int | None = None
) -> Outgoing:
    """Tell the organisers that a result needs their decision. Pings their role only; with
    no organiser role set, the server owner (else it says that nobody could be pinged)."""
    if organiser_role_id:
        who, roles, users = f"<@&{organiser_role_id}>", (organiser_role_id,), ()
    elif owner_id:
        who, roles, users = (_("<@{user}> (no organiser role is set)", user=owner_id), (),
                             (owner_id,))
    else:
        who, roles, users = (_("Organisers (no organiser role is set, nobody was pinged)"),
                             (), ())
    reported = game.reported_result or "?"
    disputed = game.disputed_result
    lines = [
        f"{seat(game.white)} {_('vs')} {seat(game.black)}",
        _("Reported: **{result}**", result=RESULT_TEXT.get(reported, reported)),
    ]
    if disputed:
        lines.append(_("Disputed, claiming: **{result}**",
                       result=RESULT_TEXT.get(disputed, disputed)))
    lines.append(_("Decide with `/result set`."))
    if not organiser_role_id:
        lines.append(_("A server manager can choose who is pinged with "
                       "`/config organiser-role`."))
    embed = discord.Embed(
        title=_("{name} · round {round}, board {board} disputed",
                name=plain(tournament, 80), round=game.round, board=game.board),
        description="\n".join(lines),
        colour=ALERT_COLOUR,
    )
    return Outgoing(
        content=_("{who}: a result needs your decision.", who=who), embeds=[embed],
        mention_roles=roles, mention_users=users,
    )


def tournament_info(info: TournamentInfo) -> discord.Embed:
    """``/tournament info``."""
    s = info.settings
    embed = discord.Embed(title=plain(info.name, 200), colour=INFO_COLOUR)
    add_field(embed, _("Status"), status_text(info.status))
    round_text = _("{round} of {rounds}", round=info.current_round, rounds=s.rounds)
    if info.current_round > s.rounds:  # the rounds after the Swiss are the top cut's
        round_text = _("{round} (playoffs after {rounds} Swiss rounds)",
                       round=info.current_round, rounds=s.rounds)
    if info.round_state:
        round_text += f" ({info.round_state})"
    add_field(embed, _("Round"), round_text)
    add_field(embed, _("Players"), str(info.players))
    system = s.system
    if system == "fide-dutch":
        system += " " + _("({edition} rules)", edition=getattr(s, "dutch_rules", "2025"))
    add_field(embed, _("System"), system)
    add_field(embed, _("Scoring"), s.scoring)
    add_field(embed, _("Tiebreaks"), s.tiebreaks or "—")
    add_field(embed, _("Colours"), _("yes") if s.colours else _("no"))
    add_field(embed, _("Rematches"), s.rematches)
    top_cut = getattr(s, "top_cut", 0)
    if top_cut:
        add_field(embed, _("Top cut"), _(
            "top {size}, best of {games}; higher seed plays {colour} in game 1",
            size=top_cut, games=s.playoff_best_of, colour=s.playoff_privilege))
    if s.deadline_minutes:
        add_field(embed, _("Round deadline"), format_duration(s.deadline_minutes))
    if s.auto_advance_minutes is not None:
        add_field(embed, _("Auto-advance"), _("{duration} after a round",
                                              duration=format_duration(s.auto_advance_minutes)))
    if s.reminders or s.deadline_action != "none":
        action = s.deadline_action
        if action == "reporter-wins":
            action += _(", else {fallback}", fallback=s.deadline_fallback)
        reminders = (_("reminders {minutes} min before; ", minutes=s.reminders)
                     if s.reminders else "")
        add_field(embed, _("At the deadline"), f"{reminders}{action}")
    if s.noshow_grace_minutes is not None:
        drop = (_("; dropped after {count} in a row", count=s.noshow_drop_after)
                if s.noshow_drop_after else "")
        add_field(embed, _("No-shows"), _("claim after {duration}",
                                          duration=format_duration(s.noshow_grace_minutes))
                  + drop)
    if s.first_round_at is not None:
        start = datetime.fromisoformat(s.first_round_at)
        every = (_(", then every {duration}",
                   duration=format_duration(s.round_interval_minutes))
                 if s.round_interval_minutes else "")
        add_field(embed, _("Schedule"), _("round 1 {date} ({countdown})",
                                          date=discord_timestamp(start, "F"),
                                          countdown=discord_timestamp(start)) + every)
    if getattr(s, "game_threads", False):
        add_field(embed, _("Game threads"), _("a thread per board"))
    if info.channel_id:
        add_field(embed, _("Channel"), f"<#{info.channel_id}>")
    if info.auto_advance_due is not None:
        add_field(embed, _("Next round"), discord_timestamp(info.auto_advance_due))
    if info.delivery_problem:
        add_field(embed, _("⚠️ Announcements failing"), info.delivery_problem, inline=False)
    for note in info.notes:  # a typed local time that happens twice: which one was taken
        add_field(embed, _("Note"), note, inline=False)
    embed.set_footer(text=_("Tournament #{id} · seed {seed}", id=info.id, seed=info.seed))
    return embed


#: A tournament's status in words.
STATUS_TEXT = {
    "registration": N_("registration"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}


def status_text(status: str) -> str:
    return in_words(STATUS_TEXT, status)


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
        lines.append(_and_more(len(players) - INFO_PLAYERS))
    text = "\n".join(lines)
    if len(text) > limits.FIELD_VALUE:
        # cut at a line, saying how many are not shown, rather than mid-mention
        kept: list[str] = []
        for line in lines:
            more = "\n" + _and_more(len(players) - len(kept) - 1)
            if len("\n".join([*kept, line])) + len(more) > limits.FIELD_VALUE:
                break
            kept.append(line)
        text = "\n".join(kept) + "\n" + _and_more(len(players) - len(kept))
    add_field(embed, _("Players ({count})", count=len(players)), text, inline=False)


def _and_more(count: int) -> str:
    return ngettext("… and {n} more", "… and {n} more", count)


def tournament_list(infos: Sequence[TournamentInfo]) -> discord.Embed:
    """``/tournament list``."""
    if not infos:
        return discord.Embed(
            title=_("Tournaments"),
            description=_("No tournaments yet. Create one with `/tournament create`."),
            colour=INFO_COLOUR,
        )
    lines = []
    for info in infos[:40]:
        where = _(" in <#{channel}>", channel=info.channel_id) if info.channel_id else ""
        lines.append(
            f"**{plain(info.name, 60)}** · {status_text(info.status)} · "
            + _("round {round}/{rounds}", round=info.current_round, rounds=info.settings.rounds)
            + " · " + ngettext("{n} player", "{n} players", info.players) + where
        )
    # 40 lines of long names and channel mentions can pass the 4,096 characters of a
    # description: keep whole lines and count the rest
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) + len("\n" + _and_more(9999)) > limits.EMBED_DESCRIPTION:
            break
        kept.append(line)
    if len(infos) > len(kept):
        kept.append(_and_more(len(infos) - len(kept)))
    return discord.Embed(title=_("Tournaments"), description="\n".join(kept),
                         colour=INFO_COLOUR)


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
