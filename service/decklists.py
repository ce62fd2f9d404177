"""Decklists / team lists: submitted before a deadline, hidden until published.

The tournament's ``decklists`` setting says what a submission is: ``text`` (typed in, up to
``MAX_DECKLIST_TEXT`` characters) or ``link`` (an http(s) URL). Submissions close at the
``decklist_deadline`` setting or, without one, when the event starts. Until the organiser
publishes them a player sees only his own; organisers see every list at any time.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from i18n import lazy
from service.base import (
    Context,
    PlayerRef,
    TournamentRef,
    audit,
    find_player,
    find_tournament,
    part,
    seat,
)
from service.errors import (
    ConflictError,
    InvalidInputError,
    NotFoundError,
    NotRegisteredError,
    PermissionDeniedError,
    RegistrationClosedError,
)
from service.limits import MAX_DECKLIST_TEXT, MAX_DECKLIST_URL
from service.model import settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.views import Actor, Seat
from storage import extras as extras_repo
from storage import players as player_repo
from storage.connection import Connection
from storage.players import PlayerRow
from storage.timefmt import from_text
from storage.tournaments import TournamentRow
from swiss.wording import status_phrase


@dataclass(frozen=True, slots=True)
class DecklistView:
    tournament_id: int
    tournament_name: str
    player: Seat
    mode: str  # "text" or "link"
    content: str
    submitted_at: datetime
    published: bool


@dataclass(frozen=True, slots=True)
class DecklistStatus:
    """Who has submitted (organisers' overview, and the answer to a publish)."""

    tournament_id: int
    tournament_name: str
    mode: str
    deadline: datetime | None  # None: the start
    published_at: datetime | None
    submitted: tuple[Seat, ...]
    missing: tuple[Seat, ...]


def clean_decklist(mode: str, content: str) -> str:
    """The submission as stored, or :class:`InvalidInputError` saying what is wrong."""
    text = str(content).replace("\r\n", "\n").strip()
    if mode == "link":
        if len(text) > MAX_DECKLIST_URL:
            raise InvalidInputError(f"The link is too long: at most {MAX_DECKLIST_URL} "
                                    "characters.")
        # Backticks and angle brackets would end the code span the bot shows the link in.
        if any(ch.isspace() or ch in "`<>" or unicodedata.category(ch).startswith("C")
               for ch in text):
            raise InvalidInputError("A link has no spaces or control characters: paste the "
                                    "address only.")
        try:
            parts = urlsplit(text)
        except ValueError:
            parts = None
        # Only web links: javascript:, data:, file: and the like never reach a player's click.
        if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise InvalidInputError("Submit a web link starting with https:// (or http://), "
                                    "for example https://moxfield.com/decks/....")
        return text
    if not text:
        raise InvalidInputError("The list is empty: paste your decklist or team list.")
    if len(text) > MAX_DECKLIST_TEXT:
        raise InvalidInputError(f"The list is too long ({len(text)} characters): at most "
                                f"{MAX_DECKLIST_TEXT}.")
    # Control characters other than line breaks and tabs have no place in a list.
    return "".join(ch for ch in text if ch in "\n\t" or
                   not unicodedata.category(ch).startswith("C"))


@part
class Decklists:
    ctx: Context

    def _decklist_deadline(self, t: TournamentRow) -> datetime | None:
        return from_text(settings_of(t).decklist_deadline)

    def _require_open(self, t: TournamentRow) -> None:
        deadline = self._decklist_deadline(t)
        if deadline is not None:
            if self.ctx.now() >= deadline:
                raise RegistrationClosedError(
                    f"Decklists for '{t.name}' closed at <t:{int(deadline.timestamp())}:F>: "
                    "they are locked now."
                )
            if t.status in ("finished", "cancelled"):
                raise RegistrationClosedError(f"'{t.name}' is {status_phrase(t.status)}.")
        elif t.status != "registration":
            raise RegistrationClosedError(
                f"'{t.name}' has started: decklists are locked."
            )

    def _mode(self, t: TournamentRow) -> str:
        mode = settings_of(t).decklists
        if mode == "none":
            raise ConflictError(f"'{t.name}' does not take decklists. An organiser can turn "
                                "them on with /decklist setup mode:text (or link).")
        return mode

    @operation
    async def submit_decklist(
        self,
        actor: Actor,
        content: str,
        *,
        player: PlayerRef | None = None,
        tournament: TournamentRef = None,
    ) -> DecklistView:
        """Submit (or replace) a decklist before the deadline. A player submits his own; an
        organiser may submit one for any player (guests). Submitting the same list twice
        changes nothing but the time, so a repeated command is harmless."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            mode = self._mode(t)
            row = await self._deck_owner(conn, actor, t, player)
            self._require_open(t)
            if row.status not in ("registered", "active"):
                raise NotRegisteredError(f"{row.name} is no longer playing in '{t.name}'.")
            text = clean_decklist(mode, content)
            before = await extras_repo.get_decklist(conn, t.id, row.id)
            now = self.ctx.now()
            await extras_repo.upsert_decklist(conn, tournament_id=t.id, player_id=row.id,
                                              content=text, submitted_by=actor.user_id, now=now)
            # The audit keeps the size, not the list: lists stay hidden until published.
            await audit(self.ctx, conn, actor, t, "decklist.submit",
                        None if before is None else {"length": len(before.content)},
                        {"player": row.id, "length": len(text), "mode": mode})
            published = await extras_repo.published_at(conn, t.id) is not None
            return DecklistView(t.id, t.name, seat(row), mode, text, now, published)

    @operation
    async def publish_decklists(
        self, actor: Actor, tournament: TournamentRef = None
    ) -> DecklistStatus:
        """Organiser: make every decklist visible to everyone. Once only: a second publish is
        refused (a double click publishes once)."""
        require_organiser(actor, lazy("publish decklists"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            self._mode(t)
            if not await extras_repo.publish(conn, t.id, actor.user_id, self.ctx.now()):
                at = await extras_repo.published_at(conn, t.id)
                raise ConflictError(f"The decklists of '{t.name}' were already published "
                                    f"(at {at:%Y-%m-%d %H:%M} UTC).")
            status = await self._status(conn, t)
            await audit(self.ctx, conn, actor, t, "decklist.publish", None,
                        {"submitted": len(status.submitted)})
            return status

    @operation
    async def decklist_status(
        self, actor: Actor, tournament: TournamentRef = None
    ) -> DecklistStatus:
        """Organiser: who has submitted a list and who has not."""
        require_organiser(actor, lazy("see who submitted decklists"))
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            self._mode(t)
            return await self._status(conn, t)

    @operation
    async def show_decklist(
        self,
        actor: Actor,
        player: PlayerRef | None = None,
        *,
        tournament: TournamentRef = None,
    ) -> DecklistView:
        """A decklist: one's own always; another player's only once published (organisers:
        always)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            mode = self._mode(t)
            own = await player_repo.find_member(conn, t.id, actor.user_id)
            row = own if player is None else await find_player(conn, t, player)
            if row is None:
                raise NotRegisteredError(f"You are not a player of '{t.name}': name a player.")
            published = await extras_repo.published_at(conn, t.id) is not None
            mine = own is not None and own.id == row.id
            if not (mine or published or actor.is_organiser):
                raise PermissionDeniedError(
                    f"The decklists of '{t.name}' are hidden until an organiser publishes "
                    "them (/decklist publish). You can see your own."
                )
            deck = await extras_repo.get_decklist(conn, t.id, row.id)
            if deck is None:
                whose = "You have" if mine else f"{row.name} has"
                raise NotFoundError(f"{whose} not submitted a decklist for '{t.name}'.")
            return DecklistView(t.id, t.name, seat(row), mode, deck.content, deck.submitted_at,
                                published)

    async def _deck_owner(self, conn: Connection, actor: Actor, t: TournamentRow,
                          player: PlayerRef | None) -> PlayerRow:
        if player is not None:
            require_organiser(actor, lazy("submit another player's decklist"))
            return await find_player(conn, t, player)
        row = await player_repo.find_member(conn, t.id, actor.user_id)
        if row is None:
            raise NotRegisteredError(f"You are not a player of '{t.name}': /join first.")
        return row

    async def _status(self, conn: Connection, t: TournamentRow) -> DecklistStatus:
        players = [p for p in await player_repo.list_players(conn, t.id)
                   if p.status in ("registered", "active")]
        have = {d.player_id for d in await extras_repo.list_decklists(conn, t.id)}
        return DecklistStatus(
            tournament_id=t.id, tournament_name=t.name, mode=settings_of(t).decklists,
            deadline=self._decklist_deadline(t),
            published_at=await extras_repo.published_at(conn, t.id),
            submitted=tuple(seat(p) for p in players if p.id in have),
            missing=tuple(seat(p) for p in players if p.id not in have),
        )
