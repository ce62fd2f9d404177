"""The settings panel, its answers and its refusals are in the member's language; English is
unchanged, and the setting keys and the values typed back (on/off, numbers) stay data."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import i18n
from bot.render.ratings import rating_text
from bot.render.settings_panel import GROUPS, panel_embed, setting_text, update_text
from cogs.settings import SettingsForm, parse_setting
from service import InvalidInputError
from service.errors import SettingsChangedError
from service.players import RatingChange, SeedMove
from service.settings import SettingChange, SettingsUpdate
from service.views import PlayerView, TournamentInfo, TournamentSettings
from tests.service_helpers import open_service, organiser

WHEN = datetime(2026, 1, 1, tzinfo=UTC)
RUNNING_RU = "идёт"  # the status "running" in Russian


def _info(status: str = "running") -> TournamentInfo:
    return TournamentInfo(
        id=7, guild_id=1, name="Cup", status=status,
        settings=TournamentSettings(rounds=5, colours=True), channel_id=10**18, seed=1,
        created_by=1, created_at=WHEN, players=3, current_round=2, round_state="playing",
        settings_version=4)


def _fields(language: str) -> dict[str, str]:
    with i18n.speaking(language):
        embed = panel_embed(_info())
    return {field.name or "": field.value or "" for field in embed.fields}


def test_the_panel_is_in_the_members_language_with_its_values_as_data() -> None:
    english = _fields("en")
    assert "Pairing" in english and "Balance colours: on" in english["Pairing"]
    german = _fields("de")
    assert "Paarung" in german and "Farben ausgleichen: on" in german["Paarung"]
    with i18n.speaking("ru"):
        embed = panel_embed(_info())
    assert embed.title == "Настройки: Cup"
    assert embed.description == (f"Статус: {RUNNING_RU}, тур 2 из 5. Выберите группу ниже, "
                                 "чтобы её изменить.")
    assert embed.footer.text == "Турнир #7 · версия настроек 4"


def test_every_group_and_label_is_translated_in_every_language() -> None:
    english = [field.name for field in panel_embed(_info()).fields]
    for language in ("de", "es", "fr", "pt_BR", "ru"):
        with i18n.speaking(language):
            names = [field.name for field in panel_embed(_info()).fields]
        assert len(names) == len(english)
        untranslated = [name for name, en in zip(names, english, strict=True)
                        if name == en and en != "Decklists"]  # French keeps "Decklists"
        assert not untranslated, (language, untranslated)


def test_the_form_speaks_the_members_language_and_keeps_the_keys() -> None:
    group = next(g for g in GROUPS if g.key == "pairing")
    with i18n.speaking("fr"):
        form = SettingsForm(_info(), group)
    assert form.title == "Appariement"
    inputs = {item.custom_id: item for item in form.children}
    assert set(inputs) == {*group.settings, "apply"}
    assert inputs["colours"].label == "Équilibrer les couleurs"
    assert inputs["colours"].default == setting_text("colours", True) == "on"
    assert inputs["apply"].label == "Après le début : next-round ou standings"


def test_a_change_answer_is_in_the_members_language() -> None:
    update = SettingsUpdate(_info(), [SettingChange("colours", True, False)], "next-round")
    assert update_text(update).splitlines() == [
        "**Cup**: settings saved.", "• Balance colours: on → off",
        "The pairing changes apply from the next round: the rounds played stay as they were "
        "paired."]
    with i18n.speaking("es"):
        assert update_text(update).splitlines() == [
            "**Cup**: ajustes guardados.", "• Equilibrar colores: on → off",
            "Los cambios de emparejamiento se aplican desde la próxima ronda: las rondas "
            "jugadas quedan como se emparejaron."]


def test_a_bad_typed_value_is_refused_in_the_members_language() -> None:
    with pytest.raises(InvalidInputError) as refused:
        parse_setting("colours", "maybe")
    assert str(refused.value) == "Balance colours: write on or off, not 'maybe'."
    with i18n.speaking("de"):
        with pytest.raises(InvalidInputError) as german:
            parse_setting("colours", "maybe")
        assert str(german.value) == "Farben ausgleichen: schreibe on oder off, nicht 'maybe'."
    # the values typed back are data in every language
    with i18n.speaking("ru"):
        assert parse_setting("colours", "off") is False


def test_the_rating_answer_is_in_the_members_language() -> None:
    player = PlayerView(id=1, tournament_id=1, name="Ann", user_id=None, rating=2100,
                        status="registered", checked_in=False, number=None, joined_round=1,
                        withdrawn_round=None)
    change = RatingChange(player, 1500, False, 3, 1, [SeedMove("Bob", 1, 2)])
    assert rating_text(change).splitlines() == [
        "Rating of **Ann**: 1500 → 2100.", "Seeding: Ann #3 → #1.", "Moved: Bob #1 → #2."]
    with i18n.speaking("pt_BR"):
        assert rating_text(change).splitlines() == [
            "Rating de **Ann**: 1500 → 2100.", "Ordem inicial: Ann #3 → #1.",
            "Movidos: Bob #1 → #2."]


@pytest.mark.usefixtures("backend")
async def test_a_stale_panel_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    async with open_service(tmp_path / "s.sqlite3") as service:
        info = await service.create_tournament(organiser(), "Cup", 5)
        await service.update_settings(organiser(), None, {"capacity": 8},
                                      version=info.settings_version)
        with pytest.raises(SettingsChangedError) as stale:
            await service.update_settings(organiser(), None, {"capacity": 9},
                                          version=info.settings_version)
    assert str(stale.value).startswith("The settings of 'Cup' changed since this panel")
    with i18n.speaking("ru"):
        assert str(stale.value).startswith("Настройки 'Cup' изменились")
