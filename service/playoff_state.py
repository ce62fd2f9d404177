"""The top cut's state, rebuilt from the stored rows: who is which seed, the bracket's matches
and winners (swiss.bracket), the placing. Shared by the presenters and the playoff operations.

Playoff round ``k`` (1 = the first) is the tournament's round ``swiss_rounds + k``; its games
sit on board ``index + 1`` of the bracket match they play, so a stored game names its match.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.views import PlacingView
from storage import players as player_repo
from storage import playoffs as playoff_repo
from storage import rounds as round_repo
from storage.connection import Connection
from storage.players import PlayerRow
from storage.playoffs import PlayoffRow
from storage.rounds import GameRow
from swiss import bracket
from swiss.model import Result

_WHITE_WINS = {Result.WHITE_WINS.value, Result.WHITE_FORFEIT_WIN.value}
_BLACK_WINS = {Result.BLACK_WINS.value, Result.BLACK_FORFEIT_WIN.value}


@dataclass(frozen=True, slots=True)
class BracketState:
    playoffs: PlayoffRow
    players: dict[int, PlayerRow]  # by player id
    winners: dict[tuple[int, int], int]  # (bracket round, match index) -> winning seed
    matches: list[list[bracket.Match]]
    played_rounds: int  # playoff rounds paired so far
    # (bracket round, match index) -> the decided match's score, the high seed's first: the
    # games won ("2", "1") in a best-of, else "1" and "0" ("1F" and "0F" for a forfeit)
    scores: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)

    @property
    def rounds_total(self) -> int:
        return len(self.matches)

    def player(self, seed: int) -> PlayerRow:
        return self.players[self.playoffs.seeds[seed - 1]]

    def seed_of(self, player_id: int) -> int:
        return self.playoffs.seeds.index(player_id) + 1

    @property
    def champion(self) -> int | None:
        return self.matches[-1][0].winner

    def stage(self, bracket_round: int) -> str:
        return bracket.stage_name(self.rounds_total, bracket_round)

    def note(self) -> str:
        po = self.playoffs
        side = "white / plays first" if po.privilege == "white" else "black / plays second"
        games = "one game" if po.best_of == 1 else f"best of {po.best_of} games"
        return (f"Single elimination, {games} per match; the higher seed plays {side} in "
                "game 1. A draw cannot stand: play a tiebreak game and report its winner.")

    def placings(self) -> tuple[PlacingView, ...]:
        lost = bracket.eliminated_in(self.playoffs.entrants, self.winners)
        champion = self.champion
        rows: list[tuple[tuple[int, int], PlacingView]] = []
        for seed in range(1, self.playoffs.entrants + 1):
            if seed == champion:
                key, place = 0, "Winner"
            elif seed in lost:
                key = 2 + self.rounds_total - lost[seed]
                place = bracket.placing_name(self.rounds_total, lost[seed])
            else:
                key, place = 1, "Still in"
            row = self.player(seed)
            rows.append(((key, seed), PlacingView(place=place, seed=seed, player_id=row.id,
                                                  name=row.name, user_id=row.user_id)))
        return tuple(view for _, view in sorted(rows, key=lambda item: item[0]))


async def load_bracket(conn: Connection, tournament_id: int) -> BracketState | None:
    """The bracket of a tournament, or None before the cut (or without a top cut)."""
    po = await playoff_repo.get_playoffs(conn, tournament_id)
    if po is None:
        return None
    players = {p.id: p for p in await player_repo.list_players(conn, tournament_id)}
    seed_of = {pid: seed for seed, pid in enumerate(po.seeds, start=1)}
    winners: dict[tuple[int, int], int] = {}
    scores: dict[tuple[int, int], tuple[str, str]] = {}
    played = 0
    for rnd in await round_repo.list_rounds(conn, tournament_id):
        if rnd.number <= po.swiss_rounds:
            continue
        k = rnd.number - po.swiss_rounds
        played = max(played, k)
        for game in await round_repo.list_games(conn, tournament_id, rnd.number):
            if game.state != "final":
                continue
            if game.result in _WHITE_WINS:
                winners[(k, game.board - 1)] = seed_of[game.white_id]
            elif game.result in _BLACK_WINS:
                winners[(k, game.board - 1)] = seed_of[game.black_id]
            else:
                continue
            white_first = seed_of[game.white_id] < seed_of[game.black_id]
            white, black = match_score(game)
            scores[(k, game.board - 1)] = (white, black) if white_first else (black, white)
    return BracketState(playoffs=po, players=players, winners=winners,
                        matches=bracket.build(po.entrants, winners), played_rounds=played,
                        scores=scores)


def match_score(game: GameRow) -> tuple[str, str]:
    """A decided knockout game's score, white's first: the games won when reported ("2", "1"),
    else "1" and "0" ("1F" and "0F" when forfeited)."""
    if game.white_games is not None and game.black_games is not None:
        return str(game.white_games), str(game.black_games)
    forfeit = "F" if game.result in (Result.WHITE_FORFEIT_WIN.value,
                                     Result.BLACK_FORFEIT_WIN.value) else ""
    won, lost = f"1{forfeit}", f"0{forfeit}"
    return (won, lost) if game.result in _WHITE_WINS else (lost, won)
