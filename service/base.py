
"""What every part of the service shares: the :class:`Context` (database, clock, pairing pool,
hooks) and the lookups and journal writes every part needs, as plain functions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, dataclass_transform

from i18n import Message, lazy
from service.errors import (
    AmbiguousTournamentError,
    PairingInProgressError,
    TooManyPlayersError,
    UnknownPlayerError,
    UnknownTournamentError,
)
from service.limits import echo
from service.model import settings_of
from service.pairing_pool import PairingPool
from service.validation import MAX_ID, parse_player_ref, parse_tournament_id
from service.views import Actor, PlayerView, Seat, TournamentInfo
from storage import journal
from storage import pairing_runs as run_repo
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.db import AnyDatabase
from storage.players import PlayerRow
from storage.tournaments import TournamentRow

TournamentRef = int | str | None
PlayerRef = int | str
PartT = TypeVar("PartT")


@dataclass_transform(eq_default=False)
def part(cls: type[PartT]) -> type[PartT]:
    """A part of the service: its fields, in order, are what ``service.facade`` builds it
    with (the :class:`Context`, then the parts it calls). No equality or repr of its own:
    a part is one object, and its repr would walk the whole service."""
    return dataclass(eq=False, repr=False)(cls)


class Context:
    """The database, the clock and the pairing pool every part of the service works with, and
    the two hooks set after the parts are built (``service.facade``)."""

    def __init__(
        self,
        db: AnyDatabase,
        *,
        clock: Callable[[], datetime] | None = None,
        pairing: PairingPool | None = None,
    ) -> None:
        self.db = db
        self.clock = clock or _precise_utc_now
        # Where big rounds are paired, and the limits (largest event, concurrent pairings,
        # time limit). Its worker processes start on the first big pairing only.
        self.pairing = pairing or PairingPool()
        # Called after an operation committed an announcement that should be posted before
        # the operation ends (the "Pairing round 4..." line): the bot wakes its outbox.
        self.on_announced: Callable[[], None] | None = None
        # Completes the deferred standings an operation wrote, once it is over
        # (service.deferred; service.operation calls it).
        self.complete_deferred: Callable[[list[int]], Awaitable[None]] | None = None

    def now(self) -> datetime:
        """The time stored in the tables (whole seconds)."""
        return self.clock().replace(microsecond=0)

    def precise_now(self) -> datetime:
        """The time to the millisecond, for the round events' log (two rounds can be paired
        and undone within a second). Never a guard: actions name the state they act on."""
        return self.clock()


# -- lookups ---------------------------------------------------------------------------------
async def find_tournament(
    conn: Connection,
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
            return await tournament_repo.locked(conn, open_ones[0])
        if not open_ones:
            if closed_ok:
                every = await tournament_repo.list_tournaments(conn, guild_id)
                if every:
                    return await tournament_repo.locked(conn, every[-1])
            raise AmbiguousTournamentError(lazy(
                "There is no open tournament in this server. An organiser can create one "
                "with /tournament create."
            ))
        names = ", ".join(f"'{t.name}'" for t in open_ones)
        raise AmbiguousTournamentError(lazy(
            "Several tournaments are open here ({names}): say which one with the "
            "tournament option.", names=names
        ))
    row: TournamentRow | None = None
    if isinstance(ref, int) and not isinstance(ref, bool):
        # out of SQLite's range is no tournament (not an OverflowError)
        if 0 < ref <= MAX_ID:
            row = await tournament_repo.get_tournament(conn, ref)
    else:
        text = str(ref).strip()
        if (tid := parse_tournament_id(text)) is not None:
            row = await tournament_repo.get_tournament(conn, tid)
        if row is None or row.guild_id != guild_id:
            found = await tournament_repo.find_by_name(conn, guild_id, text)
            row = await tournament_repo.locked(conn, found[0]) if found else None
    if row is None or row.guild_id != guild_id:
        raise UnknownTournamentError(lazy(
            "There is no tournament {name} in this server. See /tournament list.",
            name=echo(ref)
        ))
    return row

async def find_player(
    conn: Connection, t: TournamentRow, ref: PlayerRef
) -> PlayerRow:
    """A player by Discord user id (int, digits or mention), ``#number`` or exact name.

    The forms never overlap (``service.validation.parse_player_ref``): ``#2`` is always
    pairing number 2, never a guest called "#2" (such names are refused)."""
    reference = parse_player_ref(ref)
    row: PlayerRow | None = None
    if reference.kind == "user":
        row = await player_repo.find_member(conn, t.id, int(reference.value))
    elif reference.kind == "number":
        row = await player_repo.find_by_number(conn, t.id, int(reference.value))
    else:
        text = str(reference.value)
        found = await player_repo.find_by_name(conn, t.id, text)
        if len(found) > 1:
            raise UnknownPlayerError(lazy(
                "Several players of '{tournament}' are called {name}: name them by "
                "mention or by pairing number (#3).", tournament=t.name, name=echo(text)
            ))
        row = found[0] if found else None
    if row is None:
        shown = {"user": f"<@{reference.value}>", "number": f"#{reference.value}",
                 "name": echo(reference.value)}[reference.kind]
        raise UnknownPlayerError(lazy(
            "No player {player} in '{tournament}'. See the players with /tournament info.",
            player=shown, tournament=t.name
        ))
    return row

async def require_not_pairing(
    ctx: Context, conn: Connection, t: TournamentRow, refused: str
) -> None:
    """Refuse (``PairingInProgressError``) while ``t``'s next round is being computed: what
    the command would change is what the pairing is being computed from. A marker past
    its expiry is the leftover of a dead process and counts as gone."""
    run = await run_repo.get_run(conn, t.id)
    if run is None or run.expires_at <= ctx.now():
        return
    raise PairingInProgressError(
        f"Round {run.round_number} of '{t.name}' is being paired ({run.players:,} "
        f"players, since {run.started_at:%H:%M:%S} UTC), so {refused}. The pairings are "
        "posted in the channel when they are ready; try again then."
    )

async def require_room(
    ctx: Context, conn: Connection, t: TournamentRow, adding: int, refused: str | Message
) -> None:
    """Refuse (``TooManyPlayersError``) ``adding`` more players beyond the largest event
    this bot accepts (``SWISSBOT_MAX_PLAYERS``): one server's giant event must not take
    the pairing workers every other server shares."""
    limit = ctx.pairing.limits.max_players
    count = await player_repo.count_entrants(conn, t.id)
    if count + adding > limit:
        raise TooManyPlayersError(
            f"'{t.name}' has {count:,} players and this bot accepts at most {limit:,} in "
            f"one event, so {refused}."
        )

# -- journal ---------------------------------------------------------------------------------
async def audit(
    ctx: Context,
    conn: Connection,
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
        now=ctx.now(),
    )

async def post_announcement(
    ctx: Context, conn: Connection, t: TournamentRow, kind: str, payload: dict[str, Any],
    *, deferred: dict[str, Any] | None = None,
    encode: Callable[[dict[str, Any]], str] | None = None,
    channel_id: int | None = None,
) -> int:
    """Queue an announcement in the tournament's channel (else the guild's default one;
    ``channel_id``: in that channel or thread instead, such as a game's thread).
    Nothing follows it here: :class:`service.announcer.Announcer` adds what an announcement
    brings with it (DMs, game threads). ``deferred``: its standings are computed after the
    commit (``service.deferred``).
    ``encode``: the body's JSON text, when the caller has a quicker way to it than
    ``json.dumps`` (a big round's pairings, ``StoredRound.encoder``)."""
    channel = channel_id or t.channel_id
    if channel is None:
        guild = await tournament_repo.get_guild_settings(conn, t.guild_id)
        channel = guild.default_channel_id
    body = {"tournament": {"id": t.id, "name": t.name, "guild_id": t.guild_id}, **payload}
    # rendered in the server's language as it is now, even if it changes before delivery
    body["language"] = await tournament_repo.get_guild_language(conn, t.guild_id)
    if kind in ("standings", "final_standings"):
        # the delivery draws the picture from the payload: it needs no other lookup
        body["pictures"] = settings_of(t).pictures
    return await journal.enqueue(
        conn,
        guild_id=t.guild_id,
        channel_id=channel,
        tournament_id=t.id,
        kind=kind,
        payload=body,
        now=ctx.now(),
        deferred=deferred,
        text=None if encode is None else encode(body),
    )

# -- views -----------------------------------------------------------------------------------
async def info_of(conn: Connection, t: TournamentRow) -> TournamentInfo:
    t = await tournament_repo.get_tournament(conn, t.id) or t  # fresh status
    # counted by the database: listing a 3,000-player event only to count it cost 50 ms
    players = await player_repo.count_entrants(conn, t.id)
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
        players=players,
        current_round=0 if last is None else last.number,
        round_state=None if last is None else last.state,  # type: ignore[arg-type]
        auto_advance_due=t.auto_advance_due,
        delivery_problem=await journal.delivery_problem(conn, t.id),
        settings_version=t.settings_version,
    )


def _precise_utc_now() -> datetime:
    return datetime.now(UTC)


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
