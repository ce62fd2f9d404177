"""Discord's limits hold in every language: translations are often longer than English.

The renderers of every post family (pairings, results, standings, report prompts and
answers, disputes, /tournament info and list) fit within Discord's limits in each shipped
language, with long names; and no catalogue text with long parameters passes a message's
2,000 characters.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import i18n
from bot.render import limits as discord_limits
from bot.render import tournament as render
from bot.render.announcements import render_announcement
from i18n.extract import catalogue_file
from service.present import round_payload, standings_payload
from service.views import ReportOutcome, RoundView, StandingsView, TournamentInfo
from service.views import TournamentSettings as Settings
from tests.bot.test_limits import WHEN, _fits, rounds, standings
from tests.service_helpers import GUILD

#: A parameter as long as the longest user text a message quotes (names are cut to 80-200).
LONG = "Ẅ" * 200


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(language=st.sampled_from(i18n.LANGUAGES), round_=rounds(), table=standings())
def test_every_post_fits_in_every_language(
    language: str, round_: RoundView, table: StandingsView
) -> None:
    for kind in ("pairings", "round_results"):
        payload = {"tournament": {"id": 1, "name": round_.tournament_name},
                   **round_payload(round_), "language": language}
        _fits(render_announcement(kind, payload), f"{kind} in {language}")
    for kind in ("standings", "final_standings"):
        payload = {"tournament": {"id": 1, "name": table.tournament_name},
                   **standings_payload(table), "language": language}
        _fits(render_announcement(kind, payload), f"{kind} in {language}")
    with i18n.speaking(language):
        for game in round_.games[:3]:
            outcome = ReportOutcome(game=game, status="awaiting_confirmation",
                                    reporter=game.white, opponent=game.black)
            _fits([render.report_prompt(outcome)], "report prompt")
            assert len(render.report_answer(outcome)) <= discord_limits.CONTENT
            _fits([render.dispute_alert(game, None, round_.tournament_name)], "dispute")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_tournament_info_and_list_fit_in_every_language(language: str) -> None:
    iso = "2026-12-01T18:00:00+00:00"
    info = TournamentInfo(
        id=1, guild_id=GUILD, name=LONG, status="running",
        settings=Settings(rounds=99, tiebreaks="x" * 100, deadline_minutes=10080,
                          auto_advance_minutes=1440, top_cut=32, playoff_best_of=5,
                          reminders="60,30,15,5", deadline_action="reporter-wins",
                          noshow_grace_minutes=60, noshow_drop_after=3, first_round_at=iso,
                          round_interval_minutes=1440, game_threads=True),
        channel_id=10**18, seed=2**31, created_by=1, created_at=WHEN, players=80,
        current_round=120, round_state="playing", auto_advance_due=WHEN,
        delivery_problem="p" * 3000,
    )
    with i18n.speaking(language):
        assert not discord_limits.problems(None, [render.tournament_info(info)])
        assert not discord_limits.problems(None, [render.tournament_list([info] * 60)])


def _texts(language: str) -> list[str]:
    from babel.messages.pofile import read_po

    with catalogue_file(language).open("rb") as handle:
        books = read_po(handle, locale=language)
    texts = []
    for message in books:
        if message.id:
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            texts += [form for form in forms if form]
    return texts


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_no_text_with_long_parameters_passes_a_message(language: str) -> None:
    for text in _texts(language):
        filled = text.format_map({name: LONG for name in i18n.placeholders(text)})
        assert len(filled) <= discord_limits.CONTENT, text
