"""The simulator: play many Swiss tournaments with known true strengths and measure them.

The experiment of Führlich, Cseh and Lenzner (seed 001): players with true strengths and noisy
Elo ratings, results from Milvang's model, any pairing system, and measures of ranking quality
(Kendall tau, Spearman rho, NDCG against the true order) and fairness (float pairs, colour
difference, strength differences, paradoxical results).

The names below load on first use (PEP 562): the measures, runner and strengths need numpy
(the ``sim`` extra), while :mod:`swiss.sim.outcomes` is pure Python and serves the demo, so
importing one submodule must not drag in the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOME: dict[str, str] = {
    "kendall_tau": "measures",
    "mean_ci95": "measures",
    "ndcg": "measures",
    "spearman_rho": "measures",
    "EloLogistic": "outcomes",
    "Milvang": "outcomes",
    "OutcomeModel": "outcomes",
    "milvang_probabilities": "outcomes",
    "parse_model": "outcomes",
    "EnginePairer": "runner",
    "Pairer": "runner",
    "SimulatedTournament": "runner",
    "SimulationConfig": "runner",
    "TournamentMeasures": "runner",
    "play_tournament": "runner",
    "simulate": "runner",
    "StrengthDistribution": "strengths",
    "parse_strengths": "strengths",
}

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


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"swiss.sim.{home}"), name)
    globals()[name] = value  # later look-ups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
