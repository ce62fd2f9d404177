"""The e-sports Swiss stage of the Counter-Strike Major (Valve's Major Supplemental Rulebook).

Teams play opponents with the same win-loss record; a team leaves the stage on its N-th win
(advances) or N-th loss (eliminated), N = 3 by default, so 16 teams play five rounds. Round 1
pairs the seeds' top half against the bottom half in order (1-9, 2-10, ... for 16 teams).
Later, teams are ranked by record, then difficulty score (Buchholz: the opponents' wins minus
their losses), then initial seed, and each record group is paired:

* in rounds 2 and 3, the highest ranked team meets the lowest ranked team it has not met yet,
  and so on down; when the last match of a group would be a rematch, the last two matches
  of the group swap opponents;
* in later rounds, a group of six takes the first row of the rulebook's priority table
  without a rematch.

Where the rulebook is silent (groups that these two rules cannot pair without a rematch,
groups other than six teams after round 3, odd groups in fields other than 16 teams), the
same order decides: the first pairing, in the order "highest ranked with lowest ranked",
that avoids every rematch; an odd group sends its lowest ranked team to the next group down;
a rematch happens only when nothing else is possible. When an odd number of teams is left
(a field that the thresholds do not suit), the lowest ranked team without a bye gets one,
worth a win. Matches that decide advancement or
elimination (both teams one win or one loss from leaving) are best of three, the others best
of one (both configurable).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from swiss.pairing.types import PairingError

# The rulebook's priority table for a group of six, ranks 1-6, top row first.
PRIORITY_TABLE: tuple[tuple[tuple[int, int], ...], ...] = (
    ((1, 6), (2, 5), (3, 4)), ((1, 6), (2, 4), (3, 5)), ((1, 5), (2, 6), (3, 4)),
    ((1, 5), (2, 4), (3, 6)), ((1, 4), (2, 6), (3, 5)), ((1, 4), (2, 5), (3, 6)),
    ((1, 6), (2, 3), (4, 5)), ((1, 5), (2, 3), (4, 6)), ((1, 3), (2, 6), (4, 5)),
    ((1, 3), (2, 5), (4, 6)), ((1, 4), (2, 3), (5, 6)), ((1, 3), (2, 4), (5, 6)),
    ((1, 2), (3, 6), (4, 5)), ((1, 2), (3, 5), (4, 6)), ((1, 2), (3, 4), (5, 6)),
)
MAX_TEAMS = 1024
SEARCH_BUDGET = 100_000  # steps of the rematch-avoiding search in one group


@dataclass(frozen=True, slots=True)
class StageRules:
    """The stage's settings: wins to advance, losses to be eliminated, match lengths."""

    wins_to_advance: int = 3
    losses_to_eliminate: int = 3
    decider_best_of: int = 3
    other_best_of: int = 1


@dataclass(frozen=True, slots=True)
class StageMatch:
    """One result: ``winner`` beat ``loser`` (seeds) in ``round``; no loser: a bye."""

    round: int
    winner: int
    loser: int | None


@dataclass(frozen=True, slots=True)
class StageTeam:
    """A team's standing in the stage."""

    seed: int
    wins: int
    losses: int
    difficulty: int
    opponents: frozenset[int]


@dataclass(frozen=True, slots=True)
class StagePairing:
    """A paired round: (higher ranked, lower ranked, best of) per match, top group first."""

    round: int
    matches: tuple[tuple[int, int, int], ...]
    advanced: tuple[int, ...]
    eliminated: tuple[int, ...]
    bye: int | None = None


def standings(seeds: Sequence[int], results: Sequence[StageMatch]) -> dict[int, StageTeam]:
    """Every team's record, difficulty score and opponents after ``results``."""
    wins = dict.fromkeys(seeds, 0)
    losses = dict.fromkeys(seeds, 0)
    met: dict[int, set[int]] = {s: set() for s in seeds}
    for match in results:
        for seed in (match.winner, match.loser):
            if seed is not None and seed not in wins:
                raise ValueError(f"round {match.round}: seed {seed} is not in the stage")
        wins[match.winner] += 1
        if match.loser is None:
            continue
        losses[match.loser] += 1
        met[match.winner].add(match.loser)
        met[match.loser].add(match.winner)
    difficulty = {s: sum(wins[o] - losses[o] for o in met[s]) for s in seeds}
    return {s: StageTeam(s, wins[s], losses[s], difficulty[s], frozenset(met[s]))
            for s in seeds}


def rank_key(team: StageTeam) -> tuple[int, int, int, int]:
    """The rulebook's mid-stage seed: record (more wins, fewer losses), difficulty, seed."""
    return (-team.wins, team.losses, -team.difficulty, team.seed)


def pair_stage(seeds: Sequence[int], results: Sequence[StageMatch], round_number: int,
               rules: StageRules = StageRules()) -> StagePairing:
    """Pair ``round_number`` of the stage; ``seeds`` are the initial seeds (1 is the best)."""
    if len(set(seeds)) != len(seeds) or not seeds or len(seeds) > MAX_TEAMS:
        raise ValueError(f"a stage needs 1 to {MAX_TEAMS} distinct seeds")
    table = standings(seeds, results)
    advanced = tuple(s for s in seeds if table[s].wins >= rules.wins_to_advance)
    eliminated = tuple(s for s in seeds if table[s].losses >= rules.losses_to_eliminate)
    alive = sorted((table[s] for s in seeds
                    if s not in advanced and s not in eliminated), key=rank_key)
    bye = None
    if len(alive) % 2:
        had_bye = {m.winner for m in results if m.loser is None}
        without = [t for t in alive if t.seed not in had_bye]
        if not without:
            raise PairingError(f"{len(alive)} teams are left and all had a bye: an e-sports "
                               "Swiss stage needs an even number of teams")
        bye = without[-1].seed
        alive = [t for t in alive if t.seed != bye]
    if round_number == 1 or not results:
        ordered = sorted(t.seed for t in alive)
        half = len(ordered) // 2
        pairs = list(zip(ordered[:half], ordered[half:], strict=True))
        return _stage_pairing(round_number, pairs, table, rules, advanced, eliminated, bye)
    pairs = []
    carried: list[StageTeam] = []
    for group in _groups(alive):
        group = sorted(carried + group, key=rank_key)
        carried = [group.pop()] if len(group) % 2 else []
        pairs.extend(_pair_group([t.seed for t in group], table, round_number))
    return _stage_pairing(round_number, pairs, table, rules, advanced, eliminated, bye)


def _groups(alive: list[StageTeam]) -> list[list[StageTeam]]:
    groups: dict[tuple[int, int], list[StageTeam]] = {}
    for team in alive:
        groups.setdefault((team.wins, team.losses), []).append(team)
    return [groups[k] for k in sorted(groups, key=lambda k: (-k[0], k[1]))]


def _pair_group(ranked: list[int], table: Mapping[int, StageTeam], round_number: int
                ) -> list[tuple[int, int]]:
    """Pair one record group, ``ranked`` best first."""
    def met(a: int, b: int) -> bool:
        return b in table[a].opponents

    if len(ranked) == 6 and round_number > 3:
        for row in PRIORITY_TABLE:
            pairs = [(ranked[a - 1], ranked[b - 1]) for a, b in row]
            if not any(met(a, b) for a, b in pairs):
                return pairs
    elif round_number <= 3:
        pairs = _high_low(ranked, met)
        if pairs is not None:
            return pairs
    return _first_without_rematch(ranked, met) or _first_without_rematch(
        ranked, lambda _a, _b: False) or []


def _high_low(ranked: list[int], met: Callable[[int, int], bool]) -> list[tuple[int, int]] | None:
    """Rounds 2-3: best against the lowest not yet met; a final rematch swaps with the match
    before it. None when that still leaves a rematch."""
    left = list(ranked)
    pairs = []
    while left:
        high = left.pop(0)
        choices = [t for t in reversed(left) if not met(high, t)] or list(reversed(left))
        low = choices[0]
        left.remove(low)
        pairs.append((high, low))
    if pairs and met(*pairs[-1]) and len(pairs) >= 2:
        (a, b), (c, d) = pairs[-2], pairs[-1]
        pairs[-2:] = [(a, d), (c, b)]
    if any(met(a, b) for a, b in pairs):
        return None
    return pairs


def _first_without_rematch(ranked: list[int], met: Callable[[int, int], bool],
                           budget: list[int] | None = None) -> list[tuple[int, int]] | None:
    """The first pairing in "highest ranked against lowest ranked available" order with no
    rematch (depth-first), or None (also when the search grows beyond
    :data:`SEARCH_BUDGET` steps: then a rematch is the lesser evil)."""
    budget = [SEARCH_BUDGET] if budget is None else budget
    if not ranked:
        return []
    high, rest = ranked[0], ranked[1:]
    for low in reversed(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if met(high, low):
            continue
        tail = _first_without_rematch([t for t in rest if t != low], met, budget)
        if tail is not None:
            return [(high, low), *tail]
    return None


def _stage_pairing(round_number: int, pairs: list[tuple[int, int]],
                   table: Mapping[int, StageTeam], rules: StageRules,
                   advanced: tuple[int, ...], eliminated: tuple[int, ...],
                   bye: int | None) -> StagePairing:
    matches = []
    for a, b in pairs:
        team = table[a]
        decider = (team.wins == rules.wins_to_advance - 1
                   or team.losses == rules.losses_to_eliminate - 1)
        best_of = rules.decider_best_of if decider else rules.other_best_of
        matches.append((a, b, best_of))
    return StagePairing(round_number, tuple(matches), advanced, eliminated, bye)
