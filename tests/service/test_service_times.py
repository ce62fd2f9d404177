"""Typed moments and durations in the settings, read in the server's time zone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from service import InvalidInputError
from service.errors import NotManagerError
from storage import timers as timer_repo
from tests.service_helpers import START, Clock, manager, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
MANAGER = manager()
# START is Thursday 1 January 2026, 12:00 UTC (13:00 in Paris)


async def test_the_server_zone_reads_tomorrow_19_00(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.db", Clock()) as service:
        assert (await service.get_guild_settings(ORG.guild_id)).timezone == "UTC"
        with pytest.raises(NotManagerError):
            await service.set_timezone(ORG, "Europe/Paris")  # managers only
        with pytest.raises(InvalidInputError, match="Unknown time zone 'Mars/Olympus'"):
            await service.set_timezone(MANAGER, "Mars/Olympus")
        settings = await service.set_timezone(MANAGER, "europe/paris")
        assert settings.timezone == "Europe/Paris"
        assert (await service.get_guild_settings(ORG.guild_id)).timezone == "Europe/Paris"

        info = await service.create_tournament(ORG, "Paris", 3, first_round_at="tomorrow 19:00",
                                               round_interval_minutes="1d",
                                               deadline_minutes="1h30")
        assert info.settings.first_round_at == "2026-01-02T18:00:00+00:00"
        assert info.settings.round_interval_minutes == 1440
        assert info.settings.deadline_minutes == 90
        async with service.db.transaction(readonly=True) as conn:
            due = await timer_repo.list_timers(conn, info.id)
        assert [t.due_at for t in due if t.kind == "round_start"] == \
            [datetime(2026, 1, 2, 18, tzinfo=UTC)]

        # another server keeps its own zone (UTC)
        other = organiser(guild=ORG.guild_id + 1)
        info = await service.create_tournament(other, "London", 1, first_round_at="fri 19:00")
        assert info.settings.first_round_at == "2026-01-02T19:00:00+00:00"


async def test_every_time_option_reads_the_same_forms(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.db", Clock()) as service:
        await service.set_timezone(MANAGER, "America/New_York")
        info = await service.create_tournament(ORG, "NY", 1)
        info = await service.edit_tournament(
            ORG, info.id, registration_opens="now", registration_closes="in 2h",
            checkin_opens="today 10:00", checkin_closes="2026-01-01 18:30",
            decklists="text", decklist_deadline="05.01.2026 20:00",
            auto_advance_minutes="15m", noshow_grace_minutes="10", deadline_minutes="1w")
        s = info.settings
        assert (s.registration_opens, s.registration_closes) == \
            ("2026-01-01T12:00:00+00:00", "2026-01-01T14:00:00+00:00")
        assert s.checkin_opens == "2026-01-01T15:00:00+00:00"
        assert s.checkin_closes == "2026-01-01T23:30:00+00:00"
        assert s.decklist_deadline == "2026-01-06T01:00:00+00:00"
        assert (s.auto_advance_minutes, s.noshow_grace_minutes, s.deadline_minutes) == \
            (15, 10, 7 * 1440)
        # "off" (or none, or nothing) takes a moment away again
        info = await service.edit_tournament(ORG, info.id, registration_opens="off",
                                             checkin_closes="none", decklist_deadline="")
        s = info.settings
        assert (s.registration_opens, s.checkin_closes, s.decklist_deadline) == (None,) * 3
        assert s.registration_closes == "2026-01-01T14:00:00+00:00"  # the others stay


@pytest.mark.parametrize(("changes", "message"), [
    ({"first_round_at": "tomorrow"}, "start_at 'tomorrow': give a time of day too"),
    ({"first_round_at": "2025-12-31 10:00"}, "start_at '2025-12-31 10:00': <t:1767175200:F> "
                                             "has already passed"),
    ({"checkin_closes": "12/01/2026 10:00"}, "checkin_closes '12/01/2026 10:00': write the "
                                             "date as"),
    ({"deadline_minutes": "90s"}, "deadline_minutes '90s': give whole minutes"),
    ({"round_interval_minutes": "soon"}, "round_interval 'soon': it is not a duration"),
    ({"deadline_minutes": "9d"}, "deadline_minutes '9d': 1w 2d is not from 1m to 1w"),
    ({"round_interval_minutes": "2"}, "round_interval '2': 2m is not from 5m to 4w"),
])
async def test_one_error_form_names_the_option_and_gives_examples(
        tmp_path: Path, changes: dict[str, str], message: str) -> None:
    async with open_service(tmp_path / "t.db", Clock()) as service:
        info = await service.create_tournament(ORG, "E", 3, round_interval_minutes=60)
        with pytest.raises(InvalidInputError) as caught:
            await service.edit_tournament(ORG, info.id, **changes)
        assert message in str(caught.value)
        assert '"tomorrow 19:00"' in str(caught.value) or '"90m"' in str(caught.value)
        after = await service.tournament_info(ORG.guild_id, info.id)
        assert after.settings == info.settings  # nothing half-written


async def test_a_repeated_local_time_is_the_first_and_the_answer_says_so(
        tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.db", Clock(START)) as service:
        await service.set_timezone(MANAGER, "Europe/Paris")
        info = await service.create_tournament(ORG, "Autumn", 1,
                                               first_round_at="2026-10-25 02:30")
        assert info.settings.first_round_at == "2026-10-25T00:30:00+00:00"
        assert any("happens twice" in note for note in info.notes)
        with pytest.raises(InvalidInputError, match="does not exist in Europe/Paris"):
            await service.create_tournament(ORG, "Spring", 1, first_round_at="2026-03-29 02:30")


async def test_old_inputs_keep_their_meaning(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.db", Clock(START)) as service:
        info = await service.create_tournament(ORG, "Old", 2, first_round_at="1767290400",
                                               round_interval_minutes=1440,
                                               deadline_minutes=90)
        assert info.settings.first_round_at == "2026-01-01T18:00:00+00:00"
        info = await service.edit_tournament(ORG, info.id, first_round_at="2026-01-02 18:00",
                                             registration_opens="2026-01-01T18:00+02:00")
        assert info.settings.first_round_at == "2026-01-02T18:00:00+00:00"
        assert info.settings.registration_opens == "2026-01-01T16:00:00+00:00"
        info = await service.edit_tournament(ORG, info.id, first_round_at="off")
        assert info.settings.first_round_at is None


async def test_reminders_are_durations_too(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.db", Clock()) as service:
        info = await service.create_tournament(ORG, "R", 1, reminders="1h, 15m")
        assert info.settings.reminders == "60,15"
        info = await service.edit_tournament(ORG, info.id, reminders="15 5 15")  # as before
        assert info.settings.reminders == "15,5"
        info = await service.edit_tournament(ORG, info.id, reminders="1h30")
        assert info.settings.reminders == "90"
        with pytest.raises(InvalidInputError, match=r"Reminders '2w': the reminder '2w' is not "
                                                    r"from 1m to 1w.*15,5"):
            await service.edit_tournament(ORG, info.id, reminders="2w")
        with pytest.raises(InvalidInputError, match="Reminders '1h, 5s': give whole minutes"):
            await service.edit_tournament(ORG, info.id, reminders="1h, 5s")
