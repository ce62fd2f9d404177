"""``/admin ...``: organiser tools; ``/config ...``: server settings, for server managers.

The bot's own checks are the gate (the service refuses with a message that says who may run
the command). ``/config`` also carries Discord's ``default_member_permissions`` = Manage
Server, so Discord hides it from other members; ``/admin`` stays visible to everyone because a
bot cannot grant a command to the organiser role (server admins can narrow it in Server
Settings > Integrations)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render.format import plain
from bot.render.ratings import rating_text
from cogs.common import (
    PLAYER_HELP,
    TOURNAMENT_HELP,
    PlayerOption,
    TournamentOption,
    actor_of,
    announced,
    answer,
    event_of,
    guild_id_of,
    player_autocomplete,
    player_ref,
    service_of,
    thinking,
    tournament_autocomplete,
)
from cogs.confirm import ask_or_act
from cogs.privacy import retention_text
from cogs.rating_fields import (
    FIELD_HELP,
    BirthOption,
    FederationOption,
    FideIdOption,
    SexOption,
    TitleOption,
    TrfNameOption,
    import_file,
    set_fields,
)
from i18n import LANGUAGE_NAMES, LANGUAGES, _, language_of
from service.limits import (
    MAX_RATING,
    MAX_RETENTION_DAYS,
    MAX_ROUNDS,
    MAX_ZONE_NAME,
    MIN_RATING,
    MIN_RETENTION_DAYS,
    MIN_ROUNDS,
)
from service.times import zone_names
from service.validation import parse_player_ref

#: ``/config language``: each shipped language by its own name, or the server's Discord one.
FOLLOW_DISCORD = "discord"
LANGUAGE_CHOICES = [
    app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES
] + [app_commands.Choice(name="Server's Discord language", value=FOLLOW_DISCORD)]


def posts_language(interaction: discord.Interaction, chosen: str | None) -> str:
    """The name of the language the server's posts are in: the one chosen, else the server's
    Discord language (English when swissbot does not speak it)."""
    guild = interaction.guild
    return LANGUAGE_NAMES[chosen or language_of(guild.preferred_locale if guild else None)]


async def zone_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """IANA zone names containing what was typed ("paris", "new_york", "new york")."""
    typed = current.strip().lower().replace(" ", "_")
    return [app_commands.Choice(name=name, value=name) for name in zone_names()
            if typed in name.lower()][:25]


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="admin", description="Organiser tools", guild_only=True
    )
    # Discord's default_member_permissions exist per top-level command only, so the
    # manager-only settings live in a group of their own.
    config = app_commands.Group(
        name="config",
        description="Server settings (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @config.command(name="organiser-role", description="Set the role whose members are organisers")
    @app_commands.describe(role="Members with this role run tournaments (as does Manage Server)")
    async def organiser_role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        await service_of(interaction).set_organiser_role(await actor_of(interaction), role.id)
        await answer(interaction, _("Organisers are now members with {role} (and anyone with "
                                    "Manage Server).", role=role.mention), ephemeral=True)

    @config.command(name="channel", description="Set the default channel for announcements")
    @app_commands.describe(
        channel="Where tournaments without a channel of their own post (empty: clear it)"
    )
    async def channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        await service_of(interaction).set_default_channel(
            await actor_of(interaction), channel.id if channel else None
        )
        where = channel.mention if channel else _("no default channel")
        await answer(interaction, _("Default announcement channel: {channel}.", channel=where),
                     ephemeral=True)

    @config.command(name="retention", description="Delete finished events after some days")
    @app_commands.describe(days="Days after an event ends before it is deleted, after a last "
                                "export is posted (0: keep events for good)")
    async def retention(
        self, interaction: discord.Interaction,
        days: app_commands.Range[int, MIN_RETENTION_DAYS, MAX_RETENTION_DAYS],
    ) -> None:
        kept = await service_of(interaction).set_retention(await actor_of(interaction), days)
        await answer(interaction, retention_text(kept), ephemeral=True)

    @config.command(name="timezone", description="The time zone typed times are read in")
    @app_commands.describe(zone="An IANA name such as Europe/Paris or America/New_York "
                                "(default UTC)")
    @app_commands.autocomplete(zone=zone_autocomplete)
    async def timezone(
        self, interaction: discord.Interaction,
        zone: app_commands.Range[str, 1, MAX_ZONE_NAME],
    ) -> None:
        settings = await service_of(interaction).set_timezone(await actor_of(interaction), zone)
        await answer(interaction, _(
            "Time zone: **{zone}**. Times typed in commands, like `tomorrow 19:00`, are read in "
            "it; the bot shows times in each reader's own zone.", zone=settings.timezone),
            ephemeral=True)

    @config.command(name="language", description="The language of the server's posts")
    @app_commands.describe(language="Pairings and standings in this language (members get "
                                    "their own answers in theirs)")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        chosen = None if language == FOLLOW_DISCORD else language
        await service_of(interaction).set_language(await actor_of(interaction), chosen)
        if chosen is None:
            text = _("The server's posts now follow its Discord language: {language}.",
                     language=posts_language(interaction, None))
        else:
            text = _("The server's posts are now in {language}.",
                     language=LANGUAGE_NAMES[chosen])
        await answer(interaction, text, ephemeral=True)

    @config.command(name="show",
                    description="Show the organiser role, channel, time zone and language")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await service_of(interaction).get_guild_settings(guild_id_of(interaction))
        role = f"<@&{settings.organiser_role_id}>" if settings.organiser_role_id else _("none")
        channel = (f"<#{settings.default_channel_id}>" if settings.default_channel_id
                   else _("none"))
        chosen = await service_of(interaction).guild_language(guild_id_of(interaction))
        language = posts_language(interaction, chosen)
        await answer(
            interaction,
            _("Organiser role: {role} (members with Manage Server organise too).",
              role=role) + "\n"
            + _("Default announcement channel: {channel}.", channel=channel) + "\n"
            + _("Time zone: {zone} (`/config timezone`).", zone=settings.timezone) + "\n"
            + (_("Language of the posts: {language}.", language=language) if chosen else
               _("Language of the posts: {language} (the server's Discord language).",
                 language=language)),
            ephemeral=True,
        )

    @admin.command(name="add-player", description="Register a member or a guest")
    @app_commands.rename(member_or_name="member-or-name")
    @app_commands.describe(
        member_or_name="A @mention for a member, or a guest's name",
        rating="Rating for seeding",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def add_player(
        self,
        interaction: discord.Interaction,
        member_or_name: PlayerOption,
        rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        service = service_of(interaction)
        text = member_or_name.strip()
        user_id: int | None = None
        name = text
        reference = parse_player_ref(text)  # refuses a 20-digit id in words, not a crash
        if reference.kind == "user":  # a @mention or a user id
            user_id = int(reference.value)
            name = await _member_name(interaction, user_id)
        elif reference.kind == "number":
            raise UserFacingError(
                f"{text[:20]} is a pairing number: add a member by @mention or a guest by name."
            )
        player = await service.add_player(
            actor, name, tournament=await event_of(interaction, tournament, "organise"),
            user_id=user_id, rating=rating,
        )
        who = f"<@{player.user_id}>" if player.user_id else f"**{plain(player.name)}** (guest)"
        info = await service.tournament_info(actor.guild_id, player.tournament_id)
        if player.number is not None and player.joined_round <= info.current_round:
            # he was in the event before: a re-admission after a withdrawal
            await answer(interaction, f"Re-admitted {who}: paired again from round "
                         f"{info.current_round + 1}; the rounds missed count as absences.",
                         ephemeral=True)
            return
        await answer(interaction, f"Added {who}.", ephemeral=True)

    @admin.command(name="player", description="Show or set a player's FIDE rating fields")
    @app_commands.describe(player=PLAYER_HELP, tournament=TOURNAMENT_HELP, **FIELD_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def player(
        self, interaction: discord.Interaction, player: PlayerOption,
        fide_id: FideIdOption | None = None, federation: FederationOption | None = None,
        birth: BirthOption | None = None, sex: SexOption | None = None,
        title: TitleOption | None = None, trf_name: TrfNameOption | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await set_fields(interaction, player, tournament, {
            "fide_id": fide_id, "federation": federation, "birth": birth, "sex": sex,
            "title": title, "trf_name": trf_name})

    @admin.command(name="import-players",
                   description="Add players or set their FIDE fields from a CSV file")
    @app_commands.describe(file="CSV with a header line: name, user_id, rating, fide_id, "
                           "federation, birth, sex, title, trf_name", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def import_players(
        self, interaction: discord.Interaction, file: discord.Attachment,
        tournament: TournamentOption | None = None,
    ) -> None:
        await import_file(interaction, file, tournament)

    @admin.command(name="rating", description="Set a player's rating and see the seeding it "
                                              "changes (organisers)")
    @app_commands.describe(player=PLAYER_HELP, rating="The rating (for seeding)",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def rating(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        rating: app_commands.Range[int, MIN_RATING, MAX_RATING],
        tournament: TournamentOption | None = None,
    ) -> None:
        change = await service_of(interaction).rate_player(
            await actor_of(interaction), player_ref(player), rating,
            await event_of(interaction, tournament, "organise"))
        await answer(interaction, rating_text(change), ephemeral=True)

    @admin.command(name="remove-player", description="Remove a player before the start")
    @app_commands.describe(player=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def remove_player(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        removed = await service_of(interaction).remove_player(
            await actor_of(interaction), player_ref(player),
            await event_of(interaction, tournament, "organise"),
        )
        await answer(interaction, f"Removed **{plain(removed.name)}**.", ephemeral=True)

    @admin.command(name="forbid", description="Never pair these two players together")
    @app_commands.describe(player=PLAYER_HELP, opponent=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(
        player=player_autocomplete, opponent=player_autocomplete,
        tournament=tournament_autocomplete,
    )
    async def forbid(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        opponent: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        first, second = await service_of(interaction).forbid_pair(
            await actor_of(interaction), player_ref(player), player_ref(opponent),
            await event_of(interaction, tournament, "organise"),
        )
        await answer(
            interaction,
            f"**{plain(first.name)}** and **{plain(second.name)}** will not be paired together.",
            ephemeral=True,
        )

    @admin.command(name="bye", description="Give a player a bye in a future round")
    @app_commands.describe(
        player=PLAYER_HELP, round="The round", kind="Points for the bye (default half)",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def bye(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS],
        kind: Literal["half", "full", "zero"] = "half",
        tournament: TournamentOption | None = None,
    ) -> None:
        request = await service_of(interaction).request_bye(
            await actor_of(interaction), round, kind=kind, player=player_ref(player),
            tournament=await event_of(interaction, tournament, "organise"),
        )
        await answer(
            interaction,
            f"**{plain(request.player.name)}** gets a {request.kind} bye in round {request.round}.",
            ephemeral=True,
        )

    @admin.command(name="approve", description="Approve a player's bye or leave request")
    @app_commands.describe(request="What the player asked for", player=PLAYER_HELP,
                           round="The round of the bye request", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def approve(
        self, interaction: discord.Interaction, request: Literal["bye", "leave"],
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await _decide(interaction, request, player, round, tournament, approve=True)

    @admin.command(name="deny", description="Deny a player's bye or leave request")
    @app_commands.describe(request="What the player asked for", player=PLAYER_HELP,
                           round="The round of the bye request", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def deny(
        self, interaction: discord.Interaction, request: Literal["bye", "leave"],
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await _decide(interaction, request, player, round, tournament, approve=False)

    @admin.command(name="drop", description="Withdraw a player from the next rounds")
    @app_commands.describe(player=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def drop(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        await thinking(interaction, ephemeral=True)  # errors must stay private
        preview = await service_of(interaction).preview_action(
            actor, "drop", await event_of(interaction, tournament, "organise"),
            player=player_ref(player))
        # asks when the player has played (his games stay): else drops at once
        await ask_or_act(interaction, preview, player=player_ref(player))


async def _decide(
    interaction: discord.Interaction, request: str, player: str, round_number: int | None,
    tournament: str | None, *, approve: bool,
) -> None:
    actor = await actor_of(interaction)
    service = service_of(interaction)
    verdict = "Approved" if approve else "Denied"
    if request == "bye":
        if round_number is None:
            raise UserFacingError("Say which round the bye request is for (the round option).")
        decided = await service.decide_bye_request(
            actor, player_ref(player), round_number, approve=approve,
            tournament=await event_of(interaction, tournament, "organise"))
        text = (f"{verdict}: **{plain(decided.player.name)}**'s {decided.kind} bye in round "
                f"{decided.round}.")
    else:
        view = await service.decide_leave_request(
            actor, player_ref(player), approve=approve,
            tournament=await event_of(interaction, tournament, "organise"))
        text = f"{verdict}: **{plain(view.name)}**'s request to leave."
    announced(interaction)  # the player is told in the tournament channel
    await answer(interaction, text, ephemeral=True)


async def _member_name(interaction: discord.Interaction, user_id: int) -> str:
    guild = interaction.guild
    if guild is None:
        raise UserFacingError("This works in a server only.")
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            raise UserFacingError("That member is not in this server.") from None
    return member.display_name


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog())
