"""An in-memory stand-in for Lichess's API (the :class:`LichessApi` protocol) for the service
tests, and helpers shared by the Lichess tests. The HTTP client is tested against the fake
Lichess server (sandbox/lichess.py) instead."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qs, urlparse

from service.lichess_api import (
    LichessNotFound,
    LichessUnauthorized,
    LichessUnavailable,
    LichessUser,
    OAuthToken,
    Perf,
)


@dataclass
class StubLichess:
    accounts: dict[str, LichessUser] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    grants: dict[str, tuple[str, str]] = field(default_factory=dict)  # code -> (id, challenge)
    down: bool = False
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
