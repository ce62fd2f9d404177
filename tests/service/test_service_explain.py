"""``why`` (opponent, colour, bye, in words for a player) and ``tiebreak_explanation``."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import (
    NotOrganiserError,
    NotRegisteredError,
    TournamentService,
    WhyView,
)
from service.present import format_value
from storage import journal
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
USERS = [11, 12, 13, 14, 15]


async def _five(service: TournamentService) -> None:
    """Five members, rated so that #1 is user 11 ... #5 user 15: round 1 has a bye."""
    await service.create_tournament(ORG, "Why Open", 4, seed=7)
    for index, user in enumerate(USERS):
        await service.join(member(user), rating=2000 - 100 * index)
    await service.start_tournament(ORG)


async def _all_why(service: TournamentService, number: int) -> list[WhyView]:
    return [await service.why(member(user), number) for user in USERS]


async def _white_wins(service: TournamentService, number: int) -> None:
    view = await service.pairings(GUILD, round_number=number)
    for game in view.games:
        await service.set_result(ORG, number, f"#{game.white.number}", "win")


async def test_why_the_bye_goes_to_the_lowest_ranked_player(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        why = await service.why(member(15))
        assert why.round == 1 and why.opponent is None and why.bye_kind == "pairing"
        text = " ".join(sentence for _, sentence in why.reasons)
        assert "an odd number" in text
        assert "lowest-ranked player" in text and "(0)" in text
        assert "bye" in why.engine  # the engine's own components


async def test_why_round_one_colours_and_an_opponent_of_equal_score(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        why = await service.why(member(11))
        assert why.opponent is not None and why.colour in ("white", "black")
        reasons = dict(why.reasons)
        assert "both had 0 points" in reasons["Opponent"]
        assert "neither of you had a colour history" in reasons["Colour"]
        assert "score difference=0" in why.engine


async def test_why_a_float_and_a_colour_difference_in_round_two(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        await _white_wins(service, 1)
        await service.pair_next_round(ORG, round_number=2)
        views = await _all_why(service, 2)
        opponents = [dict(v.reasons).get("Opponent", "") for v in views]
        colours = [dict(v.reasons).get("Colour", "") for v in views]
        # Three players on 1 point (two winners and the bye): one is paired down.
        down = [text for text in opponents if "paired down from 1 point" in text]
        up = [text for text in opponents if "paired up from 0 points" in text]
        assert len(down) == 1 and len(up) == 1
        assert "the 3 players on 1 point were an odd number" in down[0]
        assert any("lower colour difference gets white" in c and "was -1" in c
                   for c in colours)


async def test_why_for_another_player_is_for_organisers(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        with pytest.raises(NotOrganiserError):
            await service.why(member(11), player="#2")
        with pytest.raises(NotRegisteredError):
            await service.why(member(99))
        theirs = await service.why(ORG, player="#2")
        assert theirs == await service.why(member(12))


async def test_why_survives_an_undo_and_recomputes_older_rounds(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        before = await _all_why(service, 1)
        # A round paired before the explanations were recorded: recomputed from the seed.
        async with service.db.transaction() as conn:
            await conn.execute("DELETE FROM round_explanations")
        assert await _all_why(service, 1) == before
        await _white_wins(service, 1)
        await service.pair_next_round(ORG, round_number=2)
        await service.undo_round(ORG, round_number=2)
        async with service.db.transaction(readonly=True) as conn:
            cur = await conn.execute("SELECT count(*) FROM round_explanations")
            assert (await cur.fetchone())[0] == 0  # removed with the round
        await service.pair_next_round(ORG, round_number=2)
        assert len(await _all_why(service, 2)) == len(USERS)


async def test_tiebreak_explanations_equal_the_standings(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        for number in (1, 2, 3):
            await _white_wins(service, number)
            await service.pair_next_round(ORG, round_number=number + 1)
        table = await service.standings(GUILD)
        assert table.tiebreaks
        for row in table.rows:
            explained = await service.tiebreak_explanation(ORG, f"#{row.number}")
            assert [line.acronym for line in explained.lines] == list(table.tiebreaks)
            assert [line.value for line in explained.lines] == [format_value(v)
                                                                for v in row.values]
            assert explained.rank == row.rank and explained.points == row.points
            assert all(line.text and line.article for line in explained.lines)
            assert explained.edition == table.rules
        mine = await service.tiebreak_explanation(member(11))
        assert mine.player.user_id == 11
        async with service.db.transaction(readonly=True) as conn:
            tid = mine.tournament_id
            actions = [r.action for r in await journal.list_audit(conn, tid)]
        assert "round.pair" in actions  # reading explanations writes nothing


async def test_why_keeps_what_the_engine_saw_after_a_correction(tmp_path: Path) -> None:
    """A later correction of round 1 changes the scores, not why round 2 was paired so."""
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _five(service)
        await _white_wins(service, 1)
        await service.pair_next_round(ORG, round_number=2)
        before = await _all_why(service, 2)
        first = (await service.pairings(GUILD, round_number=1)).games[0]
        await service.set_result(ORG, 1, f"#{first.white.number}", "loss")
        assert await _all_why(service, 2) == before


async def test_why_under_the_tcec_system(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "TCEC", 3, system="tcec", seed=3)
        for index, user in enumerate(USERS[:4]):
            await service.join(member(user), rating=3000 - 10 * index)
        await service.start_tournament(ORG)
        for user in USERS[:4]:
            why = await service.why(member(user))
            assert why.opponent is not None and why.colour in ("white", "black")
            assert dict(why.reasons)["Colour"].startswith(f"You got {why.colour}")
            assert "first_of_pair" in why.engine
