"""The rating fields of players (FIDE id, federation, birth date, sex, title, TRF name): set
one player at a time, or many from a CSV file; written in the TRF report and the exports.

Only organisers set or read them (a birth date is personal data). The audit log records which
fields changed, never their values: the log outlives a member's request to be forgotten."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from i18n import lazy, lazy_plural
from service.base import (
    Context,
    PlayerRef,
    TournamentRef,
    audit,
    find_player,
    find_tournament,
    part,
    player_view,
    require_room,
)
from service.errors import AlreadyRegisteredError, InvalidInputError
from service.operation import operation
from service.permissions import require_organiser
from service.player_csv import ImportRow, Problems, read_player_csv
from service.views import Actor, PlayerView
from storage import player_identity as identity_repo
from storage import players as player_repo
from storage.connection import Connection, IntegrityError
from storage.players import PlayerRow
from storage.tournaments import TournamentRow
from swiss.trf.player_fields import FIELD_NAMES, FieldError, PlayerFields, parse_field


@dataclass(frozen=True, slots=True)
class PlayerRecordView:
    """A player and his rating fields as stored (``""`` where unset)."""

    player: PlayerView
    fields: PlayerFields
    changed: tuple[str, ...] = ()  # the fields this operation changed


@dataclass(frozen=True, slots=True)
class PlayerImportView:
    """What an import did: the players it registered and those whose fields it set."""

    tournament_name: str
    added: tuple[PlayerView, ...]
    updated: tuple[PlayerView, ...]


@part
class Identity:
    ctx: Context

    @operation
    async def set_player_fields(
        self, actor: Actor, player: PlayerRef, changes: Mapping[str, str],
        tournament: TournamentRef = None,
    ) -> PlayerRecordView:
        """Organiser: set the fields named in ``changes`` (keys of
        ``swiss.trf.player_fields.FIELD_NAMES``; ``"-"`` clears one); no changes shows the
        record. Allowed in any state of the event: the report is sent after the last round.
        Setting the same values again changes nothing (and is not audited)."""
        require_organiser(actor, lazy("set players' rating fields"))
        today = self.ctx.now().date()
        parsed: dict[str, str] = {}
        for name, text in changes.items():
            try:
                parsed[name] = parse_field(name, text, today=today)
            except FieldError as exc:
                raise InvalidInputError(f"{_label(name)}: {exc}.") from None
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            row = await find_player(conn, t, player)
            changed = await self._store(conn, actor, t, row, parsed)
            stored = await identity_repo.fields_of(conn, row.id)
        return PlayerRecordView(player_view(row), PlayerFields(**stored), changed)

    @operation
    async def import_player_list(
        self, actor: Actor, text: str, tournament: TournamentRef = None
    ) -> PlayerImportView:
        """Organiser: a CSV file with a header line (``service.player_csv.COLUMNS``). A row
        naming a player of the event (by ``user_id``, else by name) sets his fields; another
        row registers a new player, before the start only. Every row is checked first: one
        bad row and nothing is stored (the error lists each bad line and column)."""
        require_organiser(actor, lazy("import players"))
        rows = read_player_csv(text, today=self.ctx.now().date())
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            matched = await _match_rows(conn, t, rows)
            new = [row for row, found in matched if found is None]
            if new:
                await require_room(self.ctx, conn, t, len(new),
                                   lazy_plural("the {count} new player was not imported",
                                               "the {count} new players were not imported",
                                               len(new), count=format(len(new), ",")))
            added: list[PlayerView] = []
            updated: list[PlayerView] = []
            for row, found in matched:  # one audit entry for the whole import
                if found is None:
                    found = await self._register(conn, t, row)
                    added.append(player_view(found))
                    await self._store(conn, actor, t, found, row.fields, audited=False)
                elif await self._store(conn, actor, t, found, row.fields, audited=False):
                    updated.append(player_view(found))
            await audit(self.ctx, conn, actor, t, "player.import", None,
                        {"format": "csv", "players": [p.id for p in added],
                         "updated": [p.id for p in updated]})
        return PlayerImportView(t.name, tuple(added), tuple(updated))

    async def _store(
        self, conn: Connection, actor: Actor, t: TournamentRow, row: PlayerRow,
        parsed: Mapping[str, str], *, audited: bool = True,
    ) -> tuple[str, ...]:
        """Merge ``parsed`` into the player's record; the names of the fields that changed."""
        before = await identity_repo.fields_of(conn, row.id)
        after = {**before, **parsed}
        changed = tuple(name for name in FIELD_NAMES if after[name] != before[name])
        if changed:
            await identity_repo.save_fields(conn, t.id, row.id, after, self.ctx.now())
            if audited:  # which fields, never their values (see the module docstring)
                await audit(self.ctx, conn, actor, t, "player.fields", None,
                            {"player": row.id, "fields": list(changed)})
        return changed

    async def _register(self, conn: Connection, t: TournamentRow, row: ImportRow) -> PlayerRow:
        try:
            pid = await player_repo.insert_player(
                conn, tournament_id=t.id, user_id=row.user_id, name=row.name or "",
                rating=row.rating or 0, now=self.ctx.now(), checked_in=True)
        except IntegrityError:
            raise AlreadyRegisteredError(lazy(
                "Line {line}: '{player}' is already registered in '{tournament}': nothing was "
                "imported.", line=row.line, player=row.who, tournament=t.name)) from None
        fresh = await player_repo.get_player(conn, pid)
        assert fresh is not None
        return fresh


async def _match_rows(
    conn: Connection, t: TournamentRow, rows: list[ImportRow]
) -> list[tuple[ImportRow, PlayerRow | None]]:
    """Each row and the player it names (None: a new player). A new player is refused after
    the start, and without a name; every such row is reported at once."""
    problems = Problems()
    matched: list[tuple[ImportRow, PlayerRow | None]] = []
    for row in rows:
        found: PlayerRow | None = None
        if row.user_id is not None:
            found = await player_repo.find_member(conn, t.id, row.user_id)
        elif row.name is not None:
            same = await player_repo.find_by_name(conn, t.id, row.name)
            if len(same) > 1:
                problems.add(row.line, None, None, lazy(
                    "several players of '{tournament}' are called {name}: add a user_id column",
                    tournament=t.name, name=row.name))
            found = same[0] if len(same) == 1 else None
        if found is None:
            if t.status != "registration":
                problems.add(row.line, None, None, lazy(
                    "{player} is not a player of '{tournament}' (new players can be imported "
                    "before the start only)", player=row.who, tournament=t.name))
            elif row.name is None:
                problems.add(row.line, None, None, lazy(
                    "{player} is not a player yet: give his name to add him", player=row.who))
        matched.append((row, found))
    problems.raise_if_any()
    return matched


def _label(name: str) -> str:
    return {"fide_id": "FIDE id", "trf_name": "TRF name", "birth": "Birth date"}.get(
        name, name.capitalize())
