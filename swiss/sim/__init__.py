"""The simulator: play many Swiss tournaments with known true strengths and measure them.

The experiment of Führlich, Cseh and Lenzner (seed 001): players with true strengths and noisy
Elo ratings, results from Milvang's model, any pairing system, and measures of ranking quality
(Kendall tau, Spearman rho, NDCG against the true order) and fairness (float pairs, colour
difference, strength differences, paradoxical results).
"""

from swiss.sim.measures import kendall_tau, mean_ci95, ndcg, spearman_rho
from swiss.sim.outcomes import (
    EloLogistic,
    Milvang,
    OutcomeModel,
    milvang_probabilities,
    parse_model,
)
from swiss.sim.runner import (
    EnginePairer,
    Pairer,
    SimulatedTournament,
    SimulationConfig,
    TournamentMeasures,
    play_tournament,
    simulate,
)
from swiss.sim.strengths import StrengthDistribution, parse_strengths

__all__ = [
    "EloLogistic",
    "EnginePairer",
    "Milvang",
    "OutcomeModel",
    "Pairer",
    "SimulatedTournament",
    "SimulationConfig",
    "StrengthDistribution",
    "TournamentMeasures",
    "kendall_tau",
    "mean_ci95",
    "milvang_probabilities",
    "ndcg",
    "parse_model",
    "parse_strengths",
    "play_tournament",
    "simulate",
    "spearman_rho",
]
