"""Rebuild a pure :class:`swiss.model.Tournament` from the stored rows.

The database stores what happened; the pure core derives everything else (pairings,
standings). Model player ids are the pairing numbers given at the start; players without a
number (not started yet, no-shows) are not part of the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.views import TournamentSettings
from storage import players as player_repo
from storage import playoffs as playoff_repo
from storage import rounds as round_repo
from storage.connection import Connection
from storage.players import PlayerRow
from storage.playoffs import PlayoffRow
from storage.rounds import ByeRequestRow, ByeRow, RoundRow
from storage.tournaments import TournamentRow
from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Scoring, Tournament
from swiss.pairing import PairingConfig


def settings_of(row: TournamentRow) -> TournamentSettings:
    known = set(TournamentSettings.__dataclass_fields__)
    return TournamentSettings(**{k: v for k, v in row.settings.items() if k in known})


def seeding_order(players: list[PlayerRow]) -> list[PlayerRow]:
    """The order pairing numbers are given in at the start: highest rating first, then who
    registered first."""
    return sorted(players, key=lambda p: (-p.rating, p.registered_at, p.id))


def pairing_config(row: TournamentRow) -> PairingConfig:
    """How the engine pairs ``row``: its system (with the FIDE Dutch edition), rematch rule
    and seed. Every path that pairs or re-pairs a round (next round, drafts, /why) uses it,
    so none of them can pair by other rules than the published rounds were."""
    settings = settings_of(row)
    return PairingConfig(system=settings.system, policy=settings.rematches, seed=row.seed,
                         rules=settings.dutch_rules)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The model plus the mapping between pairing numbers and player rows."""

    tournament: Tournament
    by_number: dict[int, PlayerRow]
    by_id: dict[int, PlayerRow]

    def row(self, number: int) -> PlayerRow:
        return self.by_number[number]

    def number(self, player_id: int) -> int:
        number = self.by_id[player_id].number
        assert number is not None
        return number


@dataclass(frozen=True, slots=True)
class SnapshotRows:
    """What :func:`build_snapshot` builds a snapshot from, as read in one transaction
    (players and games as the database gave them: see :func:`read_snapshot`)."""

    players: list[Any]
    games: list[Any]
    byes: list[ByeRow]
    playoffs: PlayoffRow | None
    rounds: list[RoundRow]
    requests: list[ByeRequestRow]
    forbidden: list[tuple[int, int]]


async def load_snapshot(conn: Connection, row: TournamentRow) -> Snapshot:
    return build_snapshot(row, await read_snapshot(conn, row))


async def read_snapshot(conn: Connection, row: TournamentRow) -> SnapshotRows:
    """The rows of the snapshot, read; the thousands of player and game rows of a big event
    are left as the database gave them, for :func:`build_snapshot` to convert outside the
    event loop (``PairingPool.off_loop``): converting them is ~50 ms of Python at 3,000
    players, as long as the read itself."""
    return SnapshotRows(
        players=await player_repo.fetch_players(conn, row.id),
        games=await round_repo.fetch_games(conn, row.id),
        byes=await round_repo.list_byes(conn, row.id),
        playoffs=await playoff_repo.get_playoffs(conn, row.id),
        rounds=await round_repo.list_rounds(conn, row.id),
        requests=await round_repo.list_bye_requests(conn, row.id),
        forbidden=await round_repo.list_forbidden_pairs(conn, row.id),
    )


def build_snapshot(row: TournamentRow, read: SnapshotRows) -> Snapshot:
    """The snapshot of :func:`read_snapshot`'s rows (pure: runs in any thread)."""
    settings = settings_of(row)
    players = player_repo.player_rows(read.players)
    by_id = {p.id: p for p in players}
    numbered = [p for p in players if p.number is not None]
    by_number = {p.number: p for p in numbered if p.number is not None}

    def num(player_id: int) -> int:
        number = by_id[player_id].number
        assert number is not None, "a paired player always has a pairing number"
        return number

    games = round_repo.game_rows(read.games)
    byes = read.byes
    # The model is the Swiss only: the top cut's rounds (after the cut's boundary) are a
    # knockout that neither pairs nor scores like a Swiss round (service.playoff_state).
    playoffs = read.playoffs
    swiss_rounds = None if playoffs is None else playoffs.swiss_rounds
    rounds: list[Round] = []
    for rnd in read.rounds:
        if swiss_rounds is not None and rnd.number > swiss_rounds:
            continue
        rounds.append(
            Round(
                number=rnd.number,
                games=tuple(
                    Game(
                        white=num(g.white_id),
                        black=num(g.black_id),
                        result=Result(g.result) if g.state == "final" else Result.PENDING,
                        board=g.board,
                        white_games=g.white_games if g.state == "final" else None,
                        black_games=g.black_games if g.state == "final" else None,
                    )
                    for g in games
                    if g.round_number == rnd.number
                ),
                byes=tuple(
                    Bye(num(b.player_id), ByeKind(b.kind))
                    for b in byes
                    if b.round_number == rnd.number
                ),
            )
        )
    requested: dict[int, dict[int, ByeKind]] = {}
    for req in read.requests:
        # A player's own request reaches the pairing only once an organiser approved it.
        if req.status == "approved" and by_id[req.player_id].number is not None:
            requested.setdefault(req.round_number, {})[num(req.player_id)] = ByeKind(req.kind)
    forbidden = frozenset(
        frozenset((num(a), num(b)))
        for a, b in read.forbidden
        if by_id[a].number is not None and by_id[b].number is not None
    )
    model = Tournament(
        players=tuple(
            Player(id=p.number, name=p.name, rating=p.rating, order=p.number)
            for p in numbered
            if p.number is not None
        ),
        rounds=tuple(rounds),
        total_rounds=settings.rounds,
        scoring=Scoring.preset(settings.scoring),
        use_colors=settings.colours,
        withdrawn={
            p.number: p.withdrawn_round
            for p in numbered
            if p.number is not None and p.withdrawn_round is not None
        },
        requested_byes=requested,
        forbidden_pairs=forbidden,
        seed=row.seed,
        name=row.name,
    )
    return Snapshot(tournament=model, by_number=by_number, by_id=by_id)
