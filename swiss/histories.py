"""Event histories of any size, for benchmarks and scale tests: four shapes that differ in kind.

The time and memory a round costs depend on the shape of the event before it (how big the
score groups are, how far the earlier pairings were from the standings' neighbours, how many
half points and late entries there are), so the engine is measured on several:

* ``project`` -- a quick greedy Swiss: down the standings, each player against the first of
  the next 50 he has not met; results uniformly white win, black win or draw.
* ``dutch`` -- Dutch-like: inside each score group (ordered by rating) the top half against
  the bottom half, the next unmet partner of the bottom half when a pair has met or when
  their colours cannot both stay within a difference of 2, the odd player floating down;
  colours to the lower colour difference, then alternating; results from Milvang's model on
  the ratings.
* ``random`` -- random pairings without rematches (a club night with no seeding), Milvang
  results.
* ``draws`` -- a draw-heavy event (half the games drawn) with late entries: a tenth of the
  players join in rounds 2 to 4 (absent before, no points), paired like ``dutch``.

Every generator is deterministic for its ``seed`` and builds only what a Swiss event holds
(players, rounds of games, one pairing-allocated bye when the count is odd), so the same
:class:`~swiss.model.Tournament` can be paired in-process or written as TRF.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from swiss.model import Bye, ByeKind, Color, Game, Player, Result, Round, Tournament
from swiss.sim.outcomes import milvang_probabilities

KINDS = ("project", "dutch", "random", "draws")
_WINDOW = 50  # how far down the list a greedy pairing looks for an unmet partner


class _Event:
    """The little a generator needs per player: score (half points), colour difference, met."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.rng = rng
        self.players = tuple(Player(i, f"P{i}", 2600 - (i - 1) * 1600 // max(n - 1, 1))
                             for i in range(1, n + 1))
        self.rating = {p.id: p.rating for p in self.players}
        self.halves = dict.fromkeys(self.rating, 0)
        self.colour_diff = dict.fromkeys(self.rating, 0)
        self.met: dict[int, set[int]] = {p: set() for p in self.rating}
        self.had_bye: set[int] = set()
        self.last_white = dict.fromkeys(self.rating, False)
        self.alternate = True  # equal colour differences: White to who had Black last
        self.rounds: list[Round] = []

    def standings(self, present: Sequence[int]) -> list[int]:
        return sorted(present, key=lambda p: (-self.halves[p], p))

    def bye_for(self, order: list[int]) -> int | None:
        """The lowest player without a bye yet takes it when the count is odd."""
        if len(order) % 2 == 0:
            return None
        pick = next((p for p in reversed(order) if p not in self.had_bye), order[-1])
        order.remove(pick)
        return pick

    def play(self, number: int, pairs: list[tuple[int, int]], bye: int | None,
             result_of: Callable[[int, int], Result]) -> None:
        games = []
        for a, b in pairs:
            white, black = (a, b) if self._whites_first(a, b) else (b, a)
            result = result_of(white, black)
            games.append(Game(white, black, result, board=len(games) + 1))
            self.met[a].add(b)
            self.met[b].add(a)
            self.colour_diff[white] += 1
            self.colour_diff[black] -= 1
            self.last_white[white], self.last_white[black] = True, False
            self.halves[white] += _HALVES_WHITE[result]
            self.halves[black] += 2 - _HALVES_WHITE[result]
        byes: tuple[Bye, ...] = ()
        if bye is not None:
            self.had_bye.add(bye)
            self.halves[bye] += 2
            byes = (Bye(bye, ByeKind.PAIRING),)
        self.rounds.append(Round(number, tuple(games), byes))

    def compatible(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` can meet with neither colour difference beyond 2."""
        return abs(self.colour_diff[a] + self.colour_diff[b]) < 4

    def _whites_first(self, a: int, b: int) -> bool:
        """Whether ``a`` gets White against ``b``: the lower colour difference, then (unless
        the historical generator) the one who had Black last, then ``a``."""
        if self.colour_diff[a] != self.colour_diff[b] or not self.alternate:
            return self.colour_diff[a] <= self.colour_diff[b]
        return not self.last_white[a] or self.last_white[b]

    def tournament(self, total_rounds: int) -> Tournament:
        return Tournament(players=self.players, rounds=tuple(self.rounds),
                          total_rounds=total_rounds, initial_color=Color.WHITE)

    def milvang(self, draw_share: float | None = None) -> Callable[[int, int], Result]:
        """Results from Milvang's model; ``draw_share`` overrides its draw probability."""
        def result(white: int, black: int) -> Result:
            win, loss, _draw = milvang_probabilities(self.rating[white], self.rating[black])
            if draw_share is not None:  # the decisive results share what the draws leave
                scale = (1 - draw_share) / max(win + loss, 1e-9)
                win, loss = win * scale, loss * scale
            x = self.rng.random()
            if x < win:
                return Result.WHITE_WINS
            return Result.BLACK_WINS if x < win + loss else Result.DRAW
        return result


_HALVES_WHITE = {Result.WHITE_WINS: 2, Result.DRAW: 1, Result.BLACK_WINS: 0}


def _greedy_pairs(event: _Event, order: list[int]) -> list[tuple[int, int]]:
    """Down ``order``: each player against the first of the next 50 he has not met."""
    free = list(order)
    pairs = []
    while len(free) >= 2:
        a = free.pop(0)
        partner = next((b for b in free[:_WINDOW] if b not in event.met[a]), free[0])
        free.remove(partner)
        pairs.append((a, partner))
    return pairs


def _dutch_pairs(event: _Event, order: list[int]) -> list[tuple[int, int]]:
    """Score group by score group: top half against bottom half, no rematch, odd one down."""
    pairs: list[tuple[int, int]] = []
    carried: list[int] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and event.halves[order[end]] == event.halves[order[start]]:
            end += 1
        group = carried + order[start:end]
        start = end
        carried = []
        if len(group) % 2 and start < len(order):
            carried = [group.pop()]  # the lowest floats down
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        for a in top:
            # the first unmet that keeps both colour differences within 2 (the Dutch
            # system's absolute colour criterion), else the first unmet
            partner = next((b for b in bottom if b not in event.met[a]
                            and event.compatible(a, b)), None)
            if partner is None:
                partner = next((b for b in bottom[:_WINDOW] if b not in event.met[a]), None)
            if partner is None:
                carried.append(a)  # no unmet partner here: tried again in the next group
                continue
            bottom.remove(partner)
            pairs.append((a, partner))
        carried += bottom
    # the last leftovers (rare): greedily, rematches only when nothing else is left
    pairs += _greedy_pairs(event, carried)
    return pairs


def _random_pairs(event: _Event, order: list[int]) -> list[tuple[int, int]]:
    shuffled = list(order)
    event.rng.shuffle(shuffled)
    return _greedy_pairs(event, shuffled)


def history(kind: str, players: int, rounds: int, seed: int = 1) -> Tournament:
    """``rounds`` played rounds of ``players`` players in the shape ``kind`` (see KINDS).

    The tournament is set for ``rounds + 1`` rounds at least, so its next round can be paired.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown history {kind!r}; use one of {', '.join(KINDS)}")
    if kind == "project":
        return _project_history(players, rounds, seed)
    event = _Event(players, random.Random(f"{kind}:{players}:{seed}"))
    late: dict[int, int] = {}
    if kind == "draws":
        for p in event.rng.sample(range(1, players + 1), players // 10):
            late[p] = event.rng.randint(2, 4)
    pairing = _random_pairs if kind == "random" else _dutch_pairs
    results = event.milvang(0.5 if kind == "draws" else None)
    for number in range(1, rounds + 1):
        present = [p for p in event.rating if late.get(p, 1) <= number]
        order = event.standings(present)
        bye = event.bye_for(order)
        event.play(number, pairing(event, order), bye, results)
    return event.tournament(rounds + 1)


def _project_history(n: int, rounds: int, seed: int) -> Tournament:
    """The benchmark's historical greedy Swiss (kept as it was, so old figures compare)."""
    rng = random.Random(seed)
    event = _Event(n, rng)
    event.alternate = False
    event.players = tuple(Player(i, f"P{i}", 2600 - i % 2000) for i in range(1, n + 1))
    outcomes = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
    for number in range(1, rounds + 1):
        order = event.standings(list(event.rating))
        pairs = _greedy_pairs(event, order)
        event.play(number, pairs, None, lambda _w, _b: rng.choice(outcomes))
    return event.tournament(rounds + 1)
