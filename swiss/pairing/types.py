"""Types shared by every pairing system: the request, the result and its explanation."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from swiss.model import Bye, Game, Round, Tournament
from swiss.wording import plural

SYSTEMS: tuple[str, ...] = (
    "dutch", "burstein", "monrad", "random", "random2", "posterior", "tcec", "fide-dutch",
    "rating-gap",
)
DUTCH_RULES: tuple[str, ...] = ("2025", "2017")
MWM_SYSTEMS: tuple[str, ...] = (
    "dutch", "burstein", "monrad", "random", "random2", "posterior", "rating-gap",
)

# How the score tier compares pairings: "lexicographic" (fewest pairs at the largest score
# difference first, then at the next, as the FIDE criteria do) or "paper" (the sum of the score
# differences, as Führlich, Cseh and Lenzner print it: one 1.5-point float ties a 1-point and a
# 0.5-point float). See swiss.pairing.weights.score_costs.
SCORE_TIERS: tuple[str, ...] = ("lexicographic", "paper")

Policy = Literal["avoid", "forbid"]
BackendName = Literal["auto", "rustworkx", "networkx"]


class PairingError(Exception):
    """No valid pairing exists under the hard constraints (exit code 1 of ``swissbot pair``)."""


@dataclass(frozen=True, slots=True)
class PairingConfig:
    """How to pair: the system, the colour bound beta, the rematch policy and the backend.

    ``beta`` is the maximum allowed colour difference of the paper (default 2; fractional values
    such as 0.1 are allowed and mean "strictly alternate"). ``policy`` is ``avoid`` (rematches,
    second byes and colour differences beyond beta only when nothing else is possible, by
    weight tiers) or ``forbid`` (strict FIDE C1/C2, and beta absolute: never, and a
    :class:`PairingError` if no pairing exists). ``seed`` overrides the
    tournament's seed for the random systems and the tie-break term. ``backend`` ``auto``
    (default) pairs the MWM systems with the scalable exact path (candidate graph, compiled
    matching, dual pricing of the full graph: docs/performance.md); ``networkx`` builds the
    dense graph and runs that library (the readable reference in tests), and ``rustworkx``
    (named for the library it replaced) builds the dense graph and runs the compiled solver
    on it (see :mod:`swiss.pairing`).
    """

    system: str = "dutch"
    beta: Fraction = Fraction(2)
    policy: Policy = "avoid"
    backend: BackendName = "auto"
    seed: int | None = None
    double_rounds: bool = False  # TCEC: every pair plays two games per round
    rules: str = "2025"  # fide-dutch: the edition of FIDE C.04.3 ("2025" or "2017")
    # fide-dutch: build PairingResult.explanations (False: left empty, the same pairing;
    # a 100-player round spends about 1 ms on them, ``swissbot pair`` without --explain
    # prints none).
    explain: bool = True
    # MWM systems: how the score tier compares pairings (SCORE_TIERS; "paper" reproduces the
    # paper's sum of score differences).
    score_tier: str = "lexicographic"

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ValueError(
                f"unknown pairing system {self.system!r}; choose one of {', '.join(SYSTEMS)}"
            )
        if self.rules not in DUTCH_RULES:
            raise ValueError(f"unknown FIDE Dutch rules {self.rules!r}; use 2025 or 2017")
        if self.score_tier not in SCORE_TIERS:
            raise ValueError(
                f"unknown score tier {self.score_tier!r}; use {' or '.join(SCORE_TIERS)}"
            )
        if self.policy not in ("avoid", "forbid"):
            raise ValueError(f"unknown rematch policy {self.policy!r}; use 'avoid' or 'forbid'")
        beta = Fraction(self.beta)
        if beta <= 0:
            raise ValueError("beta (the colour bound) must be positive")
        object.__setattr__(self, "beta", beta)


@dataclass(frozen=True, slots=True)
class PairExplanation:
    """Why two players (or a player and the bye) were paired: the weight components.

    ``components`` are the lexicographic components in priority order, as (name, value) with
    the *raw* values (costs are positive numbers where lower is better); ``weight`` is the packed
    integer the matching maximised for this edge.
    """

    white: int
    black: int | None  # None: the pairing-allocated bye
    repeat: int  # times the two met before (for the bye: byes the player had)
    score_diff: Fraction
    color_term: int | None  # |cd_w + cd_b|, None when the event has no colours
    system_term: tuple[int, ...]
    components: tuple[tuple[str, int], ...] = ()
    weight: int = 0

    def describe(self) -> str:
        parts = [f"{name}={value}" for name, value in self.components]
        who = f"{self.white}-{self.black}" if self.black is not None else f"{self.white} bye"
        return f"{who}: " + ", ".join(parts)


@dataclass(frozen=True, slots=True)
class PairingResult:
    """The pairing of one round: games in board order and the byes (the PAB first)."""

    round_number: int
    games: tuple[Game, ...]
    byes: tuple[Bye, ...]
    explanations: tuple[PairExplanation, ...] = ()
    backend: str = ""
    total_weight: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    # How the exact matching went (candidate edges, priced edges, certificate rounds).
    stats: tuple[tuple[str, int], ...] = ()

    def to_round(self) -> Round:
        return Round(number=self.round_number, games=self.games, byes=self.byes)

    @property
    def pairing_bye(self) -> int | None:
        from swiss.model import ByeKind

        for bye in self.byes:
            if bye.kind is ByeKind.PAIRING:
                return bye.player
        return None

    def explanation_for(self, player: int) -> PairExplanation | None:
        for exp in self.explanations:
            if player in (exp.white, exp.black):
                return exp
        return None


def check_next_round_pairable(tournament: Tournament) -> int:
    """Return the number of the round to pair, or raise ``ValueError`` saying why it can't be.

    Shared by every system: the tournament must have a round left, and the last round must be
    complete (pairing on unknown results would use wrong scores).
    """
    round_number = tournament.next_round
    if tournament.total_rounds and round_number > tournament.total_rounds:
        raise ValueError(
            f"the tournament has {plural(tournament.total_rounds, 'round')}; round {round_number} "
            "cannot be paired"
        )
    if tournament.rounds and not tournament.rounds[-1].is_complete:
        raise ValueError(f"round {tournament.rounds_played} still has games without a result")
    return round_number
