"""Limits: one source of truth for input bounds (service.limits), refusals that quote user text
stay short, settings that cannot be displayed are refused, and every renderer's output fits
Discord's size limits (bot.render.limits)."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render import limits as discord_limits
from bot.render import tournament as render
from bot.render.announcements import render_announcement
from service import InvalidInputError, ServiceError, UnknownTournamentError
from service.limits import (
    ECHO_LIMIT,
    MAX_PLAYER_NAME,
    MAX_TIEBREAKS,
    MAX_TIEBREAKS_TEXT,
    MAX_TOURNAMENT_NAME,
    clip,
    echo,
)
from service.present import round_payload, standings_payload
from service.views import (
    ByeView,
    GameView,
    PlayerView,
    ReportOutcome,
    RoundView,
    Seat,
    StandingsRowView,
    StandingsView,
    TournamentInfo,
    TournamentSettings,
)
from tests.service_helpers import GUILD, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
WHEN = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
ELEVEN_TIEBREAKS = "BH,FB,SB,PS,KS,DE,WIN,WON,BPG,BWG,ARO"


def test_clip_and_echo_bound_user_text() -> None:
    assert clip("abc", 5) == "abc"
    assert clip("x" * 6000, 100) == "x" * 99 + "…"
    assert len(echo("y" * 6000)) == ECHO_LIMIT + 2  # the quotes
    assert echo("two\nlines") == "'two lines'"
    assert echo(12) == "12"


async def test_tiebreak_list_that_cannot_be_displayed_is_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        hostile = ",".join(["BH"] * 1000) + ",SB"  # 3,002 characters: accepted before
        with pytest.raises(InvalidInputError, match=f"at most {MAX_TIEBREAKS_TEXT}") as exc:
            await service.create_tournament(ORG, "Open", 5, tiebreaks=hostile)
        assert len(str(exc.value)) < 300
        assert len(ELEVEN_TIEBREAKS.split(",")) == MAX_TIEBREAKS + 1
        with pytest.raises(InvalidInputError, match=f"at most {MAX_TIEBREAKS}"):
            await service.create_tournament(ORG, "Open", 5, tiebreaks=ELEVEN_TIEBREAKS)
        info = await service.create_tournament(ORG, "Open", 5, tiebreaks="BH-C1,BH,SB")
        with pytest.raises(InvalidInputError, match="too long"):
            await service.edit_tournament(ORG, info.id, tiebreaks=hostile)
        assert (await service.tournament_info(GUILD)).settings.tiebreaks == "BH-C1,BH,SB"


async def test_refusals_quote_at_most_a_short_piece_of_user_text(tmp_path: Path) -> None:
    huge = "Q" * 6000
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Open", 5)
        refusals: list[ServiceError] = []
        for call in (
            lambda: service.tournament_info(GUILD, huge),
            lambda: service.list_players(GUILD, huge),
            lambda: service.drop_player(ORG, huge),
            lambda: service.create_tournament(ORG, "Other", 5, tiebreaks="Z" * 90),
            lambda: service.create_tournament(ORG, "Other", 5, system=huge),
            lambda: service.create_tournament(ORG, huge, 5),
        ):
            with pytest.raises(ServiceError) as exc:
                await call()
            refusals.append(exc.value)
        assert isinstance(refusals[0], UnknownTournamentError)
        for refusal in refusals:
            assert len(str(refusal)) <= 400, str(refusal)
            assert "Q" * (ECHO_LIMIT + 1) not in str(refusal)


# -- every renderer's output fits Discord's limits -------------------------------------------

names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from("*_`|@<>#&"),
    min_size=1,
    max_size=MAX_PLAYER_NAME,
)
tournament_names = st.text(min_size=1, max_size=MAX_TOURNAMENT_NAME)


def _fits(messages: list, where: str) -> None:
    for message in messages:
        found = discord_limits.problems(message.content, message.embeds)
        assert not found, f"{where}: {found}"


@st.composite
def rounds(draw: st.DrawFn) -> RoundView:
    boards = draw(st.integers(min_value=0, max_value=120))
    player_names = draw(st.lists(names, min_size=2 * boards + 1, max_size=2 * boards + 1))
    guests = draw(st.booleans())

    def seat(i: int) -> Seat:
        return Seat(player_id=i + 1, number=i + 1, name=player_names[i],
                    user_id=None if guests and i % 2 else 10**17 + i)

    games = tuple(
        GameView(
            id=b + 1, tournament_id=1, round=3, board=b + 1, white=seat(2 * b),
            black=seat(2 * b + 1), result=draw(st.sampled_from(["*", "1-0", "1/2-1/2", "--+"])),
            state="final", white_games=draw(st.none() | st.integers(0, 99)),
            black_games=draw(st.none() | st.integers(0, 99)),
        )
        for b in range(boards)
    )
    byes = (ByeView(seat(2 * boards), "pairing", Fraction(1)),)
    return RoundView(1, draw(tournament_names), 99, 99, "complete", games, byes,
                     paired_at=WHEN, deadline=WHEN)


@st.composite
def standings(draw: st.DrawFn) -> StandingsView:
    count = draw(st.integers(min_value=0, max_value=200))
    tiebreaks = tuple(draw(st.lists(st.sampled_from(ELEVEN_TIEBREAKS.split(",")),
                                    max_size=MAX_TIEBREAKS)))
    rows = tuple(
        StandingsRowView(
            rank=i, player_id=i, number=i, name=draw(names), user_id=10**17 + i,
            points=Fraction(draw(st.integers(0, 198)), 2),
            values=tuple(Fraction(draw(st.integers(0, 10**6)), 2) for _ in tiebreaks),
            withdrawn=draw(st.booleans()),
        )
        for i in range(1, count + 1)
    )
    return StandingsView(1, draw(tournament_names), 99, 99, draw(st.booleans()), tiebreaks, rows)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(round_=rounds(), table=standings())
def test_renderers_always_fit_discord_limits(round_: RoundView, table: StandingsView) -> None:
    _fits(render.pairings(round_), "pairings")
    _fits(render.round_results(round_), "round results")
    _fits(render.standings(table), "standings")
    _fits(render.standings(table, limit=50), "standings top")
    for kind in ("pairings", "round_results"):
        payload = {"tournament": {"id": 1, "name": round_.tournament_name}, **round_payload(round_)}
        _fits(render_announcement(kind, payload), kind)
    for kind in ("standings", "final_standings"):
        payload = {"tournament": {"id": 1, "name": table.tournament_name},
                   **standings_payload(table)}
        _fits(render_announcement(kind, payload), kind)
    for game in round_.games[:3]:
        outcome = ReportOutcome(game=game, status="awaiting_confirmation", reporter=game.white,
                                opponent=game.black)
        _fits([render.report_prompt(outcome)], "report prompt")
        assert len(render.report_answer(outcome)) <= discord_limits.CONTENT
        _fits([render.dispute_alert(game, 42, round_.tournament_name)], "dispute")


@settings(max_examples=40, deadline=None)
@given(
    name=tournament_names,
    tiebreaks=st.text(max_size=4000),  # a setting stored before the bound existed
    players=st.lists(names, max_size=80),
    problem=st.none() | st.text(max_size=3000),
)
def test_tournament_info_always_fits(
    name: str, tiebreaks: str, players: list[str], problem: str | None
) -> None:
    info = TournamentInfo(
        id=1, guild_id=GUILD, name=name, status="running",
        settings=TournamentSettings(rounds=99, tiebreaks=tiebreaks, deadline_minutes=10080,
                                    auto_advance_minutes=1440),
        channel_id=10**18, seed=2**31, created_by=1, created_at=WHEN, players=len(players),
        current_round=99, round_state="playing", auto_advance_due=WHEN,
        delivery_problem=problem,
    )
    embed = render.tournament_info(info)
    views = [
        PlayerView(id=i, tournament_id=1, name=n, user_id=None if i % 2 else 10**17 + i,
                   rating=4000, status="active", checked_in=False, number=i, joined_round=1,
                   withdrawn_round=None)
        for i, n in enumerate(players)
    ]
    render.add_players(embed, views)
    assert not discord_limits.problems(None, [embed])
    assert not discord_limits.problems(None, [render.tournament_list([info] * 60)])


def test_tournament_info_with_every_option_set_fits() -> None:
    """Every feature adds a line to /tournament info (top cut, timers, entry, threads, pictures,
    decklists): with all of them on, long names and 80 players, the embed still fits."""
    iso = "2026-12-01T18:00:00+00:00"
    settings = TournamentSettings(
        rounds=99, tiebreaks="x" * 100, deadline_minutes=10080, auto_advance_minutes=1440,
        top_cut=32, playoff_best_of=5, reminders="60,30,15,5", deadline_action="reporter-wins",
        noshow_grace_minutes=60, noshow_drop_after=3, first_round_at=iso,
        round_interval_minutes=1440, capacity=10000, required_role_id=10**18, min_rating=1000,
        max_rating=3000, registration_opens=iso, registration_closes=iso, checkin_opens=iso,
        checkin_closes=iso, game_threads=True, pictures=True, decklists="link",
        decklist_deadline=iso,
    )
    info = TournamentInfo(
        id=1, guild_id=GUILD, name="N" * 50, status="running", settings=settings,
        channel_id=10**18, seed=2**31, created_by=1, created_at=WHEN, players=80,
        current_round=99, round_state="playing", auto_advance_due=WHEN,
        delivery_problem="p" * 3000,
    )
    embed = render.tournament_info(info)
    render.add_players(embed, [
        PlayerView(id=i, tournament_id=1, name="Ẅ" * 50, user_id=10**17 + i, rating=4000,
                   status="active", checked_in=False, number=i, joined_round=1,
                   withdrawn_round=None)
        for i in range(80)
    ])
    assert not discord_limits.problems(None, [embed])
