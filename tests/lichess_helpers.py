"""An in-memory stand-in for Lichess's API (the :class:`LichessApi` protocol) for the service
tests, and helpers shared by the Lichess tests. The HTTP client is tested against the fake
Lichess server (sandbox/lichess.py) instead."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, urlparse

from service.lichess_api import (
    LichessGame,
    LichessNotFound,
    LichessUnauthorized,
    LichessUnavailable,
    LichessUser,
    OAuthToken,
    Perf,
)
from service.views import Actor


@dataclass
class StubLichess:
    accounts: dict[str, LichessUser] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    grants: dict[str, tuple[str, str]] = field(default_factory=dict)  # code -> (id, challenge)
    down: bool = False
    games: dict[str, LichessGame] = field(default_factory=dict)
    online: set[str] = field(default_factory=set)  # the ids shown online
    pgns: dict[str, str] = field(default_factory=dict)  # game id -> its PGN
    calls: list[str] = field(default_factory=list)

    def add(self, username: str, *, bio: str = "", rating: int = 1500,
            provisional: bool = False, speed: str = "blitz") -> LichessUser:
        user = LichessUser(id=username.lower(), username=username, bio=bio,
                           perfs={speed: Perf(rating=rating, games=50,
                                              provisional=provisional)})
        self.accounts[user.id] = user
        return user

    def set_bio(self, username: str, bio: str) -> None:
        self.accounts[username.lower()] = replace(self.accounts[username.lower()], bio=bio)

    def set_rating(self, username: str, speed: str, rating: int,
                   provisional: bool = False) -> None:
        user = self.accounts[username.lower()]
        perfs = dict(user.perfs)
        perfs[speed] = Perf(rating=rating, games=60, provisional=provisional)
        self.accounts[user.id] = replace(user, perfs=perfs)

    def approve(self, url: str, username: str) -> str:
        """What the member's browser does on the authorize page: returns the code."""
        query = parse_qs(urlparse(url).query)
        code = "liu_" + secrets.token_hex(6)
        self.grants[code] = (username.lower(), query["code_challenge"][0])
        return code

    def _check(self, what: str) -> None:
        self.calls.append(what)
        if self.down:
            raise LichessUnavailable("HTTP 503")

    def authorize_url(self, *, state: str, code_challenge: str, redirect_uri: str,
                      scopes: tuple[str, ...] = ()) -> str:
        return (f"https://lichess.test/oauth?state={state}&code_challenge={code_challenge}"
                f"&redirect_uri={redirect_uri}")

    async def exchange_code(self, *, code: str, code_verifier: str,
                            redirect_uri: str) -> OAuthToken:
        self._check("token")
        from service.lichess import code_challenge

        grant = self.grants.pop(code, None)
        if grant is None or code_challenge(code_verifier) != grant[1]:
            raise LichessUnauthorized("the authorization code was refused")
        token = "lio_" + secrets.token_hex(8)
        self.tokens[token] = grant[0]
        return OAuthToken(access_token=token, expires_in=3600)

    async def account(self, token: str) -> LichessUser:
        self._check("account")
        if token not in self.tokens:
            raise LichessUnauthorized("the token is revoked, expired or lacks a scope")
        return self.accounts[self.tokens[token]]

    async def revoke(self, token: str) -> None:
        self._check("revoke")
        self.tokens.pop(token, None)

    async def user(self, username: str) -> LichessUser:
        self._check(f"user {username}")
        user = self.accounts.get(username.lower())
        if user is None:
            raise LichessNotFound(f"No Lichess account is named {username}.")
        return user

    async def users(self, ids: list[str]) -> list[LichessUser]:
        self._check(f"users {len(ids)}")
        assert len(ids) <= 300
        return [self.accounts[i] for i in ids if i in self.accounts]

    async def export_games(self, ids: list[str]) -> list[LichessGame]:
        self._check(f"games {len(ids)}")
        return [self.games[i] for i in ids if i in self.games]

    async def export_pgn(self, ids: list[str]) -> str:
        self._check(f"pgn {len(ids)}")
        return "\n\n".join(self.pgns[i] for i in ids if i in self.pgns)

    async def users_status(self, ids: list[str]) -> dict[str, bool]:
        self._check(f"status {len(ids)}")
        return {i: i in self.online for i in ids if i in self.accounts}


# -- the permission matrix's calls (tests/service/test_service_permissions.py) ---------------------
def stub_of(service: Any) -> StubLichess:
    """The service's stand-in Lichess, made on first use, with one account per member."""
    if not isinstance(service.lichess, StubLichess):
        service.lichess = StubLichess()
    return service.lichess


async def _code_then_verify(service: Any, actor: Actor) -> Any:
    stub = stub_of(service)
    name = f"acct{actor.guild_id % 1000}x{actor.user_id}"
    stub.add(name)
    code = await service.lichess_link_code(actor, name)
    stub.set_bio(name, code.code)
    return await service.lichess_verify(actor)


async def _oauth(service: Any, actor: Actor) -> Any:
    stub = stub_of(service)
    name = f"oauth{actor.guild_id % 1000}x{actor.user_id}"
    stub.add(name)
    start = await service.lichess_oauth_start(actor, "https://bot.test/lichess/oauth")
    state = start.url.split("state=")[1].split("&")[0]
    return await service.lichess_oauth_finish(state, stub.approve(start.url, name),
                                              "https://bot.test/lichess/oauth")


async def _unlink(service: Any, actor: Actor) -> Any:
    await _code_then_verify(service, actor)
    return await service.lichess_unlink(actor)


def _link_code(service: Any, actor: Actor) -> Any:
    stub_of(service).add("SomeoneElse")
    return service.lichess_link_code(actor, "SomeoneElse")


LICHESS_CALLS: dict[str, tuple[Callable[[Any, Actor], Awaitable[Any]], str | None]] = {
    "lichess_link_code": (lambda s, a: _link_code(s.service, a), None),
    "lichess_verify": (lambda s, a: _code_then_verify(s.service, a), None),
    "lichess_oauth_start": (
        lambda s, a: stub_of(s.service) and s.service.lichess_oauth_start(
            a, "https://bot.test/lichess/oauth"), None),
    "lichess_oauth_finish": (lambda s, a: _oauth(s.service, a), None),
    "lichess_unlink": (lambda s, a: _unlink(s.service, a), None),
    "lichess_links": (lambda s, a: s.service.lichess_links(a), None),
    "lichess_link_of": (lambda s, a: s.service.lichess_link_of(a.guild_id, a.user_id), None),
    "lichess_event": (lambda s, a: s.service.lichess_event(a, "Open Reg", clock="3+2"), None),
    "lichess_ratings": (lambda s, a: s.service.lichess_ratings(a.guild_id, "Perm Cup"), None),
}

#: These act on the member's own link in his own server: another server's organiser simply
#: acts in his own server, so there is nothing of this one for him not to find.
LICHESS_MEMBER_SCOPED = ("lichess_link_code", "lichess_verify", "lichess_oauth_start",
                         "lichess_oauth_finish", "lichess_unlink", "lichess_links",
                         "lichess_link_of")


async def lichess_event(service: Any, players: int, *, deadline: int | None = None,
                        name: str = "Club Blitz") -> None:
    """A 4-round 3+2 event on Lichess (against a :class:`StubLichess`) that ``players``
    linked members (user ids from 100) joined."""
    from storage import lichess as repo
    from tests.service_helpers import member, organiser

    stub = StubLichess()
    service.lichess = stub
    org = organiser()
    await service.create_tournament(org, name, 4, deadline_minutes=deadline)
    await service.lichess_event(org, name, clock="3+2")
    for uid in range(100, 100 + players):
        username = f"Player{uid}"
        stub.add(username, rating=1000 + 7 * uid % 900)
        async with service.db.transaction() as conn:
            await repo.insert_link(conn, repo.LinkRow(org.guild_id, uid, username.lower(),
                                                      username, "profile", service.now()))
        await service.join(member(uid), name)
