"""``/team ...``: team events (service.teams, service.team_rounds).

Captains manage their own team; organisers may act for any team (the ``team`` option) and
override every team operation. Refusals answer privately; the pairings and standings are
posted in the event's channel through the outbox.
"""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render import teams as render
from bot.render.format import plain
from cogs.common import (
    TOURNAMENT_HELP,
    TournamentOption,
    actor_of,
    announced,
    answer,
    answer_outgoing,
    guild_id_of,
    posting_in_its_channel,
    service_of,
    thinking,
    tournament_autocomplete,
    tournament_ref,
)
from i18n import N_, _, ngettext
from service.limits import MAX_ROUNDS, MIN_ROUNDS
from service.team_rounds import view_payload
from service.team_views import BoardView, MatchView
from service.teams import MAX_BOARDS, MAX_MAPS, MAX_MEMBERS, MAX_TEAM_NAME, MAX_TEAM_REF, MAX_WINS

TEAM_HELP = N_("Which team, by name or #number (default: your own; organisers: any team)")
TeamOption = app_commands.Range[str, 1, MAX_TEAM_REF]
RoundOption = app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS]
MapsOption = app_commands.Range[int, 0, MAX_MAPS]
MAX_LINEUP_TEXT = 1000  # 12 mentions of up to 23 characters, with room for stray text
_MENTION_OR_ID = re.compile(r"<@!?([0-9]{1,20})>|([0-9]{1,20})")


def parse_lineup(text: str, limit: int = MAX_BOARDS) -> list[int]:
    """The members named in ``text``, in board order: mentions or user ids, separated by
    spaces or commas; anything else is refused with what was not understood."""
    members: list[int] = []
    rest = text.replace(",", " ").split()
    for word in rest:
        match = _MENTION_OR_ID.fullmatch(word)
        if match is None:
            raise UserFacingError(_("Name the players as @mentions in board order; {word} is "
                                    "not a mention.", word=repr(word[:40])))
        members.append(int(match.group(1) or match.group(2)))
    if not members:
        raise UserFacingError(_("Name the players as @mentions in board order, board 1 "
                                "first."))
    if len(members) > limit:
        raise UserFacingError(_("A lineup names at most {limit} players.", limit=limit))
    if any(not 0 < m < 2**63 for m in members):
        raise UserFacingError(_("That is not a Discord member's mention."))
    return members


async def latest_round(interaction: discord.Interaction, tournament: str | None) -> int:
    view = await service_of(interaction).team_pairings(guild_id_of(interaction), None,
                                                       tournament_ref(tournament))
    return int(view.round_number)


class TeamCog(commands.Cog):
    """Team events: rosters, lineups, pairing, results, standings."""

    team = app_commands.Group(name="team", description="Team events: teams, lineups, "
                              "results", guild_only=True)

    @team.command(name="settings", description="Make the event a team event (organisers)")
    @app_commands.describe(
        system="fide-team: a chess team Swiss (FIDE); esports-swiss: the Major Swiss stage",
        boards="Players per team in a match (chess boards)",
        colours="fide-team colour preferences (type-a, type-b, none)",
        wins="esports-swiss: wins to advance (and losses to be eliminated)",
        decider_best_of="esports-swiss: deciding matches are best of", tournament=TOURNAMENT_HELP)
    @app_commands.choices(
        system=[app_commands.Choice(name=s, value=s) for s in ("fide-team", "esports-swiss")],
        colours=[app_commands.Choice(name=s, value=s) for s in ("type-a", "type-b", "none")],
        decider_best_of=[app_commands.Choice(name=str(n), value=n) for n in (1, 3, 5)])
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def settings(self, interaction: discord.Interaction, system: str,
                       boards: app_commands.Range[int, 1, MAX_BOARDS], colours: str = "type-a",
                       wins: app_commands.Range[int, 1, MAX_WINS] = 3, decider_best_of: int = 3,
                       tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).team_settings(
            await actor_of(interaction), system, boards=boards, colour_model=colours,
            wins_to_advance=wins, losses_to_eliminate=wins, decider_best_of=decider_best_of,
            tournament=tournament_ref(tournament))
        extra = (_(", {wins} wins advance, deciders best of {best_of}",
                   wins=view.wins_to_advance, best_of=view.decider_best_of)
                 if view.system == "esports-swiss"
                 else _(", colours {colours}", colours=view.colour_model))
        await answer(interaction, _("👥 **{tournament}** is a {system} team event: {boards} "
                                    "players per team{extra}. Captains create teams with /team "
                                    "create.", tournament=view.tournament_name,
                                    system=view.system, boards=view.boards, extra=extra),
                     ephemeral=True)

    @team.command(name="create", description="Create a team; you are its captain")
    @app_commands.describe(name="The team's name", captain="Organisers: the captain, if "
                           "not you", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, MAX_TEAM_NAME],
                     captain: discord.Member | None = None,
                     tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).create_team(
            await actor_of(interaction), name, tournament=tournament_ref(tournament),
            captain_id=None if captain is None else captain.id,
            captain_name=None if captain is None else captain.display_name)
        await answer_outgoing(interaction, render.team_card(view), ephemeral=True)

    @team.command(name="add", description="Add a member to your team (captains, organisers)")
    @app_commands.describe(player="The member", substitute="A substitute (after the "
                           "regulars)", board="His place in board order (default: after "
                           "the regulars)", team=TEAM_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def add(self, interaction: discord.Interaction, player: discord.Member,
                  substitute: bool = False,
                  board: app_commands.Range[int, 1, MAX_MEMBERS] | None = None,
                  team: TeamOption | None = None,
                  tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).add_member(
            await actor_of(interaction), player.id, player.display_name, team=team,
            substitute=substitute, board=board, tournament=tournament_ref(tournament))
        await answer_outgoing(interaction, render.team_card(view), ephemeral=True)

    @team.command(name="remove", description="Remove a member from your team (captains, "
                  "organisers)")
    @app_commands.describe(player="The member", team=TEAM_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def remove(self, interaction: discord.Interaction, player: discord.User,
                     team: TeamOption | None = None,
                     tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).remove_member(
            await actor_of(interaction), player.id, team=team,
            tournament=tournament_ref(tournament))
        await answer_outgoing(interaction, render.team_card(view), ephemeral=True)

    @team.command(name="lineup", description="Set your team's boards for a round (captains, "
                  "before the round is paired)")
    @app_commands.describe(round="The round", players="The players as @mentions, board 1 "
                           "first", team=TEAM_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def lineup(self, interaction: discord.Interaction,
                     round: RoundOption,
                     players: app_commands.Range[str, 1, MAX_LINEUP_TEXT],
                     team: TeamOption | None = None,
                     tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).set_lineup(
            await actor_of(interaction), round, parse_lineup(players), team=team,
            tournament=tournament_ref(tournament))
        await answer(interaction, render.lineup_text(view), ephemeral=True)

    @team.command(name="checkin", description="Check your team in (captains, organisers)")
    @app_commands.describe(team=TEAM_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def checkin(self, interaction: discord.Interaction, team: TeamOption | None = None,
                      tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).check_in_team(
            await actor_of(interaction), team=team, tournament=tournament_ref(tournament))
        await answer(interaction, _("✅ {team} is checked in.", team=plain(view.name, 60)),
                     ephemeral=True)

    @team.command(name="drop", description="Withdraw your team from the next rounds "
                  "(captains, organisers)")
    @app_commands.describe(team=TEAM_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def drop(self, interaction: discord.Interaction, team: TeamOption | None = None,
                   tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).drop_team(
            await actor_of(interaction), team=team, tournament=tournament_ref(tournament))
        await answer(interaction, _("🚪 {team} has withdrawn: it is not paired any more; its "
                                    "results stay.", team=plain(view.name, 60)), ephemeral=True)

    @team.command(name="show", description="A team's roster, or every team")
    @app_commands.describe(team="Which team (default: every team)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def show(self, interaction: discord.Interaction, team: TeamOption | None = None,
                   tournament: TournamentOption | None = None) -> None:
        teams = await service_of(interaction).list_teams(guild_id_of(interaction),
                                                         tournament_ref(tournament))
        if team is not None:
            key = team.strip().casefold()
            teams = [t for t in teams if key in (t.name.casefold(), f"#{t.number}")]
            if not teams:
                raise UserFacingError(_("There is no team {team}.",
                                        team=repr(plain(team, 60))))
        if not teams:
            await answer(interaction, _("No team yet: captains create one with /team create."),
                         ephemeral=True)
            return
        messages = [m for t in teams[:10] for m in render.team_card(t)]
        await answer_outgoing(interaction, messages[:10], ephemeral=True)

    @team.command(name="pair", description="Pair the next round of the team event "
                  "(organisers)")
    @app_commands.describe(round="The round to pair (the next one)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def pair(self, interaction: discord.Interaction,
                   round: RoundOption,
                   tournament: TournamentOption | None = None) -> None:
        actor, service, info = await posting_in_its_channel(interaction, tournament)
        view = await service.pair_team_round(actor, round, info.id)
        announced(interaction)
        await answer(interaction, ngettext(
            "Round {round} is paired: {n} match, posted in the channel.",
            "Round {round} is paired: {n} matches, posted in the channel.", len(view.matches),
            round=view.round_number))

    @team.command(name="pairings", description="A round's team matches and boards")
    @app_commands.describe(round="The round (default: the latest)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def pairings(self, interaction: discord.Interaction,
                       round: RoundOption | None = None,
                       tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).team_pairings(
            guild_id_of(interaction), round, tournament_ref(tournament))
        await answer_outgoing(interaction, render.pairings(view.tournament_name,
                                                           view_payload(view), ping=False))

    @team.command(name="standings", description="The team standings")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def standings(self, interaction: discord.Interaction,
                        tournament: TournamentOption | None = None) -> None:
        await thinking(interaction)
        view = await service_of(interaction).team_standings(guild_id_of(interaction),
                                                            tournament_ref(tournament))
        await answer_outgoing(interaction, render.standings(view.tournament_name,
                                                           render.standings_payload(view)))

    @team.command(name="export", description="The team event as files: TRF (chess), CSV or "
                  "JSON")
    @app_commands.describe(format="trf: the TRF team report (chess); csv; json",
                           tournament=TOURNAMENT_HELP)
    @app_commands.choices(format=[app_commands.Choice(name=f, value=f)
                                  for f in ("trf", "csv", "json")])
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def export(self, interaction: discord.Interaction, format: str = "trf",
                     tournament: TournamentOption | None = None) -> None:
        await thinking(interaction, ephemeral=True)
        files = await service_of(interaction).export_team_files(
            guild_id_of(interaction), format, tournament_ref(tournament))
        await answer(interaction, f"📄 {len(files)} file{'s' if len(files) > 1 else ''}.",
                     files=[discord.File(io.BytesIO(f.content.encode("utf-8")), f.filename)
                            for f in files], ephemeral=True)

    @team.command(name="report", description="Report your board's result (chess team events)")
    @app_commands.describe(result="Your result", round="The round (default: the latest)",
                           tournament=TOURNAMENT_HELP)
    @app_commands.choices(result=[app_commands.Choice(name=r, value=r)
                                  for r in ("win", "draw", "loss")])
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def report(self, interaction: discord.Interaction, result: str,
                     round: RoundOption | None = None,
                     tournament: TournamentOption | None = None) -> None:
        number = round or await latest_round(interaction, tournament)
        board = await service_of(interaction).report_board(
            await actor_of(interaction), number, result, tournament_ref(tournament))
        announced(interaction)
        await answer(interaction, _board_text(number, board), ephemeral=True)

    @team.command(name="score", description="Report your match's score in maps (e-sports "
                  "captains)")
    @app_commands.describe(mine="Maps your team won", theirs="Maps the other team won",
                           round="The round (default: the latest)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def score(self, interaction: discord.Interaction,
                    mine: MapsOption, theirs: MapsOption,
                    round: RoundOption | None = None,
                    tournament: TournamentOption | None = None) -> None:
        number = round or await latest_round(interaction, tournament)
        match = await service_of(interaction).report_match(
            await actor_of(interaction), number, mine, theirs, tournament_ref(tournament))
        announced(interaction)
        await answer(interaction, _match_text(match), ephemeral=True)

    @team.command(name="confirm", description="Confirm the result your opponent reported")
    @app_commands.describe(round="The round (default: the latest)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def confirm(self, interaction: discord.Interaction,
                      round: RoundOption | None = None,
                      tournament: TournamentOption | None = None) -> None:
        service = service_of(interaction)
        number = round or await latest_round(interaction, tournament)
        actor = await actor_of(interaction)
        event = await service.team_event(actor.guild_id, tournament_ref(tournament))
        if event is not None and event.system == "esports-swiss":
            match = await service.confirm_match(actor, number, tournament_ref(tournament))
            text = _match_text(match)
        else:
            board = await service.confirm_board(actor, number, tournament_ref(tournament))
            text = _board_text(number, board)
        announced(interaction)
        await answer(interaction, text, ephemeral=True)

    @team.command(name="result", description="Set a board, a match or a forfeit (organisers)")
    @app_commands.describe(round="The round", team="The team whose match it is",
                           board="Chess: the board", result="Chess: the board's result, "
                           "White first", mine="E-sports: maps the team won",
                           theirs="E-sports: maps its opponent won",
                           forfeit="The team did not come: it loses the match by forfeit",
                           tournament=TOURNAMENT_HELP)
    @app_commands.choices(result=[app_commands.Choice(name=r, value=r) for r in
                                  ("1-0", "0-1", "1/2", "+-", "-+", "--")])
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def result(self, interaction: discord.Interaction,
                     round: RoundOption, team: TeamOption,
                     board: app_commands.Range[int, 1, MAX_BOARDS] | None = None,
                     result: str | None = None,
                     mine: MapsOption | None = None,
                     theirs: MapsOption | None = None,
                     forfeit: bool = False,
                     tournament: TournamentOption | None = None) -> None:
        await thinking(interaction, ephemeral=True)
        match = await service_of(interaction).set_team_result(
            await actor_of(interaction), round, team, board=board, result=result,
            my_score=mine, their_score=theirs, forfeit=forfeit,
            tournament=tournament_ref(tournament))
        announced(interaction)
        await answer(interaction, _match_text(match), ephemeral=True)


def _board_text(round_number: int, board: BoardView) -> str:
    if board.state == "final":
        shown = render.BOARD_RESULTS.get(board.result, "–")
        return _("✅ Round {round}, board {board}: {result} is final.", round=round_number,
                 board=board.board, result=shown)
    return _("📝 Round {round}, board {board}: reported; your opponent confirms it with /team "
             "confirm.", round=round_number, board=board.board)


def _match_text(match: MatchView) -> str:
    first = plain(match.white_team, 48)
    second = plain(match.black_team or _("the bye"), 48)
    if match.state == "final":
        return _("✅ Round {round}: {first} {first_score} – {second_score} {second} is final.",
                 round=match.round_number, first=first, first_score=match.white_score,
                 second_score=match.black_score, second=second)
    return _("📝 Round {round}: {first} – {second} reported; the other captain confirms it "
             "with /team confirm.", round=match.round_number, first=first, second=second)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TeamCog())
