"""Lichess accounts and Lichess-rated events (docs/lichess.md).

Linking proves a member owns a Lichess account, either by OAuth2 with PKCE (Lichess asks the
member, then sends him back to the bot's web server) or by a one-time code the member puts in
his Lichess profile. Calls to Lichess (self.lichess, a :class:LichessApi) are awaited
outside the transactions; each transaction then re-checks what it relies on, so a double click
or two members racing for one account change the tables once.

An event played on Lichess (lichess_event) takes each player's Lichess rating of the
event's speed when he joins and again at the start; nobody types a rating for it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import re
import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from i18n import lazy
from service.base import Context, TournamentRef, audit, find_tournament, part
from service.errors import ConflictError, InvalidInputError, NotRegisteredError
from service.lichess_api import (
    SPEEDS,
    LichessApi,
    LichessError,
    LichessNotFound,
    LichessUnauthorized,
    LichessUnavailable,
    LichessUser,
    clock_text,
    parse_clock,
    profile_has_code,
    speed_of,
)
from service.lichess_views import (
    LINK_MINUTES,
    ConflictView,
    LichessAccountError,
    LichessClaimedError,
    LichessEventView,
    LichessNotSetUpError,
    LichessRatingView,
    LichessServiceError,
    LichessUnreachableError,
    LinkCodeView,
    LinksView,
    LinkView,
    OAuthStartView,
)
from service.operation import operation
from service.permissions import require_organiser
from service.views import Actor
from storage import journal
from storage import lichess as repo
from storage import players as player_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection, IntegrityError
from storage.tournaments import TournamentRow

# Lichess usernames: 2 to 30 letters, digits, _ and -, starting and ending with a letter or
# digit.
_USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,28}[A-Za-z0-9]$")
_CODE_PREFIX = "swissbot-"
_BATCH = 300  # POST /api/users takes at most 300 ids
T = TypeVar("T")


class TokenCipher(Protocol):
    def encrypt(self, token: str) -> str: ...

    def decrypt(self, ciphertext: str) -> str:
        """Raises :class:`InvalidToken` when the key changed since."""
        ...


class InvalidToken(Exception):
    """A kept token that the cipher cannot decrypt (the key changed)."""


def clean_username(text: str) -> str:
    name = (text or "").strip().removeprefix("@")
    name = re.sub(r"^https?://lichess\.org/@/", "", name)
    if not _USERNAME.match(name):
        raise InvalidInputError(
            f"'{name[:40]}' is not a Lichess username (2 to 30 letters, digits, _ or -).")
    return name


def code_challenge(verifier: str) -> str:
    """PKCE S256: BASE64URL(SHA256(verifier)), without padding."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _unreachable(error: LichessError) -> LichessServiceError:
    if isinstance(error, LichessNotFound):
        return LichessAccountError(str(error))
    if isinstance(error, LichessUnauthorized):
        return LichessAccountError(
            f"Lichess refused the authorization ({error}): nothing was changed. Run "
            "/lichess link again.")
    return LichessUnreachableError(
        f"Lichess cannot be reached right now ({error}): nothing was changed. Try again in a "
        "few minutes.")


@part
class LichessAccounts:
    """Mixed into the service; lichess and token_cipher are set by the bot (None: no
    Lichess calls; no token is kept)."""

    ctx: Context


    lichess: LichessApi | None = None
    token_cipher: TokenCipher | None = None

    # -- Lichess calls ---------------------------------------------------------------------
    def _api(self) -> LichessApi:
        if self.lichess is None:
            raise LichessNotSetUpError("Lichess is not set up on this bot.")
        return self.lichess

    def api(self) -> LichessApi:
        """The client, for the other Lichess parts (refused when Lichess is not set up)."""
        return self._api()

    @staticmethod
    def unreachable(error: LichessError) -> LichessServiceError:
        """A failed call as the error the member is answered with."""
        return _unreachable(error)

    async def _call(self, call: Any) -> Any:
        try:
            return await call
        except LichessError as error:
            raise _unreachable(error) from None

    # -- linking by profile code -----------------------------------------------------------
    @operation
    async def lichess_link_code(self, actor: Actor, username: str) -> LinkCodeView:
        """A one-time code for the member to put in the bio or location of username's
        Lichess profile, valid :data:LINK_MINUTES minutes; lichess_verify reads it."""
        name = clean_username(username)
        user = await self._call(self._api().user(name))
        now = self.ctx.now()
        code = _CODE_PREFIX + secrets.token_hex(5)

        async def issue() -> None:
            async with self.ctx.db.transaction() as conn:
                await self._check_claim(conn, actor, user)
                await repo.insert_request(conn, repo.LinkRequestRow(
                    secret=code, guild_id=actor.guild_id, user_id=actor.user_id,
                    method="profile", lichess_id=user.id, verifier=None, created_at=now,
                    expires_at=now + timedelta(minutes=LINK_MINUTES), used_at=None))

        await self._claiming(actor, issue)
        return LinkCodeView(username=user.username, code=code,
                            expires_at=now + timedelta(minutes=LINK_MINUTES),
                            profile_url="https://lichess.org/account/profile")

    @operation
    async def lichess_verify(self, actor: Actor) -> LinkView:
        """Link the account named by the member's last code once the code is in its profile."""
        async with self.ctx.db.transaction() as conn:
            request = await repo.latest_request(conn, actor.guild_id, actor.user_id, "profile")
        now = self.ctx.now()
        if request is None or request.used_at is not None:
            raise LichessAccountError(
                "You have no code waiting: run /lichess link username:<your Lichess name> "
                "first.")
        if request.expires_at <= now:
            raise LichessAccountError(
                f"Your code {request.secret} expired ({LINK_MINUTES} minutes): run "
                "/lichess link again for a new one.")
        assert request.lichess_id is not None
        user = await self._call(self._api().user(request.lichess_id))
        if not profile_has_code(user, request.secret):
            raise LichessAccountError(
                f"{request.secret} is not in the Bio or the Location of "
                f"lichess.org/@/{user.username} yet. Paste it there at "
                "https://lichess.org/account/profile, save, then run /lichess verify again "
                "(the code stays valid until "
                f"<t:{int(request.expires_at.timestamp())}:t>).")

        async def link() -> LinkView:
            async with self.ctx.db.transaction() as conn:
                if not await repo.use_request(conn, request.secret, self.ctx.now()):
                    raise LichessAccountError(
                        "That code was used or expired meanwhile: run /lichess link again.")
                return await self._link(conn, actor, user, "profile")

        return await self._claiming(actor, link)

    # -- linking by OAuth ------------------------------------------------------------------
    @operation
    async def lichess_oauth_start(self, actor: Actor, redirect_uri: str) -> OAuthStartView:
        """A Lichess authorization URL for the member, valid :data:LINK_MINUTES minutes;
        Lichess sends him back to redirect_uri (:meth:lichess_oauth_finish)."""
        api = self._api()
        state = secrets.token_urlsafe(24)
        verifier = secrets.token_urlsafe(64)
        now = self.ctx.now()
        expires = now + timedelta(minutes=LINK_MINUTES)
        async with self.ctx.db.transaction() as conn:
            link = await repo.link_of_member(conn, actor.guild_id, actor.user_id)
            if link is not None:
                raise ConflictError(_already_linked(link.username))
            await repo.insert_request(conn, repo.LinkRequestRow(
                secret=state, guild_id=actor.guild_id, user_id=actor.user_id, method="oauth",
                lichess_id=None, verifier=verifier, created_at=now, expires_at=expires,
                used_at=None))
        url = api.authorize_url(state=state, code_challenge=code_challenge(verifier),
                                redirect_uri=redirect_uri)
        return OAuthStartView(url=url, expires_at=expires)

    @operation
    async def lichess_oauth_finish(self, state: str, code: str | None, redirect_uri: str, *,
                                   error: str | None = None) -> LinkView:
        """Lichess's redirect back: state must be one we issued, unused and unexpired
        (it is spent here, whatever follows); code is exchanged with the PKCE verifier,
        and the token's account is linked to the member who started."""
        api = self._api()
        async with self.ctx.db.transaction() as conn:
            request = await repo.get_request(conn, state or "")
            if request is None or request.method != "oauth":
                raise LichessAccountError("This Lichess link is unknown: start again with "
                                          "/lichess link in Discord.")
            if not await repo.use_request(conn, request.secret, self.ctx.now()):
                raise LichessAccountError("This Lichess link was used already or expired "
                                          f"({LINK_MINUTES} minutes): start again with "
                                          "/lichess link in Discord.")
        if error or not code:
            raise LichessAccountError("Lichess did not authorize the link (you cancelled?): "
                                      "nothing was changed.")
        assert request.verifier is not None
        token = await self._call(api.exchange_code(code=code, code_verifier=request.verifier,
                                                   redirect_uri=redirect_uri))
        user = await self._call(api.account(token.access_token))
        actor = Actor(user_id=request.user_id, guild_id=request.guild_id,
                      display_name=user.username)

        async def link() -> LinkView:
            async with self.ctx.db.transaction() as conn:
                view = await self._link(conn, actor, user, "oauth")
                if self.token_cipher is not None:  # kept only when it can be kept encrypted
                    await repo.store_token(conn, actor.guild_id, actor.user_id,
                                           self.token_cipher.encrypt(token.access_token),
                                           self.ctx.now())
                return view

        return await self._claiming(actor, link)

    # -- the link itself -------------------------------------------------------------------
    async def _check_claim(self, conn: Connection, actor: Actor, user: LichessUser) -> None:
        """Refuse when the account is closed, the member is linked already, or the account is
        another member's (:class:_PendingConflict: :meth:_claiming tells the organisers)."""
        if user.disabled:
            raise LichessAccountError(f"The Lichess account {user.username} is closed.")
        mine = await repo.link_of_member(conn, actor.guild_id, actor.user_id)
        if mine is not None:
            raise ConflictError(_already_linked(mine.username))
        holder = await repo.link_of_account(conn, actor.guild_id, user.id)
        if holder is not None:
            raise _PendingConflict(holder.user_id, user)

    async def _claiming(self, actor: Actor, work: Callable[[], Awaitable[T]]) -> T:
        """Run work; a claim of another member's account is recorded (and the organisers
        told) in a transaction of its own, since the refusal rolls back work's."""
        try:
            return await work()
        except _PendingConflict as pending:
            async with self.ctx.db.transaction() as conn:
                await self._record_conflict(conn, actor, pending.user, pending.holder_id)
            raise LichessClaimedError(str(pending)) from None

    async def _link(self, conn: Connection, actor: Actor, user: LichessUser,
                    method: str) -> LinkView:
        # checked again in the transaction that links: another claim may have landed while
        # Lichess was being asked
        await self._check_claim(conn, actor, user)
        try:
            await repo.insert_link(conn, repo.LinkRow(
                guild_id=actor.guild_id, user_id=actor.user_id, lichess_id=user.id,
                username=user.username, method=method, linked_at=self.ctx.now()))
        except IntegrityError:  # a concurrent claim won between the check and the insert
            raise LichessClaimedError(_claimed(user.username)) from None
        await journal.append_audit(
            conn, guild_id=actor.guild_id, tournament_id=None, actor_id=actor.user_id,
            actor_name=actor.display_name, action="lichess.link", before=None,
            after={"lichess": user.username, "method": method}, now=self.ctx.now())
        return LinkView(user_id=actor.user_id, username=user.username, method=method)

    async def _record_conflict(self, conn: Connection, actor: Actor, user: LichessUser,
                               holder_id: int) -> None:
        now = self.ctx.now()
        await repo.insert_conflict(conn, actor.guild_id, user.id, holder_id, actor.user_id, now)
        channel = (await tournament_repo.get_guild_settings(conn, actor.guild_id)
                   ).default_channel_id
        if channel is not None:
            await journal.enqueue(
                conn, guild_id=actor.guild_id, channel_id=channel, tournament_id=None,
                kind="lichess_conflict",
                payload={"username": user.username, "holder_id": holder_id,
                         "claimant_id": actor.user_id}, now=now)

    @operation
    async def lichess_unlink(self, actor: Actor) -> LinkView:
        """Remove the member's link (and any token kept for it). Refused while he plays in an
        event on Lichess that has not finished."""
        async with self.ctx.db.transaction() as conn:
            link = await repo.link_of_member(conn, actor.guild_id, actor.user_id)
            if link is None:
                raise NotRegisteredError("You have no Lichess account linked on this server.")
            for row in await tournament_repo.list_tournaments(conn, actor.guild_id,
                                                              open_only=True):
                if await repo.get_event(conn, row.id) is None:
                    continue
                player = await player_repo.find_member(conn, row.id, actor.user_id)
                if player is not None and player.status != "withdrawn":
                    raise ConflictError(
                        f"You play in '{row.name}' on Lichess: unlink after it ends, or leave "
                        "it first.")
            kept = await repo.token_of(conn, actor.guild_id, actor.user_id)
            await repo.delete_link(conn, actor.guild_id, actor.user_id)
            await journal.append_audit(
                conn, guild_id=actor.guild_id, tournament_id=None, actor_id=actor.user_id,
                actor_name=actor.display_name, action="lichess.unlink",
                before={"lichess": link.username}, after=None, now=self.ctx.now())
        if kept is not None and self.token_cipher is not None and self.lichess is not None:
            # the token is useless to us now: Lichess forgets it too (unlinked either way)
            with contextlib.suppress(LichessError, InvalidToken):
                await self.lichess.revoke(self.token_cipher.decrypt(kept))
        return LinkView(user_id=actor.user_id, username=link.username, method=link.method)

    @operation
    async def lichess_links(self, actor: Actor) -> LinksView:
        """Organisers: every link of the server and the latest refused claims."""
        require_organiser(actor, lazy("see who is linked to Lichess"))
        async with self.ctx.db.transaction() as conn:
            links = await repo.list_links(conn, actor.guild_id)
            conflicts = await repo.recent_conflicts(conn, actor.guild_id)
            names = {link.lichess_id: link.username for link in links}
        return LinksView(
            links=[LinkView(user_id=x.user_id, username=x.username, method=x.method)
                   for x in links],
            conflicts=[ConflictView(username=names.get(c.lichess_id, c.lichess_id),
                                    holder_id=c.holder_id, claimant_id=c.claimant_id,
                                    at=c.created_at) for c in conflicts])

    @operation
    async def lichess_link_of(self, guild_id: int, user_id: int) -> LinkView | None:
        async with self.ctx.db.transaction() as conn:
            link = await repo.link_of_member(conn, guild_id, user_id)
        return None if link is None else LinkView(user_id=user_id, username=link.username,
                                                  method=link.method)

    # -- events ----------------------------------------------------------------------------
    @operation
    async def lichess_event(self, actor: Actor, tournament: TournamentRef = None, *,
                            clock: str, speed: str | None = None, rated: bool = True,
                            enabled: bool = True) -> LichessEventView | None:
        """Organisers: play the event on Lichess with clock ("3+2"); the rating of
        speed (default: the clock's own speed) seeds it. Only before anyone joined, so
        that every player enters with his Lichess rating. enabled=False turns it off."""
        require_organiser(actor, lazy("set up events on Lichess"))
        try:
            limit, increment = parse_clock(clock)
        except ValueError as error:
            raise InvalidInputError(f"Bad clock: {error}.") from None
        chosen = speed or speed_of(limit, increment)
        if chosen not in SPEEDS:
            raise InvalidInputError(f"Unknown speed '{chosen[:20]}': one of {', '.join(SPEEDS)}.")
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if t.status != "registration":
                raise ConflictError(f"'{t.name}' has started: it is played where it began.")
            if await player_repo.list_players(conn, t.id):
                raise ConflictError(
                    f"'{t.name}' has players already: set it up on Lichess before anyone joins, "
                    "so that every rating comes from Lichess.")
            if not enabled:
                await repo.delete_event(conn, t.id)
                await audit(self.ctx, conn, actor, t, "lichess.event", None, None)
                return None
            await repo.put_event(conn, repo.EventRow(tournament_id=t.id, speed=chosen,
                                                     clock_limit=limit,
                                                     clock_increment=increment, rated=rated))
            await audit(self.ctx, conn, actor, t, "lichess.event", None,
                        {"speed": chosen, "clock": clock_text(limit, increment),
                         "rated": rated})
            return LichessEventView(tournament=t.name, speed=chosen,
                                    clock=clock_text(limit, increment), rated=rated)

    @operation
    async def lichess_ratings(self, guild_id: int,
                              tournament: TournamentRef = None) -> list[LichessRatingView]:
        """The Lichess rating each player entered with (provisional ones marked)."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            ratings = await repo.ratings_of(conn, t.id)
            players = await player_repo.list_players(conn, t.id)
        return [LichessRatingView(name=p.name, username=ratings[p.id].username,
                                  rating=ratings[p.id].rating,
                                  provisional=ratings[p.id].provisional)
                for p in sorted(players, key=lambda p: (-p.rating, p.name)) if p.id in ratings]

    # -- hooks of join and start -----------------------------------------------------------
    async def lichess_entry(self, guild_id: int, user_id: int | None,
                             tournament: TournamentRef, typed: int | None,
                             ) -> tuple[int, repo.RatingRow] | None:
        """For an event on Lichess: the member's Lichess rating (he must be linked; a typed
        rating and a guest are refused). ``None`` for other events."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, guild_id, tournament)
            event = await repo.get_event(conn, t.id)
            link = (None if user_id is None
                    else await repo.link_of_member(conn, guild_id, user_id))
        if event is None:
            return None
        if typed is not None:
            raise InvalidInputError(
                f"'{t.name}' takes the players' Lichess {event.speed} rating: do not type one.")
        if user_id is None:
            raise InvalidInputError(
                f"'{t.name}' is played on Lichess: only members with a linked account play.")
        if link is None:
            raise LichessAccountError(
                f"'{t.name}' is played on Lichess: link your account first with "
                "/lichess link, then join.")
        user = await self._call(self._api().user(link.lichess_id))
        perf = user.perfs.get(event.speed)
        rating = perf.rating if perf is not None else 1500  # Lichess's start for new players
        provisional = perf.provisional if perf is not None else True
        return rating, repo.RatingRow(player_id=0, username=user.username, rating=rating,
                                      provisional=provisional)

    async def remember_lichess_rating(self, conn: Connection, t: TournamentRow,
                                       player_id: int, entry: repo.RatingRow) -> None:
        await repo.put_rating(conn, t.id, repo.RatingRow(
            player_id=player_id, username=entry.username, rating=entry.rating,
            provisional=entry.provisional), self.ctx.now())

    async def refresh_lichess_ratings(self, guild_id: int, tournament: TournamentRef) -> None:
        """Before the start of an event on Lichess: every linked player's current rating
        (in batches of 300 accounts). If Lichess cannot be reached the start is refused,
        so that the seeding is never made of stale ratings without the organiser knowing."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, guild_id, tournament)
            event = await repo.get_event(conn, t.id)
            if event is None or t.status != "registration":
                return
            players = [p for p in await player_repo.list_players(conn, t.id)
                       if p.user_id is not None and p.status != "withdrawn"]
            links = {p.id: await repo.link_of_member(conn, guild_id, p.user_id)
                     for p in players if p.user_id is not None}
        ids = sorted({link.lichess_id for link in links.values() if link is not None})
        found: dict[str, LichessUser] = {}
        for start in range(0, len(ids), _BATCH):
            try:
                batch = await self._api().users(ids[start:start + _BATCH])
            except LichessUnavailable as error:
                raise LichessUnreachableError(
                    f"Lichess cannot be reached ({error}), so the ratings of '{t.name}' could "
                    "not be refreshed: nothing was started. Try again in a few minutes.") from None
            except LichessError as error:
                raise _unreachable(error) from None
            found.update({user.id: user for user in batch})
        now = self.ctx.now()
        async with self.ctx.db.transaction() as conn:
            for player_id, link in links.items():
                user = found.get(link.lichess_id) if link is not None else None
                perf = user.perfs.get(event.speed) if user is not None else None
                if user is None or perf is None:
                    continue  # closed meanwhile: keeps the rating he joined with
                await player_repo.set_rating(conn, player_id, perf.rating)
                await repo.put_rating(conn, t.id, repo.RatingRow(
                    player_id=player_id, username=user.username, rating=perf.rating,
                    provisional=perf.provisional), now)

    async def refuse_typed_rating(self, conn: Connection, t: TournamentRow) -> None:
        if await repo.get_event(conn, t.id) is not None:
            raise InvalidInputError(
                f"'{t.name}' is played on Lichess: its ratings come from Lichess.")


class _PendingConflict(LichessClaimedError):
    def __init__(self, holder_id: int, user: LichessUser) -> None:
        super().__init__(_claimed(user.username))
        self.holder_id = holder_id
        self.user = user


def _claimed(username: str) -> str:
    return (f"The Lichess account {username} is already linked to another member of this "
            "server: nothing was changed, and the organisers were told. If it is yours, ask "
            "them.")


def _already_linked(username: str) -> str:
    return (f"You are already linked to the Lichess account {username}: run /lichess unlink "
            "first to link another one.")
