"""The pairing engine: one entry point, :func:`pair_round`, for every pairing system.

The five systems of Führlich, Cseh and Lenzner (dutch, burstein, monrad, random, random2) and
``posterior`` (Burstein's terms over score groups ordered by a posterior strength estimate,
:mod:`swiss.pairing.posterior`) are solved by one maximum weight matching per round
(:mod:`swiss.pairing.mwm`); ``tcec`` follows the TCEC Swiss rules (:mod:`swiss.pairing.tcec`).
"""

from __future__ import annotations

from collections.abc import Mapping

from swiss.model import Tournament
from swiss.pairing.types import (
    MWM_SYSTEMS,
    SYSTEMS,
    PairExplanation,
    PairingConfig,
    PairingError,
    PairingResult,
)
from swiss.state import PlayerState

__all__ = [
    "MWM_SYSTEMS",
    "SYSTEMS",
    "PairExplanation",
    "PairingConfig",
    "PairingError",
    "PairingResult",
    "pair_round",
]


def pair_round(tournament: Tournament, config: PairingConfig | None = None, *,
               states: Mapping[int, PlayerState] | None = None) -> PairingResult:
    """Pair the next round of ``tournament`` (round ``tournament.next_round``).

    Deterministic: the same tournament, config and seed always give the same pairing.
    Raises :class:`PairingError` when no valid pairing exists under the hard constraints.

    ``states``: :func:`swiss.state.player_states` of ``tournament`` (all its rounds), when the
    caller has them already (the TRF reader's :attr:`swiss.trf.TrfTournament.states`); the
    FIDE Dutch engine then does not walk the rounds again (the other systems walk them in
    any case). Only read, never changed. States of another tournament are refused when
    their players or number of rounds differ (:class:`ValueError`).
    """
    config = config or PairingConfig()
    if config.system == "fide-dutch":
        from swiss.pairing.fide_dutch import pair_fide_dutch

        return pair_fide_dutch(tournament, config, states)
    if config.system == "tcec":
        from swiss.pairing.tcec import pair_tcec

        return pair_tcec(tournament, config)
    from swiss.pairing.mwm import pair_mwm

    return pair_mwm(tournament, config)
