"""Guild settings and the tournament life cycle: create, edit, list, info, start, finish,
cancel."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from i18n import LANGUAGES, lazy
from service.base import (
    Context,
    TournamentRef,
    audit,
    find_tournament,
    info_of,
    part,
)
from service.errors import (
    ConflictError,
    InvalidInputError,
)
from service.limits import (
    MAX_AUTO_ADVANCE_MINUTES,
    MAX_CAPACITY,
    MAX_DEADLINE_MINUTES,
    MAX_DECKLIST_DEADLINE_TEXT,
    MAX_RATING,
    MAX_TIEBREAKS,
    MAX_TIEBREAKS_TEXT,
    MAX_TOURNAMENT_NAME,
    MIN_AUTO_ADVANCE_MINUTES,
    MIN_CAPACITY,
    MIN_DEADLINE_MINUTES,
    MIN_RATING,
    clip,
    echo,
)
from service.model import settings_of
from service.operation import operation
from service.permissions import require_manager, require_organiser
from service.playoffs import BEST_OF, PRIVILEGES, TOP_CUTS
from service.schedule import arm_schedule, validate_timer_settings
from service.times import guild_zone, moment_error, read_times, zone_named
from service.validation import (
    check_choice,
    check_range,
    check_rounds,
    check_system,
    check_trf_header,
    clean_name,
)
from service.views import (
    Actor,
    GuildSettingsView,
    TournamentInfo,
    TournamentSettings,
)
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection, IntegrityError
from storage.timefmt import to_text
from storage.tournaments import TournamentRow
from swiss.standings import PRESETS, TiebreakError, resolve_tiebreaks

SCORING_PRESETS = ("chess", "match")
REMATCH_POLICIES = ("avoid", "forbid")
LATE_JOIN_BYES = ("zero", "half", "full")
DECKLIST_MODES = ("none", "text", "link")
RATING_SOURCES = ("players", "organisers", "source")  # who types the ratings
TIEBREAK_RULES = ("auto", "2026", "2024")  # FIDE C.07 edition; auto: in force at creation
if TYPE_CHECKING:
    from service.announcer import Announcer



def check_deadline_text(value: str | datetime | None) -> str | None:
    """A decklist deadline: a datetime or ISO text (``2026-05-01T18:00``, UTC unless it names
    an offset), stored as UTC ISO text; ``None`` or "" = the start of the event."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, datetime):
        moment = value
    elif len(str(value)) > MAX_DECKLIST_DEADLINE_TEXT:
        raise InvalidInputError("The decklist deadline is too long: write it like "
                                "2026-05-01T18:00 (UTC).")
    else:
        try:
            moment = datetime.fromisoformat(str(value).strip())
        except ValueError:
            raise InvalidInputError(
                f"The decklist deadline {echo(value)} is not a date and time: write it like "
                "2026-05-01T18:00 (UTC)."
            ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return to_text(moment)


def check_tiebreaks(value: str) -> str:
    """A swiss.standings preset (fide, mtg, ...) or a comma-separated list of acronyms."""
    text = str(value).strip()
    if text.lower() in PRESETS:
        return text.lower()
    # Bounded before parsing: the list is shown in /tournament info and in standings footers,
    # so a setting that cannot be displayed is refused rather than stored.
    if len(text) > MAX_TIEBREAKS_TEXT:
        raise InvalidInputError(
            f"The tiebreak list is too long ({len(text)} characters): use at most "
            f"{MAX_TIEBREAKS_TEXT}, or a preset ({', '.join(PRESETS)})."
        )
    try:
        specs = resolve_tiebreaks(text)
    except TiebreakError as exc:
        raise InvalidInputError(
            f"Unknown tiebreaks {echo(text)} ({clip(str(exc), 200)}): use a "
            f"preset ({', '.join(PRESETS)}) or a comma-separated list such as BH-C1,BH,SB."
        ) from None
    if len(specs) > MAX_TIEBREAKS:
        raise InvalidInputError(
            f"Too many tiebreaks ({len(specs)}): use at most {MAX_TIEBREAKS}."
        )
    return text


def check_entry_settings(settings: TournamentSettings) -> None:
    """Capacity, rating range and the registration / check-in windows."""
    if settings.capacity is not None:
        check_range(settings.capacity, what="capacity", low=MIN_CAPACITY, high=MAX_CAPACITY)
    for what, value in (("lowest rating", settings.min_rating),
                        ("highest rating", settings.max_rating)):
        if value is not None:
            check_range(value, what=what, low=MIN_RATING, high=MAX_RATING)
    if settings.min_rating is not None and settings.max_rating is not None and \
            settings.min_rating > settings.max_rating:
        raise InvalidInputError("The lowest rating must not be above the highest rating.")
    for opens, closes, what in (
        (settings.registration_opens, settings.registration_closes, "registration"),
        (settings.checkin_opens, settings.checkin_closes, "check-in"),
    ):
        times = [parse_window_time(v, what=what) for v in (opens, closes) if v is not None]
        if len(times) == 2 and times[0] >= times[1]:
            raise InvalidInputError(f"The {what} window must open before it closes.")


def parse_window_time(value: str, *, what: str) -> datetime:
    """A window time: ISO-8601 (``2026-05-01T18:00`` or with an offset); naive means UTC."""
    try:
        moment = datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise InvalidInputError(
            f"The {what} window time {echo(value)} is not a date and time like "
            "2026-05-01T18:00 (UTC)."
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def validate_settings(settings: TournamentSettings) -> TournamentSettings:
    """Check every setting; return them normalised (lower-case choices)."""
    rounds = check_rounds(settings.rounds)
    system, dutch_rules = check_system(settings.system, settings.dutch_rules)
    trf_header = check_trf_header(settings.trf_header)
    scoring = check_choice(settings.scoring, what="scoring", choices=SCORING_PRESETS)
    tiebreaks = check_tiebreaks(settings.tiebreaks)
    rematches = check_choice(settings.rematches, what="rematch rule", choices=REMATCH_POLICIES)
    if settings.deadline_minutes is not None:
        check_range(settings.deadline_minutes, what="round deadline in minutes",
                    low=MIN_DEADLINE_MINUTES,
                    high=MAX_DEADLINE_MINUTES)
    if settings.auto_advance_minutes is not None:
        check_range(settings.auto_advance_minutes, what="auto-advance delay in minutes",
                    low=MIN_AUTO_ADVANCE_MINUTES,
                    high=MAX_AUTO_ADVANCE_MINUTES)
    check_range(settings.late_join_until, what="last round for late joining", low=0, high=rounds)
    late_bye = check_choice(settings.late_join_bye, what="late-join bye", choices=LATE_JOIN_BYES)
    rules = check_choice(settings.tiebreak_rules, what="tie-break rules",
                         choices=TIEBREAK_RULES)
    if settings.top_cut not in TOP_CUTS:
        raise InvalidInputError(
            f"A top cut is one of {', '.join(map(str, TOP_CUTS))} players (0 = none), not "
            f"{echo(settings.top_cut)}."
        )
    if settings.playoff_best_of not in BEST_OF:
        raise InvalidInputError(
            f"Playoff matches are best of {', '.join(map(str, BEST_OF))} games, not "
            f"{echo(settings.playoff_best_of)}."
        )
    privilege = check_choice(settings.playoff_privilege, what="higher seed's side",
                             choices=PRIVILEGES)
    settings = validate_timer_settings(settings)
    check_entry_settings(settings)
    player_byes = check_choice(settings.player_byes, what="player byes",
                               choices=("half", "zero", "both", "none"))
    decklists = check_choice(settings.decklists, what="decklist mode", choices=DECKLIST_MODES)
    ratings = check_choice(settings.ratings, what="ratings setting", choices=RATING_SOURCES)
    deadline = check_deadline_text(settings.decklist_deadline)
    return dataclasses.replace(
        settings,
        player_byes=player_byes,  # type: ignore[arg-type]
        system=system,
        dutch_rules=dutch_rules,  # type: ignore[arg-type]
        trf_header=trf_header,
        scoring=scoring,
        tiebreaks=tiebreaks,
        rematches=rematches,  # type: ignore[arg-type]
        late_join_bye=late_bye,  # type: ignore[arg-type]
        tiebreak_rules=rules,  # type: ignore[arg-type]
        playoff_privilege=privilege,  # type: ignore[arg-type]
        decklists=decklists,  # type: ignore[arg-type]
        decklist_deadline=deadline,
        ratings=ratings,  # type: ignore[arg-type]
        colours=bool(settings.colours),
        checkin=bool(settings.checkin),
        game_threads=bool(settings.game_threads),
        pictures=bool(settings.pictures),
    )


def require_future_start(settings: TournamentSettings, now: datetime) -> None:
    """A scheduled first round in the past would start the event at the next tick, likely
    before anyone joined: refused (a typo in the date, most of the time)."""
    first = settings.first_round_at
    if first is not None and datetime.fromisoformat(first) <= now:
        unix = int(datetime.fromisoformat(first).timestamp())
        raise moment_error("start_at", first, f"<t:{unix}:F> has already passed; choose a "
                           "time to come")


@part
class Tournaments:
    """Guild settings and the tournament life cycle (start and finish pair / close rounds)."""

    ctx: Context
    announcer: Announcer


    # -- guild settings --------------------------------------------------------------------------
    @operation
    async def get_guild_settings(self, guild_id: int) -> GuildSettingsView:
        """The guild's organiser role and default announcement channel (None when unset)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            row = await tournament_repo.get_guild_settings(conn, guild_id)
        return GuildSettingsView(row.guild_id, row.organiser_role_id, row.default_channel_id,
                                 row.timezone)

    @operation
    async def set_organiser_role(self, actor: Actor, role_id: int | None) -> GuildSettingsView:
        """Set (or clear with None) the role whose members are organisers."""
        require_manager(actor, lazy("set the organiser role"))
        return await self._update_guild(actor, organiser_role_id=role_id)

    @operation
    async def set_default_channel(
        self, actor: Actor, channel_id: int | None
    ) -> GuildSettingsView:
        """Where announcements go for tournaments without a channel of their own."""
        require_manager(actor, lazy("set the default announcement channel"))
        return await self._update_guild(actor, default_channel_id=channel_id)

    @operation
    async def set_timezone(self, actor: Actor, zone: str) -> GuildSettingsView:
        """The server's time zone, an IANA name ("Europe/Paris", any case): the moments
        organisers type ("tomorrow 19:00") are read in it. Stored moments stay UTC, and the
        bot shows times as Discord timestamps, in each reader's own zone."""
        require_manager(actor, lazy("set the server's time zone"))
        return await self._update_guild(actor, timezone=zone_named(zone).key)

    @operation
    async def set_language(self, actor: Actor, language: str | None) -> str | None:
        """The language of the guild's public posts: one of ``i18n.LANGUAGES``, or None to
        follow the server's own Discord locale again. Returns the setting."""
        require_manager(actor, lazy("choose the server's language"))
        if language is not None and language not in LANGUAGES:
            raise InvalidInputError(lazy(
                "swissbot does not speak {language}: choose one of {languages}.",
                language=echo(language), languages=", ".join(LANGUAGES)))
        async with self.ctx.db.transaction() as conn:
            before = await tournament_repo.get_guild_language(conn, actor.guild_id)
            await tournament_repo.set_guild_language(conn, actor.guild_id, language,
                                                     self.ctx.now())
            await audit(self.ctx, conn, actor, None, "guild.language", {"language": before},
                        {"language": language})
        return language

    @operation
    async def guild_language(self, guild_id: int) -> str | None:
        """The language chosen for the guild's public posts (None: not chosen)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            return await tournament_repo.get_guild_language(conn, guild_id)

    async def _update_guild(self, actor: Actor, **changes: int | str | None) -> GuildSettingsView:
        async with self.ctx.db.transaction() as conn:
            before = await tournament_repo.get_guild_settings(conn, actor.guild_id)
            after = dataclasses.replace(before, **changes)
            await tournament_repo.save_guild_settings(conn, after, self.ctx.now())
            await audit(self.ctx, conn, actor, None, "guild.settings", dataclasses.asdict(before),
                        dataclasses.asdict(after))
        return GuildSettingsView(after.guild_id, after.organiser_role_id, after.default_channel_id,
                                 after.timezone)

    # -- tournaments -----------------------------------------------------------------------------
    @operation
    async def create_tournament(
        self,
        actor: Actor,
        name: str,
        rounds: int,
        *,
        system: str = "dutch",
        dutch_rules: str = "2025",
        scoring: str = "chess",
        tiebreaks: str | None = None,
        colours: bool = True,
        rematches: str = "avoid",
        channel_id: int | None = None,
        deadline_minutes: int | str | None = None,
        auto_advance_minutes: int | str | None = None,
        checkin: bool = False,
        late_join_until: int | None = None,
        late_join_bye: str = "zero",
        tiebreak_rules: str = "auto",
        top_cut: int = 0,
        playoff_best_of: int = 1,
        playoff_privilege: str = "white",
        seed: int | None = None,
        reminders: str = "",
        deadline_action: str = "none",
        deadline_fallback: str = "remind",
        noshow_grace_minutes: int | str | None = None,
        noshow_drop_after: int = 0,
        first_round_at: str | datetime | None = None,
        round_interval_minutes: int | str | None = None,
        capacity: int | None = None,
        required_role_id: int | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        registration_opens: str | None = None,
        registration_closes: str | None = None,
        checkin_opens: str | None = None,
        checkin_closes: str | None = None,
        player_byes: str = "both",
        game_threads: bool = False,
        decklists: str = "none",
        decklist_deadline: str | None = None,
        pictures: bool = False,
    ) -> TournamentInfo:
        """Open a tournament for registration.

        ``tiebreaks`` defaults to ``fide`` for chess scoring and ``mtg`` for match points;
        ``late_join_until`` defaults to half the rounds; ``seed`` (random by default) makes the
        random parts of pairing reproducible. ``dutch_rules`` is the FIDE C.04.3 edition
        ("2025" or "2017") of system ``fide-dutch``. ``tiebreak_rules`` is the FIDE C.07 edition
        ("2026", "2024", or "auto": the one in force on the creation date).

        Timers (see :class:`TournamentSettings`): ``reminders`` ("15,5"), ``deadline_action``
        and ``deadline_fallback`` act on the round deadline; ``noshow_grace_minutes`` and
        ``noshow_drop_after`` govern no-shows; ``first_round_at`` and
        ``round_interval_minutes`` schedule the rounds.

        Moments (``first_round_at``, the windows, ``decklist_deadline``) are a datetime or
        text such as "tomorrow 19:00", read in the server's time zone; durations (the
        ``*_minutes`` settings) are minutes or text such as "1h30" (:mod:`service.times`).
        A local time that happens twice is the first, and ``TournamentInfo.notes`` says so.
        """
        require_organiser(actor, lazy("create tournaments"))
        clean = clean_name(name, what="tournament name", limit=MAX_TOURNAMENT_NAME)
        if tiebreaks is None:
            tiebreaks = "mtg" if str(scoring).strip().lower() == "match" else "fide"
        if late_join_until is None:
            late_join_until = rounds // 2 if isinstance(rounds, int) else 0
        async with self.ctx.db.transaction(readonly=True) as conn:
            zone = await guild_zone(conn, actor.guild_id)
        times, notes = read_times({
            "first_round_at": first_round_at, "registration_opens": registration_opens,
            "registration_closes": registration_closes, "checkin_opens": checkin_opens,
            "checkin_closes": checkin_closes, "decklist_deadline": decklist_deadline,
            "deadline_minutes": deadline_minutes, "auto_advance_minutes": auto_advance_minutes,
            "noshow_grace_minutes": noshow_grace_minutes,
            "round_interval_minutes": round_interval_minutes,
        }, now=self.ctx.now(), zone=zone)
        settings = validate_settings(
            TournamentSettings(
                rounds=rounds,
                system=system,
                dutch_rules=dutch_rules,  # type: ignore[arg-type]
                scoring=scoring,
                tiebreaks=tiebreaks,
                colours=colours,
                rematches=rematches,  # type: ignore[arg-type]
                deadline_minutes=times["deadline_minutes"],
                capacity=capacity,
                required_role_id=required_role_id,
                min_rating=min_rating,
                max_rating=max_rating,
                registration_opens=times["registration_opens"],
                registration_closes=times["registration_closes"],
                checkin_opens=times["checkin_opens"],
                checkin_closes=times["checkin_closes"],
                player_byes=player_byes,  # type: ignore[arg-type]
                auto_advance_minutes=times["auto_advance_minutes"],
                checkin=checkin,
                late_join_until=late_join_until,
                late_join_bye=late_join_bye,  # type: ignore[arg-type]
                tiebreak_rules=tiebreak_rules,  # type: ignore[arg-type]
                top_cut=top_cut,
                playoff_best_of=playoff_best_of,
                playoff_privilege=playoff_privilege,  # type: ignore[arg-type]
                reminders=reminders,
                deadline_action=deadline_action,
                deadline_fallback=deadline_fallback,
                noshow_grace_minutes=times["noshow_grace_minutes"],
                noshow_drop_after=noshow_drop_after,
                first_round_at=times["first_round_at"],
                round_interval_minutes=times["round_interval_minutes"],
                game_threads=game_threads,
                decklists=decklists,  # type: ignore[arg-type]
                decklist_deadline=times["decklist_deadline"],
                pictures=pictures,
            )
        )
        require_future_start(settings, self.ctx.now())
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        async with self.ctx.db.transaction() as conn:
            try:
                tid = await tournament_repo.insert_tournament(
                    conn,
                    guild_id=actor.guild_id,
                    name=clean,
                    settings=settings.to_dict(),
                    seed=seed,
                    channel_id=channel_id,
                    created_by=actor.user_id,
                    now=self.ctx.now(),
                )
            except IntegrityError:
                raise ConflictError(
                    f"A tournament called '{clean}' is already open in this server: choose "
                    "another name, or finish or cancel the other one first."
                ) from None
            t = await tournament_repo.get_tournament(conn, tid)
            assert t is not None
            await audit(self.ctx, conn, actor, t, "tournament.create", None,
                        {"name": clean, **settings.to_dict()})
            await self.rearm_schedule(conn, t)
            return dataclasses.replace(await info_of(conn, t), notes=tuple(notes))

    async def rearm_schedule(self, conn: Connection, t: TournamentRow) -> None:
        """The schedule was set or changed: one pending start, for the next round, announced."""
        t = await tournament_repo.get_tournament(conn, t.id) or t
        last = await round_repo.last_round(conn, t.id)
        number = 1 if last is None else last.number + 1
        due = await arm_schedule(conn, t, settings_of(t), number, self.ctx.now())
        if due is not None:
            await self.announcer.announce(conn, t, "round_scheduled", {
                "round": number, "at": due.isoformat(), "at_unix": int(due.timestamp()),
            })

    @operation
    async def list_tournaments(
        self, guild_id: int, *, include_closed: bool = False
    ) -> list[TournamentInfo]:
        """The guild's tournaments (open ones only unless ``include_closed``), oldest first."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            rows = await tournament_repo.list_tournaments(
                conn, guild_id, open_only=not include_closed
            )
            return [await info_of(conn, t) for t in rows]

    @operation
    async def tournament_info(
        self, guild_id: int, tournament: TournamentRef = None
    ) -> TournamentInfo:
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            return await info_of(conn, t)
