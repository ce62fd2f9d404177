"""A fake Lichess: exactly the endpoints swissbot calls, for the tests and the demo.

* ``GET /oauth``: approves at once as the account the test chose (:meth:`FakeLichess.approve_as`,
  else the ``username`` hint) and redirects to ``redirect_uri`` with ``code`` and ``state``;
  ``POST /api/token`` checks the PKCE verifier (S256), the redirect URI and the client id, and
  spends the code;
* ``GET /api/account`` (Bearer token), ``GET /api/user/{username}``, ``POST /api/users``;
* faults on command: :meth:`fail` answers the next requests with a status (429, 5xx), and
  :meth:`revoke` makes a token unknown.

Every exchange is recorded (:attr:`exchanges`) so a test can check requests and answers against
Lichess's OpenAPI description. Imports nothing of swissbot.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from aiohttp import web


@dataclass
class FakeAccount:
    username: str
    bio: str = ""
    location: str = ""
    # speed -> (rating, games, provisional)
    perfs: dict[str, tuple[int, int, bool]] = field(default_factory=dict)
    closed: bool = False
    online: bool = False  # what GET /api/users/status says

    @property
    def id(self) -> str:
        return self.username.lower()


@dataclass
class Exchange:
    """One request and the answer the fake gave."""

    method: str
    route: str  # the OpenAPI path template, e.g. "/api/user/{username}"
    query: dict[str, str]
    form: dict[str, str]
    body_text: str
    authorization: str | None
    status: int
    response: Any
    media: str = "application/json"  # the answer's content type


@dataclass
class _Grant:
    username: str
    challenge: str
    redirect_uri: str
    client_id: str


class FakeLichess:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = 0
        self.accounts: dict[str, FakeAccount] = {}
        self.tokens: dict[str, str] = {}  # token -> account id
        self.exchanges: list[Exchange] = []
        self._grants: dict[str, _Grant] = {}
        self._approve_as: str | None = None
        self._faults: list[int] = []
        self._runner: web.AppRunner | None = None
        self.challenges: list[dict[str, Any]] = []  # the open challenges made, in order
        self.games: dict[str, dict[str, Any]] = {}  # game id -> GameJson, once played
        self.delay = 0.0  # seconds each API answer takes (to see requests overlap)
        self.in_flight: dict[str, int] = {}  # Authorization header -> requests being served
        self.most_in_flight: dict[str, int] = {}

    # -- the test's controls ---------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def add_account(self, username: str, *, bio: str = "", location: str = "",
                    perfs: dict[str, tuple[int, int, bool]] | None = None) -> FakeAccount:
        account = FakeAccount(username, bio=bio, location=location, perfs=dict(perfs or {}))
        self.accounts[account.id] = account
        return account

    def approve_as(self, username: str | None) -> None:
        """The account that is "logged in" on the fake's OAuth page."""
        self._approve_as = username

    def fail(self, status: int, times: int = 1) -> None:
        """Answer the next ``times`` API requests with ``status``."""
        self._faults.extend([status] * times)

    def play(self, challenge_id: str, status: str, winner: str | None = None, *,
             swap: bool = False, clock: tuple[int, int] | None = None,
             created_at_ms: int | None = None, white: str | None = None) -> None:
        """The game of an open challenge as its players made it: ``status`` (mate, resign,
        draw, aborted, noStart, started...), ``winner``; ``swap`` seats the paired players the
        other way round, ``white`` seats someone else as white, ``clock`` another clock."""
        challenge = next(c for c in self.challenges if c["id"] == challenge_id)
        seats = list(challenge["users"])
        if swap:
            seats.reverse()
        if white is not None:
            seats[0] = white
        limit, increment = clock or (challenge["limit"], challenge["increment"])
        game: dict[str, Any] = {
            "id": challenge_id, "rated": challenge["rated"], "variant": "standard",
            "speed": "blitz", "perf": "blitz",
            "createdAt": created_at_ms or int(time.time() * 1000),
            "lastMoveAt": int(time.time() * 1000), "status": status, "source": "friend",
            "players": {color: {"user": {"name": name, "id": name.lower()}, "rating": 1500}
                        for color, name in zip(("white", "black"), seats, strict=True)},
            "clock": {"initial": limit, "increment": increment,
                      "totalTime": limit + 40 * increment},
        }
        if winner is not None:
            game["winner"] = winner
        self.games[challenge_id] = game

    def revoke(self, token: str) -> None:
        self.tokens.pop(token, None)

    def issue_token(self, username: str) -> str:
        token = "lio_" + secrets.token_urlsafe(24)
        self.tokens[token] = username.lower()
        return token

    # -- server ----------------------------------------------------------------------------
    async def start(self) -> FakeLichess:
        app = web.Application(middlewares=[self._count])
        app.router.add_get("/oauth", self._oauth)
        app.router.add_post("/api/token", self._token)
        app.router.add_delete("/api/token", self._revoke)
        app.router.add_get("/api/account", self._account)
        app.router.add_get("/api/user/{username}", self._user)
        app.router.add_post("/api/users", self._users)
        app.router.add_get("/api/users/status", self._users_status)
        app.router.add_post("/api/challenge/open", self._open_challenge)
        app.router.add_post("/api/games/export/_ids", self._export_games)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    @web.middleware
    async def _count(self, request: web.Request, handler: Any) -> web.StreamResponse:
        key = request.headers.get("Authorization", "")
        self.in_flight[key] = self.in_flight.get(key, 0) + 1
        self.most_in_flight[key] = max(self.most_in_flight.get(key, 0), self.in_flight[key])
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            return await handler(request)
        finally:
            self.in_flight[key] -= 1

    async def _answer(self, request: web.Request, route: str, status: int, body: Any,
                      form: dict[str, str] | None = None, text: str = "") -> web.Response:
        self.exchanges.append(Exchange(
            method=request.method, route=route, query=dict(request.query), form=form or {},
            body_text=text, authorization=request.headers.get("Authorization"),
            status=status, response=body))
        return web.json_response(body, status=status)

    def _fault(self) -> int | None:
        return self._faults.pop(0) if self._faults else None

    # -- OAuth -----------------------------------------------------------------------------
    async def _oauth(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        missing = [k for k in ("response_type", "client_id", "redirect_uri",
                               "code_challenge_method", "code_challenge") if not q.get(k)]
        if missing or q["response_type"] != "code" or q["code_challenge_method"] != "S256":
            return await self._answer(request, "/oauth", 400,
                                      {"error": f"invalid request: {', '.join(missing)}"})
        username = self._approve_as or q.get("username")
        self.exchanges.append(Exchange("GET", "/oauth", dict(q), {}, "", None, 302, None))
        redirect = q["redirect_uri"]
        if username is None or username.lower() not in self.accounts:
            query = {"error": "access_denied", "error_description": "user cancelled"}
        else:
            code = "liu_" + secrets.token_urlsafe(16)
            self._grants[code] = _Grant(username.lower(), q["code_challenge"], redirect,
                                        q["client_id"])
            query = {"code": code}
        if "state" in q:
            query["state"] = q["state"]
        raise web.HTTPFound(f"{redirect}{'&' if '?' in redirect else '?'}{urlencode(query)}")

    async def _token(self, request: web.Request) -> web.Response:
        form = {k: str(v) for k, v in (await request.post()).items()}
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, "/api/token", fault, {"error": "fault"}, form)
        grant = self._grants.pop(form.get("code", ""), None)  # a code works once
        verifier = form.get("code_verifier", "")
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
        if (form.get("grant_type") != "authorization_code" or grant is None
                or digest.rstrip(b"=").decode() != grant.challenge
                or form.get("redirect_uri") != grant.redirect_uri
                or form.get("client_id") != grant.client_id):
            return await self._answer(request, "/api/token", 400, {
                "error": "invalid_grant",
                "error_description": "code unknown or spent, or verifier mismatch"}, form)
        token = self.issue_token(grant.username)
        return await self._answer(request, "/api/token", 200, {
            "token_type": "Bearer", "access_token": token, "expires_in": 31536000}, form)

    async def _revoke(self, request: web.Request) -> web.StreamResponse:
        auth = request.headers.get("Authorization", "")
        known = self.tokens.pop(auth.removeprefix("Bearer "), None) is not None
        status = 204 if known else 401
        self.exchanges.append(Exchange("DELETE", "/api/token", dict(request.query), {}, "",
                                       auth or None, status, None))
        if not known:
            return web.json_response({"error": "No such token"}, status=401)
        return web.Response(status=204)

    # -- accounts --------------------------------------------------------------------------
    async def _account(self, request: web.Request) -> web.Response:
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, "/api/account", fault, {"error": "fault"})
        auth = request.headers.get("Authorization", "")
        user_id = self.tokens.get(auth.removeprefix("Bearer "))
        if not auth.startswith("Bearer ") or user_id is None:
            return await self._answer(request, "/api/account", 401,
                                      {"error": "No such token"})
        return await self._answer(request, "/api/account", 200,
                                  self._user_json(self.accounts[user_id], extended=True))

    async def _user(self, request: web.Request) -> web.Response:
        route = "/api/user/{username}"
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, route, fault, {"error": "fault"})
        account = self.accounts.get(request.match_info["username"].lower())
        if account is None:
            return await self._answer(request, route, 404, {"error": "Not found"})
        return await self._answer(request, route, 200, self._user_json(account, extended=True))

    async def _users(self, request: web.Request) -> web.Response:
        text = await request.text()
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, "/api/users", fault, {"error": "fault"},
                                      text=text)
        ids = [part.strip().lower() for part in text.split(",") if part.strip()]
        if len(ids) > 300:
            return await self._answer(request, "/api/users", 400,
                                      {"error": "at most 300 ids"}, text=text)
        found = [self._user_json(self.accounts[i], extended=False) for i in ids
                 if i in self.accounts and not self.accounts[i].closed]
        return await self._answer(request, "/api/users", 200, found, text=text)

    async def _users_status(self, request: web.Request) -> web.Response:
        route = "/api/users/status"
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, route, fault, {"error": "fault"})
        ids = [part.strip().lower() for part in request.query.get("ids", "").split(",")
               if part.strip()]
        if not ids or len(ids) > 100:
            return await self._answer(request, route, 400, {"error": "1 to 100 ids"})
        found = []
        for i in ids:
            account = self.accounts.get(i)
            if account is not None and not account.closed:
                status: dict[str, Any] = {"id": account.id, "name": account.username}
                if account.online:  # Lichess leaves the flags out when they are false
                    status["online"] = True
                found.append(status)
        return await self._answer(request, route, 200, found)

    # -- challenges ------------------------------------------------------------------------
    async def _open_challenge(self, request: web.Request) -> web.Response:
        route = "/api/challenge/open"
        form = {k: str(v) for k, v in (await request.post()).items()}
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, route, fault, {"error": "fault"}, form)
        try:
            limit, increment = int(form["clock.limit"]), int(form["clock.increment"])
            users = form.get("users", "").split(",")
            if not (0 <= limit <= 10800 and 0 <= increment <= 60) or len(users) != 2:
                raise ValueError
        except (KeyError, ValueError):
            return await self._answer(request, route, 400, {"error": "bad clock or users"}, form)
        challenge_id = secrets.token_urlsafe(6)[:8]
        url = f"https://lichess.org/{challenge_id}"
        self.challenges.append({"id": challenge_id, "users": users, "limit": limit,
                                "increment": increment, "rated": form.get("rated") == "true",
                                "rules": form.get("rules", ""),
                                "expiresAt": form.get("expiresAt")})
        minutes = f"{limit / 60:g}"
        body = {
            "id": challenge_id, "url": url, "status": "created", "challenger": None,
            "destUser": None, "variant": {"key": "standard", "name": "Standard",
                                          "short": "Std"},
            "rated": form.get("rated") == "true", "speed": "blitz",
            "timeControl": {"type": "clock", "limit": limit, "increment": increment,
                            "show": f"{minutes}+{increment}"},
            "color": "random", "finalColor": "white", "perf": {"icon": "", "name": "Blitz"},
            "open": {"userIds": [u.lower() for u in users]},
            "urlWhite": f"{url}?color=white", "urlBlack": f"{url}?color=black",
        }
        return await self._answer(request, route, 200, body, form)

    async def _export_games(self, request: web.Request) -> web.Response:
        route = "/api/games/export/_ids"
        text = await request.text()
        fault = self._fault()
        if fault is not None:
            return await self._answer(request, route, fault, {"error": "fault"}, text=text)
        ids = [part.strip() for part in text.split(",") if part.strip()]
        if len(ids) > 300:
            return await self._answer(request, route, 400, {"error": "at most 300 ids"},
                                      text=text)
        found = [self.games[i] for i in ids if i in self.games]
        if request.headers.get("Accept") == PGN:
            pgn = "\n\n".join(_pgn(game) for game in found)
            self.exchanges.append(Exchange(request.method, route, dict(request.query), {},
                                           text, request.headers.get("Authorization"), 200,
                                           pgn, PGN))
            return web.Response(text=pgn, content_type=PGN)
        self.exchanges.append(Exchange(request.method, route, dict(request.query), {}, text,
                                       request.headers.get("Authorization"), 200, found))
        body = "".join(json.dumps(game) + "\n" for game in found)
        return web.Response(text=body, content_type="application/x-ndjson")

    def _user_json(self, account: FakeAccount, *, extended: bool) -> dict[str, Any]:
        if account.closed:
            return {"id": account.id, "username": account.username, "disabled": True}
        perfs: dict[str, Any] = {}
        for speed, (rating, games, provisional) in account.perfs.items():
            perf: dict[str, Any] = {"games": games, "rating": rating,
                                    "rd": 110 if provisional else 45, "prog": 0}
            if provisional:
                perf["prov"] = True
            perfs[speed] = perf
        body: dict[str, Any] = {"id": account.id, "username": account.username,
                                "perfs": perfs, "createdAt": 1290415680000,
                                "seenAt": 1522636452014,
                                "profile": {"bio": account.bio, "location": account.location}}
        if extended:
            body["url"] = f"https://lichess.org/@/{account.username}"
            body["count"] = {"all": sum(g for _, g, _ in account.perfs.values())}
        return body


PGN = "application/x-chess-pgn"
#: The moves of the fake's games, by how they ended (a real game's would be its own).
_MOVES = {"mate": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
          "resign": "1. d4 d5 2. c4 e6 3. Nc3 Nf6",
          "draw": "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6"}


def _pgn(game: dict[str, Any]) -> str:
    """A game as Lichess exports it in PGN: its tags, a blank line, the moves and result."""
    winner = game.get("winner")
    result = ("1-0" if winner == "white" else "0-1" if winner == "black"
              else "*" if game["status"] in ("created", "started") else "1/2-1/2")
    day = time.strftime("%Y.%m.%d", time.gmtime(game["createdAt"] / 1000))
    clock = game["clock"]
    tags = {"Event": f"{'Rated' if game['rated'] else 'Casual'} blitz game",
            "Site": f"https://lichess.org/{game['id']}", "Date": day,
            "White": game["players"]["white"]["user"]["name"],
            "Black": game["players"]["black"]["user"]["name"], "Result": result,
            "UTCDate": day, "TimeControl": f"{clock['initial']}+{clock['increment']}",
            "Variant": "Standard", "Termination": "Normal"}
    head = "\n".join(f'[{name} "{value}"]' for name, value in tags.items())
    return f"{head}\n\n{_MOVES.get(game['status'], '')} {result}\n"
