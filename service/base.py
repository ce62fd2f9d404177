"""What every part of the service shares: the database, the clock, lookups and the journal."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import aiosqlite

from service.errors import (
    AmbiguousTournamentError,
    UnknownPlayerError,
    UnknownTournamentError,
)
from service.limits import echo
from service.model import settings_of
from service.views import Actor, PlayerView, Seat, TournamentInfo
from storage import journal
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.db import Database
from storage.players import PlayerRow
from storage.timefmt import utc_now
from storage.tournaments import TournamentRow

TournamentRef = int | str | None
PlayerRef = int | str

_USER_MENTION = re.compile(r"^<@!?(\d+)>$")
_NUMBER_REF = re.compile(r"^#(\d+)$")


class ServiceBase:
    """Holds the database and the clock; the operations live in the mixins."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self._clock = clock or utc_now

    def now(self) -> datetime:
        return self._clock().replace(microsecond=0)

    # -- lookups ---------------------------------------------------------------------------------
    async def _tournament(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        ref: TournamentRef,
        *,
        closed_ok: bool = False,
    ) -> TournamentRow:
        """Resolve ``ref`` (id, name or None) inside ``guild_id`` only: guilds never see each
        other's tournaments. ``None`` means the guild's one open tournament."""
        if ref is None:
            open_ones = await tournament_repo.list_tournaments(conn, guild_id, open_only=True)
            if len(open_ones) == 1:
                return open_ones[0]
            if not open_ones:
                if closed_ok:
                    every = await tournament_repo.list_tournaments(conn, guild_id)
                    if every:
                        return every[-1]
                raise AmbiguousTournamentError(
                    "There is no open tournament in this server. An organiser can create one "
                    "with /tournament create."
                )
            names = ", ".join(f"'{t.name}'" for t in open_ones)
            raise AmbiguousTournamentError(
                f"Several tournaments are open here ({names}): say which one with the "
                "tournament option."
            )
        row: TournamentRow | None = None
        if isinstance(ref, int) and not isinstance(ref, bool):
            row = await tournament_repo.get_tournament(conn, ref)
        else:
            text = str(ref).strip()
            if text.isdigit():
                row = await tournament_repo.get_tournament(conn, int(text))
            if row is None or row.guild_id != guild_id:
                found = await tournament_repo.find_by_name(conn, guild_id, text)
                row = found[0] if found else None
        if row is None or row.guild_id != guild_id:
            raise UnknownTournamentError(
                f"There is no tournament {echo(ref)} in this server. See /tournament list."
            )
        return row

    async def _player(
        self, conn: aiosqlite.Connection, t: TournamentRow, ref: PlayerRef
    ) -> PlayerRow:
        """A player by Discord user id (int or mention), ``#number`` or name."""
        row: PlayerRow | None = None
        if isinstance(ref, int) and not isinstance(ref, bool):
            row = await player_repo.find_member(conn, t.id, ref)
        else:
            text = str(ref).strip()
            mention = _USER_MENTION.match(text)
            number = _NUMBER_REF.match(text)
            if mention:
                row = await player_repo.find_member(conn, t.id, int(mention.group(1)))
            elif number:
                row = await player_repo.find_by_number(conn, t.id, int(number.group(1)))
            else:
                found = await player_repo.find_by_name(conn, t.id, text)
                if len(found) > 1:
                    raise UnknownPlayerError(
                        f"Several players of '{t.name}' are called '{text}': name them by "
                        "mention or by pairing number (#3)."
                    )
                row = found[0] if found else None
                if row is None and text.isdigit():
                    row = await player_repo.find_member(conn, t.id, int(text))
        if row is None:
            raise UnknownPlayerError(
                f"No player {echo(ref)} in '{t.name}'. See the players with /tournament info."
            )
        return row

    # -- journal ---------------------------------------------------------------------------------
    async def _audit(
        self,
        conn: aiosqlite.Connection,
        actor: Actor,
        t: TournamentRow | None,
        action: str,
        before: Any = None,
        after: Any = None,
    ) -> None:
        await journal.append_audit(
            conn,
            guild_id=actor.guild_id,
            tournament_id=None if t is None else t.id,
            actor_id=actor.user_id,
            actor_name=actor.display_name,
            action=action,
            before=before,
            after=after,
            now=self.now(),
        )

    async def _announce(
        self, conn: aiosqlite.Connection, t: TournamentRow, kind: str, payload: dict[str, Any]
    ) -> int:
        """Queue an announcement in the tournament's channel (else the guild's default one)."""
        channel = t.channel_id
        if channel is None:
            guild = await tournament_repo.get_guild_settings(conn, t.guild_id)
            channel = guild.default_channel_id
        body = {"tournament": {"id": t.id, "name": t.name, "guild_id": t.guild_id}, **payload}
        return await journal.enqueue(
            conn,
            guild_id=t.guild_id,
            channel_id=channel,
            tournament_id=t.id,
            kind=kind,
            payload=body,
            now=self.now(),
        )

    # -- views -----------------------------------------------------------------------------------
    async def _info(self, conn: aiosqlite.Connection, t: TournamentRow) -> TournamentInfo:
        t = await tournament_repo.get_tournament(conn, t.id) or t  # fresh status
        players = await player_repo.list_players(conn, t.id)
        last = await round_repo.last_round(conn, t.id)
        return TournamentInfo(
            id=t.id,
            guild_id=t.guild_id,
            name=t.name,
            status=t.status,  # type: ignore[arg-type]
            settings=settings_of(t),
            channel_id=t.channel_id,
            seed=t.seed,
            created_by=t.created_by,
            created_at=t.created_at,
            players=sum(1 for p in players if p.status in ("registered", "active")),
            current_round=0 if last is None else last.number,
            round_state=None if last is None else last.state,  # type: ignore[arg-type]
            auto_advance_due=t.auto_advance_due,
            delivery_problem=await journal.delivery_problem(conn, t.id),
        )


def player_view(row: PlayerRow) -> PlayerView:
    return PlayerView(
        id=row.id,
        tournament_id=row.tournament_id,
        name=row.name,
        user_id=row.user_id,
        rating=row.rating,
        status=row.status,  # type: ignore[arg-type]
        checked_in=row.checked_in,
        number=row.number,
        joined_round=row.joined_round,
        withdrawn_round=row.withdrawn_round,
    )


def seat(row: PlayerRow) -> Seat:
    return Seat(player_id=row.id, number=row.number, name=row.name, user_id=row.user_id)
