"""Every setting of an event changed through one operation (the settings panel, the
``/tournament`` sub-commands and the command line all end here).

A change is validated as a whole, audited (old -> new) and refused with the reason when it
would rewrite what was already played. Once rounds were played:

* the pairing rules (system, FIDE edition, colours, rematches) apply from the next round;
* the tiebreaks apply to the standings only (they never pair anyone);
* the scoring re-scores the standings (the pairings already made stay);
* check-in, which took place at the start, and the rounds already paired cannot change.

The organiser names the choice (``apply``: ``"next-round"`` or ``"standings"``); a choice
that cannot hold for a setting is refused, saying which one can. Each change counts the
tournament's ``settings_version`` up: a panel names the version it was shown for, and a click
on a panel older than the last change is refused (:class:`SettingsChangedError`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from i18n import N_, lazy, lazy_plural
from service.base import Context, TournamentRef, audit, find_tournament, info_of, part
from service.errors import (
    ConflictError,
    InvalidInputError,
    RegistrationClosedError,
    SettingsChangedError,
    TournamentNotRunningError,
)
from service.limits import MAX_TOURNAMENT_NAME
from service.model import settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.playoff_state import load_bracket
from service.times import guild_zone, read_times
from service.tournaments import require_future_start, validate_settings
from service.validation import check_choice, clean_name
from service.views import Actor, TournamentInfo, TournamentSettings
from storage import lichess as lichess_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection, IntegrityError
from storage.tournaments import TournamentRow

if TYPE_CHECKING:
    from service.entry import Entry
    from service.tournaments import Tournaments

APPLY_MODES = ("next-round", "standings")
# What a change made once rounds were played acts on: the one mode each allows.
PAIRING_RULES = frozenset({"system", "dutch_rules", "colours", "rematches"})
STANDINGS_RULES = frozenset({"tiebreaks", "tiebreak_rules", "scoring"})
# Check-in happened at the start: who was not checked in was left out of round 1.
FIXED_AFTER_START = frozenset({"checkin", "checkin_opens", "checkin_closes"})
# The top cut's (and the length of the Swiss's) only until the cut is made: a bracket in
# progress keeps its rules.
TOP_CUT_SETTINGS = frozenset({"top_cut", "playoff_best_of", "playoff_privilege", "rounds"})
OTHER_FIELDS = frozenset({"name", "channel_id"})
#: The statuses whose settings no longer change, in words.
ENDED = {"finished": N_("finished"), "cancelled": N_("cancelled")}


@dataclass(frozen=True, slots=True)
class SettingChange:
    """One setting changed: its name (a TournamentSettings field, ``name`` or
    ``channel_id``) and its value before and after."""

    key: str
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class SettingsUpdate:
    """What a change did: the event as it is now (its ``settings_version`` is the new one),
    each setting changed (none: the values were already so, nothing was written), and, once
    rounds were played, where the pairing or scoring changes apply (``applied``:
    ``"next-round"``, ``"standings"``, both joined by ``+``, or ``None``)."""

    info: TournamentInfo
    changes: list[SettingChange]
    applied: str | None


@part
class Settings:
    """Change any setting of an event (the one place that writes them after creation)."""

    ctx: Context
    entry: Entry
    tournaments: Tournaments

    @operation
    async def update_settings(
        self,
        actor: Actor,
        tournament: TournamentRef,
        changes: dict[str, Any],
        *,
        version: int | None = None,
        apply: str | None = None,
    ) -> SettingsUpdate:
        """Organisers: change settings (any TournamentSettings field, ``name``,
        ``channel_id``). ``version``: the ``settings_version`` the change was chosen from (a
        panel's); when another change came in between, nothing is changed
        (:class:`SettingsChangedError`). ``apply``: once rounds were played, ``"next-round"``
        (pairing rules) or ``"standings"`` (scoring and tiebreaks); left out, each setting's
        only possible mode applies, and the answer says which."""
        require_organiser(actor, lazy("change tournament settings"))
        mode = None if apply is None else check_choice(apply, what="apply mode",
                                                        choices=APPLY_MODES)
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            t = await tournament_repo.locked(conn, t)
            if version is not None and version != t.settings_version:
                raise SettingsChangedError(lazy(
                    "The settings of '{tournament}' changed since this panel was shown: "
                    "nothing was changed. Here are the current settings.", tournament=t.name))
            return await self.change(conn, actor, t, dict(changes), mode)

    @operation
    async def edit_tournament(
        self, actor: Actor, tournament: TournamentRef = None, **changes: Any
    ) -> TournamentInfo:
        """Change settings (any TournamentSettings field, ``name`` or ``channel_id``), by the
        rules of :meth:`update_settings`, whatever version they were chosen from."""
        require_organiser(actor, lazy("edit tournaments"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            return (await self.change(conn, actor, t, changes, None)).info

    async def change(self, conn: Connection, actor: Actor, t: TournamentRow,
                     changes: dict[str, Any], mode: str | None) -> SettingsUpdate:
        """Validate, write and audit ``changes`` of ``t`` (inside the caller's transaction)."""
        allowed = set(TournamentSettings.__dataclass_fields__) | OTHER_FIELDS
        unknown = sorted(set(changes) - allowed)
        if unknown:
            raise InvalidInputError(lazy(
                "Unknown setting {unknown}: you can change {allowed}.",
                unknown=", ".join(unknown), allowed=", ".join(sorted(allowed))))
        if t.status not in ("registration", "running"):
            status = lazy(ENDED[t.status]) if t.status in ENDED else t.status
            raise TournamentNotRunningError(lazy(
                "'{tournament}' is {status}: its settings can no longer change.",
                tournament=t.name, status=status))
        before = settings_of(t)
        name = t.name
        if "name" in changes:
            name = clean_name(changes.pop("name"), what="tournament name",
                              limit=MAX_TOURNAMENT_NAME)
        channel_id = changes.pop("channel_id", t.channel_id)
        # typed moments ("tomorrow 19:00", in the server's zone) and durations ("1h30")
        changes, notes = read_times(changes, now=self.ctx.now(),
                                    zone=await guild_zone(conn, actor.guild_id),
                                    future_start=t.status == "registration")
        after = validate_settings(dataclasses.replace(before, **changes))
        changed = [SettingChange(key, getattr(before, key), getattr(after, key))
                   for key in changes if getattr(before, key) != getattr(after, key)]
        for key, old, new in (("name", t.name, name), ("channel_id", t.channel_id, channel_id)):
            if old != new:
                changed.append(SettingChange(key, old, new))
        if not changed:  # a repeated click or command: nothing to write
            return SettingsUpdate(await self._info(conn, t, notes), [], None)
        keys = {c.key for c in changed}
        applied = await self._check_played(conn, t, before, after, keys, mode)
        if after.ratings == "source" and before.ratings != "source" and \
                await lichess_repo.get_event(conn, t.id) is None:
            raise InvalidInputError(lazy(
                "'{tournament}' is linked to no rating source: ratings can come from a source "
                "only for an event played on Lichess (/lichess event).", tournament=t.name))
        if after.first_round_at != before.first_round_at and t.status == "registration":
            require_future_start(after, self.ctx.now())
        try:
            await tournament_repo.update_settings(
                conn, t.id, name=name, settings=after.to_dict(), channel_id=channel_id)
        except IntegrityError:
            raise ConflictError(lazy(
                "A tournament called '{tournament}' is already open in this server.",
                tournament=name)) from None
        if after.capacity != before.capacity:
            # a larger capacity lets the first waiting players in
            fresh = await tournament_repo.get_tournament(conn, t.id)
            if fresh is not None:
                await self.entry.promote(conn, actor, fresh)  # type: ignore[attr-defined]
        await audit(self.ctx, conn, actor, t, "tournament.edit",
                    {c.key: c.before for c in changed},
                    {**{c.key: c.after for c in changed}, "applied": applied})
        if keys & {"first_round_at", "round_interval_minutes"}:
            await self.tournaments.rearm_schedule(conn, t)
        return SettingsUpdate(await self._info(conn, t, notes), changed, applied)

    async def _info(self, conn: Connection, t: TournamentRow,
                    notes: list[str]) -> TournamentInfo:
        """The event as it is now, with what the answer must say about typed local times
        (one that happens twice was read as the first)."""
        return dataclasses.replace(await info_of(conn, t), notes=tuple(notes))

    async def _check_played(self, conn: Connection, t: TournamentRow,
                            before: TournamentSettings, after: TournamentSettings,
                            keys: set[str], mode: str | None) -> str | None:
        """Refuse what would rewrite played rounds; return where the rest applies."""
        if keys & TOP_CUT_SETTINGS and await load_bracket(conn, t.id) is not None:
            raise RegistrationClosedError(lazy(
                "The top cut of '{tournament}' is already seeded: the number of rounds and the "
                "top cut can no longer change (undo the last Swiss round to change them).",
                tournament=t.name))
        if t.status != "running":
            return None
        fixed = sorted(keys & FIXED_AFTER_START)
        if fixed:
            raise RegistrationClosedError(lazy(
                "'{tournament}' has started: {settings} can no longer change (check-in ended "
                "when round 1 was paired).", tournament=t.name, settings=", ".join(fixed)))
        last = await round_repo.last_round(conn, t.id)
        played = 0 if last is None else last.number
        if after.rounds < played:
            raise InvalidInputError(lazy_plural(
                "'{tournament}' has already paired {n} round: the number of rounds cannot be "
                "below {n}.",
                "'{tournament}' has already paired {n} rounds: the number of rounds cannot be "
                "below {n}.", played, tournament=t.name))
        modes = []
        if keys & PAIRING_RULES:
            modes.append(_only_mode(t, sorted(keys & PAIRING_RULES), "next-round", mode))
        if keys & STANDINGS_RULES:
            modes.append(_only_mode(t, sorted(keys & STANDINGS_RULES), "standings", mode))
        return "+".join(modes) or None


def _only_mode(t: TournamentRow, keys: list[str], possible: str, chosen: str | None) -> str:
    """The one mode ``keys`` can apply in once rounds were played; another choice is refused."""
    if chosen is not None and chosen != possible:
        what = ", ".join(keys)
        if possible == "next-round":
            reason = lazy("{settings} only decide how rounds are paired: in '{tournament}' "
                          "they can apply from the next round, never to the standings of the "
                          "rounds played. Choose 'from the next round'.",
                          settings=what, tournament=t.name)
        else:
            reason = lazy("{settings} decide the standings, not the pairings: in '{tournament}' "
                          "they apply to the standings of every round (the pairings already "
                          "made stay). Choose 'standings only'.", settings=what,
                          tournament=t.name)
        raise InvalidInputError(reason)
    return possible
