"""Play one simulated tournament and measure it (the paper's experiment, one sample at a time).

A tournament is fully determined by ``(config, system, index)``:

* the players (true strengths, Elo ratings, start numbers) come from the stream
  ``(config.seed, index)`` -- the same field of players for every system, so systems are
  compared on identical fields (common random numbers, which tightens their differences);
* the results, the random pairing systems, the first-round colour coin and the final lot come
  from the stream ``(config.seed, system, index)``.

Nothing depends on which process plays which tournament, so a run gives the same numbers for
any number of worker processes (the bot layer runs them in a pool).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from swiss.model import Bye, ByeKind, Color, Game, Player, Result, Round, Scoring, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.types import SCORE_TIERS
from swiss.sim.fastpair import (
    FAST_SYSTEMS,
    PlainPairing,
    PlainState,
    pair_plain,
    pair_plain_paper,
)
from swiss.sim.measures import kendall_tau, ndcg, spearman_rho
from swiss.sim.outcomes import Milvang, OutcomeModel, draw_result
from swiss.sim.strengths import UNIFORM_DEFAULT, StrengthDistribution, draw_elo, seeding_order

# Strength differences enter the maximum-strength-difference matching as integers in this unit
# (1/1000 of a rating point): far finer than anything that could change the optimum's ratio.
STRENGTH_UNIT = 1000

_STREAM_PLAYERS = 0
_STREAM_SYSTEM = 1

Pairer = Callable[[Tournament], Round]


@dataclass(frozen=True, slots=True)
class SimulationConfig:
    """The fixed part of an experiment: field, length, rules, models and the run seed.

    ``tiebreaks`` is a preset or list for :func:`swiss.standings.compute_standings`, or
    ``"none"`` for points then lot only. ``final_key`` breaks the last ties by ``lot`` (the
    issue's rule) or by ``rating`` (start number, i.e. Elo, as the paper's Elo tie-break).
    ``strength_difference`` turns the normalized strength difference on (one more matching
    per round). ``weights="paper"`` pairs our systems with the paper's literal, not exactly
    lexicographic weights (:func:`swiss.sim.fastpair.pair_plain_paper`), to compare.
    ``scoring`` is ``"chess"`` (1 / ½ / 0) or ``"match"`` (3 / 1 / 0, a pairing bye is a win):
    it decides the score groups, the floats and the final ranking.
    """

    players: int = 32
    rounds: int = 7
    strengths: StrengthDistribution = UNIFORM_DEFAULT
    model: OutcomeModel = field(default_factory=Milvang)
    beta: Fraction = Fraction(2)
    policy: str = "avoid"
    tiebreaks: str | tuple[str, ...] = "fide"
    final_key: str = "lot"
    seed: int = 1
    strength_difference: bool = True
    weights: str = "engine"  # or "paper": the paper's literal 10000/100 factors (analysis)
    scoring: str = "chess"  # or "match": 3/1/0
    score_tier: str = "lexicographic"  # or "paper": the paper's sum of score differences
    # The Elo ratings' noise around the true strengths: None is the paper's (3000 - s) / 20
    # (about 40-80 points); a number is one standard deviation for every player.
    elo_sd: float | None = None

    def __post_init__(self) -> None:
        if self.players < 2:
            raise ValueError("a simulated tournament needs at least 2 players")
        if self.rounds < 1:
            raise ValueError("a simulated tournament needs at least 1 round")
        if self.rounds >= self.players:
            raise ValueError(
                f"{self.rounds} rounds need more than {self.players} players without rematches"
            )
        if self.score_tier not in SCORE_TIERS:
            raise ValueError(
                f"unknown score tier {self.score_tier!r}; use {' or '.join(SCORE_TIERS)}"
            )
        if self.elo_sd is not None and not 0 <= self.elo_sd <= 1000:
            raise ValueError("the Elo noise must be between 0 and 1000 rating points")
        if self.weights not in ("engine", "paper"):
            raise ValueError("weights must be 'engine' or 'paper'")
        if self.final_key not in ("lot", "rating"):
            raise ValueError("final_key must be 'lot' or 'rating'")
        if self.scoring not in _UNITS:
            raise ValueError("scoring must be 'chess' or 'match'")
        if self.scoring != "chess" and self.weights == "paper":
            raise ValueError("the paper's weights are defined for chess scoring only")
        object.__setattr__(self, "beta", Fraction(self.beta))


@dataclass(frozen=True, slots=True)
class EnginePairer:
    """Pairs with our engine (:func:`swiss.pairing.pair_round`) and the tournament's seed.

    ``rules`` is the FIDE C.04.3 edition when ``system`` is ``fide-dutch`` (ignored otherwise).
    """

    system: str
    beta: Fraction = Fraction(2)
    policy: str = "avoid"
    rules: str = "2025"
    score_tier: str = "lexicographic"

    def __call__(self, tournament: Tournament) -> Round:
        config = PairingConfig(
            system=self.system, beta=self.beta, policy=self.policy,  # type: ignore[arg-type]
            seed=tournament.seed, rules=self.rules, explain=False,  # only the round is kept
            score_tier=self.score_tier,
        )
        return pair_round(tournament, config).to_round()


@dataclass(frozen=True, slots=True)
class TournamentMeasures:
    """Everything measured on one simulated tournament."""

    system: str
    index: int
    kendall_tau: float
    spearman_rho: float
    ndcg: float
    float_pairs: int
    acd: tuple[int, ...]  # absolute colour difference after each round
    mean_strength_diff: float
    paradoxical_share: float
    strength_diff_ratio: float  # normalized strength difference (nan when not measured)
    games: int
    draws: int
    winner_is_strongest: bool
    floats: tuple[int, ...] = ()  # float pairs in each round (they sum to float_pairs)

    def as_row(self) -> dict[str, float | int | str]:
        """A flat row for CSV: one column per scalar, ``acd_rK`` and ``floats_rK`` per round."""
        row: dict[str, float | int | str] = {
            "system": self.system,
            "tournament": self.index,
            "kendall_tau": self.kendall_tau,
            "spearman_rho": self.spearman_rho,
            "ndcg": self.ndcg,
            "float_pairs": self.float_pairs,
            "mean_strength_diff": self.mean_strength_diff,
            "paradoxical_share": self.paradoxical_share,
            "strength_diff_ratio": self.strength_diff_ratio,
            "games": self.games,
            "draws": self.draws,
            "winner_is_strongest": int(self.winner_is_strongest),
        }
        for r, value in enumerate(self.acd, start=1):
            row[f"acd_r{r}"] = value
        for r, value in enumerate(self.floats, start=1):
            row[f"floats_r{r}"] = value
        return row


@dataclass(frozen=True, slots=True)
class SimulatedTournament:
    """A played tournament with its hidden truth: strengths by player id, and its measures."""

    tournament: Tournament
    strengths: dict[int, float]
    ranking: tuple[int, ...]  # final ranking, best first
    measures: TournamentMeasures


def system_code(label: str) -> int:
    """A stable number for a system label (``hash`` is salted per process; crc32 is not)."""
    return zlib.crc32(label.encode("utf-8"))


def make_players(
    config: SimulationConfig, index: int
) -> tuple[tuple[Player, ...], dict[int, float]]:
    """The field of tournament ``index``: players by Elo (start numbers 1..n) and strengths."""
    rng = np.random.default_rng([config.seed, _STREAM_PLAYERS, index])
    strengths = config.strengths.sample(rng, config.players)
    elo = draw_elo(rng, strengths, config.elo_sd)
    order = seeding_order(rng, elo)
    players = tuple(
        Player(id=i, name=f"P{i:03d}", rating=int(elo[j]), order=i)
        for i, j in enumerate(order, start=1)
    )
    by_id = {i: float(strengths[j]) for i, j in enumerate(order, start=1)}
    return players, by_id


def play_tournament(
    config: SimulationConfig,
    system: str,
    index: int,
    pairer: Pairer | None = None,
    *,
    fast: bool = True,
) -> SimulatedTournament:
    """Play and measure tournament ``index`` of ``system`` (our engine unless ``pairer``).

    Deterministic in ``(config, system, index)``. With ``fast`` (the default) our engine's
    systems are paired by :mod:`swiss.sim.fastpair`, which gives the engine's pairings from
    arrays; ``fast=False`` calls :func:`swiss.pairing.pair_round` every round (the reference).
    """
    players, strength = make_players(config, index)
    n = len(players)
    rng = np.random.default_rng([config.seed, _STREAM_SYSTEM, system_code(system), index])
    game_seed = int(rng.integers(0, 2**31 - 1))
    # The round-1 colour of the top board: a coin, written into the tournament (TRF XXC) so that
    # external engines, which need it, see the same one as ours.
    initial = Color.WHITE if rng.random() < 0.5 else Color.BLACK
    pair = pairer or EnginePairer(system, config.beta, config.policy,
                                  score_tier=config.score_tier)
    win_units, draw_units = _UNITS[config.scoring]
    ratings = np.array([p.rating for p in players], dtype=np.int64)  # the posterior's prior
    plain = (
        PlainState(n, win_units, draw_units, ratings)
        if fast and pairer is None and system in FAST_SYSTEMS else None
    )
    by_index = np.array([strength[i] for i in range(1, n + 1)])
    gap_matrix = np.rint(np.abs(by_index[:, None] - by_index[None, :]) * STRENGTH_UNIT).astype(
        np.int64
    )
    rounds: list[Round] = []

    def so_far() -> Tournament:
        return Tournament(
            players=players, rounds=tuple(rounds), total_rounds=config.rounds,
            use_colors=True, initial_color=initial, seed=game_seed, name=f"sim {system} #{index}",
            scoring=scoring,
        )

    scoring = _SCORINGS[config.scoring]
    points = {2: float(scoring.win), 1: float(scoring.draw), 0: float(scoring.loss)}

    score = {p.id: 0.0 for p in players}
    color_diff = {p.id: 0 for p in players}
    float_pairs = games = draws = paradoxical = 0
    strength_gap = 0.0
    max_total = 0.0
    acd: list[int] = []
    floats: list[int] = []
    model = config.model
    for number in range(1, config.rounds + 1):
        if plain is not None and config.weights == "paper":
            pairs = pair_plain_paper(plain, system, beta=config.beta, rng=rng)
        else:
            pairs = _fast_pairs(plain, number, system, config, game_seed, initial)
        if pairs is not None:
            games_of_round, bye_index = pairs
            pending: tuple[Game, ...] = tuple(
                Game(white=w + 1, black=b + 1, board=board)
                for board, (w, b) in enumerate(games_of_round, start=1)
            )
            byes: tuple[Bye, ...] = (
                () if bye_index is None else (Bye(bye_index + 1, ByeKind.PAIRING),)
            )
        else:
            rnd = pair(so_far())
            pending, byes = rnd.games, rnd.byes
        if config.strength_difference:
            max_total += _max_gap(plain, number, config, game_seed, gap_matrix, strength, so_far)
        uniforms = rng.random(len(pending))
        played = []
        floats_before = float_pairs
        for game, u in zip(pending, uniforms, strict=True):
            w, b = game.white, game.black
            result = draw_result(model.probabilities(strength[w], strength[b]), float(u))
            played.append(game.with_result(result))
            strength_gap += abs(strength[w] - strength[b])
            games += 1
            if score[w] != score[b]:
                float_pairs += 1
            points_white = _WHITE_POINTS[result]
            if points_white == 0.5:
                draws += 1
            elif (points_white == 1.0) == (strength[w] < strength[b]):
                paradoxical += 1
            color_diff[w] += 1
            color_diff[b] -= 1
        for game in played:
            half = _WHITE_HALF_POINTS[game.result]
            score[game.white] += points[half]
            score[game.black] += points[2 - half]
        for bye in byes:
            score[bye.player] += float(scoring.for_bye(bye.kind))
        if plain is not None:
            pab = [b.player - 1 for b in byes if b.kind is ByeKind.PAIRING]
            plain.record_round(
                [(g.white - 1, g.black - 1, int(2 * _WHITE_POINTS[g.result])) for g in played],
                pab[0] if pab else None,
            )
        acd.append(sum(abs(cd) for cd in color_diff.values()))
        floats.append(float_pairs - floats_before)
        rounds.append(Round(number, tuple(played), byes))

    tournament = so_far()
    lot_seed = int(rng.integers(0, 2**31 - 1))
    ranking = final_ranking(tournament, config, lot_seed)
    truth = sorted(strength, key=lambda pid: -strength[pid])
    measures = TournamentMeasures(
        system=system,
        index=index,
        kendall_tau=kendall_tau(ranking, truth),
        spearman_rho=spearman_rho(ranking, truth),
        ndcg=ndcg(ranking, truth),
        float_pairs=float_pairs,
        acd=tuple(acd),
        mean_strength_diff=strength_gap / games if games else math.nan,
        paradoxical_share=paradoxical / games if games else math.nan,
        strength_diff_ratio=(
            strength_gap / max_total if config.strength_difference and max_total > 0 else math.nan
        ),
        games=games,
        draws=draws,
        winner_is_strongest=ranking[0] == truth[0],
        floats=tuple(floats),
    )
    return SimulatedTournament(tournament, strength, tuple(ranking), measures)


def _fast_pairs(
    plain: PlainState | None,
    number: int,
    system: str,
    config: SimulationConfig,
    seed: int,
    initial: Color,
) -> PlainPairing | None:
    if plain is None:
        return None
    return pair_plain(
        plain, number, system, beta=config.beta, policy=config.policy, seed=seed,
        initial_color=initial, score_tier=config.score_tier,
    )


def _max_gap(
    plain: PlainState | None,
    number: int,
    config: SimulationConfig,
    seed: int,
    gap_matrix: np.ndarray,
    strength: dict[int, float],
    so_far: Callable[[], Tournament],
) -> float:
    """The round's maximum total strength difference (fast path, else the engine's)."""
    if plain is not None:
        pairs = pair_plain(
            plain, number, "burstein", beta=config.beta, policy=config.policy, seed=seed,
            initial_color=Color.WHITE, pi=gap_matrix,  # colours do not matter here
            score_tier=config.score_tier,
        )
        if pairs is not None:
            return sum(abs(strength[w + 1] - strength[b + 1]) for w, b in pairs[0])
    return max_strength_difference(so_far(), strength, config)


def max_strength_difference(
    tournament: Tournament, strength: dict[int, float], config: SimulationConfig
) -> float:
    """The largest total strength difference of any pairing our engine would allow now.

    The paper's analytical tool: Burstein's weights with pi = |str(a) - str(b)|, so the score
    and colour terms still come first and only the system term is replaced.
    """
    from swiss.pairing.mwm import pair_mwm

    def pi(a: int, b: int) -> int:
        return round(abs(strength[a] - strength[b]) * STRENGTH_UNIT)

    pairing_config = PairingConfig(
        system="burstein", beta=config.beta, policy=config.policy,  # type: ignore[arg-type]
        seed=tournament.seed, score_tier=config.score_tier,
    )
    result = pair_mwm(tournament, pairing_config, pi_override=pi)
    return sum(abs(strength[g.white] - strength[g.black]) for g in result.games)


def final_ranking(tournament: Tournament, config: SimulationConfig, lot_seed: int) -> list[int]:
    """Player ids best first: points, then the tiebreaks, then lot (or rating)."""
    if config.tiebreaks == "none" or config.tiebreaks == ():
        return _points_then_lot(tournament, config, lot_seed)
    from swiss.standings import compute_standings, resolve_tiebreaks

    if tuple(spec.acronym for spec in resolve_tiebreaks(config.tiebreaks))[:2] == BUCHHOLZ_FIRST:
        strict = _strict_buchholz_order(tournament, _UNITS[config.scoring])
        if strict is not None:
            return strict

    final_key = "order" if config.final_key == "rating" else "lot"
    standings = compute_standings(
        tournament, config.tiebreaks, final_key=final_key, lot_seed=lot_seed  # type: ignore[arg-type]
    )
    return [row.player_id for row in standings.rows]


BUCHHOLZ_FIRST = ("BH-C1", "BH")


def _strict_buchholz_order(
    tournament: Tournament, units: tuple[int, int] = (2, 1)
) -> list[int] | None:
    """The final order when points, Buchholz cut 1 and Buchholz already separate everyone.

    A shortcut for the FIDE presets (both start with BH-C1, BH): in a tournament where every
    game was played (no byes, forfeits or absences) those two are plain sums of opponents'
    points, and when no two players share (points, BH-C1, BH) the later tiebreaks and the lot
    cannot change the order. That holds for about 45 % of simulated 32-player events and saves
    the full standings computation; otherwise (``None``) the standings module decides.
    ``units`` are the (win, draw) points in integer units of the scoring: the sums are those
    of the standings up to one factor, which does not change the order.
    """
    win, draw = units
    by_half = (0, draw, win)
    score: dict[int, int] = {p.id: 0 for p in tournament.players}  # in ``units``
    opponents: dict[int, list[int]] = {p.id: [] for p in tournament.players}
    for rnd in tournament.rounds:
        if rnd.byes or 2 * len(rnd.games) != len(score):
            return None
        for game in rnd.games:
            half = _WHITE_HALF_POINTS.get(game.result)
            if half is None:
                return None
            score[game.white] += by_half[half]
            score[game.black] += by_half[2 - half]
            opponents[game.white].append(game.black)
            opponents[game.black].append(game.white)
    keys = {}
    for pid, opps in opponents.items():
        if not opps:
            return None
        values = [score[o] for o in opps]
        buchholz = sum(values)
        keys[pid] = (score[pid], buchholz - min(values), buchholz)
    if len(set(keys.values())) != len(keys):
        return None
    return sorted(keys, key=lambda pid: keys[pid], reverse=True)


_WHITE_HALF_POINTS = {Result.WHITE_WINS: 2, Result.BLACK_WINS: 0, Result.DRAW: 1}


def _points_then_lot(tournament: Tournament, config: SimulationConfig, lot_seed: int) -> list[int]:
    from swiss.state import scores

    points = scores(tournament)
    rng = np.random.default_rng(lot_seed)
    lot = {p.id: float(x) for p, x in zip(tournament.players, rng.random(len(tournament.players)),
                                          strict=True)}
    if config.final_key == "rating":
        return sorted(points, key=lambda pid: (-points[pid], tournament.player(pid).seed))
    return sorted(points, key=lambda pid: (-points[pid], lot[pid]))


# White's points for the results a simulation draws (only played games occur).
_WHITE_POINTS = {Result.WHITE_WINS: 1.0, Result.BLACK_WINS: 0.0, Result.DRAW: 0.5}
# The scorings a simulation knows, and their (win, draw) points in integer units (half points
# for chess, as the fast path keeps them; whole points for 3/1/0).
_SCORINGS = {"chess": Scoring.chess(), "match": Scoring.match_points()}
_UNITS = {"chess": (2, 1), "match": (3, 1)}


def simulate(
    config: SimulationConfig,
    system: str,
    indices: Sequence[int] | range,
    pairer: Pairer | None = None,
) -> list[TournamentMeasures]:
    """Measures of tournaments ``indices`` of ``system``, in order (one process)."""
    return [play_tournament(config, system, k, pairer).measures for k in indices]


__all__ = [
    "STRENGTH_UNIT",
    "EnginePairer",
    "Pairer",
    "SimulatedTournament",
    "SimulationConfig",
    "TournamentMeasures",
    "final_ranking",
    "make_players",
    "max_strength_difference",
    "play_tournament",
    "simulate",
    "system_code",
]
