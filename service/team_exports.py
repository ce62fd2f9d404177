"""A team event's files: the TRF-2026 team report (``013`` team records and the members'
``001`` records, as team pairing programs such as gacrux read them; chess events only),
and the standings and matches as CSV or JSON."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from i18n import lazy
from service.base import Context, TournamentRef, find_tournament, part
from service.errors import ConflictError, InvalidInputError
from service.export_tables import Cell, ExportTable, number
from service.model import settings_of
from service.operation import operation
from service.team_rounds import load_state
from service.team_state import EventState, standings, team_side_white
from service.views import ExportFile
from storage.teams import MemberRow

FORMATS = ("trf", "csv", "json")
# The TRF's result codes of a board, for its White and its Black.
_TRF_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2": ("=", "="), "+-": ("+", "-"),
              "-+": ("-", "+"), "--": ("-", "-")}
_UNSAFE = re.compile(r"[^\x20-\x7e\u00a0-\uffff]")


def variant_code(colour_model: str, primary: str) -> str:
    """The ``192`` record naming the FIDE team variant (docs/teams.md)."""
    model = {"type-a": "_TYPEA", "type-b": "_TYPEB", "none": ""}[colour_model]
    return f"FIDE_TEAM{model}_{'MP_GP' if primary == 'mp' else 'GP_MP'}"


def _text(value: str, width: int) -> str:
    """A name in a fixed-width TRF field: one line, printable, cut to ``width``."""
    return _UNSAFE.sub("", " ".join(value.split()))[:width].ljust(width)


def team_trf(name: str, state: EventState, members: dict[int, MemberRow],
             total_rounds: int) -> str:
    """The event as a TRF team report: starting ranks by team number, then board order; a
    member's round is his board (opponent, colour, result), ``U`` for his team's bye, blank
    when he did not play; a board without a player on one side is the other's forfeit win
    without an opponent (``0000 - +``)."""
    team_of = {t.id: t for t in state.teams}
    ordered = sorted(members.values(),
                     key=lambda m: (team_of[m.team_id].number, m.position))
    rank = {m.id: i for i, m in enumerate(ordered, start=1)}
    rounds = state.rounds_paired
    entries: dict[int, list[str]] = {m.id: [" " * 8] * rounds for m in ordered}
    matches = {m.id: m for m in state.matches}
    for board in state.boards:
        match = matches[board.match_id]
        codes = _TRF_CODES.get(board.result)
        if codes is None:  # not final yet: left out, as a game still being played
            continue
        slot = match.round_number - 1
        sides = ((board.white_member_id, board.black_member_id, "w", codes[0]),
                 (board.black_member_id, board.white_member_id, "b", codes[1]))
        for member, opponent, colour, code in sides:
            if member is None:
                continue
            entries[member][slot] = (f"{rank[opponent]:4d} {colour} {code}" if opponent
                                     else "0000 - +")
    for match in state.matches:
        if match.black_team_id is None:  # the bye: every member of the team
            for m in ordered:
                if m.team_id == match.white_team_id:
                    entries[m.id][match.round_number - 1] = "0000 - U"
    lines = [f"012 {_text(name, 80).rstrip()}", f"062 {len(ordered)}",
             f"082 {len(state.teams)}",
             f"192 {variant_code(state.event.colour_model, state.event.primary_score)}",
             f"352 {('WB' * state.event.boards)[:state.event.boards]}", f"XXR {total_rounds}"]
    for team in state.teams:  # team records first: readers resolve the games by them
        ranks = " ".join(f"{rank[m.id]:4d}" for m in ordered if m.team_id == team.id)
        lines.append(f"013 {_text(team.name, 32)}{ranks}")
    for m in ordered:
        head = (f"001 {rank[m.id]:4d} m    {_text(m.name, 33)} {0:4d} {'':3} {'':11} "
                f"{'':10} {0:4.1f} {rank[m.id]:4d}")
        lines.append(head + "".join(f"  {field}" for field in entries[m.id]))
    return "\n".join(lines) + "\n"


def standings_table(state: EventState, total_rounds: int) -> ExportTable:
    """The teams ranked, a column per tie-break (numbers as numbers)."""
    names, rows = standings(state, total_rounds)
    return ExportTable("team-standings",
                       ("rank", "number", "name", "match_points", "game_points", *names,
                        "status"),
                       tuple((r.rank, r.number, r.name, number(r.match_points),
                              number(r.game_points), *(number(v) for v in r.tiebreaks),
                              r.status) for r in rows))


def matches_table(state: EventState, members: dict[int, MemberRow]) -> ExportTable:
    """A row per board (chess) or per match (e-sports: no boards): the two teams (the first
    has White on board 1), the board's players and result, the match's points."""
    team_of = {t.id: t.name for t in state.teams}
    halves = state.event.system == "fide-team"
    rows: list[tuple[Cell, ...]] = []
    for match in state.matches:
        second = None if match.black_team_id is None else team_of[match.black_team_id]
        head = (match.round_number, match.number, team_of[match.white_team_id], second)
        tail = (_score(match.white_score, halves), _score(match.black_score, halves),
                match.white_mp, match.black_mp, match.forfeit or "")
        boards = [b for b in state.boards if b.match_id == match.id]
        if not boards:
            rows.append((*head, None, None, None, None, *tail))
        for b in boards:
            first_white = team_side_white(match, match.white_team_id, b.board)
            ours, theirs = ((b.white_member_id, b.black_member_id) if first_white
                            else (b.black_member_id, b.white_member_id))
            rows.append((*head, b.board, _name(members, ours), _name(members, theirs),
                         b.result, *tail))
    return ExportTable("team-matches",
                       ("round", "match", "first_team", "second_team", "board", "white_name",
                        "black_name", "result", "first_score", "second_score", "first_mp",
                        "second_mp", "forfeit"), tuple(rows))


def _score(value: int | None, halves: bool) -> Cell:
    return None if value is None else number(Fraction(value, 2) if halves else Fraction(value))


def _name(members: dict[int, MemberRow], member_id: int | None) -> str | None:
    return None if member_id is None else members[member_id].name


@part
class TeamExports:
    ctx: Context

    @operation
    async def export_team_files(self, guild_id: int, fmt: str = "trf",
                                tournament: TournamentRef = None) -> list[ExportFile]:
        """The team event as files: ``trf`` (the TRF team report, chess events), ``csv``
        (the standings and the matches, two files) or ``json`` (one file with both)."""
        if fmt not in FORMATS:
            raise InvalidInputError(lazy("Export as {formats}, not {format}.",
                                         formats=", ".join(FORMATS), format=repr(fmt)))
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            loaded = await load_state(conn, t)
        state, members = loaded.state, loaded.members
        stem = re.sub(r"[^A-Za-z0-9]+", "-", t.name).strip("-").lower() or "event"
        total = settings_of(t).rounds
        size = len(state.teams) * state.event.boards
        if fmt == "trf":
            if state.event.system != "fide-team":
                raise ConflictError(lazy("A TRF file holds chess events: export an e-sports "
                                         "stage as csv or json."))
            text = await self.ctx.pairing.off_loop(size, team_trf, t.name, state, members, total)
            return [ExportFile(f"{stem}-teams.trf", text, "text/plain")]
        tables = [await self.ctx.pairing.off_loop(size, standings_table, state, total),
                  matches_table(state, members)]
        if fmt == "json":
            body = {"tournament": t.name, "system": state.event.system,
                    "boards": state.event.boards,
                    **{table.name: table.records() for table in tables}}
            return [ExportFile(f"{stem}-teams.json", json.dumps(body, ensure_ascii=False,
                                                                indent=1), "application/json")]
        return [ExportFile(f"{stem}-{table.name}.csv", table.csv_text(), "text/csv")
                for table in tables]
