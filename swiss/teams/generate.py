"""Generated team events: deterministic from a seed, for differential tests and benchmarks.

:func:`event_spec` draws the event (teams, boards, rounds, the ``192`` variant, ratings);
:func:`play_round` draws one round's board results for given pairings (with occasional
forfeited boards and forfeited matches); :func:`write_trf` writes the event so far as a TRF
file with ``001`` player records and ``013`` team records, as team pairing programs read it.
The pairings themselves come from outside (a pairing engine), so the same seed and the same
recorded pairings always rebuild the same file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

CODES = (
    "FIDE_TEAM_TYPEA_MP_GP", "FIDE_TEAM_TYPEA_GP_MP", "FIDE_TEAM_TYPEA_MP",
    "FIDE_TEAM_TYPEB_MP_GP", "FIDE_TEAM_TYPEB_GP_MP", "FIDE_TEAM_TYPEB_MP",
    "FIDE_TEAM_MP_GP", "FIDE_TEAM_GP_MP", "FIDE_TEAM_MP",
)
FORFEITED_MATCH = 0.02
FORFEITED_BOARD = 0.03


@dataclass(frozen=True, slots=True)
class EventSpec:
    """The fixed part of a generated event."""

    seed: int
    teams: int
    boards: int
    rounds: int
    code: str
    ratings: tuple[tuple[int, ...], ...]  # per team (TPN order), per board

    def player(self, tpn: int, board: int) -> int:
        """The starting rank of the player on ``board`` (0-based) of team ``tpn``."""
        return (tpn - 1) * self.boards + board + 1


@dataclass(frozen=True, slots=True)
class RoundPlay:
    """One round: the matches (white team first), the bye, and each board's result code
    for the player of the team with White on board 1 ("1", "0", "=", "+", "-")."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    results: tuple[tuple[str, ...], ...]


def event_spec(seed: int, min_teams: int = 4, max_teams: int = 40) -> EventSpec:
    """Draw an event: 4 to 40 teams, 2 to 6 boards, 3 to 9 rounds, any FIDE team variant."""
    rng = random.Random(f"team-event-{seed}")
    teams = rng.randint(min_teams, max_teams)
    boards = rng.choice((2, 3, 4, 4, 4, 5, 6))
    rounds = rng.randint(3, max(3, min(9, teams - 1)))
    code = CODES[seed % len(CODES)]
    top = rng.randint(1800, 2700)
    ratings = []
    for tpn in range(teams):
        base = top - tpn * rng.randint(5, 40)
        ratings.append(tuple(sorted((base + rng.randint(-100, 100) for _ in range(boards)),
                                    reverse=True)))
    ratings.sort(key=lambda r: -sum(r))
    return EventSpec(seed, teams, boards, rounds, code, tuple(ratings))


def play_round(spec: EventSpec, round_number: int, pairs: list[tuple[int, int]],
               bye: int | None) -> RoundPlay:
    """Board results for the given matches, drawn from the ratings."""
    rng = random.Random(f"team-round-{spec.seed}-{round_number}")
    results = []
    for white, black in pairs:
        if rng.random() < FORFEITED_MATCH:
            code = rng.choice("+-")
            results.append(tuple(code for _ in range(spec.boards)))
            continue
        codes = []
        for board in range(spec.boards):
            if rng.random() < FORFEITED_BOARD:
                codes.append(rng.choice("+-"))
                continue
            ours, theirs = spec.ratings[white - 1][board], spec.ratings[black - 1][board]
            expected = 1 / (1 + 10 ** ((theirs - ours) / 400))
            draw = 0.3
            roll = rng.random()
            if roll < expected - draw / 2:
                codes.append("1")
            elif roll < expected + draw / 2:
                codes.append("=")
            else:
                codes.append("0")
        results.append(tuple(codes))
    return RoundPlay(tuple(pairs), bye, tuple(results))


_OPPOSITE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def write_trf(spec: EventSpec, played: list[RoundPlay]) -> str:
    """The event after the rounds in ``played``, as a TRF file."""
    entries: dict[int, list[str]] = {spec.player(t, b): []
                                     for t in range(1, spec.teams + 1)
                                     for b in range(spec.boards)}
    for play in played:
        seen = set()
        for (white, black), codes in zip(play.pairs, play.results, strict=True):
            for board, code in enumerate(codes):
                w_colour, b_colour = ("w", "b") if board % 2 == 0 else ("b", "w")
                ours, theirs = spec.player(white, board), spec.player(black, board)
                entries[ours].append(f"{theirs:4d} {w_colour} {code}")
                entries[theirs].append(f"{ours:4d} {b_colour} {_OPPOSITE[code]}")
                seen.update((ours, theirs))
        for player, fields in entries.items():
            if player not in seen:
                team = (player - 1) // spec.boards + 1
                fields.append("0000 - U" if team == play.bye else "0000 - Z")
    lines = [
        f"012 Generated team event {spec.seed}",
        f"062 {spec.teams * spec.boards}",
        f"082 {spec.teams}",
        f"192 {spec.code}",
        f"352 {'WB' * spec.boards}"[:4 + spec.boards],  # board colours of the first team
        f"XXR {spec.rounds}",
    ]
    for tpn in range(1, spec.teams + 1):  # team records first: readers resolve games by them
        members = " ".join(f"{spec.player(tpn, b):4d}" for b in range(spec.boards))
        lines.append(f"013 {f'Team {tpn}':<32}{members}")
    for tpn in range(1, spec.teams + 1):
        for board in range(spec.boards):
            player = spec.player(tpn, board)
            name = f"Team {tpn} board {board + 1}"
            head = (f"001 {player:4d} m    {name:<33} {spec.ratings[tpn - 1][board]:4d} "
                    f"{'':3} {'':11} {'':10} {0:4.1f} {player:4d}")
            lines.append(head + "".join(f"  {field}" for field in entries[player]))
    return "\n".join(lines) + "\n"
