"""Writing TRF-16 files in exactly the column layout bbpPairings reads."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from fractions import Fraction

from swiss.acceleration import baku_scoring_problem
from swiss.model import ByeKind, Color, Player, Points, Round, Scoring, Tournament
from swiss.state import player_states
from swiss.trf.format import (
    ABSENT_ENTRY,
    BYE_CODE,
    MAX_ID,
    OUTCOME_CODE,
    SCORING_FIELDS,
    TrfPlayerInfo,
    bbp_letters,
    bbp_scoring,
)
from swiss.trf.scan import acceleration_of, read_250


def write_trf(
    tournament: Tournament,
    *,
    players: Mapping[int, TrfPlayerInfo] | None = None,
    other_lines: Sequence[str] = (),
    newline: str = "\n",
) -> str:
    """Write ``tournament`` as a TRF-16 file in the column layout bbpPairings reads.

    ``players`` supplies the TRF-only fields (sex, title, federation, FIDE id, birth date, rank)
    by player id; without a rank the standings position (score, then seed) is written.
    ``other_lines`` are written verbatim after the ``012`` line. Requested byes of the next
    round go in its column, others in ``240`` lines; see the module docstring for the ``SB``
    lines. Raises :class:`ValueError` for what TRF cannot hold (pending games, a requested
    pairing-allocated bye, ids or ratings above 9999, scores with more than one decimal).
    """
    info = players or {}
    states = player_states(tournament)
    ordered = sorted(tournament.players, key=lambda p: (p.seed, p.id))
    ranks = _standing_ranks(tournament, states)
    next_entries = _next_round_entries(tournament)
    all_in_next = bool(ordered) and all(p.id in next_entries for p in ordered)
    round_entries = [_round_entries(tournament, rnd) for rnd in tournament.rounds]

    other_lines, xxa_lines = _acceleration_lines(tournament, other_lines)
    other_lines = _tournament_type_lines(tournament, other_lines)
    out: list[str] = []
    if tournament.name:
        out.append(f"012 {tournament.name}")
    out.extend(other_lines)
    if tournament.total_rounds:
        out.append(f"XXR {tournament.total_rounds}")
    xxc = []
    if tournament.initial_color is not None and tournament.initial_color is not Color.NONE:
        xxc.append("white1" if tournament.initial_color is Color.WHITE else "black1")
    if any(position != p.id for position, p in enumerate(ordered, start=1)):
        xxc.append("rank")
    if xxc:
        out.append("XXC " + " ".join(xxc))
    out.extend(_scoring_lines(tournament.scoring))
    for player in ordered:
        extra = info.get(player.id, TrfPlayerInfo())
        line = _player_prefix(player, extra, states[player.id].score,
                              extra.rank or ranks[player.id])
        for entries in round_entries:
            line += entries.get(player.id, ABSENT_ENTRY)
        if player.id in next_entries and not all_in_next:
            line += f"  0000 - {next_entries[player.id]}"
        out.append(line)
    for pair in sorted(sorted(p) for p in tournament.forbidden_pairs):
        out.append("XXP " + " ".join(str(pid) for pid in pair))
    out.extend(xxa_lines)
    out.extend(_bye_lines(tournament, next_entries if all_in_next else {}))
    out.extend(_extension_lines(tournament))
    return newline.join(out) + newline


def _standing_ranks(tournament: Tournament, states: Mapping) -> dict[int, int]:
    ordered = sorted(tournament.players, key=lambda p: (-states[p.id].score, p.seed, p.id))
    return {p.id: position for position, p in enumerate(ordered, start=1)}


def _next_round_entries(tournament: Tournament) -> dict[int, str]:
    """Result codes for the next round's column: requested byes, then withdrawn players."""
    next_round = tournament.next_round
    entries: dict[int, str] = {}
    for pid, kind in tournament.requested_byes.get(next_round, {}).items():
        if kind is ByeKind.PAIRING:
            raise ValueError(f"player {pid}: a pairing-allocated bye cannot be requested "
                             f"(round {next_round}); TRF has no way to say it")
        entries[pid] = BYE_CODE[kind]
    # A finished event has no next round: a withdrawn player's "-" in a column after the
    # last round would make bbpPairings count one round more than XXR and refuse the file
    # (SBW keeps the withdrawal).
    finished = bool(tournament.total_rounds) and next_round > tournament.total_rounds
    for pid, out_from in tournament.withdrawn.items():
        if out_from <= next_round and pid not in entries and not finished:
            entries[pid] = "-"
    return entries


def _format_points(points: Points, what: str) -> str:
    tenths = Fraction(points) * 10
    if tenths.denominator != 1:
        raise ValueError(f"{what} {points} has more than one decimal; TRF cannot hold it")
    whole, tenth = divmod(abs(tenths.numerator), 10)
    sign = "-" if tenths < 0 else ""
    text = f"{sign}{whole}.{tenth}"
    if len(text) > 4 and tenth == 0:
        text = f"{sign}{whole}"
    if len(text) > 4:
        raise ValueError(f"{what} {points} does not fit the 4 columns of TRF")
    return text


def _player_prefix(player: Player, info: TrfPlayerInfo, score: Points, rank: int) -> str:
    """Columns 1-89 of a ``001`` line."""
    if not 1 <= player.id <= MAX_ID:
        raise ValueError(f"player id {player.id} is outside 1..{MAX_ID}")
    if not 0 <= player.rating <= MAX_ID:
        raise ValueError(f"player {player.id}: rating {player.rating} does not fit TRF")
    rating = str(player.rating) if player.rating else ""
    points = _format_points(score, f"player {player.id}'s score")
    return (
        f"001 {player.id:>4} {info.sex[:1]:1}{info.title[:3]:>3} {player.name[:33]:<33} "
        f"{rating:>4} {info.federation[:3]:<3} {info.fide_id[:11]:>11} {info.birth[:10]:<10} "
        f"{points:>4} {rank:>4}"
    )


def _round_entries(tournament: Tournament, rnd: Round) -> dict[int, str]:
    """The 10-column entry of every player who had a game or a bye in ``rnd``."""
    entries: dict[int, str] = {}
    for game in rnd.games:
        if game.result.is_pending:
            raise ValueError(f"round {rnd.number} has games without a result; TRF records "
                             "results only (finish or drop the round first)")
        for pid in game.players:
            outcome = game.outcome_for(pid)
            assert outcome is not None
            colour = game.color_of(pid).value if tournament.use_colors else "-"
            entries[pid] = f"  {game.opponent_of(pid):>4} {colour} {OUTCOME_CODE[outcome]}"
    for bye in rnd.byes:
        entries[bye.player] = f"  0000 - {BYE_CODE[bye.kind]}"
    return entries


def _scoring_lines(scoring: Scoring) -> list[str]:
    if scoring == Scoring.chess():
        return []
    lines = []
    letters = bbp_letters(scoring)
    for letter, value in letters.items():
        # A value bbp cannot read is left out; the SBS line below holds it exactly.
        with contextlib.suppress(ValueError):
            lines.append(f"BB{letter} {_format_points(value, 'points'):>4}")
    if bbp_scoring(letters) != scoring or len(lines) < len(letters):
        values = " ".join(f"{name}={getattr(scoring, name)}" for name in SCORING_FIELDS)
        lines.append(f"SBS {values}")
    return lines


def _acceleration_lines(tournament: Tournament, other_lines: Sequence[str]
                        ) -> tuple[list[str], list[str]]:
    """The kept lines and the ``XXA`` lines that give ``Tournament.acceleration``.

    ``250`` lines among ``other_lines`` are kept unchanged when they agree with the model;
    since a 250 line wins over XXA for its players and rounds (as bbpPairings reads them), a
    model they contradict (changed after reading) drops them and is written as XXA alone. A
    player's XXA line has one field per round from round 1 up to the last round with extra
    points that no 250 line gives.
    """
    ids = {p.id for p in tournament.players}
    wanted: dict[int, dict[int, Fraction]] = {}
    for round_number, extra in tournament.acceleration.items():
        for pid, points in extra.items():
            if pid not in ids:
                raise ValueError(f"round {round_number}: acceleration for player {pid}, who "
                                 "is not in the tournament")
            if points < 0:
                raise ValueError(f"player {pid}: negative acceleration {points} in round "
                                 f"{round_number}; TRF cannot hold it")
            if not 1 <= round_number <= (tournament.total_rounds or round_number):
                raise ValueError(f"player {pid}: acceleration for round {round_number}, "
                                 "outside the rounds of the tournament "
                                 f"(1..{tournament.total_rounds})")
            if points:
                wanted.setdefault(pid, {})[round_number] = Fraction(points)
    ranges = [read_250(number, line) for number, line in enumerate(other_lines, start=1)
              if line[:3] == "250"]
    given = acceleration_of(ranges, ids)
    covered = {(pid, r) for item in ranges for r in range(item.first_round, item.last_round + 1)
               for pid in range(item.first_player, item.last_player + 1) if pid in ids}
    if any(wanted.get(pid, {}).get(r, 0) != given.get(r, {}).get(pid, 0)
           for pid, r in covered):
        other_lines = [line for line in other_lines if line[:3] != "250"]
        covered = set()
    lines = []
    for pid in sorted(wanted):
        mine = wanted[pid]
        own = [r for r in mine if (pid, r) not in covered]
        if not own:
            continue
        fields = "".join(
            f" {_format_points(mine.get(r, Fraction(0)), f'player {pid} acceleration'):>4}"
            for r in range(1, max(own) + 1))
        lines.append(f"XXA {pid:>4}{fields}")
    return list(other_lines), lines


def _tournament_type_lines(tournament: Tournament, other_lines: Sequence[str]) -> list[str]:
    """The kept lines with the ``192`` line saying ``Tournament.baku``.

    A kept 192 line is written back unchanged when it already says what the model does: its
    ``_BAKU`` suffix matches ``baku``, or the file gives XXA/250 lines, which make readers
    disregard the code. Otherwise the suffix is added or removed; a Baku tournament without a
    192 line gets ``192 FIDE_DUTCH_BAKU`` (a code of the TRF-2026 table that bbpPairings
    6.0.0 reads). Raises :class:`ValueError` when TRF cannot say the model: Baku acceleration
    with explicit extra points too (a reader would ignore the 192 code), or with a point
    system the method does not apply to (readers refuse the file).
    """
    lines = list(other_lines)
    explicit = bool(tournament.acceleration)  # then XXA or 250 lines are written
    if tournament.baku:
        if explicit:
            raise ValueError("Baku acceleration and explicit acceleration together: TRF "
                             "readers ignore the 192 code when XXA or 250 lines are given")
        problem = baku_scoring_problem(tournament.scoring)
        if problem is not None:
            raise ValueError(f"{problem}; TRF cannot hold it")
    kept = [i for i, line in enumerate(lines) if line[:3] == "192"]
    for i in kept:
        code = lines[i][4:].rstrip()
        if tournament.baku and not code.endswith("_BAKU"):
            lines[i] = f"192 {code}_BAKU"
        elif not tournament.baku and not explicit and code.endswith("_BAKU"):
            lines[i] = f"192 {code.removesuffix('_BAKU')}"
    if tournament.baku and not kept:
        lines.append("192 FIDE_DUTCH_BAKU")
    return lines


def _bye_lines(tournament: Tournament, next_entries: Mapping[int, str]) -> list[str]:
    """``240`` lines: requested byes of every round but the next (which has its column),
    unless every player has an entry for the next round (bbp would take that column for a
    played round)."""
    groups: dict[tuple[int, str], list[int]] = {}
    for round_number, requests in sorted(tournament.requested_byes.items()):
        if round_number == tournament.next_round:
            continue
        for pid, kind in requests.items():
            if kind is ByeKind.PAIRING:
                raise ValueError(f"player {pid}: a pairing-allocated bye cannot be requested "
                                 f"(round {round_number}); TRF has no way to say it")
            groups.setdefault((round_number, BYE_CODE[kind]), []).append(pid)
    for pid, code in next_entries.items():
        groups.setdefault((tournament.next_round, code), []).append(pid)
    lines = []
    for (round_number, code), pids in sorted(groups.items()):
        ids = " ".join(f"{pid:>4}" for pid in sorted(pids))
        lines.append(f"240 {code} {round_number:>3} {ids}")
    return lines


def _extension_lines(tournament: Tournament) -> list[str]:
    lines = []
    if not tournament.use_colors:
        lines.append("SBN")
    if tournament.seed:
        lines.append(f"SBE {tournament.seed}")
    for pid, out_from in sorted(tournament.withdrawn.items()):
        lines.append(f"SBW {pid} {out_from}")
    return lines
