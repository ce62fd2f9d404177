"""Simulated team events: how well each team format finds the truly strongest teams.

The strength model is per player. Each team draws a true strength from the configured
distribution; its players sit around it, board 1 strongest (``board_step`` points apart,
centred on the team's strength) plus a personal spread (``player_sd``). A team's *true
strength* is the mean of its players' strengths, and the true order sorts the teams by it.
Seeding uses ratings: each player's strength plus rating noise (``rating_sd``); teams are
numbered by their mean rating and line up their players by rating.

Two kinds of format:

* **FIDE team Swiss** (C.04.6, :mod:`swiss.teams.fide_team`) in any colour model, ranked by
  match points first or by game points first (then the other score, direct encounter, the
  extended Sonneborn-Berger and Buchholz, :mod:`swiss.teams.tiebreaks`, then pairing number).
  Every board is one game drawn from the outcome model; measured by Kendall tau and NDCG of
  the final ranking against the true order, and whether the winner is the strongest team.
* **The e-sports Swiss stage** (:mod:`swiss.teams.esports`): teams play maps, not boards;
  a map is won with the Elo expectation of the two teams' true strengths, a match is the
  best of one or three maps. Measured by the share of the true top half (the top 8 of 16)
  that advance, and whether all of them do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from swiss.sim.measures import kendall_tau, ndcg
from swiss.sim.outcomes import Milvang, OutcomeModel
from swiss.sim.strengths import StrengthDistribution, parse_strengths
from swiss.teams.esports import StageMatch, StageRules, pair_stage
from swiss.teams.fide_team import pair_fide_team
from swiss.teams.model import ColourModel, MatchKind, MatchRecord, ScoreName, Team, TeamRules
from swiss.teams.tiebreaks import default_team_tiebreaks, team_standings

ESPORTS = "esports-swiss"
COLOUR_MODELS: tuple[ColourModel, ...] = ("type-a", "type-b", "none")


@dataclass(frozen=True, slots=True)
class TeamFormat:
    """One column of a team experiment: a FIDE team Swiss variant or the e-sports stage."""

    label: str
    colour_model: ColourModel = "type-a"
    primary: ScoreName = "mp"
    esports: bool = False

    @property
    def rules(self) -> TeamRules:
        return TeamRules(colour_model=self.colour_model, primary=self.primary)


def fide_team_formats(colour_models: Sequence[ColourModel] = COLOUR_MODELS,
                      primaries: Sequence[ScoreName] = ("mp", "gp")) -> list[TeamFormat]:
    """Every colour model with match points first and with game points first."""
    return [TeamFormat(f"{model} {primary.upper()} first", model, primary)
            for model in colour_models for primary in primaries]


ESPORTS_FORMAT = TeamFormat(ESPORTS, esports=True)


@dataclass(frozen=True, slots=True)
class TeamSimulationConfig:
    """The fixed part of a team experiment (each event draws its own teams from ``seed``)."""

    teams: int = 16
    boards: int = 4
    rounds: int = 7
    strengths: StrengthDistribution = field(
        default_factory=lambda: parse_strengths("uniform:1400:2200"))
    model: OutcomeModel = field(default_factory=Milvang)
    board_step: float = 25.0  # true strength between neighbouring boards of a team
    player_sd: float = 50.0  # players' spread around their team's line-up
    rating_sd: float = 50.0  # seeding ratings' error against true strength
    stage: StageRules = field(default_factory=StageRules)
    seed: int = 1

    def __post_init__(self) -> None:
        if self.teams < 2 or self.boards < 1:
            raise ValueError("a team event needs at least 2 teams of at least 1 board")
        if not 1 <= self.rounds < self.teams:
            raise ValueError(f"rounds must be between 1 and teams - 1 = {self.teams - 1}")


@dataclass(frozen=True, slots=True)
class TeamEventMeasures:
    """One simulated event. FIDE team Swiss: tau, NDCG, winner; e-sports: top-half share."""

    kendall_tau: float = float("nan")
    ndcg: float = float("nan")
    winner_is_strongest: float = float("nan")
    top_half_advanced: float = float("nan")  # share of the true top half that advanced
    all_top_half_advanced: float = float("nan")


@dataclass(frozen=True, slots=True)
class _Field:
    """One event's teams: true strengths per player (TPN order, board order) and team."""

    players: np.ndarray  # shape (teams, boards)
    true_order: list[int]  # TPNs, strongest first


def draw_field(config: TeamSimulationConfig, rng: np.random.Generator) -> _Field:
    """The teams of one event, numbered by mean rating, players by rating (see the module)."""
    team_strength = config.strengths.sample(rng, config.teams)
    offsets = config.board_step * ((config.boards - 1) / 2 - np.arange(config.boards))
    players = (team_strength[:, None] + offsets[None, :]
               + rng.normal(0.0, config.player_sd, (config.teams, config.boards)))
    ratings = players + rng.normal(0.0, config.rating_sd, players.shape)
    by_rating = np.argsort(-ratings, axis=1, kind="stable")  # each line-up by rating
    players = np.take_along_axis(players, by_rating, axis=1)
    ratings = np.take_along_axis(ratings, by_rating, axis=1)
    seeding = np.argsort(-ratings.mean(axis=1), kind="stable")  # TPN order
    players = players[seeding]
    truth = players.mean(axis=1)
    true_order = [int(i) + 1 for i in np.argsort(-truth, kind="stable")]
    return _Field(players, true_order)


def play_fide_team(config: TeamSimulationConfig, team_format: TeamFormat,
                   rng: np.random.Generator) -> TeamEventMeasures:
    """Play one FIDE team Swiss event and measure its final ranking."""
    drawn = draw_field(config, rng)
    rules = team_format.rules
    teams = [Team(tpn, f"Team {tpn}", tuple(range(config.boards)))
             for tpn in range(1, config.teams + 1)]
    by_tpn = {t.tpn: t for t in teams}
    for round_number in range(1, config.rounds + 1):
        pairing = pair_fide_team(teams, rules, round_number, config.rounds)
        for pair in pairing.pairs:
            _play_match(config, drawn, by_tpn, round_number, pair.white, pair.black, rng)
        if pairing.bye is not None:
            by_tpn[pairing.bye].history.append(MatchRecord(
                round_number, MatchKind.PAB, match_points=Fraction(1),
                game_points=Fraction(config.boards),
                boards=tuple(("-", "U") for _ in range(config.boards))))
    _specs, rows = team_standings(teams, rules.primary,
                                  default_team_tiebreaks(rules.primary),
                                  total_rounds=config.rounds)
    ranking = [row.tpn for row in rows]
    return TeamEventMeasures(
        kendall_tau=kendall_tau(ranking, drawn.true_order),
        ndcg=ndcg(ranking, drawn.true_order),
        winner_is_strongest=float(ranking[0] == drawn.true_order[0]))


_CODE = {0: "1", 1: "0", 2: "="}  # white's code after a white win, black win, draw
_OPPOSITE = {"1": "0", "0": "1", "=": "="}


def _play_match(config: TeamSimulationConfig, drawn: _Field, by_tpn: dict[int, Team],
                round_number: int, white: int, black: int, rng: np.random.Generator) -> None:
    """Every board of one match, then both teams' records (board 1: ``white`` has White)."""
    ours: list[tuple[str, str]] = []
    theirs: list[tuple[str, str]] = []
    for board in range(config.boards):
        we_are_white = board % 2 == 0
        a, b = drawn.players[white - 1, board], drawn.players[black - 1, board]
        white_strength, black_strength = (a, b) if we_are_white else (b, a)
        p_white, p_black, _draw = config.model.probabilities(float(white_strength),
                                                             float(black_strength))
        u = rng.random()
        code = _CODE[0 if u < p_white else 1 if u < p_white + p_black else 2]
        mine = code if we_are_white else _OPPOSITE[code]
        ours.append(("w" if we_are_white else "b", mine))
        theirs.append(("b" if we_are_white else "w", _OPPOSITE[mine]))
    points = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0)}
    gp_white = sum((points[c] for _colour, c in ours), Fraction(0))
    gp_black = config.boards - gp_white
    for tpn, opponent, colour, gp, other, boards in (
            (white, black, "w", gp_white, gp_black, ours),
            (black, white, "b", gp_black, gp_white, theirs)):
        mp = Fraction(2) if gp > other else Fraction(1) if gp == other else Fraction(0)
        by_tpn[tpn].history.append(MatchRecord(round_number, MatchKind.PLAYED, opponent,
                                               colour, mp, gp, tuple(boards)))  # type: ignore[arg-type]


def play_esports(config: TeamSimulationConfig, rng: np.random.Generator) -> TeamEventMeasures:
    """Play one e-sports Swiss stage and measure who advanced."""
    drawn = draw_field(config, rng)
    strength = drawn.players.mean(axis=1)
    seeds = list(range(1, config.teams + 1))
    results: list[StageMatch] = []
    advanced: tuple[int, ...] = ()
    # Every round each team still in the stage wins (a bye too) or loses, so the stage is
    # over after wins + losses - 1 rounds; the call after the last one reports who advanced.
    last = config.stage.wins_to_advance + config.stage.losses_to_eliminate
    for round_number in range(1, last + 1):
        pairing = pair_stage(seeds, results, round_number, config.stage)
        advanced = pairing.advanced
        if not pairing.matches and pairing.bye is None:
            break
        for high, low, best_of in pairing.matches:
            p_map = 1.0 / (1.0 + 10.0 ** ((strength[low - 1] - strength[high - 1]) / 400.0))
            needed, won, lost = best_of // 2 + 1, 0, 0
            while won < needed and lost < needed:
                if rng.random() < p_map:
                    won += 1
                else:
                    lost += 1
            winner, loser = (high, low) if won == needed else (low, high)
            results.append(StageMatch(round_number, winner, loser))
        if pairing.bye is not None:
            results.append(StageMatch(round_number, pairing.bye, None))
    half = config.teams // 2
    top = set(drawn.true_order[:half])
    share = len(top & set(advanced)) / half if half else float("nan")
    return TeamEventMeasures(top_half_advanced=share,
                             all_top_half_advanced=float(share == 1.0))


def event_rng(config: TeamSimulationConfig, index: int) -> np.random.Generator:
    """Event ``index`` draws the same teams in every format (a paired design: the formats
    differ only in how they pair and rank, not in the fields they face)."""
    return np.random.default_rng([config.seed, index])


def simulate_teams(config: TeamSimulationConfig, formats: Sequence[TeamFormat],
                   tournaments: int) -> dict[str, list[TeamEventMeasures]]:
    """``tournaments`` events per format, every format facing the same fields."""
    results: dict[str, list[TeamEventMeasures]] = {f.label: [] for f in formats}
    for team_format in formats:
        for index in range(tournaments):
            rng = event_rng(config, index)
            measures = (play_esports(config, rng) if team_format.esports
                        else play_fide_team(config, team_format, rng))
            results[team_format.label].append(measures)
    return results
