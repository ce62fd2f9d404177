"""The standings and crosstable pictures, from the service's views."""

from __future__ import annotations

from bot.pictures.draw import Column, PictureError, Row, Table, draw_table
from bot.standings_columns import DECIDER, deciders, legend, table_cells
from i18n import _
from service import (
    CrosstableRowView,
    CrosstableView,
    StandingsRowView,
    StandingsView,
    format_points,
)
from service.limits import MAX_PICTURE_TOP, MIN_PICTURE_TOP
from service.present import format_value
from swiss.wording import plural

#: Rows of the standings picture above the caller's own row.
DEFAULT_TOP = 10
MAX_TOP = MAX_PICTURE_TOP
#: Beyond this many players a crosstable picture is unreadable: use the export instead.
MAX_CROSSTABLE_PLAYERS = 64
#: Tiebreak columns shown (the text table has them all).
MAX_TIEBREAK_COLUMNS = 4


def _text(value: object) -> str:
    """A value from a view (Fraction, float) or an outbox payload (already text)."""
    if isinstance(value, str):
        return value
    return format_value(value)  # type: ignore[arg-type]


def standings_png(view: StandingsView, *, server: str, top: int = DEFAULT_TOP,
                  me: int | None = None) -> bytes:
    """The top ``top`` rows, then (after a gap marker) the row of the player whose Discord
    user id is ``me`` when he is further down."""
    top = max(MIN_PICTURE_TOP, min(top, MAX_TOP))
    tiebreaks, cells = table_cells(view, MAX_TIEBREAK_COLUMNS)
    decided = deciders(view, cells)
    marked = [[text + (DECIDER if decided.get(i) == column else "")
               for column, text in enumerate(row)] for i, row in enumerate(cells)]
    cell_of = {id(r): marked[i] for i, r in enumerate(view.rows)}
    columns = [Column("#", 44, "right"), Column("Player", 300), Column("Pts", 60, "right", True),
               *(Column(tb, 78, "right") for tb in tiebreaks)]

    def row_of(r: StandingsRowView) -> Row:
        name = r.name + (" (withdrawn)" if r.withdrawn else "")
        return Row([str(r.rank), name, _text(r.points) if isinstance(r.points, str)
                    else format_points(r.points),
                    *cell_of[id(r)]],
                   highlight=me is not None and r.user_id == me, muted=r.withdrawn)

    rows = [row_of(r) for r in view.rows[:top]]
    mine = [r for r in view.rows[top:] if me is not None and r.user_id == me]
    if mine:
        if view.rows.index(mine[0]) > top:
            rows.append(Row([], gap=True))
        rows.append(row_of(mine[0]))
    if not rows:
        rows.append(Row(["", _("no players yet"), ""], muted=True))
    state = (_("final standings") if view.final
             else _("standings with round {round} of {rounds} in play",
                    round=view.after_round, rounds=view.total_rounds)
             if getattr(view, "in_play", False)
             else _("standings after round {round} of {rounds}", round=view.after_round,
                    rounds=view.total_rounds))
    if getattr(view, "final_result", False):  # a top cut's end: ranked by the final place
        state = _("final result: the playoffs, then the Swiss")
    footer = " · ".join([plural(len(view.rows), "player"),
                         *legend(view, tiebreaks, bool(decided))])
    if len(view.rows) > top:
        footer += f" · top {top} shown · the full table: /standings"
    return draw_table(Table(
        server=server, title=view.tournament_name,
        subtitle=state, columns=columns, rows=rows, footer=footer,
    ))


def crosstable_png(view: CrosstableView, *, server: str, me: int | None = None) -> bytes:
    if len(view.rows) > MAX_CROSSTABLE_PLAYERS:
        raise PictureError(
            f"a crosstable picture has room for {MAX_CROSSTABLE_PLAYERS} players and this "
            f"event has {len(view.rows)}: download it with /tournament export what:crosstable"
        )
    # the rank orders the rows; the start number before each name is what the cells name
    columns = [Column("Rk", 40, "right"), Column("Player", 240),
               *(Column(f"R{i + 1}", 58, "center") for i in range(view.after_round)),
               Column("Pts", 56, "right", True)]
    rows = [Row([str(r.rank), crosstable_player(r), *r.cells, format_points(r.points)],
                highlight=me is not None and r.user_id == me, muted=r.withdrawn)
            for r in view.rows]
    return draw_table(Table(
        server=server, title=view.tournament_name,
        subtitle=_("crosstable after round {round} of {rounds}", round=view.after_round,
                   rounds=view.total_rounds),
        columns=columns, rows=rows, footer=view.legend,
    ))


def crosstable_player(row: CrosstableRowView) -> str:
    """A crosstable row's header: ``#7 Ann`` (the start number the other rows' cells use)."""
    return f"#{row.number} {row.name}" + (" (wd)" if row.withdrawn else "")
