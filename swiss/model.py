"""The tournament model: players, rounds, games, byes and the scoring system.

Everything here is an immutable value. A :class:`Tournament` holds only what happened (who
played whom, with which colours and results, who had which bye, who withdrew); every derived
quantity -- score, colour history, opponents, byes received, floats -- is computed from the
rounds by :mod:`swiss.state` and never stored twice.

Player ids are the pairing ids of the TRF file (start numbers, 1..n). The *initial order* is the
seeding order used to rank players with equal scores and ratings (TRF: the start number).

Games have two sides. When the event uses colours the first side (``white``) had the white
pieces; when it does not (most e-sports and card games) the sides are just "first" and
"second" and the colour history is ignored.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

Points = Fraction


class Color(enum.Enum):
    """The colour a player had in one round (``NONE`` for byes, absences and colourless events)."""

    WHITE = "w"
    BLACK = "b"
    NONE = "-"

    @property
    def opposite(self) -> Color:
        if self is Color.WHITE:
            return Color.BLACK
        if self is Color.BLACK:
            return Color.WHITE
        return Color.NONE


class Result(enum.Enum):
    """The result of one game, seen from the first side (white).

    Forfeits are games that were *not played*: they score, but they do not count as a meeting
    (the pair may meet again), nor for colours. A double forfeit scores a forfeit loss for both.
    """

    PENDING = "*"
    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+--"  # black did not show up
    BLACK_FORFEIT_WIN = "--+"  # white did not show up
    DOUBLE_FORFEIT = "---"  # neither showed up

    @property
    def is_pending(self) -> bool:
        return self is Result.PENDING

    @property
    def is_played(self) -> bool:
        """True when the game was actually played over the board (not forfeited, not pending)."""
        return self in (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)

    @property
    def is_forfeit(self) -> bool:
        return self in (
            Result.WHITE_FORFEIT_WIN,
            Result.BLACK_FORFEIT_WIN,
            Result.DOUBLE_FORFEIT,
        )

    def outcome_for_white(self) -> Outcome | None:
        return _WHITE_OUTCOME[self]

    def outcome_for_black(self) -> Outcome | None:
        return _BLACK_OUTCOME[self]


class Outcome(enum.Enum):
    """What one game meant for one player."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"

    @property
    def is_played(self) -> bool:
        return self in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)


_WHITE_OUTCOME: dict[Result, Outcome | None] = {
    Result.PENDING: None,
    Result.WHITE_WINS: Outcome.WIN,
    Result.BLACK_WINS: Outcome.LOSS,
    Result.DRAW: Outcome.DRAW,
    Result.WHITE_FORFEIT_WIN: Outcome.FORFEIT_WIN,
    Result.BLACK_FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Result.DOUBLE_FORFEIT: Outcome.FORFEIT_LOSS,
}
_BLACK_OUTCOME: dict[Result, Outcome | None] = {
    Result.PENDING: None,
    Result.WHITE_WINS: Outcome.LOSS,
    Result.BLACK_WINS: Outcome.WIN,
    Result.DRAW: Outcome.DRAW,
    Result.WHITE_FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Result.BLACK_FORFEIT_WIN: Outcome.FORFEIT_WIN,
    Result.DOUBLE_FORFEIT: Outcome.FORFEIT_LOSS,
}


class ByeKind(enum.Enum):
    """Why a player had no opponent in a round.

    ``PAIRING`` is the pairing-allocated bye (PAB, TRF ``U``) given to the odd player out.
    The others are requested or organiser-assigned: a half-point bye (TRF ``H``), a full-point
    bye (``F``) and a zero-point bye / announced absence (``Z``).
    """

    PAIRING = "pairing"
    HALF = "half"
    FULL = "full"
    ZERO = "zero"


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player. ``id`` is the pairing id (TRF start number)."""

    id: int
    name: str
    rating: int = 0
    order: int = 0  # initial (seeding) order; 0 means "same as id"

    @property
    def seed(self) -> int:
        return self.order or self.id


@dataclass(frozen=True, slots=True)
class Game:
    """One game (or match) of a round.

    ``white_games`` / ``black_games`` are optional game wins inside a match (e.g. 2-1 in a
    best-of-three), used by the card-game tiebreaks (GW%, OGW%).
    """

    white: int
    black: int
    result: Result = Result.PENDING
    board: int = 0
    white_games: int | None = None
    black_games: int | None = None

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"a player cannot play himself (player {self.white})")

    @property
    def players(self) -> tuple[int, int]:
        return (self.white, self.black)

    def opponent_of(self, player: int) -> int:
        if player == self.white:
            return self.black
        if player == self.black:
            return self.white
        raise KeyError(player)

    def color_of(self, player: int) -> Color:
        if player == self.white:
            return Color.WHITE
        if player == self.black:
            return Color.BLACK
        raise KeyError(player)

    def outcome_for(self, player: int) -> Outcome | None:
        if player == self.white:
            return self.result.outcome_for_white()
        if player == self.black:
            return self.result.outcome_for_black()
        raise KeyError(player)

    def with_result(
        self,
        result: Result,
        white_games: int | None = None,
        black_games: int | None = None,
    ) -> Game:
        return replace(self, result=result, white_games=white_games, black_games=black_games)


@dataclass(frozen=True, slots=True)
class Bye:
    player: int
    kind: ByeKind = ByeKind.PAIRING


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its games (board order) and byes. Players in neither were absent."""

    number: int
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()

    @property
    def is_complete(self) -> bool:
        return all(not g.result.is_pending for g in self.games)

    def game_of(self, player: int) -> Game | None:
        for game in self.games:
            if player in (game.white, game.black):
                return game
        return None

    def bye_of(self, player: int) -> Bye | None:
        for bye in self.byes:
            if bye.player == player:
                return bye
        return None

    def participants(self) -> set[int]:
        ids = {p for g in self.games for p in g.players}
        ids.update(b.player for b in self.byes)
        return ids


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for each outcome. ``chess()`` is 1 / ½ / 0 with a pairing bye worth 1."""

    win: Points = Fraction(1)
    draw: Points = Fraction(1, 2)
    loss: Points = Fraction(0)
    forfeit_win: Points = Fraction(1)
    forfeit_loss: Points = Fraction(0)
    pairing_bye: Points = Fraction(1)
    half_bye: Points = Fraction(1, 2)
    full_bye: Points = Fraction(1)
    zero_bye: Points = Fraction(0)
    absent: Points = Fraction(0)

    @classmethod
    def chess(cls) -> Scoring:
        return cls()

    @classmethod
    def match_points(cls) -> Scoring:
        """3 / 1 / 0 match points (Magic, Pokemon, most e-sports); a bye is a win."""
        three, one = Fraction(3), Fraction(1)
        return cls(
            win=three,
            draw=one,
            loss=Fraction(0),
            forfeit_win=three,
            forfeit_loss=Fraction(0),
            pairing_bye=three,
            half_bye=one,
            full_bye=three,
            zero_bye=Fraction(0),
            absent=Fraction(0),
        )

    @classmethod
    def custom(
        cls, win: Points | int | str, draw: Points | int | str, loss: Points | int | str = 0,
        bye: Points | int | str | None = None,
    ) -> Scoring:
        """Custom points; forfeits score as win/loss, the pairing and full byes as ``bye``."""
        w, d, lo = Fraction(win), Fraction(draw), Fraction(loss)
        b = w if bye is None else Fraction(bye)
        return cls(
            win=w, draw=d, loss=lo, forfeit_win=w, forfeit_loss=lo,
            pairing_bye=b, half_bye=d, full_bye=w, zero_bye=lo * 0, absent=lo * 0,
        )

    @classmethod
    def preset(cls, name: str) -> Scoring:
        """``chess`` (1/½/0) or ``match`` / ``3-1-0`` (3/1/0)."""
        key = name.strip().lower()
        if key in ("chess", "fide", "1-0.5-0"):
            return cls.chess()
        if key in ("match", "match-points", "3-1-0", "mtg", "pokemon"):
            return cls.match_points()
        raise ValueError(f"unknown scoring preset {name!r}: use 'chess' or 'match'")

    def for_outcome(self, outcome: Outcome) -> Points:
        return {
            Outcome.WIN: self.win,
            Outcome.DRAW: self.draw,
            Outcome.LOSS: self.loss,
            Outcome.FORFEIT_WIN: self.forfeit_win,
            Outcome.FORFEIT_LOSS: self.forfeit_loss,
        }[outcome]

    def for_bye(self, kind: ByeKind) -> Points:
        return {
            ByeKind.PAIRING: self.pairing_bye,
            ByeKind.HALF: self.half_bye,
            ByeKind.FULL: self.full_bye,
            ByeKind.ZERO: self.zero_bye,
        }[kind]


@dataclass(frozen=True, slots=True)
class Tournament:
    """The whole state of an event: who plays, what happened, and the rules.

    ``withdrawn`` maps a player to the first round he no longer takes part in.
    ``requested_byes`` maps a round number to the byes requested (or assigned by an organiser)
    for that round; they apply when that round is paired.
    ``forbidden_pairs`` are pairs that must never meet (team-mates, family).
    ``initial_color`` is the colour of the top seed on board 1 in round 1 (TRF ``XXC white1``);
    ``None`` means a coin seeded by ``seed``.
    ``acceleration`` maps a round number to the extra points each player gets *for pairing that
    round only* (accelerated pairings, TRF ``XXA`` and TRF-2026 ``250`` lines); they never
    count in the standings.
    ``baku`` asks for the Baku acceleration method (TRF-2026 ``192 ..._BAKU`` codes): the
    extra points are then computed from the players and rounds
    (:func:`swiss.acceleration.baku_acceleration`); explicit ``acceleration`` wins over it, as
    XXA and 250 lines make the endorsed engine disregard the 192 code.
    """

    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    total_rounds: int = 0
    scoring: Scoring = field(default_factory=Scoring)
    use_colors: bool = True
    initial_color: Color | None = Color.WHITE
    withdrawn: Mapping[int, int] = field(default_factory=dict)
    requested_byes: Mapping[int, Mapping[int, ByeKind]] = field(default_factory=dict)
    forbidden_pairs: frozenset[frozenset[int]] = frozenset()
    seed: int = 0
    name: str = ""
    acceleration: Mapping[int, Mapping[int, Fraction]] = field(default_factory=dict)
    baku: bool = False

    # id -> position in ``players`` (built once: ``player()`` is called per player in sorts)
    _index: Mapping[int, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        ids = [p.id for p in self.players]
        index = {pid: i for i, pid in enumerate(ids)}
        if len(index) != len(ids):
            raise ValueError("duplicate player ids")
        object.__setattr__(self, "_index", index)
        for index, rnd in enumerate(self.rounds, start=1):
            if rnd.number != index:
                raise ValueError(f"round {rnd.number} is out of sequence (expected {index})")

    # -- lookups -----------------------------------------------------------------------------
    def player(self, player_id: int) -> Player:
        """The player with this id (``KeyError`` when there is none)."""
        return self.players[self._index[player_id]]

    @property
    def player_ids(self) -> list[int]:
        return [p.id for p in self.players]

    @property
    def rounds_played(self) -> int:
        return len(self.rounds)

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def is_active(self, player_id: int, round_number: int) -> bool:
        """False once the player has withdrawn before ``round_number``."""
        out = self.withdrawn.get(player_id)
        return out is None or round_number < out

    def is_forbidden(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.forbidden_pairs

    # -- functional updates ------------------------------------------------------------------
    def with_round(self, rnd: Round) -> Tournament:
        if rnd.number != self.next_round:
            raise ValueError(f"expected round {self.next_round}, got {rnd.number}")
        return replace(self, rounds=(*self.rounds, rnd))

    def replace_round(self, rnd: Round) -> Tournament:
        rounds = list(self.rounds)
        rounds[rnd.number - 1] = rnd
        return replace(self, rounds=tuple(rounds))

    def without_last_round(self) -> Tournament:
        return replace(self, rounds=self.rounds[:-1])

    def with_players(self, players: Iterable[Player]) -> Tournament:
        return replace(self, players=tuple(players))

    def with_withdrawal(self, player_id: int, from_round: int) -> Tournament:
        withdrawn = dict(self.withdrawn)
        withdrawn[player_id] = from_round
        return replace(self, withdrawn=withdrawn)

    def with_requested_bye(self, round_number: int, player_id: int, kind: ByeKind) -> Tournament:
        requests = {r: dict(m) for r, m in self.requested_byes.items()}
        requests.setdefault(round_number, {})[player_id] = kind
        return replace(self, requested_byes=requests)

    def with_forbidden_pair(self, a: int, b: int) -> Tournament:
        return replace(self, forbidden_pairs=self.forbidden_pairs | {frozenset((a, b))})


def has_double_rounds(tournament: Tournament) -> bool:
    """True when some round has a player in more than one game (TCEC double rounds)."""
    for rnd in tournament.rounds:
        ids = [p for g in rnd.games for p in g.players]
        if len(ids) != len(set(ids)):
            return True
    return False


def split_double_rounds(tournament: Tournament) -> tuple[Tournament, list[int]]:
    """Spread every double round (each pair playing twice) over two consecutive rounds.

    Scores, colours and every tiebreak then count each game once, with the one-game-per-round
    model the rest of the core uses. A pairing-allocated bye of a double round stands for both
    games (TCEC scores bye games as wins), so it appears in both halves; other byes too.
    Returns the new tournament and ``ends``: ``ends[r]`` is the number of new rounds that
    cover the original rounds ``1..r`` (``ends[0] == 0``).
    """
    rounds: list[Round] = []
    ends = [0]
    for rnd in tournament.rounds:
        halves: list[list[Game]] = []
        for game in rnd.games:
            for half in halves:
                if not any(p in half_game.players for half_game in half for p in game.players):
                    half.append(game)
                    break
            else:
                halves.append([game])
        if len(halves) <= 1:
            rounds.append(replace(rnd, number=len(rounds) + 1))
        else:
            for half in halves:
                rounds.append(Round(len(rounds) + 1, tuple(half), rnd.byes))
        ends.append(len(rounds))
    extra = len(rounds) - len(tournament.rounds)
    total = tournament.total_rounds + extra if tournament.total_rounds else 0
    return replace(tournament, rounds=tuple(rounds), total_rounds=total), ends
