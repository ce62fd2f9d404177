"""Reading a player list (CSV, columns named by a header line) for ``/admin import-players``.

Every row is checked before anything is stored, and every problem is reported with its line
and column (both from 1, as a spreadsheet shows them), so an organiser fixes the file once.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date

from i18n import N_, Message, lazy, lazy_plural
from service.errors import InvalidInputError
from service.limits import MAX_PLAYER_NAME, MAX_RATING
from service.validation import check_rating, clean_name, parse_id
from swiss.numbers import NumberError, parse_int
from swiss.trf.player_fields import FIELD_NAMES, FieldError, parse_field

MAX_IMPORT_BYTES = 1_000_000
MAX_IMPORT_ROWS = 1000
#: The columns a header may name (any order, any case); name or user_id is required.
COLUMNS = ("name", "user_id", "rating", *FIELD_NAMES)
#: Problems listed in one answer (a Discord message holds 2,000 characters).
MAX_PROBLEMS_SHOWN = 15


@dataclass(frozen=True, slots=True)
class ImportRow:
    """One checked row: who (a member's id and/or a name), and what to store."""

    line: int
    name: str | None
    user_id: int | None
    rating: int | None
    fields: dict[str, str] = field(default_factory=dict)  # only the cells given

    @property
    def who(self) -> str:
        return self.name if self.name is not None else f"user {self.user_id}"


@dataclass
class Problems:
    """Bad cells, each ``line L, column C (header): what is wrong``."""

    found: list[Message] = field(default_factory=list)

    def add(self, line: int, column: int | None, header: str | None,
            message: str | Message) -> None:
        if column is None:
            where = lazy("line {line}", line=line)
        elif header:
            where = lazy("line {line}, column {column} ({header})", line=line, column=column,
                         header=header)
        else:
            where = lazy("line {line}, column {column}", line=line, column=column)
        self.found.append(Message("{where}: {problem}", {"where": where, "problem": message}))

    def raise_if_any(self) -> None:
        if not self.found:
            return
        shown = self.found[:MAX_PROBLEMS_SHOWN]
        more = len(self.found) - len(shown)
        # one line per problem, each put into words in the reader's language
        lines = Message("\n".join(f"{{line{i}}}" for i in range(len(shown))),
                        {f"line{i}": problem for i, problem in enumerate(shown)})
        raise InvalidInputError(lazy_plural(
            "Nothing was imported: {n} problem in the file.\n{problems}{more}",
            "Nothing was imported: {n} problems in the file.\n{problems}{more}",
            len(self.found), problems=lines,
            more=lazy("\n… and {n} more.", n=more) if more else ""))


def read_player_csv(text: str, *, today: date) -> list[ImportRow]:
    """The rows of ``text``; :class:`InvalidInputError` listing every bad cell otherwise."""
    if len(text.encode("utf-8")) > MAX_IMPORT_BYTES:
        raise InvalidInputError(lazy("The file is too large: import at most {size} kB.",
                                     size=format(MAX_IMPORT_BYTES // 1000, ",")))
    try:
        lines = [(number, row) for number, row in enumerate(
            csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")), start=1)
            if any(cell.strip() for cell in row)]
    except csv.Error as exc:
        raise InvalidInputError(lazy("The file is not a CSV file: {error}.",
                                     error=str(exc))) from None
    if not lines:
        raise InvalidInputError(lazy("The file has no players."))
    header_line, header = lines[0]
    columns = _columns(header_line, header)
    rows = lines[1:]
    if not rows:
        raise InvalidInputError(lazy("The file has a header line but no players."))
    if len(rows) > MAX_IMPORT_ROWS:
        raise InvalidInputError(lazy("Import at most {n} players at once.",
                                     n=MAX_IMPORT_ROWS))
    problems = Problems()
    checked = [_row(number, row, columns, problems, today) for number, row in rows]
    _no_repeats(checked, problems)
    problems.raise_if_any()
    return checked


def _columns(line: int, header: list[str]) -> dict[str, int]:
    problems = Problems()
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = cell.strip().lower().replace(" ", "_").replace("-", "_")
        if not key:
            continue  # a spreadsheet's trailing empty column: its cells must stay empty
        if key in columns:
            problems.add(line, index + 1, cell.strip()[:30],
                         lazy("this column is named twice"))
        elif key not in COLUMNS:
            problems.add(line, index + 1, cell.strip()[:30],
                         lazy("unknown column; the columns are {columns}",
                              columns=", ".join(COLUMNS)))
        else:
            columns[key] = index
    if not problems.found and "name" not in columns and "user_id" not in columns:
        problems.add(line, None, None,
                     lazy("the first line names the columns, and one of them is name or "
                          "user_id"))
    problems.raise_if_any()
    return columns


def _row(line: int, row: list[str], columns: dict[str, int], problems: Problems,
         today: date) -> ImportRow:
    def cell(key: str) -> str:
        index = columns.get(key)
        return row[index].strip() if index is not None and index < len(row) else ""

    def bad(key: str, message: str | Message) -> None:
        problems.add(line, columns[key] + 1, key, message)

    named = set(columns.values())
    stray = next((i for i, text in enumerate(row) if i not in named and text.strip()), None)
    if stray is not None:
        problems.add(line, stray + 1, None,
                     lazy("a value in a column the header does not name"))
    name = user_id = rating = None
    try:
        name = clean_name(cell("name"), what="player name", limit=MAX_PLAYER_NAME) \
            if cell("name") else None
    except InvalidInputError as exc:
        bad("name", exc.message)
    try:
        user_id = parse_id(cell("user_id"), what=N_("Discord user id")) if cell("user_id") else None
    except InvalidInputError as exc:
        bad("user_id", exc.message)
    if cell("rating"):
        try:  # strictly (swiss.numbers): "²" passes isdigit()
            rating = check_rating(parse_int(cell("rating"), "rating", low=0, high=MAX_RATING))
        except NumberError as exc:
            bad("rating", lazy("the {reason}", reason=exc.reason))
    if name is None and user_id is None and "name" in columns and not cell("name"):
        problems.add(line, columns["name"] + 1, "name",
                     lazy("a player needs a name (or a user_id)"))
    fields: dict[str, str] = {}
    for key in FIELD_NAMES:
        if key in columns and cell(key):
            try:
                fields[key] = parse_field(key, cell(key), today=today)
            except FieldError as exc:
                bad(key, str(exc))
    return ImportRow(line, name, user_id, rating, fields)


def _no_repeats(rows: list[ImportRow], problems: Problems) -> None:
    """One row per player: a second row for the same member or name is refused."""
    seen: dict[object, int] = {}
    for row in rows:
        key: object = ("user", row.user_id) if row.user_id is not None \
            else ("name", (row.name or "").casefold())
        if key in seen:
            problems.add(row.line, None, None, lazy("{player} is already on line {line}",
                                                    player=row.who, line=seen[key]))
        else:
            seen[key] = row.line
