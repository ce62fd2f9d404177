"""Helpers for pairing tests: build tournaments and play rounds with given or random results."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.mwm import PairingGraph

PLAYED = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


def new_tournament(n: int, rounds: int = 0, **kwargs: object) -> Tournament:
    players = tuple(Player(i, f"Player {i}", 2400 - 10 * i) for i in range(1, n + 1))
    return Tournament(players=players, total_rounds=rounds, **kwargs)  # type: ignore[arg-type]


def play(tournament: Tournament, config: PairingConfig, rng: random.Random,
         results: Sequence[Result] = PLAYED) -> Tournament:
    """Pair the next round and give every game a random result."""
    pairing = pair_round(tournament, config)
    games = tuple(g.with_result(rng.choice(results)) for g in pairing.games)
    return tournament.with_round(Round(pairing.round_number, games, pairing.byes))


def round_of(number: int, pairs: Iterable[tuple[int, int, Result]],
             byes: Iterable[tuple[int, ByeKind]] = ()) -> Round:
    games = tuple(Game(w, b, r, board=i) for i, (w, b, r) in enumerate(pairs, start=1))
    return Round(number, games, tuple(Bye(p, k) for p, k in byes))


def component_totals(graph: PairingGraph, matching: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """The lexicographic objective of a matching: per component the sum of benefits."""
    signs = graph.benefit_sign
    totals = [0] * len(signs)
    for u, v in matching:
        for c, value in enumerate(graph.raw[(min(u, v), max(u, v))]):
            totals[c] += value if signs[c] > 0 else -value
    return tuple(totals)


def brute_force_best(graph: PairingGraph) -> tuple[int, tuple[int, ...]]:
    """(cardinality, objective) of the best matching, by enumerating every matching."""
    n = len(graph.vertices) + (1 if graph.has_bye else 0)
    adjacency: dict[int, list[int]] = {u: [] for u in range(n)}
    for u, v in graph.raw:
        adjacency[u].append(v)
    best: tuple[int, tuple[int, ...]] | None = None

    def search(free: frozenset[int], chosen: list[tuple[int, int]]) -> None:
        nonlocal best
        if not free:
            key = (len(chosen), component_totals(graph, chosen))
            if best is None or key > best:
                best = key
            return
        u = min(free)
        rest = free - {u}
        search(rest, chosen)  # leave u unmatched
        for v in adjacency[u]:
            if v in rest:
                chosen.append((u, v))
                search(rest - {v}, chosen)
                chosen.pop()

    search(frozenset(range(n)), [])
    assert best is not None
    return best


def matching_of(
    graph: PairingGraph, games: Iterable[Game], pab: int | None
) -> list[tuple[int, int]]:
    index = {e.player.id: i for i, e in enumerate(graph.vertices)}
    pairs = [(index[g.white], index[g.black]) for g in games]
    if pab is not None:
        pairs.append((index[pab], len(graph.vertices)))
    return pairs


def all_pairs(ids: Sequence[int]) -> list[tuple[int, int]]:
    return list(itertools.combinations(ids, 2))
