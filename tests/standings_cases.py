"""Hand-built tournaments for the standings tests (values worked out by hand in the tests)."""

from __future__ import annotations

from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Scoring, Tournament

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW
WF = Result.WHITE_FORFEIT_WIN


def club_swiss() -> Tournament:
    """7 players, 4 rounds: pairing byes, a forfeit, a half-point bye and a withdrawal.

    ===  ======  ==========================================  ======
    id   rating  rounds (opponent, colour, result)            points
    ===  ======  ==========================================  ======
    1    2400    4w1    2b=    6w1    3b=                     3
    2    2300    5b1    1w=    7b1    6w1                     3.5
    3    2200    6w=    4b-(forfeit)  5w1    1w=              2
    4    2100    1b0    3w+(forfeit)  half bye   5w0          1.5
    5    2000    2w0    PAB    3b0    4b1                     2
    6    1900    3b=    7w1    1b0    2b0                     1.5
    7    1800    PAB    6b0    2w0    withdrawn (absent)      1
    ===  ======  ==========================================  ======
    """
    players = tuple(
        Player(i, name, rating)
        for i, name, rating in (
            (1, "Anna", 2400),
            (2, "Boris", 2300),
            (3, "Chen", 2200),
            (4, "Dora", 2100),
            (5, "Emil", 2000),
            (6, "Fay", 1900),
            (7, "Gus", 1800),
        )
    )
    rounds = (
        Round(1, (Game(1, 4, W), Game(5, 2, B), Game(3, 6, D)), (Bye(7, ByeKind.PAIRING),)),
        Round(2, (Game(2, 1, D), Game(6, 7, W), Game(4, 3, WF)), (Bye(5, ByeKind.PAIRING),)),
        Round(3, (Game(1, 6, W), Game(7, 2, B), Game(3, 5, W)), (Bye(4, ByeKind.HALF),)),
        Round(4, (Game(3, 1, D), Game(2, 6, W), Game(4, 5, B))),
    )
    return Tournament(players, rounds, total_rounds=4, withdrawn={7: 4}, name="Club Swiss")


def card_event() -> Tournament:
    """5 players, 3 rounds of best-of-three matches, 3/1/0 match points, a bye each round.

    r1: 1-2 2-1, 3-4 0-2, 5 bye;  r2: 1-4 1-1, 5-3 2-0, 2 bye;
    r3: 1-5 won by 1 (no game score), 2-4 0-2, 3 bye.
    """
    players = tuple(Player(i, f"P{i}") for i in range(1, 6))
    rounds = (
        Round(1, (Game(1, 2, W, white_games=2, black_games=1), Game(3, 4, B, 0, 0, 2)),
              (Bye(5),)),
        Round(2, (Game(1, 4, D, white_games=1, black_games=1), Game(5, 3, W, 0, 2, 0)),
              (Bye(2),)),
        Round(3, (Game(1, 5, W), Game(2, 4, B, white_games=0, black_games=2)), (Bye(3),)),
    )
    return Tournament(
        players, rounds, total_rounds=3, scoring=Scoring.match_points(), use_colors=False
    )
