"""The Lichess HTTP client against the fake Lichess (sandbox/lichess.py), and both against
Lichess's OpenAPI description: every request the client made and every answer the fake gave
is checked with the schemas of tests/fixtures/lichess_api_subset.json (taken from
lichess-org/api, files and commits listed in it)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest
from jsonschema import Draft202012Validator

from bot.lichess.client import LichessClient
from sandbox.lichess import Exchange, FakeLichess
from service.lichess import code_challenge
from service.lichess_api import LichessNotFound, LichessUnauthorized, LichessUnavailable
from tests.paths import FIXTURES

SPEC = json.loads((FIXTURES / "lichess_api_subset.json")
                  .read_text(encoding="utf-8"))


@pytest.fixture
async def fake() -> AsyncIterator[FakeLichess]:
    server = await FakeLichess().start()
    server.add_account("AnnPlays", bio="chess fan", location="Basel",
                       perfs={"blitz": (1812, 340, False), "rapid": (1650, 8, True)})
    server.add_account("BobOnline", perfs={"bullet": (2100, 1200, False)})
    yield server
    await server.stop()


@pytest.fixture
async def client(fake: FakeLichess) -> AsyncIterator[LichessClient]:
    lichess = LichessClient(fake.url, rate_limit_wait=0.3, backoff=0.01)
    yield lichess
    await lichess.close()


def _validate(schema: dict[str, Any], value: Any) -> None:
    Draft202012Validator({**schema, "schemas": SPEC["schemas"]}).validate(value)


def check_against_spec(exchanges: list[Exchange]) -> set[str]:
    """Every exchange: its request parameters and its answer's shape. Returns the operations
    seen, so a test can say it covered them all."""
    seen = set()
    for exchange in exchanges:
        key = f"{exchange.method} {exchange.route}"
        operation = SPEC["operations"][key]  # an endpoint the spec does not list fails here
        seen.add(key)
        query = operation.get("query")
        if query is not None and exchange.status < 400:
            assert set(query["required"]) <= set(exchange.query), key
            assert set(exchange.query) <= set(query["required"]) | set(query["optional"]), key
            for name, value in query.get("values", {}).items():
                assert exchange.query[name] == value, (key, name)
        if "form" in operation and exchange.form:
            form = operation["form"]
            _validate({k: v for k, v in form.items() if k != "numeric"}, exchange.form)
            for name, (low, high) in form.get("numeric", {}).items():
                assert low <= int(exchange.form[name]) <= high, (key, name)
        if operation.get("auth") == "bearer":
            assert (exchange.authorization or "").startswith("Bearer "), key
        schema = operation.get("responses", {}).get(str(exchange.status))
        if exchange.media == "application/x-chess-pgn":
            schema = operation["pgn"]  # the same call, answered in PGN
        if schema is not None:
            _validate(schema, exchange.response)
    return seen


async def _authorize(url: str) -> dict[str, list[str]]:
    """The member's browser on the authorize page: the fake approves and redirects."""
    async with aiohttp.ClientSession() as http, http.get(url, allow_redirects=False) as reply:
        assert reply.status == 302
        return parse_qs(urlparse(reply.headers["Location"]).query)


async def test_every_call_matches_the_spec(fake: FakeLichess, client: LichessClient) -> None:
    redirect = "https://bot.example/lichess/oauth"
    verifier = "v" * 64
    fake.approve_as("AnnPlays")
    back = await _authorize(client.authorize_url(
        state="s1", code_challenge=code_challenge(verifier), redirect_uri=redirect))
    assert back["state"] == ["s1"]
    token = await client.exchange_code(code=back["code"][0], code_verifier=verifier,
                                       redirect_uri=redirect)
    me = await client.account(token.access_token)
    assert (me.id, me.username) == ("annplays", "AnnPlays")
    ann = await client.user("annplays")
    assert (ann.bio, ann.location) == ("chess fan", "Basel")
    assert ann.perfs["blitz"].rating == 1812 and not ann.perfs["blitz"].provisional
    assert ann.perfs["rapid"].provisional
    both = await client.users(["annplays", "bobonline", "nobody"])
    assert [u.username for u in both] == ["AnnPlays", "BobOnline"]
    with pytest.raises(LichessNotFound):
        await client.user("nobody")
    fake.accounts["annplays"].online = True
    assert await client.users_status(["annplays", "bobonline", "nobody"]) == {
        "annplays": True, "bobonline": False}
    # a spent code, and a wrong verifier, are refused with the spec's OAuthError
    with pytest.raises(LichessUnauthorized):
        await client.exchange_code(code=back["code"][0], code_verifier=verifier,
                                   redirect_uri=redirect)
    back = await _authorize(client.authorize_url(
        state="s2", code_challenge=code_challenge(verifier), redirect_uri=redirect))
    with pytest.raises(LichessUnauthorized):
        await client.exchange_code(code=back["code"][0], code_verifier="w" * 64,
                                   redirect_uri=redirect)
    challenge = await client.open_challenge(white="AnnPlays", black="BobOnline", limit=180,
                                            increment=2, rated=True, name="Club Blitz R1",
                                            expires_at_ms=1_900_000_000_000,
                                            rules=("noRematch", "noGiveTime"))
    assert challenge.url_white.endswith("?color=white")
    assert fake.challenges[-1]["users"] == ["AnnPlays", "BobOnline"]  # white first
    fake.play(challenge.id, "resign", "black")
    [game] = await client.export_games([challenge.id, "unplayed"])
    assert (game.white_id, game.black_id, game.winner, game.status) == (
        "annplays", "bobonline", "black", "resign")
    assert (game.clock_initial, game.clock_increment) == (180, 2)
    pgn = await client.export_pgn([challenge.id, "unplayed"])
    assert f'[Site "https://lichess.org/{challenge.id}"]' in pgn and pgn.rstrip().endswith("0-1")
    await client.revoke(token.access_token)
    with pytest.raises(LichessUnauthorized):
        await client.account(token.access_token)
    seen = check_against_spec(fake.exchanges)
    assert seen == set(SPEC["operations"])


async def test_a_revoked_token_is_refused_clearly(fake: FakeLichess,
                                                  client: LichessClient) -> None:
    token = fake.issue_token("BobOnline")
    assert (await client.account(token)).username == "BobOnline"
    fake.revoke(token)
    with pytest.raises(LichessUnauthorized, match="revoked"):
        await client.account(token)
    check_against_spec(fake.exchanges)


async def test_server_errors_are_retried_then_reported(fake: FakeLichess,
                                                       client: LichessClient) -> None:
    fake.fail(503, times=2)
    assert (await client.user("AnnPlays")).username == "AnnPlays"  # third try answers
    fake.fail(500, times=1000)
    began = time.monotonic()
    with pytest.raises(LichessUnavailable, match="HTTP 500"):
        await client.user("AnnPlays")
    assert time.monotonic() - began < client.budget + 0.5  # a command's answer is not late
    unreachable = LichessClient("http://127.0.0.1:9", backoff=0.01)
    with pytest.raises(LichessUnavailable):
        await unreachable.user("AnnPlays")
    await unreachable.close()


async def test_after_a_429_nothing_is_sent_with_that_token_for_the_wait(
        fake: FakeLichess, client: LichessClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    token = fake.issue_token("AnnPlays")
    other = fake.issue_token("BobOnline")
    fake.fail(429, times=1)
    with pytest.raises(LichessUnavailable, match=r"slow down: try again in 1 s"):
        await client.account(token)
    with pytest.raises(LichessUnavailable, match="slow down"):
        await client.account(token)  # within the wait: not even sent
    assert (await client.account(other)).username == "BobOnline"  # another token is free
    await asyncio.sleep(0.35)  # the full wait (a minute in production)
    assert (await client.account(token)).username == "AnnPlays"
    mine = [e.status for e in fake.exchanges if e.authorization == f"Bearer {token}"]
    assert mine == [429, 200]
    assert token not in caplog.text  # the token is never logged


async def test_requests_go_one_at_a_time_per_token(fake: FakeLichess,
                                                   client: LichessClient) -> None:
    ann, bob = fake.issue_token("AnnPlays"), fake.issue_token("BobOnline")
    fake.delay = 0.02
    await asyncio.gather(*(client.account(token) for token in [ann, bob] * 4))
    assert fake.most_in_flight[f"Bearer {ann}"] == 1
    assert fake.most_in_flight[f"Bearer {bob}"] == 1
    assert fake.most_in_flight.get("", 0) == 0
