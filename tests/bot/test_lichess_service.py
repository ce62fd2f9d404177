"""Linking Lichess accounts and events rated by Lichess, through the service (both backends),
with an in-memory Lichess (tests/lichess_helpers.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.lichess.secrets import FernetCipher
from service import ConflictError, InvalidInputError, TournamentService
from service.lichess_api import parse_clock, speed_of
from service.lichess_views import (
    LichessAccountError,
    LichessClaimedError,
    LichessNotSetUpError,
    LichessUnreachableError,
)
from storage import lichess as repo
from tests.lichess_helpers import StubLichess
from tests.service_helpers import Clock, manager, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")

ORG = organiser()
ANN, BOB = member(101, name="Ann"), member(102, name="Bob")
CALLBACK = "https://bot.example/lichess/oauth"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[TournamentService, StubLichess, Clock]]:
    clock = Clock()
    async with open_service(tmp_path / "lichess.sqlite3", clock=clock) as service:
        stub = StubLichess()
        service.lichess = stub
        yield service, stub, clock


async def _links(service: TournamentService) -> list[repo.LinkRow]:
    async with service.db.transaction() as conn:
        return await repo.list_links(conn, ORG.guild_id)


async def _link_by_code(service: TournamentService, stub: StubLichess, actor, name: str) -> None:
    code = await service.lichess_link_code(actor, name)
    stub.set_bio(name, f"Hello! {code.code}")
    await service.lichess_verify(actor)


# -- linking by profile code ---------------------------------------------------------------
async def test_a_profile_code_links_the_account_once(world) -> None:
    service, stub, _ = world
    stub.add("AnnPlays")
    code = await service.lichess_link_code(ANN, "annplays")
    assert code.code.startswith("swissbot-") and code.username == "AnnPlays"
    with pytest.raises(LichessAccountError, match=f"{code.code} is not in the Bio or the "
                                                  "Location of lichess.org/@/AnnPlays"):
        await service.lichess_verify(ANN)
    assert await _links(service) == []
    stub.set_bio("AnnPlays", f"I play here {code.code} thanks")
    link = await service.lichess_verify(ANN)
    assert (link.username, link.method) == ("AnnPlays", "profile")
    # the code is spent: verifying again (a double click) changes nothing
    with pytest.raises(LichessAccountError, match="no code waiting"):
        await service.lichess_verify(ANN)
    assert [(x.user_id, x.lichess_id) for x in await _links(service)] == [(101, "annplays")]


async def test_the_location_field_counts_too_and_codes_expire(world) -> None:
    service, stub, clock = world
    stub.add("AnnPlays")
    code = await service.lichess_link_code(ANN, "AnnPlays")
    stub.accounts["annplays"] = stub.accounts["annplays"].__class__(
        id="annplays", username="AnnPlays", location=code.code)
    clock.advance(minutes=11)
    with pytest.raises(LichessAccountError, match="expired"):
        await service.lichess_verify(ANN)
    clock.advance(minutes=-2)  # within the 10 minutes, the location is read
    assert (await service.lichess_verify(ANN)).username == "AnnPlays"


async def test_bad_input_changes_nothing(world) -> None:
    service, stub, _ = world
    with pytest.raises(InvalidInputError, match="not a Lichess username"):
        await service.lichess_link_code(ANN, "no spaces allowed")
    with pytest.raises(LichessAccountError, match="No Lichess account is named Ghost"):
        await service.lichess_link_code(ANN, "Ghost")
    stub.add("AnnPlays")
    stub.down = True
    with pytest.raises(LichessUnreachableError, match=r"cannot be reached.*nothing was changed"):
        await service.lichess_link_code(ANN, "AnnPlays")
    async with service.db.transaction() as conn:
        assert await repo.latest_request(conn, ORG.guild_id, 101, "profile") is None
    service.lichess = None
    with pytest.raises(LichessNotSetUpError):
        await service.lichess_link_code(ANN, "AnnPlays")


async def test_a_second_claim_is_refused_and_the_organisers_told(world) -> None:
    service, stub, _ = world
    await service.set_default_channel(manager(), 555)
    stub.add("AnnPlays")
    await _link_by_code(service, stub, ANN, "AnnPlays")
    with pytest.raises(LichessClaimedError, match="already linked to another member"):
        await service.lichess_link_code(BOB, "ANNPLAYS")
    with pytest.raises(ConflictError, match="already linked to the Lichess account AnnPlays"):
        await service.lichess_link_code(ANN, "AnnPlays")
    view = await service.lichess_links(ORG)
    assert [(c.username, c.holder_id, c.claimant_id) for c in view.conflicts] == [
        ("AnnPlays", 101, 102)]
    told = [a for a in await service.announcements() if a.kind == "lichess_conflict"]
    assert len(told) == 1 and told[0].channel_id == 555
    assert [(x.user_id, x.username) for x in view.links] == [(101, "AnnPlays")]


async def test_two_members_verifying_one_account_link_it_once(world) -> None:
    service, stub, _ = world
    stub.add("Shared")
    first = await service.lichess_link_code(ANN, "Shared")
    second = await service.lichess_link_code(BOB, "Shared")
    stub.set_bio("Shared", f"{first.code} {second.code}")
    await service.lichess_verify(ANN)
    with pytest.raises(LichessClaimedError):
        await service.lichess_verify(BOB)
    assert [x.user_id for x in await _links(service)] == [101]


# -- linking by OAuth ----------------------------------------------------------------------
async def test_oauth_links_once_and_keeps_the_token_encrypted(world) -> None:
    service, stub, _ = world
    service.token_cipher = FernetCipher("a passphrase from the environment")
    stub.add("BobOnline")
    start = await service.lichess_oauth_start(BOB, CALLBACK)
    state = start.url.split("state=")[1].split("&")[0]
    code = stub.approve(start.url, "BobOnline")
    link = await service.lichess_oauth_finish(state, code, CALLBACK)
    assert (link.user_id, link.username, link.method) == (102, "BobOnline", "oauth")
    with pytest.raises(LichessAccountError, match="used already or expired"):
        await service.lichess_oauth_finish(state, code, CALLBACK)
    async with service.db.transaction() as conn:
        stored = await repo.token_of(conn, ORG.guild_id, 102)
    token = next(iter(stub.tokens))
    assert stored is not None and token not in stored
    assert service.token_cipher.decrypt(stored) == token
    # unlinking forgets the token here and at Lichess
    await service.lichess_unlink(BOB)
    assert token not in stub.tokens
    async with service.db.transaction() as conn:
        assert await repo.token_of(conn, ORG.guild_id, 102) is None


async def test_oauth_refusals(world) -> None:
    service, stub, clock = world
    stub.add("BobOnline")
    with pytest.raises(LichessAccountError, match="unknown"):
        await service.lichess_oauth_finish("forged-state", "code", CALLBACK)
    start = await service.lichess_oauth_start(BOB, CALLBACK)
    state = start.url.split("state=")[1].split("&")[0]
    clock.advance(minutes=10, seconds=1)
    with pytest.raises(LichessAccountError, match="expired"):
        await service.lichess_oauth_finish(state, stub.approve(start.url, "BobOnline"),
                                           CALLBACK)
    start = await service.lichess_oauth_start(BOB, CALLBACK)
    state = start.url.split("state=")[1].split("&")[0]
    with pytest.raises(LichessAccountError, match="refused the authorization"):
        await service.lichess_oauth_finish(state, "liu_wrong", CALLBACK)
    start = await service.lichess_oauth_start(BOB, CALLBACK)
    state = start.url.split("state=")[1].split("&")[0]
    with pytest.raises(LichessAccountError, match="did not authorize"):
        await service.lichess_oauth_finish(state, None, CALLBACK, error="access_denied")
    assert await _links(service) == []


async def test_unlink(world) -> None:
    service, stub, _ = world
    stub.add("AnnPlays")
    await _link_by_code(service, stub, ANN, "AnnPlays")
    await service.create_tournament(ORG, "Blitz", 3)
    await service.lichess_event(ORG, "Blitz", clock="3+2")
    await service.join(ANN, "Blitz")
    with pytest.raises(ConflictError, match="You play in 'Blitz' on Lichess"):
        await service.lichess_unlink(ANN)
    await service.leave(ANN, "Blitz")
    assert (await service.lichess_unlink(ANN)).username == "AnnPlays"
    assert await _links(service) == []
    await _link_by_code(service, stub, BOB, "AnnPlays")  # free again


# -- events rated by Lichess ---------------------------------------------------------------
async def test_an_event_on_lichess_takes_ratings_from_lichess(world) -> None:
    service, stub, _ = world
    await service.create_tournament(ORG, "Blitz", 3, min_rating=1400)
    event = await service.lichess_event(ORG, "Blitz", clock="3+2")
    assert event is not None and (event.speed, event.clock) == ("blitz", "3+2")
    stub.add("AnnPlays", rating=1800)
    stub.add("BobOnline", rating=1450, provisional=True)
    stub.add("Low", rating=1200)
    with pytest.raises(LichessAccountError, match="link your account first"):
        await service.join(ANN, "Blitz")
    await _link_by_code(service, stub, ANN, "AnnPlays")
    await _link_by_code(service, stub, BOB, "BobOnline")
    await _link_by_code(service, stub, member(103), "Low")
    with pytest.raises(InvalidInputError, match="takes the players' Lichess blitz rating"):
        await service.join(ANN, "Blitz", rating=2500)
    assert (await service.join(ANN, "Blitz")).rating == 1800
    assert (await service.join(BOB, "Blitz")).rating == 1450
    with pytest.raises(Exception, match="1200"):  # the range is checked on Lichess's rating
        await service.join(member(103), "Blitz")
    shown = {r.username: r.shown for r in await service.lichess_ratings(ORG.guild_id, "Blitz")}
    assert shown == {"AnnPlays": "1800", "BobOnline": "1450?"}
    with pytest.raises(InvalidInputError, match="ratings come from Lichess"):
        await service.set_rating(ORG, "Ann", 2000, "Blitz")
    with pytest.raises(InvalidInputError, match="only members with a linked account"):
        await service.add_player(ORG, "Guest Gus", tournament="Blitz")
    with pytest.raises(InvalidInputError, match="do not type one"):
        await service.add_player(ORG, "Carl", user_id=104, rating=2000, tournament="Blitz")
    stub.add("CarlC", rating=1600)
    await _link_by_code(service, stub, member(104), "CarlC")
    added = await service.add_player(ORG, "Carl", user_id=104, tournament="Blitz")
    assert added.rating == 1600
    # at the start the ratings are read again: Bob overtook Ann meanwhile
    stub.set_rating("BobOnline", "blitz", 1900)
    round1 = await service.start_tournament(ORG, "Blitz")
    players = {p.name: p for p in await service.list_players(ORG.guild_id, "Blitz")}
    assert players["Bob"].rating == 1900 and players["Bob"].number == 1
    assert round1.number == 1
    shown = {r.username: r.shown for r in await service.lichess_ratings(ORG.guild_id, "Blitz")}
    assert shown["BobOnline"] == "1900"


async def test_the_start_waits_for_lichess(world) -> None:
    service, stub, _ = world
    await service.create_tournament(ORG, "Rapid", 3)
    await service.lichess_event(ORG, "Rapid", clock="10+5")
    for uid, name in ((101, "A1"), (102, "B2")):
        stub.add(name, speed="rapid")
        await _link_by_code(service, stub, member(uid), name)
        await service.join(member(uid), "Rapid")
    stub.down = True
    with pytest.raises(LichessUnreachableError, match="nothing was started"):
        await service.start_tournament(ORG, "Rapid")
    assert (await service.tournament_info(ORG.guild_id, "Rapid")).status == "registration"


async def test_event_settings_are_checked(world) -> None:
    service, _, _ = world
    await service.create_tournament(ORG, "Cup", 3)
    with pytest.raises(InvalidInputError, match="Bad clock"):
        await service.lichess_event(ORG, "Cup", clock="three minutes")
    with pytest.raises(InvalidInputError, match="Unknown speed"):
        await service.lichess_event(ORG, "Cup", clock="3+2", speed="hyper")
    chosen = await service.lichess_event(ORG, "Cup", clock="3+2", speed="rapid")
    assert chosen is not None and chosen.speed == "rapid"
    assert await service.lichess_event(ORG, "Cup", clock="3+2", enabled=False) is None
    await service.join(ANN, "Cup", rating=1500)  # no longer on Lichess: typed ratings again
    with pytest.raises(ConflictError, match="before anyone joins"):
        await service.lichess_event(ORG, "Cup", clock="3+2")


# -- the pure rules ------------------------------------------------------------------------
@pytest.mark.parametrize(("clock", "speed"), [
    ("¼+0", "ultraBullet"), ("1+0", "bullet"), ("2+1", "bullet"), ("3+0", "blitz"),
    ("3+2", "blitz"), ("5+3", "blitz"), ("10+0", "rapid"), ("15+10", "rapid"),
    ("30+0", "classical"), ("90+30", "classical")])
def test_speed_of_a_clock(clock: str, speed: str) -> None:
    assert speed_of(*parse_clock(clock)) == speed


@given(st.text(max_size=12))
def test_parse_clock_refuses_clearly_or_parses(text: str) -> None:
    try:
        limit, increment = parse_clock(text)
    except ValueError as error:
        assert "clock" in str(error)
    else:
        assert 0 <= limit <= 180 * 60 and 0 <= increment <= 60 and limit + increment > 0


@given(st.text(max_size=80))
def test_a_username_is_refused_clearly_or_cleaned(text: str) -> None:
    from service.lichess import clean_username

    try:
        name = clean_username(text)
    except InvalidInputError as error:
        assert "is not a Lichess username" in str(error) and len(str(error)) < 120
    else:
        assert 2 <= len(name) <= 30 and name.replace("_", "").replace("-", "").isalnum()
        assert name.isascii()
