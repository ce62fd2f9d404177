"""Build the result objects (rounds, games, standings) and their JSON outbox payloads."""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from service.base import seat
from service.errors import UnknownRoundError
from service.model import Snapshot, load_snapshot, settings_of
from service.playoff_state import BracketState, load_bracket
from service.views import (
    ByeView,
    GameView,
    RoundView,
    StandingsRowView,
    StandingsView,
    format_points,
)
from storage import players as player_repo
from storage import rounds as round_repo
from storage.connection import Connection
from storage.players import PlayerRow
from storage.rounds import GameRow
from storage.tournaments import TournamentRow
from swiss.model import ByeKind, Scoring


def game_view(game: GameRow, players: dict[int, PlayerRow]) -> GameView:
    return GameView(
        id=game.id,
        tournament_id=game.tournament_id,
        round=game.round_number,
        board=game.board,
        white=seat(players[game.white_id]),
        black=seat(players[game.black_id]),
        result=game.result,
        state=game.state,  # type: ignore[arg-type]
        white_games=game.white_games,
        black_games=game.black_games,
        reported_result=game.reported_result,
        reported_by=game.reported_by,
        disputed_by=game.disputed_by,
        disputed_result=game.disputed_result,
    )


async def stored_game_view(conn: Connection, t: TournamentRow, game_id: int) -> GameView:
    """The view of game ``game_id`` of ``t`` as stored now."""
    game = await round_repo.get_game(conn, game_id)
    assert game is not None
    # the game's two players, not the whole field: this runs for every report, click and
    # settled prompt, and a field of thousands made each of them read thousands of rows
    players = {}
    for player_id in (game.white_id, game.black_id):
        player = await player_repo.get_player(conn, player_id)
        assert player is not None  # a game's players are never deleted (foreign keys)
        players[player_id] = player
    return game_view(game, players)


async def round_view(
    conn: Connection, t: TournamentRow, number: int | None = None
) -> RoundView:
    """The pairings (and results so far) of round ``number`` (default: the latest)."""
    settings = settings_of(t)
    rnd = (
        await round_repo.last_round(conn, t.id)
        if number is None
        else await round_repo.get_round(conn, t.id, number)
    )
    if rnd is None:
        if number is None:
            raise UnknownRoundError(
                f"'{t.name}' has no rounds yet: it starts with /tournament start."
            )
        raise UnknownRoundError(
            f"'{t.name}' has no round {number} yet: see the latest with /pairings."
        )
    players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
    scoring = Scoring.preset(settings.scoring)
    games = await round_repo.list_games(conn, t.id, rnd.number)
    byes = await round_repo.list_byes(conn, t.id, rnd.number)
    state = await load_bracket(conn, t.id)
    stage: str | None = None
    note = ""
    seeds: tuple[tuple[int, int], ...] = ()
    if state is not None and rnd.number > state.playoffs.swiss_rounds:
        stage = state.stage(rnd.number - state.playoffs.swiss_rounds)
        note = state.note()
        seeds = tuple((players[pid].number, state.seed_of(pid))
                      for g in games for pid in (g.white_id, g.black_id)
                      if players[pid].number is not None)
    return RoundView(
        tournament_id=t.id,
        tournament_name=t.name,
        number=rnd.number,
        total_rounds=settings.rounds,
        state=rnd.state,  # type: ignore[arg-type]
        games=tuple(game_view(g, players) for g in games),
        byes=tuple(
            ByeView(
                player=seat(players[b.player_id]),
                kind=b.kind,  # type: ignore[arg-type]
                points=scoring.for_bye(ByeKind(b.kind)),
            )
            for b in byes
        ),
        paired_at=rnd.paired_at,
        deadline=rnd.deadline,
        use_colours=settings.colours,
        stage=stage,
        playoff_note=note,
        seeds=seeds,
    )


def standings_view(
    t: TournamentRow, snapshot: Snapshot, *, after_round: int | None = None, final: bool = False
) -> StandingsView:
    """Standings computed by the pure core (swiss.standings) from the rebuilt model."""
    from swiss.standings import compute_standings, next_step, remaining_ties

    settings = settings_of(t)
    model = snapshot.tournament
    rounds = model.rounds_played if after_round is None else after_round
    # "auto": the C.07 edition in force on the day the event was created
    rules = None if settings.tiebreak_rules == "auto" else settings.tiebreak_rules
    table = compute_standings(
        model, settings.tiebreaks, rounds=rounds, rules=rules, start_date=t.created_at.date()
    )
    ties_note = next_step(table) if remaining_ties(table) and table.tiebreaks else ""
    rows = []
    for row in table.rows:
        player = snapshot.row(row.player_id)
        rows.append(
            StandingsRowView(
                rank=row.rank,
                player_id=player.id,
                number=row.player_id,
                name=player.name,
                user_id=player.user_id,
                points=row.points,
                values=tuple(row.values),
                withdrawn=player.status == "withdrawn",
            )
        )
    return StandingsView(
        tournament_id=t.id,
        tournament_name=t.name,
        after_round=rounds,
        total_rounds=settings.rounds,
        final=final,
        tiebreaks=tuple(table.tiebreaks),
        rows=tuple(rows),
        rules=table.edition,
        ties_note=ties_note,
    )


async def current_standings(
    conn: Connection, t: TournamentRow, *, after_round: int | None = None,
    final: bool = False,
) -> StandingsView:
    snapshot = await load_snapshot(conn, t)
    view = standings_view(t, snapshot, after_round=after_round, final=final)
    return with_placings(view, await load_bracket(conn, t.id), after_round)


def with_placings(view: StandingsView, state: BracketState | None,
                  after_round: int | None) -> StandingsView:
    """The standings with the top cut's placings, once it is seeded (not for a round of the
    Swiss before the cut)."""
    if state is None or (after_round is not None and after_round < state.playoffs.swiss_rounds):
        return view
    return replace(view, placings=state.placings())


# -- payloads ------------------------------------------------------------------------------------
def format_value(value: Fraction | float | int) -> str:
    """A tiebreak value for display: exact halves as "2½", others with two decimals at most."""
    if isinstance(value, Fraction) and value.denominator in (1, 2):
        return format_points(value)
    number = float(value)
    return f"{number:.2f}".rstrip("0").rstrip(".")


def to_jsonable(value: Any) -> Any:
    """Dataclasses to dicts, Fractions to display strings, datetimes to ISO text."""
    if is_dataclass(value) and not isinstance(value, type):
        # field by field, not asdict(): that deep-copies everything first, and this runs
        # over every board of a round inside the transaction that stores it
        return {f.name: to_jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return format_points(value) if value.denominator in (1, 2) else format_value(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def round_payload(view: RoundView) -> dict[str, Any]:
    """Pairings / results payload: every board with both players (name, number, user id for
    the mention), the byes with their points, the deadline (ISO and unix for ``<t:..:R>``)."""
    body = to_jsonable(view)
    body.pop("tournament_id", None)
    body.pop("tournament_name", None)
    for game, raw in zip(body["games"], view.games, strict=True):
        game["result_text"] = raw.result_text
    body["round"] = view.number
    body["deadline_unix"] = None if view.deadline is None else int(view.deadline.timestamp())
    mentions = [s.user_id for g in view.games for s in (g.white, g.black) if s.user_id]
    mentions += [b.player.user_id for b in view.byes if b.player.user_id]
    body["mention_user_ids"] = mentions
    return body


def final_places(view: StandingsView) -> dict[int, int]:
    """Player id -> place in the final result of an event with a top cut: the playoff
    placing first (the players knocked out in the same round share a place: 1, 2, 3, 3,
    5, ...), then everybody else in Swiss order. Empty without placings or before the end."""
    if not view.final or not view.placings:
        return {}
    places: dict[int, int] = {}
    group, group_place = None, 0
    for position, placing in enumerate(view.placings, start=1):
        if placing.place != group:
            group, group_place = placing.place, position
        places[placing.player_id] = group_place
    for row in view.rows:
        if row.player_id not in places:
            places[row.player_id] = len(places) + 1
    return places


def standings_payload(view: StandingsView) -> dict[str, Any]:
    """Standings payload: rank, name, number, user id, points ("2½") and tiebreak values;
    with a top cut's final placing, each row's ``place`` in the final result too."""
    places = final_places(view)
    return {
        "after_round": view.after_round,
        "total_rounds": view.total_rounds,
        "final": view.final,
        "tiebreaks": list(view.tiebreaks),
        "placings": [to_jsonable(p) for p in view.placings],
        "rows": [
            {
                "rank": r.rank,
                "number": r.number,
                "player_id": r.player_id,
                "name": r.name,
                "user_id": r.user_id,
                "points": format_points(r.points),
                "values": [format_value(v) for v in r.values],
                "withdrawn": r.withdrawn,
                **({"place": places[r.player_id]} if places else {}),
            }
            for r in view.rows
        ],
    }
