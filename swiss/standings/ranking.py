"""Standings: points, then the ordered tiebreak list, then a stated final key.

Players are ranked by points, then by each tiebreak in turn (DE only inside the groups still
tied when its turn comes). Players equal on points and every tiebreak share a rank ("1, 2, 2,
4"); their order in the list then follows the final key: the initial (seeding) order, or a lot
drawn with ``lot_seed`` (a fixed shuffle of the player ids, independent of input order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Literal

from swiss.model import Points, Tournament, has_double_rounds, split_double_rounds
from swiss.standings.context import Context, TiebreakSpec
from swiss.standings.direct import direct_encounter
from swiss.standings.editions import check_edition, edition_for_date
from swiss.standings.presets import PRESETS
from swiss.standings.records import build_records
from swiss.standings.tiebreaks import CATALOGUE, TiebreakError, parse_tiebreaks
from swiss.standings.unplayed import check_rule

FinalKey = Literal["order", "lot"]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings. ``values`` has one entry per tiebreak, in list order."""

    rank: int
    player_id: int
    name: str
    points: Points
    values: tuple[Fraction | float, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranked rows (best first) and the tiebreak acronyms, in order."""

    rows: list[StandingRow]
    tiebreaks: tuple[str, ...]
    rounds: int = 0
    unplayed: str = "c07"
    edition: str = "2026"

    def row(self, player_id: int) -> StandingRow:
        for row in self.rows:
            if row.player_id == player_id:
                return row
        raise KeyError(player_id)


def resolve_tiebreaks(tiebreaks: str | Sequence[str]) -> tuple[TiebreakSpec, ...]:
    """A preset name, a comma-separated list, or a sequence of acronyms -> parsed specs."""
    if not isinstance(tiebreaks, str):
        return parse_tiebreaks(list(tiebreaks))
    key = tiebreaks.strip().lower()
    if key in PRESETS:
        return parse_tiebreaks(PRESETS[key])
    try:
        return parse_tiebreaks(tiebreaks.split(","))
    except TiebreakError as exc:
        if "," in tiebreaks:
            raise
        presets = ", ".join(PRESETS)
        raise TiebreakError(f"{exc} (or a preset: {presets})") from None


@dataclass(slots=True)
class Evaluation:
    """Values (and workings) of every tiebreak for every player."""

    context: Context
    specs: tuple[TiebreakSpec, ...]
    values: dict[int, list[Fraction]]
    texts: dict[int, list[str]]

    def key(self, pid: int) -> tuple[Fraction, ...]:
        """Sort key without the final key: smaller is better."""
        record = self.context.records[pid]
        key = [-record.points]
        for spec, value in zip(self.specs, self.values[pid], strict=True):
            key.append(-value if CATALOGUE[spec.base].higher_is_better else value)
        return tuple(key)


def evaluate(
    tournament: Tournament,
    tiebreaks: str | Sequence[str],
    *,
    rounds: int | None,
    unplayed: str,
    explain: bool,
    edition: str = "2024",
) -> Evaluation:
    """Compute every tiebreak of the list for every player (DE group by group)."""
    rule = check_rule(unplayed)
    edition = check_edition(edition)
    if rounds is not None and rounds < 0:
        raise ValueError(f"rounds must be >= 0, got {rounds}")
    if rounds is not None and rounds > tournament.rounds_played:
        raise ValueError(
            f"standings after round {rounds} asked, but only {tournament.rounds_played} "
            "round(s) were played"
        )
    specs = resolve_tiebreaks(tiebreaks)
    if has_double_rounds(tournament):  # TCEC double rounds: every game counts once
        tournament, ends = split_double_rounds(tournament)
        rounds = None if rounds is None else ends[rounds]
    records = build_records(tournament, rounds)
    context = Context(tournament, records, rule, explain, edition)
    values: dict[int, list[Fraction]] = {pid: [] for pid in records}
    texts: dict[int, list[str]] = {pid: [] for pid in records}
    evaluation = Evaluation(context, specs, values, texts)
    for spec in specs:
        definition = CATALOGUE[spec.base]
        if definition.compute is not None:
            for pid, worked in definition.compute(context, spec).items():
                values[pid].append(worked.value)
                texts[pid].append(worked.text)
            continue
        groups: dict[tuple[Fraction, ...], list[int]] = {}
        for pid in records:
            groups.setdefault((records[pid].points, *values[pid]), []).append(pid)
        for group in groups.values():
            for pid, (value, text) in direct_encounter(context, group).items():
                values[pid].append(value)
                texts[pid].append(text)
    return evaluation


def _final_order(
    tournament: Tournament, final_key: str, lot_seed: int
) -> dict[int, tuple[int, int]]:
    if final_key == "order":
        return {p.id: (p.seed, p.id) for p in tournament.players}
    if final_key == "lot":
        ids = sorted(p.id for p in tournament.players)
        random.Random(lot_seed).shuffle(ids)
        return {pid: (position, pid) for position, pid in enumerate(ids)}
    raise ValueError(f"unknown final key {final_key!r}: use 'order' or 'lot'")


def compute_standings(
    tournament: Tournament,
    tiebreaks: str | Sequence[str] = "fide",
    *,
    rounds: int | None = None,
    unplayed: Literal["c07", "c02"] = "c07",
    final_key: FinalKey = "order",
    lot_seed: int = 0,
    rules: str | None = None,
    start_date: date | None = None,
) -> Standings:
    """Rank the players after ``rounds`` rounds (default: all played rounds).

    ``tiebreaks`` is a preset name (see :data:`swiss.standings.PRESETS`), a comma-separated
    string or a sequence of acronyms (``["BH-C1", "BH", "SB"]``). ``unplayed`` selects the
    unplayed-round rule (FIDE C.07 2024-08 or the older C.02 virtual opponent). Players tied on
    points and every tiebreak share a rank and are listed by ``final_key``: initial order, or a
    lot drawn with ``lot_seed``. Raises ``ValueError`` (``TiebreakError``) on bad input.

    ``rules`` selects the C.07 edition (``"2026"`` or ``"2024"``); by default the edition in
    force on ``start_date`` (the event's first day), or 2026 without a date (see
    :func:`swiss.standings.editions.edition_for_date`).
    """
    final = _final_order(tournament, final_key, lot_seed)
    edition = select_edition(rules, start_date)
    evaluation = evaluate(
        tournament, tiebreaks, rounds=rounds, unplayed=unplayed, explain=False, edition=edition
    )
    records = evaluation.context.records
    keys = {pid: evaluation.key(pid) for pid in records}
    order = sorted(records, key=lambda pid: (keys[pid], final[pid]))
    rows: list[StandingRow] = []
    rank = 0
    for position, pid in enumerate(order, start=1):
        if position == 1 or keys[pid] != keys[order[position - 2]]:
            rank = position
        record = records[pid]
        rows.append(
            StandingRow(
                rank=rank,
                player_id=pid,
                name=record.name,
                points=record.points,
                values=tuple(evaluation.values[pid]),
            )
        )
    return Standings(
        rows=rows,
        tiebreaks=tuple(spec.acronym for spec in evaluation.specs),
        rounds=evaluation.context.rounds,
        unplayed=unplayed,
        edition=edition,
    )


def select_edition(rules: str | None, start_date: date | None = None) -> str:
    """``rules`` checked, or the edition in force on ``start_date`` when ``rules`` is None."""
    if rules is None:
        return edition_for_date(start_date)
    return check_edition(rules)
