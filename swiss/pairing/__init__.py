"""The pairing engine: one entry point, :func:`pair_round`, for every pairing system.

The five systems of Führlich, Cseh and Lenzner (dutch, burstein, monrad, random, random2) and
``posterior`` (Burstein's terms over score groups ordered by a posterior strength estimate,
:mod:`swiss.pairing.posterior`) are solved by one maximum weight matching per round
(:mod:`swiss.pairing.mwm`); ``tcec`` follows the TCEC Swiss rules (:mod:`swiss.pairing.tcec`);
``fide-dutch`` the FIDE Dutch rules by matchings (:mod:`swiss.pairing.fide_dutch`).

Which matching runs when
------------------------
Every matching at run time is solved by one compiled module, ``_blossom``
(``swiss/pairing/_native``, wrapped by :mod:`swiss.pairing.exact`): exact integer weights of
up to 240 bits, and with its dual solution, so that every answer can be certified optimal.
It holds two solvers of the same problem (maximum weight perfect matching), each where it
is the faster:

* **LEMON's blossom algorithm** (O(n m log n), with a warm start from earlier duals and
  matching): rounds and brackets of more than 128 vertices, and every solve that prices a
  sparse candidate graph against the full one (:func:`swiss.pairing.exact.solve_with_pricing`:
  the MWM systems' ``auto`` path, FIDE Dutch's big brackets); the 10,000-player rounds of
  docs/performance.md rest on its warm starts.
* **A dense O(n^3) solver**, up to 128 vertices (:data:`swiss.pairing.exact.SMALL_VERTICES`):
  no graph objects or heaps to set up, which dominate small solves. Measured with it off
  (LEMON only): the simulator's 32-player tournaments take 25-35 % more CPU, a 100-player
  FIDE Dutch round about 12 % more; so both stay. LEMON takes over when the weights pass
  its 112 bits, or when its duals fail their exact check.

:mod:`swiss.pairing.matching` gives the same solver to callers holding ``(u, v, weight)``
triples (TCEC's viability checks, the dense path of ``backend="rustworkx"``, error messages),
maximum cardinality first. ``networkx`` is the readable pure-Python reference: the tests
compare the compiled solver with it, and ``backend="networkx"`` pairs with it; nothing else
runs it.
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
