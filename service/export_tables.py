"""The tables of the exports: standings, players, games and the crosstable, each a header and
rows of typed values, written as CSV or as JSON records (``service.exports``).

Numbers stay numbers (points 1.5, not "1½": a spreadsheet reads "1½" as text); a missing
value is empty in CSV and null in JSON. Pure functions of what the export read.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from service.playoff_state import BracketState
from service.present import final_places, with_placings
from service.views import CrosstableView, PlayerView, RoundView, StandingsView
from swiss.trf.player_fields import FIELD_NAMES

#: What ``/tournament export`` offers (``all``: every table that exists yet).
EXPORT_TABLES = ("standings", "players", "games", "crosstable")
#: The stage of a Swiss round in the games table (a playoff round names its own).
SWISS_STAGE = "swiss"

Cell = str | int | float | None
#: Columns of user text (names, decklists): a spreadsheet runs a cell that starts with one of
#: these as a formula ("=HYPERLINK(...)"), so the CSV puts a ' before it (JSON keeps it as is).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
USER_TEXT = frozenset({"name", "white_name", "black_name", "decklist", "trf_name", "first_team",
                       "second_team"})


@dataclass(frozen=True, slots=True)
class ExportTable:
    name: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def csv_text(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.header)
        guarded = [column in USER_TEXT for column in self.header]
        writer.writerows(
            [_csv_cell(cell, guard) for cell, guard in zip(row, guarded, strict=True)]
            for row in self.rows)
        return out.getvalue()

    def records(self) -> list[dict[str, Cell]]:
        return [dict(zip(self.header, row, strict=True)) for row in self.rows]


def _csv_cell(cell: Cell, user_text: bool) -> Cell:
    if cell is None:
        return ""
    if user_text and isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def number(value: Fraction | float | int) -> int | float:
    """A point total or tiebreak value as a number a spreadsheet sums: ``Fraction(3, 2)`` ->
    1.5, ``Fraction(2)`` -> 2; others to four decimals."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    result = round(float(value), 4)
    return int(result) if result.is_integer() else result


def standings_table(view: StandingsView, bracket: BracketState | None) -> ExportTable:
    """Swiss order; with a top cut, each player's ``playoff`` placing (Winner, Finalist, ...)
    and, once the event is over, his ``final_place`` (the playoffs first, then the Swiss)."""
    with_cut = with_placings(view, bracket, None) if bracket is not None else view
    placing = {p.player_id: p.place for p in with_cut.placings}
    places = final_places(with_cut)
    extra = (("playoff",) if placing else ()) + (("final_place",) if places else ())
    header = ("rank", "number", "name", "points", *view.tiebreaks, "withdrawn", *extra)
    rows = []
    for row in view.rows:
        tail: tuple[Cell, ...] = ()
        if placing:
            tail += (placing.get(row.player_id),)
        if places:
            tail += (places[row.player_id],)
        rows.append((row.rank, row.number, row.name, number(row.points),
                     *(number(v) for v in row.values), int(row.withdrawn), *tail))
    return ExportTable("standings", header, tuple(rows))


def players_table(
    players: list[PlayerView], decks: dict[int, str] | None,
    identity: Mapping[int, Mapping[str, str]] | None = None,
) -> ExportTable:
    """Every entrant with his rating fields (``identity``: player id -> fields, as
    ``storage.player_identity`` reads them; blank where unset); the ``decklist`` column only
    when the reader may see them."""
    identity = identity or {}
    header = ("number", "name", "rating", "user_id", "status", "joined_round",
              "withdrawn_round", *FIELD_NAMES, *(("decklist",) if decks is not None else ()))
    rows = tuple(
        (p.number, p.name, p.rating, None if p.user_id is None else str(p.user_id), p.status,
         p.joined_round, p.withdrawn_round,
         *(identity.get(p.id, {}).get(key) or None for key in FIELD_NAMES),
         *((decks.get(p.id, ""),) if decks is not None else ()))
        for p in players
    )
    return ExportTable("players", header, rows)


def games_table(rounds: list[RoundView], urls: dict[int, str] | None = None) -> ExportTable:
    """Every game and bye of every round, Swiss and playoff; ``stage`` is ``swiss`` or the
    playoff round's name ("Semi-finals"). A bye's result is ``bye:<kind>``. ``urls``: for an
    event on Lichess, each game's page there (a ``game_url`` column, empty for a board
    without one)."""
    header = ("round", "stage", "board", "white", "white_name", "black", "black_name",
              "result", "white_games", "black_games", "state", "bye_points",
              *(("game_url",) if urls is not None else ()))
    extra: tuple[Cell, ...]
    rows: list[tuple[Cell, ...]] = []
    for r in rounds:
        stage = r.stage or SWISS_STAGE
        for g in r.games:
            extra = (urls.get(g.id),) if urls is not None else ()
            rows.append((r.number, stage, g.board, g.white.number, g.white.name,
                         g.black.number, g.black.name, g.result, g.white_games,
                         g.black_games, g.state, None, *extra))
        extra = (None,) if urls is not None else ()
        for b in r.byes:
            rows.append((r.number, stage, None, b.player.number, b.player.name, None, None,
                         f"bye:{b.kind}", None, None, "final", number(b.points), *extra))
    return ExportTable("games", header, tuple(rows))


def crosstable_table(view: CrosstableView) -> ExportTable:
    """The crosstable in standings order; a cell names the opponent by start number (the
    ``number`` column), as in the picture."""
    header = ("rank", "number", "name", "points",
              *(f"R{i + 1}" for i in range(view.after_round)), "withdrawn")
    rows = tuple((r.rank, r.number, r.name, number(r.points), *r.cells, int(r.withdrawn))
                 for r in view.rows)
    return ExportTable("crosstable", header, rows)
