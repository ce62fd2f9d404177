"""Test support for the TCEC system: tournament builders and an independent reference.

:class:`ReferenceTcec` is a second, deliberately naive implementation written straight from the
TCEC page: it keeps its encounter history *in memory* across rounds (as the TCEC software
does) and decides viability by brute-force search instead of a blossom matching. The engine
derives the history from the stored rounds instead, so agreement between the two over many
random tournaments checks both the rules and the replay argument of :mod:`swiss.pairing.tcec`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache

from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, PairingResult, pair_round

PLAYED = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW
TCEC = PairingConfig(system="tcec")
TCEC_DOUBLE = PairingConfig(system="tcec", double_rounds=True)


def players(n: int, seeds: Sequence[int] | None = None) -> tuple[Player, ...]:
    """Players 1..n; ``seeds[i]`` is the seed number of player i+1 (default: the id)."""
    orders = list(seeds) if seeds is not None else [0] * n
    return tuple(Player(i, f"P{i}", 2800 - 10 * i, orders[i - 1]) for i in range(1, n + 1))


def tournament(n: int, rounds: Iterable[Round] = (), **kwargs: object) -> Tournament:
    return Tournament(players=players(n), rounds=tuple(rounds), **kwargs)  # type: ignore[arg-type]


def hand_round(number: int, games: Iterable[tuple[int, int, Result]],
               byes: Iterable[int] = (), kind: ByeKind = ByeKind.PAIRING) -> Round:
    """A round written by hand: (white, black, result) triples and pairing byes."""
    return Round(
        number,
        tuple(Game(w, b, r, board=i) for i, (w, b, r) in enumerate(games, start=1)),
        tuple(Bye(p, kind) for p in byes),
    )


def with_results(pairing: PairingResult, results: Iterable[Result]) -> Round:
    games = tuple(g.with_result(r) for g, r in zip(pairing.games, results, strict=True))
    return Round(pairing.round_number, games, pairing.byes)


def play(t: Tournament, config: PairingConfig, rng: random.Random) -> tuple[Tournament,
                                                                           PairingResult]:
    """Pair the next round with the engine and give every game a random result."""
    pairing = pair_round(t, config)
    results = [rng.choice(PLAYED) for _ in pairing.games]
    return t.with_round(with_results(pairing, results)), pairing


def pairs_of(pairing: PairingResult | Round) -> set[frozenset[int]]:
    return {frozenset(g.players) for g in pairing.games}


# -- the independent reference --------------------------------------------------------------
def _has_pairing(players_left: tuple[int, ...], ok: Callable[[int, int], bool]) -> bool:
    @cache
    def search(left: tuple[int, ...]) -> bool:
        if not left:
            return True
        head, tail = left[0], left[1:]
        return any(
            ok(head, q) and search(tuple(x for x in tail if x != q)) for q in tail
        )

    return search(players_left)


class ReferenceTcec:
    """The TCEC page, step by step, with its state held in memory between rounds."""

    def __init__(self, seeds: dict[int, int], double: bool = False) -> None:
        self.seed = dict(seeds)
        self.double = double
        self.score = {p: Fraction(0) for p in seeds}
        self.wgd = {p: 0 for p in seeds}
        self.byes = {p: 0 for p in seeds}
        self.history: list[set[frozenset[int]]] = []  # kept rounds, earliest first
        self.removed = 0

    def ok(self, a: int, b: int) -> bool:
        met = any(frozenset((a, b)) in rnd for rnd in self.history)
        return not met and abs(self.wgd[a] + self.wgd[b]) <= 2

    def pair(self, number: int) -> tuple[list[tuple[int, int]], int | None]:
        """Return the games (white, black) in playing order and the bye player."""
        order = sorted(self.seed, key=lambda p: (-self.score[p], self.seed[p]))
        bye = None
        if len(order) % 2:
            bye = sorted(order, key=lambda p: (-self.byes[p], order.index(p)))[-1]
        to_pair = [p for p in order if p != bye]
        while not _has_pairing(tuple(to_pair), self.ok):
            self.history.pop(0)
            self.removed += 1
        pairs: list[tuple[int, int]] = []
        rest = list(to_pair)
        while rest:
            first = rest[0]
            for q in rest[1:]:
                others = tuple(x for x in rest[1:] if x != q)
                if self.ok(first, q) and _has_pairing(others, self.ok):
                    pairs.append((first, q))
                    rest = list(others)
                    break
            else:
                raise AssertionError("reference: greedy step found nobody")
        self.history.append({frozenset(p) for p in pairs})
        games = []
        for first, second in sorted(pairs, key=lambda fs: order.index(fs[0]), reverse=True):
            if self.double:
                games.append((second, first))
                continue
            wf, ws = self.wgd[first], self.wgd[second]
            if wf != ws:
                black = first if wf > ws else second
            elif self.score[first] != self.score[second]:
                black = first if self.score[first] > self.score[second] else second
            else:
                black = second if number % 4 in (2, 3) else first
            games.append((first + second - black, black))
        if self.double:
            games += [(b, w) for w, b in games]
        return games, bye

    def record(self, games: Sequence[tuple[int, int, Result]], bye: int | None) -> None:
        for white, black, result in games:
            self.wgd[white] += 1
            self.wgd[black] -= 1
            self.score[white] += {W: 1, D: Fraction(1, 2), B: 0}[result]
            self.score[black] += {W: 0, D: Fraction(1, 2), B: 1}[result]
        if bye is not None:
            self.byes[bye] += 1
            self.score[bye] += 2 if self.double else 1
