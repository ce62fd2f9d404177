"""The bad-input catalogue: every refusal is a specific error whose message says what is wrong
and what to do instead."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service import (
    AlreadyFinalError,
    AlreadyRegisteredError,
    AlreadyReportedError,
    AmbiguousTournamentError,
    ConflictError,
    InvalidInputError,
    NotOrganiserError,
    NotPairedError,
    NotRegisteredError,
    NotYourGameError,
    RegistrationClosedError,
    RoundNotCompleteError,
    ServiceError,
    TournamentNotRunningError,
    TournamentService,
    UnknownGameError,
    UnknownPlayerError,
    UnknownRoundError,
    UnknownTournamentError,
)
from tests.service_helpers import GUILD, OTHER_GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
OUTSIDER = 150  # a member of the guild who is in no tournament


@dataclass
class Scene:
    """'Cup' (3 rounds) running with 5 members: round 1 paired, board 1 reported by white,
    board 2 untouched, one player with the pairing-allocated bye."""

    s: TournamentService
    cup: int
    game1: int
    white1: int
    black1: int
    game2: int
    black2: int
    bye: int


@pytest.fixture
async def scene(tmp_path: Path) -> AsyncIterator[Scene]:
    async with open_service(tmp_path / "errors.sqlite3") as service:
        info = await service.create_tournament(ORG, "Cup", 3, seed=1)
        for uid in range(101, 106):
            await service.join(member(uid), rating=2000 - uid)
        r1 = await service.start_tournament(ORG)
        g1, g2 = r1.games
        await service.report_result(member(g1.white.user_id), "win")
        yield Scene(service, info.id, g1.id, g1.white.user_id, g1.black.user_id, g2.id,
                    g2.black.user_id, r1.byes[0].player.user_id)


async def _confirmed(sc: Scene) -> None:
    await sc.s.confirm_result(member(sc.black1), sc.game1)


async def _two_open(sc: Scene) -> None:
    await sc.s.create_tournament(ORG, "Other", 3)
    await sc.s.join(member(OUTSIDER))


async def _solo(sc: Scene) -> None:
    await sc.s.create_tournament(ORG, "Solo", 3)
    await sc.s.join(member(OUTSIDER), "Solo")
    await sc.s.start_tournament(ORG, "Solo")


async def _report_again(sc: Scene) -> None:
    await _confirmed(sc)
    await sc.s.report_result(member(sc.white1), "win")


async def _confirm_twice(sc: Scene) -> None:
    await _confirmed(sc)
    await _confirmed(sc)


async def _undo_final(sc: Scene) -> None:
    await _confirmed(sc)
    await sc.s.undo_round(ORG)


async def _finish_unstarted(sc: Scene) -> None:
    await sc.s.create_tournament(ORG, "Later", 3)
    await sc.s.finish_tournament(ORG, "Later")


Case = tuple[str, Callable[[Scene], Awaitable[Any]], type[ServiceError], str]

CATALOGUE: list[Case] = [
    ("unknown tournament", lambda sc: sc.s.tournament_info(GUILD, "Nope"),
     UnknownTournamentError, "There is no tournament 'Nope' in this server. See /tournament list"),
    ("tournament of another guild", lambda sc: sc.s.tournament_info(OTHER_GUILD, sc.cup),
     UnknownTournamentError, "There is no tournament 1 in this server"),
    ("several open tournaments", _two_open,
     AmbiguousTournamentError, r"Several tournaments are open here \('Cup', 'Other'\): say which"),
    ("no open tournament", lambda sc: sc.s.join(member(1, guild=OTHER_GUILD)),
     AmbiguousTournamentError, "There is no open tournament in this server"),
    ("not an organiser", lambda sc: sc.s.pair_next_round(member(101)),
     NotOrganiserError, "Only organisers can pair rounds. Ask someone with the Manage Server"),
    ("not your game", lambda sc: sc.s.confirm_result(member(sc.black2), sc.game1),
     NotYourGameError,
     "This is not your game: only the opponent of the reporter or an organiser can answer"),
    ("confirming one's own report", lambda sc: sc.s.confirm_result(member(sc.white1), sc.game1),
     NotYourGameError,
     "You reported this result yourself: your opponent \\(or an organiser\\) must confirm it"),
    ("not paired this round (bye)", lambda sc: sc.s.report_result(member(sc.bye), "win"),
     NotPairedError, "You have a bye in round 1: there is nothing to report"),
    ("not a player", lambda sc: sc.s.report_result(member(OUTSIDER), "win"),
     NotRegisteredError, "You are not playing in 'Cup'"),
    ("already reported", lambda sc: sc.s.report_result(member(sc.white1), "draw"),
     AlreadyReportedError, "You already reported 1-0 for board 1: wait for your opponent"),
    ("already final", _report_again,
     AlreadyFinalError, r"The result of board 1 is already final \(1-0\): ask an organiser"),
    ("double confirmation", _confirm_twice,
     AlreadyFinalError, r"The result of board 1 is already final \(1-0\)"),
    ("nothing to confirm", lambda sc: sc.s.confirm_result(member(sc.black2), sc.game2),
     ConflictError, "Nothing to answer yet: no result has been reported for board 2"),
    ("round not complete", lambda sc: sc.s.pair_next_round(ORG),
     RoundNotCompleteError,
     r"Round 1 of 'Cup' is not complete: boards 1, 2 have no final result\. Set them"),
    ("pairing a round already paired",
     lambda sc: sc.s.pair_next_round(ORG, force=True, round_number=1),
     ConflictError, "Round 1 of 'Cup' is already paired: the next round to pair is 2"),
    ("pairing a round too far ahead",
     lambda sc: sc.s.pair_next_round(ORG, force=True, round_number=3),
     ConflictError, "Round 2 of 'Cup' comes first: the next round to pair is 2"),
    ("registration closed", lambda sc: sc.s.join(member(OUTSIDER), "Cup"),
     RegistrationClosedError, "late joining is possible only up to round 1 and round 2 is next"),
    ("name too long", lambda sc: sc.s.create_tournament(ORG, "x" * 51, 3),
     InvalidInputError, r"The tournament name is too long \(51 characters\): use at most 50"),
    ("name with a mention", lambda sc: sc.s.create_tournament(ORG, "<@123> Cup", 3),
     InvalidInputError, "The tournament name contains a mention, @everyone or @here"),
    ("guest name @everyone", lambda sc: sc.s.add_player(ORG, "@everyone"),
     InvalidInputError, "The player name contains a mention, @everyone or @here"),
    ("empty name", lambda sc: sc.s.create_tournament(ORG, "   ", 3),
     InvalidInputError, "The tournament name is empty"),
    ("zero rounds", lambda sc: sc.s.create_tournament(ORG, "Zero", 0),
     InvalidInputError, r"The number of rounds must be from 1 to 99 \(you gave 0\)"),
    ("too many rounds", lambda sc: sc.s.create_tournament(ORG, "Marathon", 100),
     InvalidInputError, r"The number of rounds must be from 1 to 99 \(you gave 100\)"),
    ("unknown system", lambda sc: sc.s.create_tournament(ORG, "S", 3, system="swissomatic"),
     InvalidInputError, "Unknown pairing system 'swissomatic': choose one of dutch, burstein"),
    ("unknown scoring", lambda sc: sc.s.create_tournament(ORG, "S", 3, scoring="golf"),
     InvalidInputError, "Unknown scoring 'golf': choose one of chess, match"),
    ("unknown tiebreaks", lambda sc: sc.s.create_tournament(ORG, "S", 3, tiebreaks="nope"),
     InvalidInputError, "Unknown tiebreaks 'nope' .*: use a preset \\(fide, fide-unrated"),
    ("deadline out of range",
     lambda sc: sc.s.create_tournament(ORG, "S", 3, deadline_minutes=0),
     InvalidInputError, "The round deadline in minutes must be from 1 to 10080"),
    ("rating out of range", lambda sc: sc.s.set_rating(ORG, 101, 5000),
     InvalidInputError, r"The rating must be from 0 to 4000 \(you gave 5000\)"),
    ("unknown result", lambda sc: sc.s.report_result(member(sc.black2), "victory"),
     InvalidInputError, "Unknown result 'victory': choose one of win, draw, loss"),
    ("game score against the result",
     lambda sc: sc.s.report_result(member(sc.black2), "win", my_games=1, their_games=2),
     InvalidInputError, "The game score 1-2 does not match a win"),
    ("half a game score",
     lambda sc: sc.s.report_result(member(sc.black2), "win", my_games=2),
     InvalidInputError, "Give both game scores"),
    ("game of another guild",
     lambda sc: sc.s.confirm_result(member(sc.black1, guild=OTHER_GUILD), sc.game1),
     UnknownGameError, "This game does not exist in this server"),
    ("unknown player", lambda sc: sc.s.drop_player(ORG, "Nobody"),
     UnknownPlayerError, "No player 'Nobody' in 'Cup'"),
    ("bye for a paired round", lambda sc: sc.s.request_bye(member(102), 1),
     InvalidInputError, "Byes can be requested only for a round not paired yet: choose a round "
     "from 2 to 3"),
    ("full bye asked by a player", lambda sc: sc.s.request_bye(member(102), 2, kind="full"),
     InvalidInputError, "Unknown bye kind 'full': choose one of half, zero"),
    ("start with one player", _solo,
     ConflictError, "'Solo' needs at least 2 players to start; it has 1"),
    ("duplicate open name", lambda sc: sc.s.create_tournament(ORG, "cup", 3),
     ConflictError, "A tournament called 'cup' is already open in this server"),
    ("check-in not used", lambda sc: sc.s.check_in(member(101)),
     ConflictError, "'Cup' does not use check-in"),
    ("forbid a player with himself", lambda sc: sc.s.forbid_pair(ORG, 101, "#1"),
     InvalidInputError, "Name two different players"),
    ("undo a round with a final result", _undo_final,
     ConflictError, r"Round 1 of 'Cup' already has 1 final result: undo it anyway with"),
    ("unknown export format", lambda sc: sc.s.export(GUILD, "pdf"),
     InvalidInputError, "Unknown export format 'pdf': choose one of trf, csv, json"),
    ("bad CSV import", lambda sc: sc.s.import_players(ORG, "Ann,abc\n", "csv", "Cup"),
     InvalidInputError, "CSV line 1: The rating 'abc' is not a whole number"),
    ("edit after the start", lambda sc: sc.s.edit_tournament(ORG, checkin=True),
     RegistrationClosedError, "'Cup' has started: checkin can no longer change"),
    ("unknown setting", lambda sc: sc.s.edit_tournament(ORG, colour=False),
     InvalidInputError, "Unknown setting colour: you can change"),
    ("leave without joining", lambda sc: sc.s.leave(member(OUTSIDER)),
     NotRegisteredError, "You are not registered in 'Cup'"),
    ("join twice", lambda sc: sc.s.join(member(101)),
     AlreadyRegisteredError, "You are already registered in 'Cup'"),
    ("standings of a future round", lambda sc: sc.s.standings(GUILD, None, 2),
     InvalidInputError, "'Cup' has 1 round: choose a round from 0 to 1"),
    ("pairings of a future round", lambda sc: sc.s.pairings(GUILD, None, 7),
     UnknownRoundError, "'Cup' has no round 7 yet"),
    ("set the result of a bye", lambda sc: sc.s.set_result(ORG, 1, sc.bye, "win"),
     NotPairedError, "has no game in round 1 of 'Cup'"),
    ("finish before the start", _finish_unstarted,
     TournamentNotRunningError, "'Later' is not running \\(it is still open for registration\\)"),
    ("remove a player who played", lambda sc: sc.s.remove_player(ORG, 101),
     ConflictError, "has already played in 'Cup': drop him with /admin drop"),
]


def test_catalogue_names_are_unique() -> None:
    assert len({name for name, *_ in CATALOGUE}) == len(CATALOGUE)


@pytest.mark.parametrize(("name", "call", "error", "message"), CATALOGUE,
                         ids=[c[0] for c in CATALOGUE])
async def test_bad_input(
    scene: Scene, name: str, call: Callable[[Scene], Awaitable[Any]],
    error: type[ServiceError], message: str,
) -> None:
    with pytest.raises(error) as caught:
        await call(scene)
    assert re.search(message, str(caught.value)), str(caught.value)
    assert caught.value.message == str(caught.value)
    assert "Traceback" not in caught.value.message


async def test_a_refusal_changes_nothing(scene: Scene) -> None:
    before = await scene.s.announcements(scene.cup)
    players = await scene.s.list_players(GUILD)
    with pytest.raises(RoundNotCompleteError):
        await scene.s.pair_next_round(ORG)
    with pytest.raises(InvalidInputError):
        await scene.s.import_players(ORG, "Ann,1\nBob,xyz\n", "csv", "Cup")
    assert await scene.s.announcements(scene.cup) == before
    assert await scene.s.list_players(GUILD) == players
