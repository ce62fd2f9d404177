"""Exports (TRF for bbpPairings, CSV, JSON) and imports of a player list (CSV or TRF)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from i18n import lazy
from service.base import (
    Context,
    TournamentRef,
    audit,
    find_tournament,
    part,
    player_view,
    require_room,
)
from service.errors import (
    AlreadyRegisteredError,
    ConflictError,
    InvalidInputError,
    RegistrationClosedError,
)
from service.export_tables import (
    EXPORT_TABLES,
    ExportTable,
    crosstable_table,
    games_table,
    players_table,
    standings_table,
)
from service.live import crosstable_view
from service.model import Snapshot, load_snapshot, settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.playoff_state import BracketState, load_bracket
from service.playoffs import bracket_payload
from service.present import round_view, standings_view, to_jsonable
from service.validation import (
    MAX_PLAYER_NAME,
    MAX_RATING,
    check_choice,
    check_rating,
    check_trf_header,
    clean_name,
    parse_id,
)
from service.views import (
    Actor,
    CrosstableView,
    ExportFile,
    PlayerView,
    RoundView,
    StandingsView,
)
from storage import extras as extras_repo
from storage import lichess as lichess_repo
from storage import lichess_games as lichess_game_repo
from storage import player_identity as identity_repo
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import IntegrityError
from storage.players import PlayerRow
from storage.tournaments import TournamentRow
from swiss.model import Tournament
from swiss.numbers import NumberError, parse_int
from swiss.trf.header import HeaderError
from swiss.trf.header import field_of as header_field
from swiss.trf.player_fields import PlayerFields
from swiss.wording import status_phrase

EXPORT_FORMATS = ("trf", "csv", "json")
EXPORT_WHAT = (*EXPORT_TABLES, "all")
#: What each format exports when the caller names nothing.
DEFAULT_WHAT = {"trf": "all", "csv": "standings", "json": "all"}
#: Earlier names of the tables ("rounds" was the games table).
TABLE_ALIASES = {"rounds": "games"}
MAX_IMPORT_PLAYERS = 1000
MAX_IMPORT_BYTES = 1_000_000


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "tournament"


def _complete_prefix(model: Tournament) -> Tournament:
    """The model without trailing rounds that still have pending games (TRF holds results
    only); the next round to pair is then exactly the one bbpPairings would pair."""
    rounds = list(model.rounds)
    while rounds and not rounds[-1].is_complete:
        rounds.pop()
    return replace(model, rounds=tuple(rounds))


@part
class Exports:
    ctx: Context

    @operation
    async def export(
        self,
        guild_id: int,
        fmt: str = "trf",
        tournament: TournamentRef = None,
        *,
        table: str | None = None,
        viewer: Actor | None = None,
    ) -> ExportFile:
        """One file of :meth:`export_files`: ``table`` one of :data:`EXPORT_TABLES` (CSV:
        default standings), or for JSON ``all`` (the default: everything in one file)."""
        if fmt == "csv" and table == "all":
            raise InvalidInputError("Every table as CSV is several files: choose one table.")
        return (await self._export_files(guild_id, fmt, tournament, what=table,
                                         viewer=viewer))[0]

    @operation
    async def export_files(
        self,
        guild_id: int,
        fmt: str | None = None,
        tournament: TournamentRef = None,
        *,
        what: str | None = None,
        viewer: Actor | None = None,
    ) -> list[ExportFile]:
        """The tournament as files: ``trf`` (the whole event in one file, complete Swiss
        rounds only, readable by bbpPairings: a knockout is not a Swiss round), ``csv`` or
        ``json`` of ``what``: standings, players, games (every game and bye, with its stage:
        swiss or the playoff round), crosstable, or ``all`` (CSV: one file per table that
        exists yet; JSON: one file with everything). Default: standings as CSV, all as JSON;
        without a format, TRF, or CSV when ``what`` is named.

        Decklists (when the event takes them) are in the players table once published, or
        always when ``viewer`` is an organiser; otherwise the file says they are left out.
        TRF has no place for them."""
        return await self._export_files(guild_id, fmt, tournament, what=what, viewer=viewer)

    async def event_files(self, guild_id: int, tournament_id: int) -> list[ExportFile]:
        """Everything of one event as one JSON file, inside another operation (the last
        export before a retention deletion): no retry of its own."""
        return await self._export_files(guild_id, "json", tournament_id, what="all",
                                        viewer=None)

    async def _export_files(
        self, guild_id: int, fmt: str | None, tournament: TournamentRef, *,
        what: str | None, viewer: Actor | None,
    ) -> list[ExportFile]:
        fmt = check_choice(fmt or ("trf" if what is None else "csv"), what="export format",
                           choices=EXPORT_FORMATS)
        what = TABLE_ALIASES.get(what or "", what) or DEFAULT_WHAT[fmt]
        what = check_choice(what, what="export", choices=EXPORT_WHAT)
        if fmt == "trf" and what != "all":
            raise InvalidInputError(
                "A TRF file is the whole tournament (without decklists): leave out what, or "
                "choose csv or json for one table.")
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            snapshot = await load_snapshot(conn, t)
            players = await player_repo.list_players(conn, t.id)
            identity = _shown_fields(await identity_repo.fields_by_player(conn, t.id), viewer)
            rounds = [await round_view(conn, t, r.number)
                      for r in await round_repo.list_rounds(conn, t.id)]
            bracket = await load_bracket(conn, t.id)
            urls = (await lichess_game_repo.game_urls(conn, t.id)
                    if await lichess_repo.get_event(conn, t.id) is not None else None)
            decks: dict[int, str] | None = None
            withheld = False
            if settings_of(t).decklists != "none":
                if (viewer is not None and viewer.is_organiser) \
                        or await extras_repo.published_at(conn, t.id) is not None:
                    decks = {d.player_id: d.content
                             for d in await extras_repo.list_decklists(conn, t.id)}
                else:
                    withheld = what in ("players", "all") and fmt != "trf"
        # Written after the read transaction, off the event loop for a big event (the
        # standings alone are a second of CPU at 3,000 players).
        files: list[ExportFile] = await self.ctx.pairing.off_loop(
            len(snapshot.tournament.players), _export_files, fmt, what, t, snapshot, players,
            rounds, bracket, decks, identity, urls)
        if withheld:
            note = "The decklists are not published yet: they are not in this export."
            files = [replace(f, note=note) for f in files]
        return files

    @operation
    async def set_trf_header(
        self, actor: Actor, changes: Mapping[str, str], tournament: TournamentRef = None
    ) -> dict[str, str]:
        """Organiser: set (or clear, with "") lines of the TRF report header, by key
        (``city``) or code (``022``); see :mod:`swiss.trf.header`. Allowed in any state, a
        finished event included (the report is sent after the last round). Returns the whole
        header as the export will write it (codes in order)."""
        require_organiser(actor, lazy("set the TRF report header"))
        if not changes:
            raise InvalidInputError("Give at least one TRF header field to set.")
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            before = settings_of(t)
            merged = dict(before.trf_header)
            for name, value in changes.items():
                try:
                    code = header_field(name).code
                except HeaderError as exc:
                    raise InvalidInputError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
                merged[code] = value
            after = replace(before, trf_header=check_trf_header(merged))
            await tournament_repo.update_settings(conn, t.id, name=t.name,
                                                  settings=after.to_dict(),
                                                  channel_id=t.channel_id)
            await audit(self.ctx, conn, actor, t, "tournament.trf_header",
                        {"trf_header": before.trf_header},
                        {"trf_header": after.trf_header})
        return dict(after.trf_header)

    @operation
    async def import_players(
        self, actor: Actor, text: str, fmt: str = "csv", tournament: TournamentRef = None
    ) -> list[PlayerView]:
        """Organiser: register guests from a CSV (``name,rating`` with an optional header and
        an optional ``user_id`` column) or from the player lines of a TRF file. All or nothing."""
        require_organiser(actor, lazy("import players"))
        fmt = check_choice(fmt, what="import format", choices=("csv", "trf"))
        if len(text.encode("utf-8")) > MAX_IMPORT_BYTES:
            raise InvalidInputError("The file is too large: import at most 1 MB.")
        entries = _read_trf(text) if fmt == "trf" else _read_csv(text)
        if not entries:
            raise InvalidInputError("The file has no players.")
        if len(entries) > MAX_IMPORT_PLAYERS:
            raise InvalidInputError(f"Import at most {MAX_IMPORT_PLAYERS} players at once.")
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if t.status != "registration":
                raise RegistrationClosedError(
                    f"Players can be imported only before the start ('{t.name}' is "
                    f"{status_phrase(t.status)})."
                )
            await require_room(self.ctx, conn, t, len(entries),
                               f"the {len(entries):,} players were not imported")
            added = []
            for name, rating, user_id in entries:
                try:
                    pid = await player_repo.insert_player(
                        conn, tournament_id=t.id, user_id=user_id, name=name, rating=rating,
                        now=self.ctx.now(), checked_in=True,
                    )
                except IntegrityError:
                    raise AlreadyRegisteredError(
                        f"'{name}' is already registered in '{t.name}': nothing was imported."
                    ) from None
                row = await player_repo.get_player(conn, pid)
                assert row is not None
                added.append(player_view(row))
            await audit(self.ctx, conn, actor, t, "player.import", None,
                        {"format": fmt, "players": [p.id for p in added]})
            return added


def _export_files(
    fmt: str, what: str, t: TournamentRow, snapshot: Snapshot, players: list[PlayerRow],
    rounds: list[RoundView], bracket: BracketState | None, decks: dict[int, str] | None,
    identity: dict[int, dict[str, str]], urls: dict[int, str] | None = None,
) -> list[ExportFile]:
    """The files of :meth:`Exports.export_files` from what it read: pure, and the same
    wherever it runs (the event loop, or a thread for a big event). ``urls``: the games'
    pages on Lichess, for an event played there."""
    slug = _slug(t.name)
    started = bool(snapshot.tournament.players)
    if fmt == "trf":
        if not started:
            raise ConflictError(
                f"'{t.name}' has not started: a TRF file needs pairing numbers."
            )
        try:
            text = _report_trf(_complete_prefix(snapshot.tournament),
                               settings_of(t).trf_header, t.name,
                               _trf_fields(snapshot, identity))
        except ValueError as exc:
            raise ConflictError(f"'{t.name}' cannot be written as TRF: {exc}.") from None
        return [ExportFile(f"{slug}.trf", text, "text/plain")]
    if what in ("standings", "crosstable") and not started:
        raise ConflictError(f"'{t.name}' has not started: there is no {what} yet.")
    wanted = EXPORT_TABLES if what == "all" else (what,)
    # only what is asked for: the standings are a second of CPU at 3,000 players
    standings = crosstable = None
    if started and ("standings" in wanted or "crosstable" in wanted):
        standings = standings_view(t, snapshot, final=t.status == "finished")
        if "crosstable" in wanted:
            crosstable = crosstable_view(t, snapshot, standings)
    tables: dict[str, ExportTable] = {}
    if "players" in wanted:
        tables["players"] = players_table([player_view(p) for p in players], decks, identity)
    if "games" in wanted:
        tables["games"] = games_table(rounds, urls)
    if standings is not None and "standings" in wanted:
        tables["standings"] = standings_table(standings, bracket)
    if crosstable is not None:
        tables["crosstable"] = crosstable_table(crosstable)
    if fmt == "csv":
        return [ExportFile(f"{slug}-{n}.csv", tables[n].csv_text(), "text/csv")
                for n in wanted if n in tables]
    return [_json_export(what, t, tables, standings, crosstable, rounds, bracket, decks,
                         players)]


def _json_export(
    what: str, t: TournamentRow, tables: dict[str, ExportTable],
    standings: StandingsView | None, crosstable: CrosstableView | None,
    rounds: list[RoundView], bracket: BracketState | None, decks: dict[int, str] | None,
    players: list[PlayerRow],
) -> ExportFile:
    """One JSON file: ``what`` (the table's records; the standings and the crosstable with
    what their rows need to be read), or ``all`` of them with the rounds, the bracket and
    the decklists the caller may see."""
    slug = _slug(t.name)
    wanted = EXPORT_TABLES if what == "all" else (what,)
    sections: dict[str, Any] = {name: None for name in wanted}
    for name, table in tables.items():
        sections[name] = table.records()
    if standings is not None and "standings" in tables:
        sections["standings"] = {
            "after_round": standings.after_round, "final": standings.final,
            "tiebreaks": list(standings.tiebreaks), "rows": sections["standings"]}
    if crosstable is not None:
        sections["crosstable"] = {"legend": crosstable.legend, "rows": sections["crosstable"]}
    body: dict[str, Any] = {
        "tournament": {"id": t.id, "name": t.name, "status": t.status, "seed": t.seed,
                       "settings": settings_of(t).to_dict()},
    }
    if what != "all":
        body[what] = sections[what]
        return ExportFile(f"{slug}-{what}.json", _json(body), "application/json")
    body.update(sections)
    body["rounds"] = [to_jsonable(r) for r in rounds]
    # The top cut (rounds after playoffs.swiss_rounds are its matches).
    body["playoffs"] = None if bracket is None else bracket_payload(bracket)
    if decks is not None:
        body["decklists"] = [
            {"player_id": p.id, "number": p.number, "name": p.name, "decklist": decks[p.id]}
            for p in players if p.id in decks
        ]
    return ExportFile(f"{slug}.json", _json(body), "application/json")


def _json(body: dict[str, Any]) -> str:
    return json.dumps(body, indent=2, ensure_ascii=False)


def _report_trf(
    model: Tournament, header: Mapping[str, str], name: str,
    fields: Mapping[int, PlayerFields] | None = None,
) -> str:
    """The TRF a federation rates: the organiser's header lines (012 defaults to the
    tournament's name; 062 and 072 are counted from the players unless set), XXR, XXC, and
    each player's rating fields (``fields`` by pairing number) with his TRF name."""
    from swiss.trf import write_trf
    from swiss.trf.header import header_lines

    fields = fields or {}
    lines = dict(header)
    lines.setdefault("062", str(len(model.players)))
    lines.setdefault("072", str(sum(1 for p in model.players if p.rating)))
    players = tuple(replace(p, name=fields[p.id].trf_name) if p.id in fields
                    and fields[p.id].trf_name else p for p in model.players)
    model = replace(model, name=lines.get("012") or name, players=players)
    infos = {number: f.trf_info() for number, f in fields.items()}
    return write_trf(model, players=infos, other_lines=header_lines(lines))


def _trf_fields(snapshot: Snapshot, identity: Mapping[int, Mapping[str, str]]
                ) -> dict[int, PlayerFields]:
    """The rating fields by pairing number (the TRF's start numbers)."""
    return {number: PlayerFields(**identity[row.id])
            for number, row in snapshot.by_number.items() if row.id in identity}


def _shown_fields(identity: dict[int, dict[str, str]], viewer: Actor | None
                  ) -> dict[int, dict[str, str]]:
    """The fields an export may show its reader: a birth date only to organisers; others see
    the year, as FIDE's own rating lists show it."""
    if viewer is not None and viewer.is_organiser:
        return identity
    return {pid: {**fields, "birth": fields["birth"][:4]} for pid, fields in identity.items()}


def _read_csv(text: str) -> list[tuple[str, int, int | None]]:
    rows = [row for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) if any(
        cell.strip() for cell in row)]
    if not rows:
        return []
    header = [cell.strip().lower() for cell in rows[0]]
    if "name" in header:
        columns = {key: header.index(key) for key in ("name", "rating", "user_id") if key in header}
        rows = rows[1:]
        first_line = 2
    else:
        columns = {"name": 0, "rating": 1, "user_id": 2}
        first_line = 1
    entries = []
    for line, row in enumerate(rows, start=first_line):
        def cell(key: str, row: list[str] = row) -> str:
            index = columns.get(key)
            return row[index].strip() if index is not None and index < len(row) else ""

        try:
            name = clean_name(cell("name"), what="player name", limit=MAX_PLAYER_NAME)
            raw_rating, raw_user = cell("rating"), cell("user_id")
            # Strictly (swiss.numbers): "²" passes isdigit() and a 20-digit id overflows SQLite.
            try:
                rating = check_rating(
                    parse_int(raw_rating, "rating", low=0, high=MAX_RATING) if raw_rating else None)
            except NumberError as exc:
                raise InvalidInputError(f"The {exc.reason}.") from None
            user_id = parse_id(raw_user, what="Discord user id") if raw_user else None
        except InvalidInputError as exc:
            raise InvalidInputError(f"CSV line {line}: {exc.message}") from None
        entries.append((name, rating, user_id))
    return entries


def _read_trf(text: str) -> list[tuple[str, int, int | None]]:
    from swiss.trf import TrfError, parse_trf

    try:
        parsed = parse_trf(text)
    except TrfError as exc:
        raise InvalidInputError(f"The TRF file is invalid: {exc}.") from None
    entries = []
    for player in sorted(parsed.tournament.players, key=lambda p: (p.seed, p.id)):
        try:
            name = clean_name(player.name, what="player name", limit=MAX_PLAYER_NAME)
            rating = check_rating(player.rating)
        except InvalidInputError as exc:
            raise InvalidInputError(f"TRF player {player.id}: {exc.message}") from None
        entries.append((name, rating, None))
    return entries
