"""The official FIDE Dutch system, C.04.3, in its 2025 and 2017 editions (system ``fide-dutch``).

:func:`pair_fide_dutch` is what :func:`swiss.pairing.pair_round` calls for ``fide-dutch``;
``PairingConfig.rules`` picks the edition. See :mod:`swiss.pairing.fide_dutch.engine` for how
each criterion becomes a component of the matching weights, and docs/fide-dutch.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from swiss.acceleration import baku_scoring_problem
from swiss.model import Bye, ByeKind, Color, Game, Tournament
from swiss.pairing.fide_dutch.blank import first_candidates, is_blank_round
from swiss.pairing.fide_dutch.context import Context, NoPairing, allocate_ranked
from swiss.pairing.fide_dutch.engine import pair_brackets
from swiss.pairing.fide_dutch.explain import explain_pairing
from swiss.pairing.fide_dutch.players import DutchPlayer, dutch_players
from swiss.pairing.types import (
    PairingConfig,
    PairingError,
    PairingResult,
    check_next_round_pairable,
)
from swiss.state import PlayerState

RULES: tuple[str, ...] = ("2025", "2017")

__all__ = ["RULES", "DutchPlayer", "pair_fide_dutch"]


def pair_fide_dutch(tournament: Tournament, config: PairingConfig,
                    states: Mapping[int, PlayerState] | None = None) -> PairingResult:
    """Pair the next round by the FIDE Dutch rules of edition ``config.rules``.

    Players with a requested (half-point, full-point or zero-point) bye for the round, and
    withdrawn players, are not paired. Games come in the board order of C.04.2 (higher score of
    the pair, then the sum of scores, then the better-ranked higher player); the
    pairing-allocated bye, if any, comes first among the byes.
    Raises :class:`PairingError` when no pairing meets the absolute criteria.
    ``states``: the tournament's :func:`swiss.state.player_states`, if known (see
    :func:`swiss.pairing.pair_round`).
    """
    rules = config.rules
    if rules not in RULES:
        raise ValueError(f"unknown FIDE Dutch rules {rules!r}; use 2025 or 2017")
    round_number = check_next_round_pairable(tournament)
    if rules == "2025" and tournament.baku and not tournament.acceleration:
        # Which rounds are accelerated depends on the number of rounds, and the method is
        # defined for 1/½/0 points (the endorsed engine also takes multiples of them).
        problem = baku_scoring_problem(tournament.scoring)
        if problem is None and not tournament.total_rounds:
            problem = "Baku acceleration needs the number of rounds (TRF: XXR)"
        if problem is not None:
            raise PairingError(problem)
    requested = tournament.requested_byes.get(round_number, {})
    requested_byes = tuple(
        Bye(pid, kind) for pid, kind in sorted(requested.items())
        if tournament.is_active(pid, round_number)
    )
    to_pair = [
        p.id for p in tournament.players
        if tournament.is_active(p.id, round_number) and p.id not in requested
    ]
    players = dutch_players(tournament, round_number, to_pair, rules, states)
    denominators = [p.score.denominator for p in players.values()] or [1]
    scale = math.lcm(*denominators)
    ctx = Context(
        players=players,
        forbidden=tournament.is_forbidden,
        initial=tournament.initial_color or Color.WHITE,
        rules=rules,
        scale=scale,
        backend="exact" if config.backend == "auto" else config.backend,
        forbidden_pairs=tournament.forbidden_pairs,
    )
    if is_blank_round(players, tournament.forbidden_pairs):
        # Round 1 and the like: the first candidate of every bracket, no graph (blank.py).
        order = sorted(to_pair, key=lambda pid: players[pid].rank)
        ranked, pab = first_candidates(players, order)
        pairs = [allocate_ranked(players[a], players[b], ctx.initial) for a, b in ranked]
    else:
        try:
            pairs, pab, _decisions = pair_brackets(ctx, to_pair)
        except NoPairing as exc:
            raise PairingError(str(exc)) from None

    # The endorsed engine orders boards by the scores without acceleration (XXA); they are
    # compared as integers (units of 1/unit).
    real = {pid: p.standing_score() for pid, p in players.items()}
    unit = math.lcm(1, *(s.denominator for s in real.values()))
    standing = {pid: s.numerator * (unit // s.denominator) for pid, s in real.items()}

    def board_key(pair: tuple[int, int]) -> tuple[int, int, tuple[int, int]]:
        sa, sb = standing[pair[0]], standing[pair[1]]
        hi = min((-sa, players[pair[0]].seed), (-sb, players[pair[1]].seed))
        return (-max(sa, sb), -(sa + sb), hi)

    games = tuple(
        Game(white=w, black=b, board=board)
        for board, (w, b) in enumerate(sorted(pairs, key=board_key), start=1)
    )
    byes = ((Bye(pab, ByeKind.PAIRING),) if pab is not None else ()) + requested_byes
    explanations = explain_pairing(players, [(g.white, g.black) for g in games], pab,
                                   forbidden=tournament.forbidden_pairs,
                                   scoring=tournament.scoring,
                                   use_colors=tournament.use_colors) if config.explain else ()
    return PairingResult(round_number, games, byes, explanations=explanations,
                         backend=ctx.backend, notes=(f"FIDE Dutch, {rules} rules",))
