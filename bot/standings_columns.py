"""How the standings' tiebreak columns read: one number format per column, "–" where a
tiebreak cannot apply yet, which tiebreak put a player ahead of the next one on the same
points, and a legend for the tiebreaks where lower is better.

Shared by the standings embed, its text attachment and the standings picture. Values come as
Fractions (from the service) or as text (from an outbox payload: "2½", "1.33").
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from i18n import _
from swiss.standings.tiebreaks import CATALOGUE, parse_tiebreak
from swiss.wording import points_text

#: Shown where a tiebreak does not apply (a cut of more rounds than were played).
NOT_APPLICABLE = "–"
#: Marks the tiebreak that decided between a player and the next one on the same points.
DECIDER = "*"


def _number(value: Any) -> Fraction | float | None:
    """A value as a number: a Fraction when exact, a float for decimals, None for text."""
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, float):
        return value
    text = str(value).strip()
    try:
        if text.endswith("½"):
            return Fraction(int(text[:-1] or 0)) + Fraction(1, 2)
        if "/" in text or text.lstrip("-").isdigit():
            return Fraction(text)
        return float(text)
    except (ValueError, ZeroDivisionError):
        return None


def _is_half(number: Fraction | float | None) -> bool:
    return isinstance(number, Fraction) and number.denominator in (1, 2)


def column_texts(values: Sequence[Any]) -> list[str]:
    """One column's values in one format: all in halves ("2½") when every value is a whole
    or half number, else all with two decimals ("2.50", "1.33")."""
    numbers = [_number(v) for v in values]
    if all(_is_half(n) for n in numbers if n is not None):
        return [points_text(n) if isinstance(n, Fraction) else str(v)
                for v, n in zip(values, numbers, strict=True)]
    return [f"{float(n):.2f}" if n is not None else str(v)
            for v, n in zip(values, numbers, strict=True)]


def applies(tiebreak: str, after_round: int) -> bool:
    """False when the tiebreak cuts at least as many rounds as were played (AROC after one
    round: nothing is left to average)."""
    try:
        spec = parse_tiebreak(tiebreak)
    except ValueError:  # a team tiebreak ("BH:MP") or a name from an older payload
        return True
    cut = spec.cut_low + spec.cut_high
    return not cut or after_round > cut


def lower_is_better(tiebreaks: Sequence[str]) -> list[str]:
    """The tiebreaks whose lower values rank first (DE: the place among tied players)."""
    found = []
    for name in tiebreaks:
        try:
            base = parse_tiebreak(name).base
        except ValueError:
            continue
        entry = CATALOGUE.get(base)
        if entry is not None and not entry.higher_is_better:
            found.append(name)
    return found


def table_cells(view: Any, count: int | None = None) -> tuple[list[str], list[list[str]]]:
    """The shown tiebreak names and every row's cells: each column in one format, "–" where
    the tiebreak does not apply yet."""
    names = list(view.tiebreaks[:count])
    columns = []
    for index, name in enumerate(names):
        texts = column_texts([row.values[index] for row in view.rows])
        if not applies(name, int(view.after_round or 0)):
            texts = [NOT_APPLICABLE] * len(texts)
        columns.append(texts)
    return names, [[column[i] for column in columns] for i in range(len(view.rows))]


def deciders(view: Any, cells: Sequence[Sequence[str]]) -> dict[int, int]:
    """Row index -> the column of the tiebreak that ranked it ahead of the next row on the
    same points (only columns in ``cells``; a tie that no shown column breaks is absent)."""
    found: dict[int, int] = {}
    rows = view.rows
    for i in range(len(rows) - 1):
        upper, lower = rows[i], rows[i + 1]
        if str(upper.points) != str(lower.points) or upper.rank == lower.rank:
            continue
        for column, (a, b) in enumerate(zip(cells[i], cells[i + 1], strict=True)):
            if a != b and a != NOT_APPLICABLE:
                found[i] = column
                break
    return found


def legend(view: Any, shown: Sequence[str], marked: bool) -> list[str]:
    """The footer notes the table needs: the decider mark, the lower-is-better tiebreaks,
    the dash."""
    notes = [_("{mark} the tiebreak that put a player ahead of the next one on equal points",
               mark=DECIDER)] if marked else []
    lower = lower_is_better(shown)
    if lower:
        notes.append(_("{tiebreaks}: lower is better", tiebreaks=", ".join(lower))
                     + (_(" (DE: the place among tied players; 0: not separated)")
                        if "DE" in lower else ""))
    if any(not applies(name, int(view.after_round or 0)) for name in shown):
        notes.append(_("{mark} not enough rounds yet for the tiebreak's cut",
                       mark=NOT_APPLICABLE))
    return notes
