"""The one place that speaks Lichess's HTTP API (the calls of :class:`LichessApi`), written
against the official OpenAPI description (tests/fixtures/lichess_api_subset.json holds the
parts used; tests/bot/test_lichess_contract.py checks the fake Lichess against it).

Lichess's rules for API clients, kept here:

* one request at a time per token (and one at a time for the anonymous calls): a lock each;
* after a 429, no request with that token for a full minute: the call that got it, and every
  call with that token in that minute, fails at once with :class:`LichessUnavailable` ("try
  again in N s") instead of sending anything;
* 5xx answers and network errors are retried with a growing pause, within the call's time
  budget (``budget`` seconds: every call comes from a member's command, which Discord expects
  an answer to within 3 seconds), then reported as :class:`LichessUnavailable`.

Tokens travel only in the ``Authorization`` header; no message, log line or exception made
here contains one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any
from urllib.parse import urlencode

import aiohttp

from service.lichess_api import (
    LichessGame,
    LichessNotFound,
    LichessUnauthorized,
    LichessUnavailable,
    LichessUser,
    OAuthToken,
    OpenChallenge,
    Perf,
)

log = logging.getLogger(__name__)

#: Lichess asks API clients to wait a full minute after a 429.
RATE_LIMIT_WAIT_SECONDS = 60.0


class LichessClient:
    """``base_url``: https://lichess.org, or a fake's address in tests. ``client_id`` names
    the bot on Lichess's OAuth page (PKCE needs no registration)."""

    def __init__(
        self,
        base_url: str = "https://lichess.org",
        *,
        client_id: str = "swissbot",
        rate_limit_wait: float = RATE_LIMIT_WAIT_SECONDS,
        budget: float = 2.5,
        backoff: float = 0.25,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.rate_limit_wait = rate_limit_wait
        self.budget = budget
        self.backoff = backoff
        self._session: aiohttp.ClientSession | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        self._quiet_until: dict[str, float] = {}  # after a 429: no request before then

    async def close(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            await session.close()

    @staticmethod
    def _key(token: str | None) -> str:
        # a digest: the token itself is not kept longer than the request
        return "" if token is None else hashlib.sha256(token.encode()).hexdigest()

    async def _request(self, method: str, path: str, *, token: str | None = None,
                       data: Any = None, params: dict[str, str] | None = None,
                       headers: dict[str, str] | None = None,
                       ndjson: bool = False, pgn: bool = False,
                       budget: float | None = None) -> tuple[int, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (budget or self.budget)
        if self._session is None:
            self._session = aiohttp.ClientSession()
        sent = dict(headers or {})
        sent["Accept"] = ("application/x-chess-pgn" if pgn else
                          "application/x-ndjson" if ndjson else "application/json")
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        key = self._key(token)
        problem = "no answer"
        async with self._locks.setdefault(key, asyncio.Lock()):
            pause = self.backoff
            while True:
                quiet = self._quiet_until.get(key, 0.0) - loop.time()
                if quiet > 0:
                    raise LichessUnavailable(
                        f"Lichess asked to slow down: try again in {int(quiet) + 1} s")
                remaining = deadline - loop.time()
                try:
                    async with self._session.request(
                            method, self.base_url + path, data=data, params=params,
                            headers=sent, timeout=aiohttp.ClientTimeout(total=remaining),
                    ) as response:
                        status = response.status
                        body = (None if status >= 500 or status in (204, 429)
                                else await response.text() if pgn and status == 200
                                else _ndjson(await response.text()) if ndjson
                                else await response.json(content_type=None))
                except (TimeoutError, aiohttp.ClientError, ValueError) as error:
                    problem = type(error).__name__
                else:
                    if status == 429:
                        log.warning("Lichess said 429 on %s %s: no request with that token "
                                    "for %.0f s", method, path, self.rate_limit_wait)
                        self._quiet_until[key] = loop.time() + self.rate_limit_wait
                        continue
                    if status < 500:
                        return status, body
                    problem = f"HTTP {status}"
                if loop.time() + pause >= deadline:
                    raise LichessUnavailable(problem)
                await asyncio.sleep(pause)
                pause *= 2

    # -- OAuth ---------------------------------------------------------------------------
    def authorize_url(self, *, state: str, code_challenge: str, redirect_uri: str,
                      scopes: tuple[str, ...] = ()) -> str:
        query = {"response_type": "code", "client_id": self.client_id,
                 "redirect_uri": redirect_uri, "code_challenge_method": "S256",
                 "code_challenge": code_challenge, "state": state}
        if scopes:
            query["scope"] = " ".join(scopes)
        return f"{self.base_url}/oauth?{urlencode(query)}"

    async def exchange_code(self, *, code: str, code_verifier: str,
                            redirect_uri: str) -> OAuthToken:
        status, body = await self._request("POST", "/api/token", data={
            "grant_type": "authorization_code", "code": code, "code_verifier": code_verifier,
            "redirect_uri": redirect_uri, "client_id": self.client_id})
        if status != 200 or not isinstance(body, dict) or "access_token" not in body:
            raise LichessUnauthorized("the authorization code was refused")
        return OAuthToken(access_token=str(body["access_token"]),
                          expires_in=int(body.get("expires_in") or 0))

    async def revoke(self, token: str) -> None:
        status, _ = await self._request("DELETE", "/api/token", token=token)
        if status not in (204, 200, 401):  # 401: revoked already
            raise LichessUnavailable(f"HTTP {status}")

    # -- accounts --------------------------------------------------------------------------
    async def account(self, token: str) -> LichessUser:
        status, body = await self._request("GET", "/api/account", token=token)
        if status in (401, 403):
            raise LichessUnauthorized("the token is revoked, expired or lacks a scope")
        return _checked_user(status, body, "your account")

    async def user(self, username: str) -> LichessUser:
        status, body = await self._request("GET", f"/api/user/{username}")
        return _checked_user(status, body, username)

    async def users(self, ids: list[str]) -> list[LichessUser]:
        if not ids:
            return []
        status, body = await self._request("POST", "/api/users", data=",".join(ids),
                                           headers={"Content-Type": "text/plain"})
        if status != 200 or not isinstance(body, list):
            raise LichessUnavailable(f"HTTP {status}")
        return [user_of(item) for item in body if isinstance(item, dict)]

    async def users_status(self, ids: list[str]) -> dict[str, bool]:
        """``GET /api/users/status``: ``{user id: online}`` (at most 100 ids)."""
        if not ids:
            return {}
        status, body = await self._request("GET", "/api/users/status",
                                           params={"ids": ",".join(ids[:100])})
        if status != 200 or not isinstance(body, list):
            raise LichessUnavailable(f"HTTP {status}")
        return {str(item["id"]): bool(item.get("online", False))
                for item in body if isinstance(item, dict) and "id" in item}

    # -- games -----------------------------------------------------------------------------
    async def open_challenge(self, *, white: str, black: str, limit: int, increment: int,
                             rated: bool, name: str, expires_at_ms: int | None = None,
                             rules: tuple[str, ...] = ()) -> OpenChallenge:
        """``POST /api/challenge/open`` restricted to the two usernames (the first gets
        white); no token needed."""
        form = {"rated": "true" if rated else "false", "clock.limit": str(limit),
                "clock.increment": str(increment), "users": f"{white},{black}",
                "name": name[:30]}
        if rules:
            form["rules"] = ",".join(rules)
        if expires_at_ms is not None:
            form["expiresAt"] = str(expires_at_ms)
        status, body = await self._request("POST", "/api/challenge/open", data=form)
        if status != 200 or not isinstance(body, dict):
            error = body.get("error") if isinstance(body, dict) else None
            raise LichessUnavailable(f"HTTP {status}" + (f": {error}" if error else ""))
        return OpenChallenge(id=str(body["id"]), url_white=str(body["urlWhite"]),
                             url_black=str(body["urlBlack"]))

    async def export_games(self, ids: list[str]) -> list[LichessGame]:
        """``POST /api/games/export/_ids`` (at most 300): the games Lichess knows of them
        (a challenge nobody accepted is no game yet)."""
        if not ids:
            return []
        status, body = await self._request(
            "POST", "/api/games/export/_ids", data=",".join(ids),
            params={"moves": "false", "tags": "false"},
            headers={"Content-Type": "text/plain"}, ndjson=True)
        if status != 200 or not isinstance(body, list):
            raise LichessUnavailable(f"HTTP {status}")
        return [game_of(item) for item in body if isinstance(item, dict)]


    async def export_pgn(self, ids: list[str]) -> str:
        """The same export as PGN text, moves and tags (at most 300 games). Lichess sends
        about 20 games a second without a token: the call may take up to
        :data:`PGN_BUDGET` seconds (the export of an event waits, nothing else does)."""
        if not ids:
            return ""
        status, body = await self._request(
            "POST", "/api/games/export/_ids", data=",".join(ids[:300]),
            params={"moves": "true", "tags": "true", "clocks": "false"},
            headers={"Content-Type": "text/plain"}, pgn=True, budget=PGN_BUDGET)
        if status != 200 or not isinstance(body, str):
            raise LichessUnavailable(f"HTTP {status}")
        return body


#: Seconds a PGN export of up to 300 games may take (Lichess streams ~20 games a second).
PGN_BUDGET = 30.0


def _ndjson(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def game_of(body: dict[str, Any]) -> LichessGame:
    """A ``GameJson`` object of the API."""
    players = body.get("players") or {}

    def user_id(color: str) -> str | None:
        user = (players.get(color) or {}).get("user") or {}
        return str(user["id"]).lower() if "id" in user else None

    clock = body.get("clock") or {}
    return LichessGame(id=str(body["id"]), status=str(body.get("status", "unknownFinish")),
                       winner=body.get("winner"), white_id=user_id("white"),
                       black_id=user_id("black"), clock_initial=clock.get("initial"),
                       clock_increment=clock.get("increment"),
                       created_at_ms=int(body.get("createdAt") or 0))


def _checked_user(status: int, body: Any, who: str) -> LichessUser:
    if status == 404 or (status == 200 and isinstance(body, dict) and body.get("disabled")
                         and "id" not in body):
        raise LichessNotFound(f"No Lichess account is named {who[:40]}.")
    if status != 200 or not isinstance(body, dict):
        raise LichessUnavailable(f"HTTP {status}")
    return user_of(body)


def user_of(body: dict[str, Any]) -> LichessUser:
    """A ``User`` / ``UserExtended`` object of the API."""
    profile = body.get("profile") or {}
    perfs = {}
    for speed, perf in (body.get("perfs") or {}).items():
        if isinstance(perf, dict) and "rating" in perf:
            perfs[speed] = Perf(rating=int(perf["rating"]), games=int(perf.get("games", 0)),
                                provisional=bool(perf.get("prov", False)))
    return LichessUser(id=str(body.get("id") or body["username"]).lower(),
                       username=str(body.get("username") or body["id"]),
                       bio=str(profile.get("bio") or ""),
                       location=str(profile.get("location") or ""), perfs=perfs,
                       disabled=bool(body.get("disabled", False)))
