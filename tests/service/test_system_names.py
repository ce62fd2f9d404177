"""One name per pairing system (swiss.pairing.names), as the bot, the command line, the demo
and the service read it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.errors import InvalidInputError
from service.validation import check_system
from swiss.pairing.names import (
    DEFAULT_EDITION,
    EDITIONS,
    LEGACY_NAMES,
    SystemNameError,
    system_and_edition,
)
from swiss.pairing.types import DUTCH_RULES, SYSTEMS


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_is_read_by_its_name(system: str) -> None:
    assert system_and_edition(system) == (system, DEFAULT_EDITION)
    assert system_and_edition(f" {system.upper()} ") == (system, DEFAULT_EDITION)


@pytest.mark.parametrize("edition", DUTCH_RULES)
def test_the_edition_is_a_setting_of_its_own_and_the_old_names_still_read(edition: str) -> None:
    assert system_and_edition("fide-dutch", edition) == ("fide-dutch", edition)
    assert system_and_edition(f"fide-dutch-{edition}") == ("fide-dutch", edition)
    assert system_and_edition(f"fide-dutch-{edition}", edition) == ("fide-dutch", edition)


def test_an_edition_is_never_silently_ignored() -> None:
    with pytest.raises(SystemNameError, match="applies to fide-dutch only; dutch has no"):
        system_and_edition("dutch", "2017")
    with pytest.raises(SystemNameError, match="is the 2017 edition; the rules asked for"):
        system_and_edition("fide-dutch-2017", "2025")
    with pytest.raises(SystemNameError, match="unknown FIDE Dutch rules edition '2019'"):
        system_and_edition("fide-dutch", "2019")
    with pytest.raises(SystemNameError, match="unknown pairing system 'fide-dutch-2019'"):
        system_and_edition("fide-dutch-2019")
    # a command that offers fewer systems does not read an earlier name of another
    with pytest.raises(SystemNameError, match="choose one of dutch"):
        system_and_edition("fide-dutch-2017", systems=("dutch",))


@given(st.text(max_size=60), st.none() | st.text(max_size=20))
def test_any_text_is_a_system_or_a_clear_refusal(name: str, edition: str | None) -> None:
    """The parser never fails otherwise, and what it returns is one of ours."""
    try:
        system, rules = system_and_edition(name, edition)
    except SystemNameError as exc:
        assert str(exc) and len(str(exc)) < 300
        assert exc.sentence().endswith(".") and exc.sentence()[0].isupper()
        return
    assert system in SYSTEMS
    assert rules in EDITIONS.get(system, (DEFAULT_EDITION,))
    key = name.strip().lower()
    assert key == system or LEGACY_NAMES.get(key, ("", ""))[0] == system


def test_the_service_reads_old_names_and_refuses_a_stray_edition() -> None:
    """The service gets the default edition when none was given: that one never refuses."""
    assert check_system("fide-dutch-2017", DEFAULT_EDITION) == ("fide-dutch", "2017")
    assert check_system("burstein", DEFAULT_EDITION) == ("burstein", DEFAULT_EDITION)
    with pytest.raises(InvalidInputError, match=r"^The rules edition \('2017'\) applies to "):
        check_system("burstein", "2017")
    with pytest.raises(InvalidInputError, match="Unknown pairing system 'swiss'"):
        check_system("swiss", DEFAULT_EDITION)
