"""The refusals of team events and of the player import reach a member in his language: the
service hands them on as texts not yet put into words, and each is in every catalogue with
its names and numbers kept; English stays word for word what it was."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

import i18n
from service import ConflictError, InvalidInputError, PermissionDeniedError
from service.player_csv import read_player_csv
from tests.service_helpers import member, open_service, organiser

ORG = organiser()
CAPTAIN = member(100, name="Cap")
OTHER = member(200, name="Other")


async def test_a_team_refusal_is_put_into_words_in_the_readers_language(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Team Cup", 5)
        await service.team_settings(ORG, "fide-team", boards=2, tournament="Team Cup")
        await service.create_team(CAPTAIN, "Rooks", tournament="Team Cup")
        with pytest.raises(PermissionDeniedError) as refused:
            await service.add_member(OTHER, 300, "Third", team="Rooks", tournament="Team Cup")
        with pytest.raises(ConflictError) as taken:
            await service.create_team(CAPTAIN, "Knights", tournament="Team Cup")
    assert str(refused.value) == ("Only the captain of Rooks (<@100>) or an organiser can add "
                                  "members in 'Team Cup'.")
    assert refused.value.text.render("de") == (
        "Nur der Mannschaftsführer von Rooks (<@100>) oder ein Organisator kann in 'Team Cup' "
        "Mitglieder hinzufügen.")
    assert taken.value.text.render("fr") == (
        "<@100> est déjà dans Rooks dans 'Team Cup' : un membre joue pour une seule équipe "
        "par tournoi.")


def test_the_import_problems_are_listed_in_the_readers_language() -> None:
    with pytest.raises(InvalidInputError) as refused:
        read_player_csv("name,federation,\nAnn,ENG,x\nBob,ENG,\nBob,ENG,\n",
                        today=date(2026, 11, 28))
    assert str(refused.value) == (
        "Nothing was imported: 2 problems in the file.\n"
        "line 2, column 3: a value in a column the header does not name\n"
        "line 4: Bob is already on line 3")
    assert refused.value.text.render("ru") == (
        "Ничего не импортировано: 2 ошибки в файле.\n"
        "строка 2, столбец 3: значение в столбце, которого нет в заголовке\n"
        "строка 4: Bob уже есть в строке 3")
    with i18n.speaking("es"):
        assert str(refused.value).startswith("No se importó nada: 2 problemas en el archivo.")
