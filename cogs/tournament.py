"""``/tournament ...``: create, configure, start, finish and export an event.

The other command groups have cogs of their own: ``/round`` in :mod:`cogs.rounds`, the
tables everyone may look at (``/pairings``, ``/standings``, ``/crosstable``) in
:mod:`cogs.tables`."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render import advice as advice_render
from bot.render import lichess as lichess_render
from bot.render import requests as requests_render
from bot.render import tournament as render
from bot.render.confirm import paired_text
from bot.render.exports import export_reply
from bot.render.format import plain
from bot.render.settings_panel import GROUPS, label, panel_embed, update_text
from bot.web.links import live_page_url, live_pages_on
from cogs.common import (
    TOURNAMENT_HELP,
    TournamentOption,
    actor_of,
    announced,
    answer,
    event_of,
    guild_id_of,
    posting_in_its_channel,
    require_channel_permissions,
    service_of,
    thinking,
    tournament_autocomplete,
)
from cogs.confirm import DYNAMIC_ITEMS as CONFIRM_ITEMS
from cogs.confirm import ask_or_act, run_action
from cogs.settings import DYNAMIC_ITEMS as SETTINGS_ITEMS
from cogs.settings import panel_view, parse_setting
from cogs.views import (
    decision_buttons,
)
from i18n import _
from service.limits import (
    DEADLINE_ACTIONS,
    DEADLINE_FALLBACKS,
    MAX_CAPACITY,
    MAX_NOSHOW_DROP_AFTER,
    MAX_RATING,
    MAX_REMINDERS_TEXT,
    MAX_ROUNDS,
    MAX_SETTING_NAME,
    MAX_SETTING_TEXT,
    MAX_START_TIME_TEXT,
    MAX_TIEBREAKS_TEXT,
    MAX_TIME_TEXT,
    MAX_TOURNAMENT_NAME,
    MAX_TRF_HEADER_TEXT,
    MAX_WINDOW_TEXT,
    MIN_CAPACITY,
    MIN_NOSHOW_DROP_AFTER,
    MIN_RATING,
    MIN_ROUNDS,
)
from swiss.pairing.names import SystemNameError, system_and_edition
from swiss.pairing.types import DUTCH_RULES, SYSTEMS
from swiss.standings import PRESETS
from swiss.trf.header import HEADER_FIELDS

# One name per system (swiss.pairing.names); the FIDE Dutch edition is the `rules` option.
SYSTEM_CHOICES = [app_commands.Choice(name=s, value=s) for s in SYSTEMS]
RULES_CHOICES = [app_commands.Choice(name=r, value=r) for r in DUTCH_RULES]
TRF_HEADER_CHOICES = [
    app_commands.Choice(name=f"{f.code} {f.label}", value=f.key) for f in HEADER_FIELDS
]
DEADLINE_ACTION_CHOICES = [app_commands.Choice(name=a, value=a) for a in DEADLINE_ACTIONS]
DEADLINE_FALLBACK_CHOICES = [app_commands.Choice(name=a, value=a) for a in DEADLINE_FALLBACKS]
TYPED_SETTINGS = tuple(key for group in GROUPS for key in group.settings)
TIMER_HELP = {
    "reminders": "Times before the deadline to ping players of open games, e.g. 15,5 or 1h, 15m",
    "deadline_action": "At the deadline, open games: none, remind (organisers), draw, "
    "double-loss, reporter-wins",
    "deadline_fallback": "reporter-wins without a single report: remind, draw or double-loss",
    "noshow_grace": "Time after pairing before a no-show can be claimed, like 10m",
    "noshow_drop_after": "Drop a player after this many forfeited games in a row (0: never)",
    "start_at": "Schedule round 1 (server's time zone): tomorrow 19:00, fri 18:30, "
                "2026-12-05 19:00",
    "round_interval": "Time between scheduled rounds, like 1d (one a day), 2h30 or 90m",
}
# Every duration option: text read by swiss.moments ("1h30", "7d"; a plain number is minutes).
DurationOption = app_commands.Range[str, 1, MAX_TIME_TEXT]


async def setting_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The settings typed as text, by their panel label."""
    typed = current.lower()
    return [app_commands.Choice(name=f"{label(key)} ({key})"[:100], value=key)
            for key in TYPED_SETTINGS if typed in key or typed in label(key).lower()][:25]


async def tiebreak_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The presets, each shown with its tiebreaks; typing a comma list is also accepted."""
    return [
        app_commands.Choice(name=f"{name}: {', '.join(tbs)}"[:100], value=name)
        for name, tbs in PRESETS.items()
        if current.lower() in name
    ][:25]


class TournamentCog(commands.Cog):
    """The tournament's life cycle and settings."""

    tournament = app_commands.Group(
        name="tournament", description="Create and run Swiss tournaments", guild_only=True
    )

    # -- /tournament ---------------------------------------------------------------------------

    @tournament.command(name="create", description="Create a tournament (organisers)")
    @app_commands.describe(
        name="The tournament's name",
        rounds="Number of rounds",
        system="Pairing system (default dutch; fide-dutch: the official FIDE rules)",
        rules="fide-dutch only: the edition of the FIDE rules, 2025 (default) or 2017",
        scoring="chess: 1/½/0; match: 3/1/0 (default chess)",
        tiebreaks="A preset (fide, lichess, mtg, ...) or acronyms such as BH-C1,BH,SB",
        channel="Where pairings and results are posted (default: here)",
    )
    @app_commands.choices(system=SYSTEM_CHOICES, rules=RULES_CHOICES)
    @app_commands.autocomplete(tiebreaks=tiebreak_autocomplete)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_TOURNAMENT_NAME],
        rounds: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS],
        system: str = "dutch",
        rules: str | None = None,
        scoring: Literal["chess", "match"] = "chess",
        tiebreaks: app_commands.Range[str, 1, MAX_TIEBREAKS_TEXT] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """The core of the event; everything else is in the settings panel that follows."""
        # the announcement channel must be usable before the tournament exists
        target = channel.id if channel else interaction.channel_id
        await require_channel_permissions(interaction, target)
        try:
            system, dutch_rules = system_and_edition(system, rules)
        except SystemNameError as exc:
            raise UserFacingError(exc.sentence()) from None
        info = await service_of(interaction).create_tournament(
            await actor_of(interaction), name, rounds, system=system, dutch_rules=dutch_rules,
            scoring=scoring, tiebreaks=tiebreaks, channel_id=target)
        await answer(
            interaction,
            _("Created **{name}**. Players join with `/join`; an organiser starts it with "
              "`/tournament start`.", name=plain(info.name))
            + lichess_render.event_hint(info.settings),
            embeds=[render.tournament_info(info)],
        )
        # the rest of the settings, privately: the organiser changes what he needs there
        await answer(interaction, _("Every other setting is here (also later, with "
                                    "`/tournament settings`)."), embeds=[panel_embed(info)],
                     view=panel_view(info), ephemeral=True)

    @tournament.command(name="settings",
                        description="Show and change every setting of an event (organisers)")
    @app_commands.describe(
        tournament=TOURNAMENT_HELP,
        setting="Change one setting at once (or use the panel's menus)",
        value="Its new value, as the panel shows it (empty: off / none)",
        apply="After the start: pairing changes apply from the next round, scoring and "
              "tiebreak changes to the standings",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete, setting=setting_autocomplete)
    async def settings(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
        setting: app_commands.Range[str, 1, MAX_SETTING_NAME] | None = None,
        value: app_commands.Range[str, 0, MAX_SETTING_TEXT] = "",
        apply: Literal["next-round", "standings"] | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        service = service_of(interaction)
        if not actor.is_organiser:
            raise UserFacingError(_("Only organisers can see and change the settings: "
                                    "members with the Manage Server permission or the "
                                    "server's organiser role."))
        info = await service.tournament_info(
            actor.guild_id, await event_of(interaction, tournament, "organise"))
        text = None
        if setting is not None:
            if setting not in TYPED_SETTINGS:
                raise UserFacingError(_("Unknown setting {setting}: choose one of the list "
                                        "(the channel and the role are menus of the panel).",
                                        setting=plain(setting, 40)))
            update = await service.update_settings(
                actor, info.id, {setting: parse_setting(setting, value)}, apply=apply)
            announced(interaction)
            text, info = update_text(update), update.info
        await answer(interaction, text, embeds=[panel_embed(info)], view=panel_view(info),
                     ephemeral=True)

    @tournament.command(name="timers",
                        description="Change reminders, deadline action, no-shows, schedule")
    @app_commands.describe(tournament=TOURNAMENT_HELP,
                           deadline_minutes="Time to play each round, like 90m or 1h30 (from "
                                            "the next round on)",
                           **TIMER_HELP)
    @app_commands.choices(deadline_action=DEADLINE_ACTION_CHOICES,
                          deadline_fallback=DEADLINE_FALLBACK_CHOICES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def timers(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
        deadline_minutes: DurationOption | None = None,
        reminders: app_commands.Range[str, 1, MAX_REMINDERS_TEXT] | None = None,
        deadline_action: str | None = None,
        deadline_fallback: str | None = None,
        noshow_grace: DurationOption | None = None,
        noshow_drop_after: app_commands.Range[
            int, MIN_NOSHOW_DROP_AFTER, MAX_NOSHOW_DROP_AFTER] | None = None,
        start_at: app_commands.Range[str, 1, MAX_START_TIME_TEXT] | None = None,
        round_interval: DurationOption | None = None,
    ) -> None:
        """Organisers: the timer settings, also while the tournament runs ("off" clears the
        reminders or the start time)."""
        given = {
            "deadline_minutes": deadline_minutes, "reminders": reminders,
            "deadline_action": deadline_action, "deadline_fallback": deadline_fallback,
            "noshow_grace_minutes": noshow_grace, "noshow_drop_after": noshow_drop_after,
            "first_round_at": start_at, "round_interval_minutes": round_interval,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        if start_at is not None and start_at.strip().lower() in ("off", "none"):
            changes["first_round_at"] = None
        if not changes:
            await answer(interaction, _("Give at least one setting to change."), ephemeral=True)
            return
        info = await service_of(interaction).edit_tournament(
            await actor_of(interaction), await event_of(interaction, tournament, "organise"),
            **changes,
        )
        announced(interaction)
        await answer(interaction, _("Timers of **{name}** updated.", name=plain(info.name)),
                     embeds=[render.tournament_info(info)], ephemeral=True)

    @tournament.command(name="start", description="Close registration and pair round 1")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def start(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor, service, _info = await posting_in_its_channel(interaction, tournament)
        view = await service.start_tournament(
            actor, await event_of(interaction, tournament, "organise"))
        announced(interaction)
        await answer(interaction, paired_text(view, "started"))

    @tournament.command(name="info", description="Settings, state and players")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def info(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
    ) -> None:
        service = service_of(interaction)
        guild_id = guild_id_of(interaction)
        info = await service.tournament_info(guild_id, await event_of(interaction, tournament))
        players = await service.list_players(guild_id, info.id)
        embed = render.tournament_info(info)
        render.add_players(embed, players)
        buttons = None
        actor = await actor_of(interaction)
        if actor.is_organiser and info.status in ("registration", "running"):
            # organisers also see what waits for them, with Approve / Deny buttons
            requests = await service.pending_requests(actor, info.id)
            requests_render.add_requests(embed, requests)
            buttons = decision_buttons(requests)
        await answer(interaction, embeds=[embed], ephemeral=True, view=buttons)

    @tournament.command(name="entry", description="Capacity, entry conditions and windows")
    @app_commands.describe(
        capacity="At most this many players; later joiners wait in line",
        role="Only members with this role may join",
        min_rating="Lowest rating admitted (a rating is then required)",
        max_rating="Highest rating admitted (a rating is then required)",
        registration_opens="When (server's time zone), like tomorrow 18:00 or 2026-05-01 18:00",
        registration_closes="When (server's time zone), like fri 19:45 or 2026-05-01 19:45",
        checkin_opens="When (server's time zone), like in 1h; players are pinged then",
        checkin_closes="When; who did not check in is dropped at the start",
        player_byes="Byes players may ask for (an organiser approves)",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def entry(
        self,
        interaction: discord.Interaction,
        capacity: app_commands.Range[int, MIN_CAPACITY, MAX_CAPACITY] | None = None,
        role: discord.Role | None = None,
        min_rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        max_rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        registration_opens: app_commands.Range[str, 1, MAX_WINDOW_TEXT] | None = None,
        registration_closes: app_commands.Range[str, 1, MAX_WINDOW_TEXT] | None = None,
        checkin_opens: app_commands.Range[str, 1, MAX_WINDOW_TEXT] | None = None,
        checkin_closes: app_commands.Range[str, 1, MAX_WINDOW_TEXT] | None = None,
        player_byes: Literal["half", "zero", "both", "none"] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        given = {
            "capacity": capacity, "required_role_id": role.id if role else None,
            "min_rating": min_rating, "max_rating": max_rating,
            "registration_opens": registration_opens,
            "registration_closes": registration_closes,
            "checkin_opens": checkin_opens, "checkin_closes": checkin_closes,
            "player_byes": player_byes,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        if checkin_opens or checkin_closes:
            changes["checkin"] = True  # a check-in window means check-in is used
        if not changes:
            raise UserFacingError("Give at least one setting to change.")
        info = await service_of(interaction).edit_tournament(
            await actor_of(interaction), await event_of(interaction, tournament, "organise"),
            **changes)
        announced(interaction)  # a larger capacity may have let waiting players in
        await answer(interaction, _("Entry settings of **{name}** saved.",
                                    name=plain(info.name)),
                     embeds=[render.tournament_info(info)], ephemeral=True)

    @tournament.command(name="list", description="This server's tournaments")
    async def list_(self, interaction: discord.Interaction) -> None:
        infos = await service_of(interaction).list_tournaments(
            guild_id_of(interaction), include_closed=True
        )
        await answer(interaction, embeds=[render.tournament_list(infos)], ephemeral=True)

    @tournament.command(name="finish", description="End the tournament and post final standings")
    @app_commands.describe(
        tournament=TOURNAMENT_HELP, force="Finish even if rounds are left or results missing"
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def finish(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
        force: bool = False,
    ) -> None:
        actor = await actor_of(interaction)
        await thinking(interaction, ephemeral=True)  # errors must stay private
        preview = await service_of(interaction).preview_action(
            actor, "finish", await event_of(interaction, tournament, "organise"))
        # Open games would become double forfeits: ask first (the Confirm button finishes
        # with force), whether or not force was given.
        if preview.needs_confirmation:
            await ask_or_act(interaction, preview)
            return
        text = await run_action(interaction, "finish", preview.tournament_id, force=force,
                                version=preview.version, round_number=preview.round_number)
        await answer(interaction, text)

    @tournament.command(name="topcut", description="Set the playoffs after the Swiss (organisers)")
    @app_commands.describe(
        size="How many players go to the single-elimination playoffs (0: none)",
        best_of="Games per playoff match: 1, 3 or 5",
        higher_seed="What the higher seed plays in game 1 of a match",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def topcut(
        self,
        interaction: discord.Interaction,
        size: Literal[0, 2, 4, 8, 16, 32],
        best_of: Literal[1, 3, 5] | None = None,
        higher_seed: Literal["white", "black"] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        changes: dict[str, object] = {"top_cut": size}
        if best_of is not None:
            changes["playoff_best_of"] = best_of
        if higher_seed is not None:
            changes["playoff_privilege"] = higher_seed
        info = await service_of(interaction).edit_tournament(
            await actor_of(interaction), await event_of(interaction, tournament, "organise"),
            **changes,
        )
        s = info.settings
        text = (f"**{plain(info.name)}**: no playoffs after the Swiss." if not s.top_cut else
                f"**{plain(info.name)}**: the top {s.top_cut} play single-elimination playoffs "
                f"after the Swiss, best of {s.playoff_best_of}; the higher seed plays "
                f"{s.playoff_privilege} in game 1.")
        await answer(interaction, text, ephemeral=True)

    @tournament.command(name="cancel", description="Cancel the tournament (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def cancel(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        await thinking(interaction, ephemeral=True)  # errors must stay private
        preview = await service_of(interaction).preview_action(
            actor, "cancel", await event_of(interaction, tournament, "organise"))
        await ask_or_act(interaction, preview)  # asks when it has players

    @tournament.command(name="page", description="The link to the event's live web page")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def page(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
    ) -> None:
        client = interaction.client
        if not live_pages_on(client):
            await answer(interaction, "This bot serves no live pages: its host sets "
                         "SWISSBOT_WEB_PORT and SWISSBOT_PUBLIC_URL to turn them on.",
                         ephemeral=True)
            return
        token = await service_of(interaction).web_link(
            await actor_of(interaction), await event_of(interaction, tournament)
        )
        await answer(interaction, f"🌐 Live page (read-only, updates by itself): "
                     f"{live_page_url(client, token)}", ephemeral=True)

    @tournament.command(name="advise",
                        description="Simulate the event with every pairing system and "
                                    "recommend one (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def advise(
        self, interaction: discord.Interaction, tournament: TournamentOption | None = None
    ) -> None:
        actor = await actor_of(interaction)
        # The simulation takes about ten seconds (in a worker process): say "thinking" at
        # once, privately, as the answer is for the organiser.
        await thinking(interaction, ephemeral=True)
        view = await service_of(interaction).advise(
            actor, await event_of(interaction, tournament, "organise"))
        await answer(interaction, embeds=[advice_render.advice(view)], ephemeral=True)

    @tournament.command(name="export", description="Download the tournament as files")
    @app_commands.describe(
        what="standings, players, games (with their stage), crosstable, or all of them "
             "(default: standings as CSV, all as JSON)",
        format="trf (FIDE report), csv, json or pgn (every game) (default: trf, or csv when "
               "you choose what)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def export(
        self,
        interaction: discord.Interaction,
        format: Literal["trf", "csv", "json", "pgn"] | None = None,
        tournament: TournamentOption | None = None,
        what: Literal["standings", "players", "games", "crosstable", "all"] | None = None,
    ) -> None:
        # A big event's files take seconds (Discord wants an answer within 3): say "thinking"
        # at once, privately. The viewer decides whether unpublished decklists are included.
        await thinking(interaction, ephemeral=True)
        event = await event_of(interaction, tournament)
        if format == "pgn":  # the games, with their moves from Lichess when played there
            exported = [await service_of(interaction).export_pgn(
                guild_id_of(interaction), event)]
        else:
            exported = await service_of(interaction).export_files(
                guild_id_of(interaction), format, event, what=what,
                viewer=await actor_of(interaction),
            )
        text, files = export_reply(exported, interaction.filesize_limit)
        await answer(interaction, text, files=files, ephemeral=True)

    @tournament.command(name="trf-header",
                        description="Set a line of the TRF report header (organisers)")
    @app_commands.describe(
        field="The header line: city, federation, dates, arbiters, time control ...",
        value="Its value (dates YYYY/MM/DD; several deputies separated by ;); leave out to clear",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.choices(field=TRF_HEADER_CHOICES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def trf_header(
        self,
        interaction: discord.Interaction,
        field: str,
        value: app_commands.Range[str, 1, MAX_TRF_HEADER_TEXT] = "",
        tournament: TournamentOption | None = None,
    ) -> None:
        header = await service_of(interaction).set_trf_header(
            await actor_of(interaction), {field: value},
            await event_of(interaction, tournament, "organise"),
        )
        await answer(interaction, render.trf_header(header), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TournamentCog())
    # The confirmation buttons are registered by custom_id template, so prompts shown
    # before a restart still work.
    bot.add_dynamic_items(*CONFIRM_ITEMS, *SETTINGS_ITEMS)
