"""Pairing drafts: preview the next round, edit it, publish it.

A draft is stored (``round_drafts``), so a restart loses nothing. Each preview or edit makes a
new ``version``; an edit or a publish names the version its organiser saw and is refused on
another one (two organisers, a double click). The draft also records a fingerprint of what
the pairing depended on: once a result, a player or a bye request changed, the draft is stale
and publishing it is refused with a clear message (preview again). An organiser who never
previews uses ``/round next`` as before; pairing a round by any path deletes the draft.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from typing import TYPE_CHECKING

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
from service.course import no_pairing, require_running
from service.errors import (
    ConflictError,
    InvalidInputError,
    PairingBusyError,
    PairingFailedError,
    RoundChangedError,
)
from service.explain import pair_and_explain
from service.model import Snapshot, load_snapshot, settings_of
from service.operation import operation
from service.pairing_pool import PairingBusy, PairingWorkerFailed
from service.permissions import require_organiser
from service.views import Actor, DraftBoard, DraftEdit, DraftView, RoundView
from storage import requests as request_repo
from storage import rounds as round_repo
from storage.connection import Connection
from storage.requests import DraftRow
from storage.tournaments import TournamentRow
from swiss.model import Color
from swiss.pairing import PairingConfig, PairingError
from swiss.pairing.types import PairingResult
from swiss.wording import plural

if TYPE_CHECKING:
    from service.course import Course


Games = list[tuple[int, int]]
Byes = list[tuple[int, str]]


@part
class Drafts:
    ctx: Context
    course: Course

    @operation
    async def preview_round(
        self, actor: Actor, tournament: TournamentRef = None
    ) -> DraftView:
        """Compute the next round with the engine and store it as a new draft version (the
        previous draft, edited or not, is replaced). Nothing is published or announced."""
        require_organiser(actor, lazy("preview rounds"))
        # Read in one short transaction, compute in none (in a worker for a big event), save
        # in a second one that refuses if what was paired changed meanwhile.
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            require_running(t)
            number, snapshot, config, players = await self.course.pairing_input(
                conn, actor, t, force=False)  # force=False: only looks, closes nothing
        result = await self._preview_pairing(t, number, snapshot, config, players)
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, t.id)
            require_running(t)
            now_number, now_snapshot, now_config, _ = await self.course.pairing_input(
                conn, actor, t, force=False)
            if (now_number, _basis(now_snapshot), now_config) != (
                    number, _basis(snapshot), config):
                raise RoundChangedError(
                    f"'{t.name}' changed while the preview of round {number} was being "
                    "computed (a result, a player, a bye request, a setting or the rounds), so "
                    "it was not saved: nothing changed. Run /round preview again."
                )
            games = [(snapshot.row(g.white).id, snapshot.row(g.black).id) for g in result.games]
            byes = [(snapshot.row(b.player).id, b.kind.value) for b in result.byes]
            notes = [e.describe() for e in result.explanations] + list(result.notes)
            version = await request_repo.save_draft(
                conn, tournament_id=t.id, round_number=number, basis=_basis(snapshot),
                games=games, byes=byes, notes=notes, user_id=actor.user_id, now=self.ctx.now(),
            )
            draft = await request_repo.get_draft(conn, t.id)
            assert draft is not None
            view = _draft_view(t, snapshot, draft, stale=False)
            await audit(self.ctx, conn, actor, t, "draft.preview", None, {
                "round": number, "version": version, "games": _numbers(snapshot, games),
                "byes": [[snapshot.number(p), k] for p, k in byes],
                "warnings": list(view.warnings),
            })
            return view

    async def _preview_pairing(
        self, t: TournamentRow, number: int, snapshot: Snapshot, config: PairingConfig,
        players: int,
    ) -> PairingResult:
        """The engine's pairing for a preview, outside any transaction: inline for a small
        event, in a worker within the concurrency limit otherwise (as ``/round next``)."""
        slot = None
        if self.ctx.pairing.offloads(players):
            try:
                slot = self.ctx.pairing.reserve()
            except PairingBusy as busy:
                raise PairingBusyError(
                    f"The bot is pairing {plural(busy.active, 'other big event')} right now "
                    f"and pairs at most {self.ctx.pairing.limits.max_concurrent} at once: round "
                    f"{number} of "
                    f"'{t.name}' was not previewed. Try again in a minute."
                ) from None
        try:
            result, _ = await self.ctx.pairing.run(slot, pair_and_explain, snapshot.tournament,
                                                   config)
        except PairingError as exc:
            raise no_pairing(t, number, exc) from None
        except PairingWorkerFailed as exc:
            raise PairingFailedError(
                f"Round {number} of '{t.name}' was not previewed: {exc.reason}. Nothing "
                "changed; the event may be too big for this bot's limits."
            ) from None
        finally:
            self.ctx.pairing.release(slot)
        return result

    @operation
    async def show_draft(self, actor: Actor, tournament: TournamentRef = None) -> DraftView:
        """The stored draft as it is now (with ``stale`` set if it is out of date)."""
        require_organiser(actor, lazy("see the draft"))
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            draft = await _require_draft(conn, t)
            snapshot = await load_snapshot(conn, t)
            return _draft_view(t, snapshot, draft, stale=await _is_stale(conn, t, draft, snapshot))

    @operation
    async def swap_in_draft(
        self, actor: Actor, first: PlayerRef, second: PlayerRef, *, version: int,
        confirm: bool = False, tournament: TournamentRef = None,
    ) -> DraftEdit:
        """Exchange two players between boards (or a board and a bye; on one board: swap
        colours)."""
        return await self._edit(actor, tournament, "swap", (first, second), version, confirm)

    @operation
    async def pair_in_draft(
        self, actor: Actor, first: PlayerRef, second: PlayerRef, *, version: int,
        confirm: bool = False, tournament: TournamentRef = None,
    ) -> DraftEdit:
        """Put two players on one board; their former opponents play each other (or the one
        left over takes the bye)."""
        return await self._edit(actor, tournament, "pair", (first, second), version, confirm)

    @operation
    async def bye_in_draft(
        self, actor: Actor, player: PlayerRef, *, version: int, confirm: bool = False,
        tournament: TournamentRef = None,
    ) -> DraftEdit:
        """Give a player the pairing-allocated bye: the player who had it takes his board;
        if nobody had it, his opponent gets a bye too."""
        return await self._edit(actor, tournament, "bye", (player,), version, confirm)

    async def _edit(
        self, actor: Actor, tournament: TournamentRef, action: str,
        refs: tuple[PlayerRef, ...], version: int, confirm: bool,
    ) -> DraftEdit:
        require_organiser(actor, lazy("edit the draft"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            draft, snapshot = await _current_draft(conn, t, version)
            rows = [await find_player(conn, t, ref) for ref in refs]
            ids = [r.id for r in rows]
            if len(set(ids)) != len(ids):
                raise InvalidInputError("Name two different players.")
            seated = {p for g in draft.games for p in g} | {p for p, _ in draft.byes}
            for r in rows:
                if r.id not in seated:
                    raise InvalidInputError(
                        f"{r.name} is not in the draft of round {draft.round_number} (not "
                        "playing that round)."
                    )
            games, byes = _apply(action, ids, list(draft.games), list(draft.byes), t)
            before = set(_warnings(t, snapshot, draft.games, draft.byes))
            after = _warnings(t, snapshot, games, byes)
            new = tuple(w for w in after if w not in before)
            names = tuple(r.name for r in rows)
            numbers = tuple(r.number for r in rows if r.number is not None)
            if new and not confirm:
                view = _draft_view(t, snapshot, draft, stale=False)
                return DraftEdit(applied=False, draft=view, new_warnings=new, action=action,
                                 players=names, numbers=numbers)
            new_version = await request_repo.save_draft(
                conn, tournament_id=t.id, round_number=draft.round_number, basis=draft.basis,
                games=games, byes=byes, notes=draft.notes, user_id=actor.user_id,
                now=self.ctx.now(),
            )
            fresh = await request_repo.get_draft(conn, t.id)
            assert fresh is not None
            await audit(self.ctx, conn, actor, t, f"draft.{action}", {
                "version": draft.version, "games": _numbers(snapshot, draft.games),
                "byes": [[snapshot.number(p), k] for p, k in draft.byes],
            }, {
                "round": draft.round_number, "version": new_version,
                "players": [snapshot.number(i) for i in ids],
                "games": _numbers(snapshot, games),
                "byes": [[snapshot.number(p), k] for p, k in byes],
                "confirmed_warnings": list(new),
            })
            return DraftEdit(applied=True, draft=_draft_view(t, snapshot, fresh, stale=False),
                             new_warnings=new, action=action, players=names,
                             numbers=numbers)

    @operation
    async def publish_draft(
        self, actor: Actor, *, version: int, tournament: TournamentRef = None
    ) -> RoundView:
        """Pair the next round exactly as draft ``version`` says and announce it. Refused if
        the draft was replaced (another version) or is stale (a result, player or request
        changed since it was computed, or a round was paired or undone)."""
        require_organiser(actor, lazy("publish rounds"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            draft, _ = await _current_draft(conn, t, version)
            return await self.course.insert_round(
                conn, actor, t, draft.round_number, draft.games, draft.byes, force=False,
                draft_version=draft.version,
            )

    @operation
    async def discard_draft(self, actor: Actor, tournament: TournamentRef = None) -> int:
        """Throw the draft away; returns the version discarded."""
        require_organiser(actor, lazy("discard the draft"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            draft = await _require_draft(conn, t)
            await request_repo.delete_draft(conn, t.id)
            await audit(self.ctx, conn, actor, t, "draft.discard",
                        {"round": draft.round_number, "version": draft.version}, None)
            return draft.version


# -- helpers --------------------------------------------------------------------------------------
def _basis(snapshot: Snapshot) -> str:
    """A fingerprint of everything the next pairing depends on. The model is a frozen
    dataclass of tuples, so its repr is deterministic; the player rows add statuses."""
    rows = sorted((p.id, p.status, p.number, p.withdrawn_round) for p in snapshot.by_id.values())
    model = snapshot.tournament
    # sets print in an order of their own: the forbidden pairs are written sorted
    forbidden = sorted(sorted(pair) for pair in model.forbidden_pairs)
    text = repr(dataclasses.replace(model, forbidden_pairs=frozenset())) + repr(forbidden) + \
        repr(rows)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def _is_stale(
    conn: Connection, t: TournamentRow, draft: DraftRow, snapshot: Snapshot
) -> bool:
    last = await round_repo.last_round(conn, t.id)
    expected = 1 if last is None else last.number + 1
    return draft.round_number != expected or draft.basis != _basis(snapshot)


def _stale_message(t: TournamentRow, draft: DraftRow) -> str:
    return (
        f"The draft of round {draft.round_number} of '{t.name}' (version {draft.version}) is "
        "out of date: a result, a player, a bye request or the rounds changed since it was "
        "computed. Run /round preview again (your edits are not kept), or /round next."
    )


async def _current_draft(
    conn: Connection, t: TournamentRow, version: int
) -> tuple[DraftRow, Snapshot]:
    """The draft an edit or a publish acts on: the tournament running, the draft there, of the
    named version and not out of date; with the snapshot it was checked against."""
    require_running(t)
    draft = await _require_draft(conn, t)
    _require_version(t, draft, version)
    snapshot = await load_snapshot(conn, t)
    if await _is_stale(conn, t, draft, snapshot):
        raise RoundChangedError(_stale_message(t, draft))
    return draft, snapshot


async def _require_draft(conn: Connection, t: TournamentRow) -> DraftRow:
    draft = await request_repo.get_draft(conn, t.id)
    if draft is None:
        raise ConflictError(f"'{t.name}' has no draft: compute one with /round preview.")
    return draft


def _require_version(t: TournamentRow, draft: DraftRow, version: int) -> None:
    if draft.version != version:
        raise RoundChangedError(
            f"The draft of '{t.name}' is now version {draft.version}, not version {version} "
            "(it was edited or previewed again since): look at it with /round draft and act "
            "on that version."
        )


def _apply(action: str, ids: list[int], games: Games, byes: Byes,
           t: TournamentRow) -> tuple[Games, Byes]:
    if action == "swap":
        a, b = ids
        # a requested bye belongs to who asked for it: swapping would hand it to another
        _require_not_requested(a, byes, t)
        _require_not_requested(b, byes, t)
        swap = {a: b, b: a}
        return ([(swap.get(w, w), swap.get(x, x)) for w, x in games],
                [(swap.get(p, p), k) for p, k in byes])
    if action == "pair":
        a, b = ids
        if (a, b) in games or (b, a) in games:
            raise ConflictError("Those two already play each other in the draft.")
        _require_not_requested(a, byes, t)
        _require_not_requested(b, byes, t)
        left: list[int] = []  # their former opponents
        new_games: Games = []
        slot: int | None = None  # the new board goes where the first one's board was
        for w, x in games:
            if a in (w, x) or b in (w, x):
                left += [p for p in (w, x) if p not in (a, b)]
                if slot is None:
                    slot = len(new_games)
                    # keep the first player's colour from his old board
                    new_games.append((a, b) if a == w or b == x else (b, a))
            else:
                new_games.append((w, x))
        if slot is None:  # both had the bye (an edited draft can give two)
            new_games.append((a, b))
        byes = [(p, k) for p, k in byes if p not in (a, b)]
        if len(left) == 2:
            new_games.append((left[0], left[1]))
        elif left:
            byes.append((left[0], "pairing"))
        return new_games, byes
    if action == "bye":
        (a,) = ids
        if any(p == a for p, _ in byes):
            raise ConflictError("That player already has a bye in the draft.")
        holder = next((p for p, k in byes if k == "pairing"), None)
        if holder is not None:
            games = [(holder if w == a else w, holder if x == a else x) for w, x in games]
            byes = [(a, "pairing") if p == holder else (p, k) for p, k in byes]
            return games, byes
        opponent = next(x if w == a else w for w, x in games if a in (w, x))
        games = [(w, x) for w, x in games if a not in (w, x)]
        return games, [*byes, (a, "pairing"), (opponent, "pairing")]
    raise InvalidInputError(f"Unknown draft edit {action}.")


def _require_not_requested(player: int, byes: Byes, t: TournamentRow) -> None:
    if any(p == player and k != "pairing" for p, k in byes):
        raise ConflictError(
            "That player asked for (or was given) a bye this round: cancel it with /admin "
            f"bye-cancel in '{t.name}' and preview again to pair him."
        )


def _warnings(t: TournamentRow, snapshot: Snapshot, games: Games | list[tuple[int, int]],
              byes: Byes | list[tuple[int, str]]) -> tuple[str, ...]:
    """The rules a draft breaks: rematches, forbidden pairs, colour bound and three in a row
    (events with colours), second pairing-allocated bye, two byes in one round."""
    model = snapshot.tournament
    out: list[str] = []
    met = Counter(frozenset(g.players) for r in model.rounds for g in r.games)
    colours: dict[int, list[Color]] = {}
    for r in model.rounds:
        for g in r.games:
            if not g.result.is_forfeit:
                colours.setdefault(g.white, []).append(Color.WHITE)
                colours.setdefault(g.black, []).append(Color.BLACK)
    use_colours = settings_of(t).colours
    for board, (w_id, b_id) in enumerate(games, start=1):
        w, b = snapshot.number(w_id), snapshot.number(b_id)
        wn, bn = snapshot.by_id[w_id].name, snapshot.by_id[b_id].name
        if met[frozenset((w, b))]:
            out.append(f"Board {board}: {wn} and {bn} already played each other (rematch).")
        if model.is_forbidden(w, b):
            out.append(f"Board {board}: {wn} and {bn} are a forbidden pair.")
        if not use_colours:
            continue
        for player, name, colour in ((w, wn, Color.WHITE), (b, bn, Color.BLACK)):
            history = [*colours.get(player, []), colour]
            diff = history.count(Color.WHITE) - history.count(Color.BLACK)
            word = "white" if colour is Color.WHITE else "black"
            if abs(diff) > 2:
                out.append(f"Board {board}: {name} would have a colour difference of {diff:+d} "
                           f"with {word}.")
            if len(history) >= 3 and len(set(history[-3:])) == 1:
                out.append(f"Board {board}: {name} would have {word} three times in a row.")
    had_bye = {b.player for r in model.rounds for b in r.byes if b.kind.value in
               ("pairing", "full")}
    pairing_byes = [p for p, k in byes if k == "pairing"]
    for p in pairing_byes:
        if snapshot.number(p) in had_bye:
            out.append(f"{snapshot.by_id[p].name} already had a bye: this would be a second.")
    if len(pairing_byes) > 1:
        out.append(f"{plural(len(pairing_byes), 'player')} get the pairing-allocated bye this "
                   "round.")
    return tuple(out)


def _numbers(snapshot: Snapshot, games: Games | list[tuple[int, int]]) -> list[list[int]]:
    return [[snapshot.number(w), snapshot.number(b)] for w, b in games]


def _draft_view(t: TournamentRow, snapshot: Snapshot, draft: DraftRow, *,
                stale: bool) -> DraftView:
    return DraftView(
        tournament_id=t.id,
        tournament_name=t.name,
        round_number=draft.round_number,
        version=draft.version,
        boards=tuple(
            DraftBoard(board=i, white=seat(snapshot.by_id[w]), black=seat(snapshot.by_id[b]))
            for i, (w, b) in enumerate(draft.games, start=1)
        ),
        byes=tuple((seat(snapshot.by_id[p]), k) for p, k in draft.byes),
        warnings=_warnings(t, snapshot, draft.games, draft.byes),
        notes=tuple(draft.notes),
        stale=stale,
        use_colours=settings_of(t).colours,
    )

