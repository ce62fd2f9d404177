"""A paired round as it will be stored and announced, built where the pairing is computed.

For a big event the pairing runs in a worker process (``service.pairing_pool``). Building the
rows to store (player ids in board order), the pairings payload and the audit lists from its
result is a few hundred milliseconds of Python at 3,000 players (issue 13): done in the event
loop it stalled every guild. The worker builds them too (:func:`stored_round`, from the model
and who each pairing number is); the event loop only fills in what the database gives when
the round is stored (the game ids, the pairing time and deadline) with :meth:`StoredRound.finish`.

The payload is ``service.present.round_payload`` of the round view that
``service.present.round_view`` reads back after the store, built by the same functions from
the same values (tests/service/test_pairing_offload.py compares them).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from service.present import round_payload
from service.views import ByeView, GameView, RoundView, Seat
from storage.extras import explanation_text
from swiss.model import ByeKind, Scoring, Tournament
from swiss.pairing.types import PairingResult

#: Boards built between two turns of the event loop (:meth:`StoredRound.view_in_turns`):
#: a few milliseconds of Python each.
VIEW_CHUNK = 200

#: A placeholder for what only the store knows, replaced by :meth:`StoredRound.finish`.
_UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Seating:
    """What the worker needs besides the model: who each pairing number is, and the round's
    fixed facts. ``seats`` maps a pairing number to (player id, name, user id): plain tuples,
    cheap to pickle from the event loop."""

    tournament_id: int
    tournament_name: str
    round_number: int
    total_rounds: int
    use_colours: bool
    scoring: str
    seats: dict[int, tuple[int, str, int | None]]


@dataclass(frozen=True, slots=True)
class StoredRound:
    """The round ready to store: ``games`` (white, black player ids) in board order,
    ``byes`` (player id, kind), the pairings ``payload`` (plain dicts: cheap to send back
    from the worker, unlike thousands of view objects), the byes' points, the audit's
    ``audit_games`` / ``audit_byes`` (pairing numbers) and the /why facts as JSON text."""

    seating: Seating
    games: list[tuple[int, int]]
    byes: list[tuple[int, str]]
    bye_points: list[Fraction]
    payload: dict[str, Any]
    audit_games: list[list[int]]
    audit_byes: list[list[Any]]
    explanation: str  # the /why facts as stored (storage.extras.explanation_text)
    # Each board of the payload as JSON text after its ``{"id": 0``: the store writes the
    # announcement by splicing the game ids in (:meth:`encoder`) instead of encoding 600 kB
    # of JSON under the write lock. None when a board's text does not start that way.
    games_json: list[str] | None = None

    def _games_with(self, game_ids: list[int]) -> list[dict[str, Any]]:
        return [{**g, "id": i} for g, i in zip(self.payload["games"], game_ids, strict=True)]

    def encoder(self, game_ids: list[int]) -> Callable[[dict[str, Any]], str] | None:
        """``json.dumps(body, default=str)`` of the announcement's body whose ``games`` are
        this round's with ``game_ids`` (what :meth:`finish` puts in the payload), built from
        :attr:`games_json`; None when there is none."""
        tails = self.games_json
        if tails is None or len(tails) != len(game_ids):
            return None

        def encode(body: dict[str, Any]) -> str:
            marker = f"\u0000games{len(tails)}\u0000"
            text = json.dumps({**body, "games": marker}, default=str)
            games = ", ".join(f'{{"id": {int(i)}{tail}' for i, tail in zip(game_ids, tails,
                                                                          strict=True))
            quoted = json.dumps(marker)
            if text.count(quoted) != 1:  # a name spelled like the marker: the long way
                return json.dumps({**body, "games": self._games_with(game_ids)}, default=str)
            return text.replace(quoted, f"[{games}]", 1)

        return encode

    def finish(
        self, game_ids: list[int], paired_at: datetime, deadline: datetime | None
    ) -> tuple[RoundView, dict[str, Any]]:
        """The view and payload of the round as stored: its game ids (board order, from the
        insert), when it was paired and its deadline (both as stored: whole seconds)."""
        return (self.view_for(game_ids, paired_at, deadline),
                self.payload_for(game_ids, paired_at, deadline))

    def payload_for(
        self, game_ids: list[int], paired_at: datetime, deadline: datetime | None
    ) -> dict[str, Any]:
        """The announcement's payload of the round as stored (see :meth:`finish`)."""
        if len(game_ids) != len(self.games):
            raise ValueError(f"{len(game_ids)} game ids for {len(self.games)} games")
        paired_at, deadline = _stored_time(paired_at), _stored_time(deadline)
        payload = dict(self.payload)
        payload["games"] = self._games_with(game_ids)
        payload["paired_at"] = paired_at.isoformat()
        payload["deadline"] = None if deadline is None else deadline.isoformat()
        payload["deadline_unix"] = None if deadline is None else int(deadline.timestamp())
        return payload

    def view_for(
        self, game_ids: list[int], paired_at: datetime, deadline: datetime | None
    ) -> RoundView:
        """The view of the round as stored (see :meth:`finish`): built from the worker's rows
        and the game ids alone, so the store builds it after its commit (1,500 boards: no
        longer ~17 ms holding the database)."""
        steps = self._build_view(game_ids, paired_at, deadline, chunk=len(game_ids) + 1)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]

    async def view_in_turns(
        self, game_ids: list[int], paired_at: datetime, deadline: datetime | None, *,
        chunk: int = VIEW_CHUNK,
    ) -> RoundView:
        """:meth:`view_for`, giving the event loop its turn every ``chunk`` boards: the
        3,000 seats and 1,500 boards of a big round are tens of milliseconds of Python,
        which in one piece held every other guild's command (issue 13)."""
        steps = self._build_view(game_ids, paired_at, deadline, chunk=chunk)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            await asyncio.sleep(0)

    def _build_view(
        self, game_ids: list[int], paired_at: datetime, deadline: datetime | None, *,
        chunk: int,
    ) -> Generator[None, None, RoundView]:
        """The view, built in steps of ``chunk`` boards (a pause between two steps)."""
        if len(game_ids) != len(self.games):
            raise ValueError(f"{len(game_ids)} game ids for {len(self.games)} games")
        paired_at, deadline = _stored_time(paired_at), _stored_time(deadline)
        seats: dict[int, Seat] = {}

        def seat_of(raw: dict[str, Any]) -> Seat:
            found = seats.get(raw["player_id"])
            if found is None:
                found = seats[raw["player_id"]] = Seat(**raw)
            return found

        s = self.seating
        games: list[GameView] = []
        for k, (g, game_id) in enumerate(zip(self.payload["games"], game_ids, strict=True)):
            if k and k % chunk == 0:
                yield
            games.append(GameView(id=game_id, tournament_id=s.tournament_id,
                                  round=s.round_number, board=g["board"],
                                  white=seat_of(g["white"]), black=seat_of(g["black"]),
                                  result="*", state="pending"))
        return RoundView(
            tournament_id=s.tournament_id, tournament_name=s.tournament_name,
            number=s.round_number, total_rounds=s.total_rounds, state="playing",
            games=tuple(games),
            byes=tuple(ByeView(player=seat_of(b["player"]), kind=b["kind"], points=points)
                       for b, points in zip(self.payload["byes"], self.bye_points,
                                            strict=True)),
            paired_at=paired_at, deadline=deadline, use_colours=s.use_colours,
        )


def _stored_time(moment: datetime | None) -> Any:
    """``moment`` as the database gives it back (storage.timefmt keeps whole seconds, UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0)


def stored_round(model: Tournament, result: PairingResult, facts: dict[str, Any],
                 seating: Seating) -> StoredRound:
    """Everything the store needs from ``result`` and its /why ``facts`` (see the module
    docstring). Pure: runs in the pairing worker, or inline for a small event."""
    del model  # the seating has all it needs; the argument keeps one shape for every finisher
    seats = {number: Seat(player_id=pid, number=number, name=name, user_id=uid)
             for number, (pid, name, uid) in seating.seats.items()}
    scoring = Scoring.preset(seating.scoring)
    games = tuple(
        GameView(id=0, tournament_id=seating.tournament_id, round=seating.round_number,
                 board=board, white=seats[g.white], black=seats[g.black], result="*",
                 state="pending")
        for board, g in enumerate(result.games, start=1)
    )
    byes = tuple(
        ByeView(player=seats[b.player], kind=b.kind.value,  # type: ignore[arg-type]
                points=scoring.for_bye(ByeKind(b.kind)))
        for b in result.byes
    )
    view = RoundView(
        tournament_id=seating.tournament_id, tournament_name=seating.tournament_name,
        number=seating.round_number, total_rounds=seating.total_rounds, state="playing",
        games=games, byes=byes, paired_at=_UNKNOWN_TIME, deadline=None,
        use_colours=seating.use_colours,
    )
    payload = round_payload(view)
    return StoredRound(
        seating=replace(seating, seats={}),  # not sent back: the store does not need it
        games=[(seats[g.white].player_id, seats[g.black].player_id) for g in result.games],
        byes=[(seats[b.player].player_id, b.kind.value) for b in result.byes],
        bye_points=[b.points for b in byes],
        payload=payload,
        audit_games=[[g.white, g.black] for g in result.games],
        audit_byes=[[b.player, b.kind.value] for b in result.byes],
        explanation=explanation_text(facts),
        games_json=_games_json(payload["games"]),
    )


_HEAD = '{"id": 0'


def _games_json(games: list[dict[str, Any]]) -> list[str] | None:
    """Each board's JSON after its leading ``{"id": 0`` (see :attr:`StoredRound.games_json`)."""
    tails = []
    for game in games:
        text = json.dumps(game, default=str)
        if not text.startswith(_HEAD) or text[len(_HEAD)] not in ",}":
            return None
        tails.append(text[len(_HEAD):])
    return tails
