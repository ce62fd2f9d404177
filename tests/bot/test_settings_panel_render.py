"""The settings panel's text: every value written by the panel reads back as itself (a form
sent unchanged changes nothing), and the panel, a change's answer and /admin rating's answer
fit Discord's limits whatever the names and values."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render import limits as discord_limits
from bot.render.ratings import rating_text
from bot.render.settings_panel import GROUPS, panel_embed, setting_text, update_text
from cogs.settings import DATES, NUMBERS, OPTIONAL_NUMBERS, parse_setting
from service.players import RatingChange, SeedMove
from service.settings import SettingChange, SettingsUpdate
from service.times import read_times
from service.views import PlayerView, TournamentInfo, TournamentSettings

WHEN = datetime(2026, 1, 1, tzinfo=UTC)
TYPED = [key for group in GROUPS for key in group.settings]
names = st.text(min_size=1, max_size=100)


def _info(name: str = "Cup", settings: TournamentSettings | None = None) -> TournamentInfo:
    return TournamentInfo(
        id=1, guild_id=1, name=name, status="running",
        settings=settings or TournamentSettings(rounds=5), channel_id=10**18, seed=1,
        created_by=1, created_at=WHEN, players=3, current_round=1, round_state="playing")


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/New_York"])
def test_every_value_the_panel_writes_reads_back_as_itself(zone: str) -> None:
    """What the service stores (moments as UTC ISO text, durations as minutes) is what it
    reads back from the form sent unchanged, in any server time zone."""
    iso = "2026-12-01T18:00:00+00:00"
    settings = TournamentSettings(
        rounds=9, deadline_minutes=90, capacity=None, min_rating=1000, reminders="15,5",
        colours=False, checkin=True, game_threads=True, registration_opens=iso,
        decklist_deadline=None, top_cut=8, ratings="organisers", tiebreaks="BH-C1,BH,SB",
        round_interval_minutes=1440, first_round_at="2026-12-05T17:30:00+00:00")
    for key in TYPED:
        value = "Cup" if key == "name" else getattr(settings, key)
        typed = {key: parse_setting(key, setting_text(key, value))}
        read, _notes = read_times(typed, now=WHEN, zone=ZoneInfo(zone))
        assert read[key] == value, key


@given(key=st.sampled_from(TYPED), text=st.text(max_size=200))
def test_any_typed_text_is_a_value_or_a_clear_refusal(key: str, text: str) -> None:
    from service import InvalidInputError

    try:
        value = parse_setting(key, text)
    except InvalidInputError as exc:
        assert str(exc) and len(str(exc)) < 500
        return
    if key in NUMBERS:
        assert isinstance(value, int) or (value is None and key in OPTIONAL_NUMBERS)
    elif key in DATES:
        assert value is None or value == text.strip()


@given(name=names, tiebreaks=st.text(max_size=100),
       header=st.dictionaries(st.text(max_size=3), st.text(max_size=200), max_size=20))
def test_the_panel_always_fits(name: str, tiebreaks: str, header: dict[str, str]) -> None:
    settings = TournamentSettings(rounds=99, tiebreaks=tiebreaks, trf_header=header,
                                  reminders="1," * 30, capacity=10**6, required_role_id=10**18)
    assert not discord_limits.problems(None, [panel_embed(_info(name, settings))])


@given(name=names, values=st.lists(st.text(max_size=200), min_size=2, max_size=80))
def test_a_change_answer_always_fits(name: str, values: list[str]) -> None:
    changes = [SettingChange(TYPED[i % len(TYPED)], values[i - 1], v)
               for i, v in enumerate(values)]
    text = update_text(SettingsUpdate(_info(name), changes, "next-round+standings"))
    assert not discord_limits.problems(text, [])


@given(names=st.lists(names, min_size=1, max_size=200))
def test_the_rating_answer_always_fits(names: list[str]) -> None:
    player = PlayerView(id=1, tournament_id=1, name=names[0], user_id=None, rating=2000,
                        status="registered", checked_in=False, number=None, joined_round=1,
                        withdrawn_round=None)
    moved = [SeedMove(n, i + 1, i + 2) for i, n in enumerate(names)]
    change = RatingChange(player, 0, False, len(names), 1, moved)
    assert not discord_limits.problems(rating_text(change), [])
