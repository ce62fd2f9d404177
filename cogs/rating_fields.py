"""``/admin player`` and ``/admin import-players``: the players' rating fields (FIDE id,
federation, birth date, sex, title, name as FIDE writes it) that the TRF report needs.

The commands are declared in ``cogs.admin`` (one ``/admin`` group); what they do is here."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.render.format import plain
from cogs.common import actor_of, answer, event_of, player_ref, service_of, thinking
from i18n import N_, _, in_words, ngettext
from service.player_csv import MAX_IMPORT_BYTES
from swiss.trf.player_fields import (
    BIRTH_LENGTH,
    CLEAR,
    FEDERATION_LENGTH,
    FIDE_ID_DIGITS,
    TRF_NAME_LENGTH,
)

#: What an option says to clear a field (a choice list cannot offer "-").
NONE = "none"
TitleOption = Literal["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "none"]
SexOption = Literal["m", "w", "none"]
FideIdOption = app_commands.Range[str, 1, FIDE_ID_DIGITS]
FederationOption = app_commands.Range[str, 1, FEDERATION_LENGTH]
BirthOption = app_commands.Range[str, 1, BIRTH_LENGTH]
TrfNameOption = app_commands.Range[str, 1, TRF_NAME_LENGTH]
FIELD_HELP = {  # option descriptions: translated when the commands are synced
    "fide_id": N_("FIDE id, digits (- clears it)"),
    "federation": N_("FIDE federation code: ENG, GER, USA ... (- clears it)"),
    "birth": N_("Birth date YYYY/MM/DD, or the year (- clears it)"),
    "sex": N_("m or w, as TRF writes it"),
    "title": N_("FIDE title"),
    "trf_name": N_("Name as FIDE writes it: Last, First (- clears it)"),
}
LABELS = {"fide_id": N_("FIDE id"), "federation": N_("Federation"), "birth": N_("Birth"),
          "sex": N_("Sex"), "title": N_("Title"), "trf_name": N_("TRF name")}


async def set_fields(
    interaction: discord.Interaction, player: str, tournament: str | None,
    options: dict[str, str | None],
) -> None:
    """Store the options given (none: show the record); answer privately with the record."""
    actor = await actor_of(interaction)
    await thinking(interaction, ephemeral=True)  # a birth date is never shown to the channel
    changes = {name: CLEAR if value == NONE else value
               for name, value in options.items() if value is not None}
    record = await service_of(interaction).set_player_fields(
        actor, player_ref(player), changes, await event_of(interaction, tournament, "organise"))
    lines = [f"**{plain(record.player.name, 60)}**"
             + (f" (#{record.player.number})" if record.player.number else "")]
    for name, value in record.fields.as_dict().items():
        lines.append(f"{in_words(LABELS, name)}: {plain(value, 40) if value else '—'}")
    if options and not record.changed:
        lines.append(_("Nothing changed: the record already said so."))
    elif record.changed:
        lines.append(_("Changed: {fields}.", fields=", ".join(
            in_words(LABELS, name) for name in record.changed)))
    await answer(interaction, "\n".join(lines), ephemeral=True)


async def import_file(
    interaction: discord.Interaction, file: discord.Attachment, tournament: str | None
) -> None:
    """Read the attached CSV (size checked before it is downloaded), import it, and say what
    was added and updated, or every bad line and column."""
    actor = await actor_of(interaction)
    await thinking(interaction, ephemeral=True)
    if file.size > MAX_IMPORT_BYTES:
        raise UserFacingError(_("{file} is {size} bytes: import at most {limit} bytes at once.",
                                file=plain(file.filename, 60), size=format(file.size, ","),
                                limit=format(MAX_IMPORT_BYTES, ",")))
    data = await file.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserFacingError(_(
            "{file} is not UTF-8 text (byte {byte}): save it as CSV UTF-8 and attach it again.",
            file=plain(file.filename, 60), byte=exc.start + 1)) from None
    done = await service_of(interaction).import_player_list(
        actor, text, await event_of(interaction, tournament, "organise"))
    await answer(interaction, ngettext(
        "Imported into **{tournament}**: {n} player added, {updated} updated. See them with "
        "/admin player.",
        "Imported into **{tournament}**: {n} players added, {updated} updated. See them with "
        "/admin player.", len(done.added), tournament=plain(done.tournament_name, 60),
        updated=len(done.updated)), ephemeral=True)
