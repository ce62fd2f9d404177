"""The TCEC Swiss system (TCEC wiki, revision of 24 January 2023: seed 002), rule by rule.

A complete, deterministic system resembling Monrad. For round r:

1. **Pairing order**: score descending, then seed ascending (:attr:`Player.seed`; the player id
   breaks a tie between equal seed numbers, which the page rules out by making seeds unique).
2. **Bye** (odd number of players): order by pairing byes received descending, then pairing
   order; the bottom player gets the bye -- the worst-performing player among those with the
   fewest byes. The bye scores as a win and the bye player is not considered for pairing.
3. **Viability**: players p1, p2 may be paired iff they have not met per the *encounter
   history* and ``|WGD(p1) + WGD(p2)| <= 2`` (WGD = white games minus black games, every game
   ever played). If the allowed-pairs graph has no perfect matching (maximum cardinality
   matching, :mod:`swiss.pairing.tcec_viability`), the earliest round still in the encounter
   history is removed, and again until a pairing exists. Removals are permanent.
4. **Pairing**: the first unpaired player in pairing order (first-of-pair) gets the
   highest-ranked unpaired player who is allowed and keeps the rest viable; repeat.
5. **Colours**, single rounds: the greater WGD gets black; equal WGD: the higher score gets
   black; equal score: the first-of-pair has white in rounds 2, 3, 6, 7, 10, 11, ... (the
   2112 pattern). Double rounds: two games per pair, first-of-pair black in the first game.
6. **Playing order**: pairs by the pairing order of the first-of-pair, descending (the
   worst-performing pair plays first, board 1); double rounds play that schedule twice.

Round 1 needs no rule of its own: with all scores equal the pairing order is the seed order, so
the procedure gives seed2-seed1, seed4-seed3, ... (second-of-pair white, by the 2112 pattern).

**Why the encounter history can be derived from the stored rounds.** The model stores only what
happened (:class:`Round` games and byes), not the TCEC engine's memory of which rounds it has
dropped from its encounter history. That memory is a deterministic function of the rounds:
before round k was paired, the engine held the history left after round k-1 and checked
viability for the players it then paired -- exactly the players in round k's games (the bye
player is never considered for pairing), with the WGDs and the history as they were before
round k, all of which the earlier rounds determine. The removals it made are the fewest
earliest rounds that made that check pass, so :func:`encounter_history` replays the check
round by round from round 1, carrying removals forward ("permanent"), and reaches the same
history the engine had; then it appends round k's pairs. Because a perfect matching either
exists or not, the replay does not depend on the matching library. For rounds that were not
paired by this engine (edited by hand, imported) the replay is still well defined: it applies
the same rule to the players who actually played (and if even an empty history leaves them no
pairing, the history is emptied and the replay goes on).

Readings of the page where it is not explicit (see the test module for each rule's test):

* The encounter history holds the *pairs* made in a round, whatever the result, including
  forfeits (the page adds pairs "for this round" at pairing time, before any game). WGD counts
  games with colours: played games and pending ones, not forfeits (nobody had the pieces).
* "Number of received BYEs" counts pairing-allocated byes only (requested byes of the model
  are not TCEC BYEs). Requested byes and withdrawn players are simply not paired that round.
* The colour condition is the graph rule ``|WGD(p1) + WGD(p2)| <= 2``; for |WGD| <= 2 it is
  the page's "+2 needs <= 0, -2 needs >= 0" and it stays sensible beyond (after forfeits).
* Double rounds: the two "BYE games" of the bye player both score as wins, so a pairing bye in
  a round where pairs play twice is worth two pairing-bye scores (and so is any other bye).
* Forbidden pairs of the tournament (team-mates) are never allowed, like met pairs that no
  history removal can bring back. If no pairing exists even with an empty encounter history
  (only possible with forbidden pairs, withdrawals or hand-made colours), that is a
  :class:`PairingError`.
* ``config.beta``, ``config.policy`` and ``config.seed`` do not apply: TCEC fixes its colour
  bound and its repeat rule, and it is deterministic.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice

from swiss.model import Bye, ByeKind, Game, Player, Round, Tournament
from swiss.pairing.tcec_seeding import (
    group_seeding,
    group_sizes,
    random_seeding,
    suggested_group_count,
)
from swiss.pairing.tcec_viability import (
    ExactViability,
    MatchingBackend,
    ReferenceViability,
    resolve_backend,
)
from swiss.pairing.types import (
    PairExplanation,
    PairingConfig,
    PairingError,
    PairingResult,
    check_next_round_pairable,
)

__all__ = [
    "EncounterHistory",
    "TcecPlayer",
    "bye_counts",
    "bye_player",
    "colour_rule",
    "encounter_history",
    "first_of_pair_white",
    "group_seeding",
    "group_sizes",
    "pair_tcec",
    "pairing_order",
    "random_seeding",
    "seeded_players",
    "suggested_group_count",
    "tcec_states",
    "white_game_differences",
]

Pair = frozenset[int]

# colour_rule codes, in the page's order (PairExplanation components are integers)
RULE_WGD, RULE_SCORE, RULE_PATTERN, RULE_DOUBLE = 1, 2, 3, 4
_RULE_TEXT = {
    RULE_WGD: "the greater white game difference gets black",
    RULE_SCORE: "equal white game difference: the higher score gets black",
    RULE_PATTERN: "equal white game difference and score: the 2112 pattern",
    RULE_DOUBLE: "double round: first-of-pair black in the first game, white in the second",
}


# -- per-player state -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TcecPlayer:
    """What the TCEC rules need to know about one player before a round."""

    id: int
    seed: int
    score: Fraction
    wgd: int  # white game difference: games with white minus games with black, all games
    byes: int  # pairing-allocated byes received
    games: int  # games with a colour (played or pending)


@dataclass(slots=True)
class _Tally:
    score: Fraction = Fraction(0)
    wgd: int = 0
    byes: int = 0
    games: int = 0


@dataclass(frozen=True, slots=True)
class _RoundFacts:
    pairs: frozenset[Pair]
    in_games: frozenset[int]  # the players who were paired (the bye player is not)
    games_per_pair: int  # 2 in a double round


def _round_facts(rnd: Round, known: Mapping[int, object]) -> _RoundFacts:
    """Validate one stored round and return its pairs. Malformed input is a ValueError."""
    opponents: dict[int, list[int]] = {}
    for game in rnd.games:
        for pid in game.players:
            if pid not in known:
                raise ValueError(f"round {rnd.number}: unknown player {pid}")
            opponents.setdefault(pid, []).append(game.opponent_of(pid))
    per_pair = 1
    for pid, opps in opponents.items():
        if len(opps) > 2 or len(set(opps)) > 1:
            raise ValueError(
                f"round {rnd.number}: player {pid} has {len(opps)} games against "
                f"{sorted(set(opps))}; a TCEC round is one game per pair (two in a double round)"
            )
        per_pair = max(per_pair, len(opps))
    for bye in rnd.byes:
        if bye.player not in known:
            raise ValueError(f"round {rnd.number}: unknown player {bye.player}")
        if bye.player in opponents:
            raise ValueError(f"round {rnd.number}: player {bye.player} has a game and a bye")
    if len({b.player for b in rnd.byes}) != len(rnd.byes):
        raise ValueError(f"round {rnd.number}: a player has two byes")
    pairs = frozenset(frozenset(g.players) for g in rnd.games)
    return _RoundFacts(pairs, frozenset(opponents), per_pair)


def _tally_round(tournament: Tournament, rnd: Round, facts: _RoundFacts,
                 tallies: dict[int, _Tally]) -> None:
    scoring = tournament.scoring
    for game in rnd.games:
        for pid in game.players:
            outcome = game.outcome_for(pid)
            if outcome is not None:
                tallies[pid].score += scoring.for_outcome(outcome)
        if game.result.is_played or game.result.is_pending:
            tallies[game.white].wgd += 1
            tallies[game.black].wgd -= 1
            tallies[game.white].games += 1
            tallies[game.black].games += 1
    for bye in rnd.byes:
        tallies[bye.player].score += scoring.for_bye(bye.kind) * facts.games_per_pair
        if bye.kind is ByeKind.PAIRING:
            tallies[bye.player].byes += 1


def _freeze(tournament: Tournament, tallies: Mapping[int, _Tally]) -> dict[int, TcecPlayer]:
    return {
        p.id: TcecPlayer(
            p.id, p.seed, tallies[p.id].score, tallies[p.id].wgd, tallies[p.id].byes,
            tallies[p.id].games,
        )
        for p in tournament.players
    }


def tcec_states(tournament: Tournament, rounds: int | None = None) -> dict[int, TcecPlayer]:
    """Every player's seed, score, WGD and bye count after ``rounds`` rounds (default all).

    Unlike :func:`swiss.state.player_states` this accepts double rounds (two games per pair).
    Scores use ``tournament.scoring`` (a pairing bye scores as a win by default).
    """
    upto = tournament.rounds_played if rounds is None else min(rounds, tournament.rounds_played)
    tallies = {p.id: _Tally() for p in tournament.players}
    for rnd in tournament.rounds[:upto]:
        _tally_round(tournament, rnd, _round_facts(rnd, tallies), tallies)
    return _freeze(tournament, tallies)


def white_game_differences(tournament: Tournament) -> dict[int, int]:
    """WGD of every player after all stored rounds (history removals do not affect it)."""
    return {pid: st.wgd for pid, st in tcec_states(tournament).items()}


def bye_counts(tournament: Tournament, rounds: int | None = None) -> dict[int, int]:
    """Pairing-allocated byes each player received: the final ranking's "fewer byes" key."""
    return {pid: st.byes for pid, st in tcec_states(tournament, rounds).items()}


# -- encounter history ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EncounterHistory:
    """The encounter history before a round: the rounds kept and the removals made so far.

    ``kept`` lists (round number, pairs of that round), earliest first. ``removals`` lists
    (round being paired, round removed) in the order they happened.
    """

    kept: tuple[tuple[int, frozenset[Pair]], ...]
    removals: tuple[tuple[int, int], ...]

    def met(self, a: int, b: int) -> bool:
        """True if a and b met in a round still in the history."""
        pair = frozenset((a, b))
        return any(pair in pairs for _number, pairs in self.kept)

    @property
    def kept_rounds(self) -> tuple[int, ...]:
        return tuple(number for number, _pairs in self.kept)


@dataclass(slots=True)
class _History:
    kept: deque[tuple[int, frozenset[Pair]]] = field(default_factory=deque)
    met: Counter[Pair] = field(default_factory=Counter)
    removals: list[tuple[int, int]] = field(default_factory=list)

    def add(self, number: int, pairs: frozenset[Pair]) -> None:
        self.kept.append((number, pairs))
        self.met.update(pairs)

    def drop_earliest(self, at_round: int) -> None:
        number, pairs = self.kept.popleft()
        self.met.subtract(pairs)
        self.removals.append((at_round, number))

    def frozen(self) -> EncounterHistory:
        return EncounterHistory(tuple(self.kept), tuple(self.removals))


def _block_reason(a: int, b: int, wgd: Mapping[int, int], met: Counter[Pair],
                  forbidden: frozenset[Pair]) -> str | None:
    """Why a and b may not be paired ("met", "forbidden", "colour"), or None if they may."""
    pair = frozenset((a, b))
    if met[pair] > 0:
        return "met"
    if pair in forbidden:
        return "forbidden"
    if abs(wgd[a] + wgd[b]) > 2:
        return "colour"
    return None


def _allowed_graph(players: Sequence[int], wgd: Mapping[int, int], met: Counter[Pair],
                   forbidden: frozenset[Pair]) -> dict[int, set[int]]:
    """The allowed pairs as sets (the reference backends' input)."""
    allowed: dict[int, set[int]] = {p: set() for p in players}
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if _block_reason(a, b, wgd, met, forbidden) is None:
                allowed[a].add(b)
                allowed[b].add(a)
    return allowed


Viability = ExactViability | ReferenceViability


def _viability(players: Sequence[int], wgd: Mapping[int, int], met: Counter[Pair],
               forbidden: frozenset[Pair], backend: MatchingBackend) -> Viability:
    """The viability questions of ``players`` under this history: compiled (``exact``) or a
    fresh matching of a reference library per question. Same answers either way."""
    if backend == "exact":
        blocked = [pair for pair, count in met.items() if count > 0]
        return ExactViability(players, wgd, [*blocked, *forbidden])
    return ReferenceViability(players, _allowed_graph(players, wgd, met, forbidden), backend)


def _make_viable(history: _History, players: Sequence[int], wgd: Mapping[int, int],
                 forbidden: frozenset[Pair], at_round: int,
                 backend: MatchingBackend) -> Viability | None:
    """Drop the earliest history rounds until ``players`` have a pairing; return the
    questions' state of that history (None when even an empty history leaves no pairing).
    """
    while True:
        viability = _viability(players, wgd, history.met, forbidden, backend)
        if viability.pairable:
            return viability
        if not history.kept:
            return None
        history.drop_earliest(at_round)


def _replay_round(tournament: Tournament, rnd: Round, history: _History,
                  tallies: dict[int, _Tally], backend: MatchingBackend) -> None:
    """One step of the replay: the removals made before ``rnd`` was paired, then its pairs."""
    facts = _round_facts(rnd, tallies)
    wgd = {pid: t.wgd for pid, t in tallies.items()}
    _make_viable(history, sorted(facts.in_games), wgd, frozenset(tournament.forbidden_pairs),
                 rnd.number, backend)
    history.add(rnd.number, facts.pairs)
    _tally_round(tournament, rnd, facts, tallies)


# The replay of rounds 1..n-1 is the same work every time round n is paired; a small memo of
# finished replays (immutable snapshots, keyed by everything the replay reads) turns a whole
# event's O(rounds^2) viability checks into O(rounds). It changes no result.
_Snapshot = tuple[
    tuple[tuple[int, frozenset[Pair]], ...],  # kept rounds
    tuple[tuple[int, int], ...],  # removals
    tuple[tuple[int, Fraction, int, int, int], ...],  # id, score, wgd, byes, games
]
_REPLAYS: OrderedDict[tuple[object, ...], _Snapshot] = OrderedDict()
_REPLAYS_MAX = 128


def _snapshot(history: _History, tallies: Mapping[int, _Tally]) -> _Snapshot:
    return (tuple(history.kept), tuple(history.removals),
            tuple((pid, t.score, t.wgd, t.byes, t.games) for pid, t in tallies.items()))


def _thaw(snapshot: _Snapshot) -> tuple[_History, dict[int, _Tally]]:
    kept, removals, tallies = snapshot
    history = _History(removals=list(removals))
    for number, pairs in kept:
        history.add(number, pairs)
    return history, {pid: _Tally(score, wgd, byes, games)
                     for pid, score, wgd, byes, games in tallies}


def _replay(tournament: Tournament, backend: MatchingBackend
            ) -> tuple[_History, dict[int, _Tally]]:
    """Replay the stored rounds: the encounter history and the tallies before the next round."""
    base = (tournament.players, tournament.scoring, frozenset(tournament.forbidden_pairs))
    rounds = tournament.rounds
    cached = _REPLAYS.get((base, rounds))
    if cached is not None:
        return _thaw(cached)
    previous = _REPLAYS.get((base, rounds[:-1])) if rounds else None
    if previous is not None:
        history, tallies = _thaw(previous)
        todo = rounds[-1:]
    else:
        history, tallies = _History(), {p.id: _Tally() for p in tournament.players}
        todo = rounds
    for rnd in todo:
        _replay_round(tournament, rnd, history, tallies, backend)
    _REPLAYS[(base, rounds)] = _snapshot(history, tallies)
    while len(_REPLAYS) > _REPLAYS_MAX:
        _REPLAYS.popitem(last=False)
    return history, tallies


def encounter_history(tournament: Tournament, backend: str = "auto") -> EncounterHistory:
    """The encounter history the TCEC engine holds after the stored rounds (see module doc).

    Rounds removed while pairing rounds 2..n stay removed; the removals needed for the next
    round itself are made by :func:`pair_tcec` (and reported in its notes).
    """
    history, _tallies = _replay(tournament, resolve_backend(backend))
    return history.frozen()


# -- the rules of one round -----------------------------------------------------------------
def pairing_order(players: Iterable[int], states: Mapping[int, TcecPlayer]) -> list[int]:
    """The pairing order: score descending, then seed ascending (then id, for equal seeds)."""
    players = list(players)
    # Scores ranked once: comparing Fractions in the sort's key was most of its time.
    scores = sorted({states[pid].score for pid in players}, reverse=True)
    place = {score: i for i, score in enumerate(scores)}
    return sorted(players, key=lambda pid: (place[states[pid].score], states[pid].seed, pid))


def bye_player(order: Sequence[int], states: Mapping[int, TcecPlayer]) -> int:
    """The bye: order by byes received (DESC), then pairing order; the bottom player.

    That is the worst-placed player in pairing order among those with the fewest byes.
    """
    if not order:
        raise ValueError("no players to give the bye to")
    rank = {pid: i for i, pid in enumerate(order)}
    return sorted(order, key=lambda pid: (-states[pid].byes, rank[pid]))[-1]


def first_of_pair_white(round_number: int) -> bool:
    """The 2112 pattern: first-of-pair has white in rounds 2, 3, 6, 7, 10, 11, ..."""
    return round_number % 4 in (2, 3)


def colour_rule(round_number: int, first: TcecPlayer, second: TcecPlayer
                ) -> tuple[int, int, int]:
    """Single-round colours of a pair: (white id, black id, rule code that decided)."""
    if first.wgd != second.wgd:
        black = first if first.wgd > second.wgd else second
        rule = RULE_WGD
    elif first.score != second.score:
        black = first if first.score > second.score else second
        rule = RULE_SCORE
    else:
        black = second if first_of_pair_white(round_number) else first
        rule = RULE_PATTERN
    white = second if black is first else first
    return white.id, black.id, rule


@dataclass(frozen=True, slots=True)
class _Pairing:
    first: int
    second: int
    skipped: tuple[tuple[int, str], ...]  # higher-ranked candidates passed over, and why


def _greedy(order: Sequence[int], wgd: Mapping[int, int], met: Counter[Pair],
            forbidden: frozenset[Pair], viability: Viability) -> list[_Pairing]:
    """STEP 4: first-of-pair takes the highest-ranked allowed partner that keeps viability
    (``viability`` knows a pairing of the players still unpaired and keeps it one)."""
    unpaired = list(order)
    pairings: list[_Pairing] = []
    while unpaired:
        first = unpaired[0]
        skipped: list[tuple[int, str]] = []
        chosen: int | None = None
        for candidate in islice(unpaired, 1, None):
            reason = _block_reason(first, candidate, wgd, met, forbidden)
            if reason is not None:
                skipped.append((candidate, reason))
                continue
            if not viability.pair(first, candidate):
                skipped.append((candidate, "viability"))
                continue
            chosen = candidate
            break
        if chosen is None:  # cannot happen: the witness partner always qualifies
            raise PairingError(f"internal error: no partner for player {first}")
        pairings.append(_Pairing(first, chosen, tuple(skipped)))
        viability.remove(first, chosen)
        del unpaired[0]
        unpaired.remove(chosen)
    return pairings


def _describe_skips(skipped: Sequence[tuple[int, str]]) -> str:
    if not skipped:
        return "the highest-ranked unpaired player"
    words = {"met": "met", "forbidden": "forbidden pair", "colour": "colour condition",
             "viability": "would leave no pairing for the rest"}
    return "passed over " + ", ".join(f"{pid} ({words[why]})" for pid, why in skipped)


def pair_tcec(tournament: Tournament, config: PairingConfig) -> PairingResult:
    """Pair the next round by the TCEC Swiss rules (see the module docstring).

    ``config.double_rounds`` makes every pair play twice: games 1..k (first-of-pair black)
    then games k+1..2k with colours reversed, in the same playing order. ``config.backend``
    picks the matching library for the viability checks (the pairing does not depend on it).
    Raises :class:`PairingError` when no pairing exists even with an empty encounter history,
    and ValueError on malformed input (unknown players, unfinished previous round).
    """
    round_number = check_next_round_pairable(tournament)
    backend = resolve_backend(config.backend)
    history, tallies = _replay(tournament, backend)
    states = _freeze(tournament, tallies)
    wgd = {pid: st.wgd for pid, st in states.items()}
    forbidden = frozenset(tournament.forbidden_pairs)

    requested = tournament.requested_byes.get(round_number, {})
    requested_byes = tuple(
        Bye(pid, kind) for pid, kind in sorted(requested.items())
        if tournament.is_active(pid, round_number)
    )
    entrants = [
        p.id for p in tournament.players
        if tournament.is_active(p.id, round_number) and p.id not in requested
    ]
    order = pairing_order(entrants, states)
    rank = {pid: i for i, pid in enumerate(order, start=1)}
    bye = bye_player(order, states) if len(order) % 2 else None
    to_pair = [pid for pid in order if pid != bye]

    removed_before = len(history.removals)
    viability = _make_viable(history, to_pair, wgd, forbidden, round_number, backend)
    if viability is None:
        raise PairingError(
            f"round {round_number}: no pairing of the {len(to_pair)} players exists even with "
            "an empty encounter history (forbidden pairs or white game differences block it)"
        )
    notes = [
        f"round {round_number}: no viable pairing, removed round {removed} from the "
        "encounter history"
        for _at, removed in history.removals[removed_before:]
    ]
    pairings = _greedy(to_pair, wgd, history.met, forbidden, viability)

    # Playing order: by the first-of-pair's pairing order, descending (worst pair first).
    pairings.sort(key=lambda pr: rank[pr.first], reverse=True)
    games: list[Game] = []
    explanations: list[PairExplanation] = []
    meetings = Counter(pair for rnd in tournament.rounds
                       for pair in {frozenset(g.players) for g in rnd.games})
    for pr in pairings:
        first, second = states[pr.first], states[pr.second]
        if config.double_rounds:
            white, black, rule = second.id, first.id, RULE_DOUBLE
        else:
            white, black, rule = colour_rule(round_number, first, second)
        games.append(Game(white=white, black=black, board=len(games) + 1))
        explanations.append(_explain(meetings, pr, white, black, rule, states, rank))
        notes.append(
            f"{white}-{black}: first-of-pair {pr.first} (rank {rank[pr.first]}) took "
            f"{pr.second} (rank {rank[pr.second]}), {_describe_skips(pr.skipped)}; "
            f"colours: {_RULE_TEXT[rule]} (WGD {first.wgd:+d}/{second.wgd:+d})"
        )
    if config.double_rounds:  # the single-round schedule again, colours reversed
        games += [Game(white=g.black, black=g.white, board=len(games) + i)
                  for i, g in enumerate(list(games), start=1)]

    byes = list(requested_byes)
    if bye is not None:
        byes.insert(0, Bye(bye, ByeKind.PAIRING))
        explanations.append(PairExplanation(
            white=bye, black=None, repeat=states[bye].byes, score_diff=Fraction(0),
            color_term=None, system_term=(rank[bye],),
            components=(("byes_before", states[bye].byes), ("pairing_rank", rank[bye])),
        ))
        notes.insert(0, f"{bye} bye: fewest byes ({states[bye].byes}) and lowest in "
                        f"pairing order among them (rank {rank[bye]})")
    return PairingResult(
        round_number=round_number,
        games=tuple(games),
        byes=tuple(byes),
        explanations=tuple(explanations),
        backend=backend,
        notes=tuple(notes),
    )


def _explain(meetings: Counter[Pair], pr: _Pairing, white: int, black: int, rule: int,
             states: Mapping[int, TcecPlayer], rank: Mapping[int, int]) -> PairExplanation:
    first, second = states[pr.first], states[pr.second]
    skipped = Counter(why for _pid, why in pr.skipped)
    return PairExplanation(
        white=white,
        black=black,
        repeat=meetings[frozenset((pr.first, pr.second))],  # rounds they met, removed or not
        score_diff=abs(first.score - second.score),
        color_term=abs(first.wgd + second.wgd),
        system_term=(rank[pr.first], rank[pr.second]),
        components=(
            ("first_of_pair", pr.first),
            ("first_rank", rank[pr.first]),
            ("second_rank", rank[pr.second]),
            ("skipped_met", skipped["met"]),
            ("skipped_forbidden", skipped["forbidden"]),
            ("skipped_colour", skipped["colour"]),
            ("skipped_viability", skipped["viability"]),
            ("wgd_first", first.wgd),
            ("wgd_second", second.wgd),
            ("colour_rule", rule),
        ),
    )


def seeded_players(players: Sequence[Player], method: str, *, seed: int = 0,
                   groups: int | None = None) -> list[Player]:
    """Convenience: ``random`` or ``group`` seeding (group: strongest first by rating).

    For ``group`` the players are ordered by rating (highest first, then current seed) and
    ``groups`` defaults to :func:`suggested_group_count`.
    """
    if method == "random":
        return random_seeding(players, seed)
    if method == "group":
        by_strength = sorted(players, key=lambda p: (-p.rating, p.seed, p.id))
        count = groups if groups is not None else suggested_group_count(len(players))
        return group_seeding(by_strength, count)
    raise ValueError(f"unknown TCEC seeding {method!r}; use 'random' or 'group'")
