"""The settings panel: every setting of an event, shown and changed (organisers).

``/tournament settings`` (and ``/tournament create``, right after the event is made) answers
privately with the panel: an embed with every setting and, below it, a menu of the groups
(each opens a form with the group's settings, filled in with their values), a channel menu
and a role menu. The menus are dynamic items: their custom_id ``swissbot:set<kind>:<tournament>:
<version>`` names the settings version the panel was shown for, so they work after a restart
and the service refuses a click on a panel that another change made stale (the panel is then
replaced by the current one, saying so). A form is sent with the version it was opened from.
Every change goes through ``service.update_settings``, which says what it changed and where.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.errors import UserFacingError, report_error
from bot.render.message import allowed_mentions
from bot.render.settings_panel import (
    BOOLEAN,
    GROUP_BY_KEY,
    GROUPS,
    MOMENTS,
    Group,
    group_title,
    hint,
    label,
    panel_embed,
    setting_text,
    update_text,
    when_label,
)
from cogs.common import actor_of, announced, require_channel_permissions, service_of
from cogs.views import _id as _from_id  # a forged number beyond the database's becomes 0
from i18n import _
from service import InvalidInputError, TournamentInfo
from service.errors import SettingsChangedError
from service.times import DURATION_SETTINGS
from swiss.numbers import NumberError, parse_int

# Settings typed as whole numbers; those that may be left empty (= off / none) first.
# Durations: typed as text ("1h30", "7d"; a number is minutes), read by the service.
DURATIONS = frozenset(DURATION_SETTINGS)
OPTIONAL_NUMBERS = frozenset({"capacity", "min_rating", "max_rating"})
NUMBERS = OPTIONAL_NUMBERS | {"rounds", "late_join_until", "noshow_drop_after", "top_cut",
                              "playoff_best_of"}
# Dates and times: typed as text, read by the service (one parser for each kind).
DATES = MOMENTS
OFF = ("", "off", "none", "no")
ON = ("on", "yes", "true", "1")
MAX_NUMBER = 2**31  # above every limit of the service, which checks each setting's own
MAX_INPUT = 200  # more than any setting needs (the service bounds each one)
# Where an unexpected error happened, for the log (never shown to members).
PANEL, FORM = "settings panel", "settings form"


def date_setting(text: str) -> str | None:
    """A date setting as typed: empty or "off" clears it; the service reads the rest."""
    stripped = text.strip()
    return None if stripped.lower() in OFF else stripped


def parse_setting(key: str, text: str) -> Any:
    """A setting typed in the form, as the service takes it (its meaning is checked there)."""
    name = label(key)
    stripped = text.strip()
    if key in DATES or key in DURATIONS:
        return date_setting(text)
    if key in BOOLEAN:
        if stripped.lower() in ON:
            return True
        if stripped.lower() in OFF:
            return False
        raise InvalidInputError(_("{setting}: write on or off, not {typed}.", setting=name,
                                  typed=repr(stripped[:40])))
    if key in NUMBERS:
        if key in OPTIONAL_NUMBERS and stripped.lower() in OFF:
            return None
        try:
            return parse_int(stripped, name, low=0, high=MAX_NUMBER)
        except NumberError as exc:
            raise InvalidInputError(str(exc)) from None
    return stripped


def panel_view(info: TournamentInfo) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GroupSelect(info.id, info.settings_version))
    view.add_item(ChannelSelect(info.id, info.settings_version))
    view.add_item(RoleSelect(info.id, info.settings_version))
    return view


async def _organiser_info(interaction: discord.Interaction, tournament_id: int) -> TournamentInfo:
    actor = await actor_of(interaction)
    if not actor.is_organiser:
        raise UserFacingError(_("Only organisers can change settings: members with the "
                                "Manage Server permission or the server's organiser role."))
    return await service_of(interaction).tournament_info(actor.guild_id, tournament_id)


async def apply_changes(interaction: discord.Interaction, tournament_id: int, version: int,
                        changes: dict[str, Any], when: str | None = None) -> None:
    """Change the settings as the panel shown for ``version`` asked; show the panel as it is
    now, with what changed (or, when the panel was stale, why nothing did)."""
    try:
        update = await service_of(interaction).update_settings(
            await actor_of(interaction), tournament_id, changes, version=version, apply=when)
    except SettingsChangedError as exc:
        info = await _organiser_info(interaction, tournament_id)
        await _show(interaction, str(exc), info)
        return
    announced(interaction)  # a schedule, or waiting players let in
    await _show(interaction, update_text(update), update.info)


async def _show(interaction: discord.Interaction, text: str, info: TournamentInfo) -> None:
    await interaction.response.edit_message(
        content=text, embed=panel_embed(info), view=panel_view(info),
        allowed_mentions=allowed_mentions())


class _PanelItem:
    """What the panel's menus share: the tournament and version they were shown for, and
    errors answered privately."""

    tournament_id: int
    version: int

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(_from_id(match["t"]), _from_id(match["version"]))  # type: ignore[call-arg]

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.act(interaction)
        except Exception as exc:
            await report_error(interaction, exc, PANEL)

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class GroupSelect(
    _PanelItem,
    discord.ui.DynamicItem[discord.ui.Select],  # type: ignore[type-arg]
    template=r"swissbot:setgroup:(?P<t>[0-9]+):(?P<version>[0-9]+)",
):
    """Choose a group of settings: its form opens, filled in with the current values."""

    def __init__(self, tournament_id: int, version: int) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"swissbot:setgroup:{tournament_id}:{version}",
            placeholder=_("Change a group of settings…"),
            options=[discord.SelectOption(label=group_title(g), value=g.key) for g in GROUPS]))
        self.tournament_id, self.version = tournament_id, version

    async def act(self, interaction: discord.Interaction) -> None:
        info = await _organiser_info(interaction, self.tournament_id)
        if info.settings_version != self.version:
            await _show(interaction, _("The settings of '{tournament}' changed since this panel "
                                       "was shown: here are the current settings.",
                                       tournament=info.name), info)
            return
        group = GROUP_BY_KEY.get(self.item.values[0] if self.item.values else "")
        if group is None:
            raise UserFacingError(_("Choose one of the groups of the menu."))
        await interaction.response.send_modal(SettingsForm(info, group))


class ChannelSelect(
    _PanelItem,
    discord.ui.DynamicItem[discord.ui.ChannelSelect],  # type: ignore[type-arg]
    template=r"swissbot:setchannel:(?P<t>[0-9]+):(?P<version>[0-9]+)",
):
    """Where pairings and results are posted."""

    def __init__(self, tournament_id: int, version: int) -> None:
        super().__init__(discord.ui.ChannelSelect(
            custom_id=f"swissbot:setchannel:{tournament_id}:{version}",
            placeholder=_("Post pairings and results in…"),
            channel_types=[discord.ChannelType.text]))
        self.tournament_id, self.version = tournament_id, version

    async def act(self, interaction: discord.Interaction) -> None:
        channel_id = _chosen_id(self.item.values)
        if channel_id is None:
            raise UserFacingError(_("Choose a channel."))
        await require_channel_permissions(interaction, channel_id)
        await apply_changes(interaction, self.tournament_id, self.version,
                            {"channel_id": channel_id})


class RoleSelect(
    _PanelItem,
    discord.ui.DynamicItem[discord.ui.RoleSelect],  # type: ignore[type-arg]
    template=r"swissbot:setrole:(?P<t>[0-9]+):(?P<version>[0-9]+)",
):
    """The role a member needs to join (none chosen: anyone may)."""

    def __init__(self, tournament_id: int, version: int) -> None:
        super().__init__(discord.ui.RoleSelect(
            custom_id=f"swissbot:setrole:{tournament_id}:{version}",
            placeholder=_("Role required to join (choose none: anyone)"), min_values=0))
        self.tournament_id, self.version = tournament_id, version

    async def act(self, interaction: discord.Interaction) -> None:
        role = _chosen_id(self.item.values)
        await apply_changes(interaction, self.tournament_id, self.version,
                            {"required_role_id": role})


def _chosen_id(values: list[Any]) -> int | None:
    """The id chosen in a channel or role menu: discord.py gives the object when Discord sent
    it along with the choice, and the bare id otherwise."""
    if not values:
        return None
    return _from_id(str(getattr(values[0], "id", values[0])))


class SettingsForm(discord.ui.Modal):
    """One group's settings, filled in with their values; sent with the panel's version
    (values left as they were change nothing)."""

    def __init__(self, info: TournamentInfo, group: Group) -> None:
        super().__init__(title=group_title(group)[:45], timeout=None,
                         custom_id=f"swissbot:setform:{info.id}:{info.settings_version}:"
                                   f"{group.key}")
        self.tournament_id, self.version = info.id, info.settings_version
        values = {"name": info.name}
        for key in group.settings:
            value = values[key] if key in values else getattr(info.settings, key)
            self.add_item(discord.ui.TextInput(
                label=label(key)[:45], custom_id=key, placeholder=hint(key)[:100],
                required=key == "name",
                default=setting_text(key, value) or None, max_length=MAX_INPUT))
        if group.asks_when and info.status == "running":
            self.add_item(discord.ui.TextInput(
                label=when_label()[:45], custom_id="apply", required=False, max_length=20,
                placeholder=_("next-round (pairing) or standings (scoring, tiebreaks)")))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        typed = {item.custom_id: item.value for item in self.children
                 if isinstance(item, discord.ui.TextInput)}
        when = typed.pop("apply", "").strip().lower() or None
        changes = {key: parse_setting(key, text) for key, text in typed.items()}
        await apply_changes(interaction, self.tournament_id, self.version, changes, when)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error, FORM)


DYNAMIC_ITEMS: tuple[Any, ...] = (GroupSelect, ChannelSelect, RoleSelect)
