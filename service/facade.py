"""The composition root: builds each part of the service with the parts it needs, and
:class:`TournamentService`, the one object the cogs, the bot and the command line call.

Read top to bottom, :meth:`TournamentService.__init__` is the dependency picture: each part
is given, in its constructor, exactly the collaborators it calls (the picture is drawn in
the package docstring, ``service/__init__.py``). The operations are the parts' own; the
table below names, for each, the part it belongs to.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Concatenate, ParamSpec, TypeVar

from service.advice import Advisor
from service.announcer import Announcer
from service.base import Context
from service.confirm import Confirm
from service.course import Course
from service.decklists import Decklists
from service.deferred import DeferredCompletion, DeferredPosts
from service.drafts import Drafts
from service.entry import Entry
from service.explain import Explain
from service.exports import Exports
from service.health import Health
from service.identity import Identity
from service.lichess import LichessAccounts, TokenCipher
from service.lichess_api import LichessApi
from service.lichess_games import LichessGames
from service.lichess_noshow import LichessNoShows
from service.lichess_pgn import LichessPgn
from service.lifecycle import Lifecycle
from service.live import Live
from service.notify import Notify
from service.outbox import Outbox
from service.pairing_pool import PairingPool
from service.pairing_runs import PairingRuns
from service.players import Players
from service.playoffs import Playoffs
from service.privacy import Privacy
from service.prompts import Prompts
from service.requests import Requests
from service.resolve import Resolve
from service.results import Results
from service.rounds import Rounds
from service.settings import Settings
from service.team_exports import TeamExports
from service.team_rounds import TeamRounds
from service.teams import Teams
from service.timers import Timers
from service.tournaments import Tournaments
from storage.db import AnyDatabase
from storage.usage import PoolUsage

P = ParamSpec("P")
R = TypeVar("R")
Part = TypeVar("Part")


def _by(part: str, operation: Callable[Concatenate[Part, P], Awaitable[R]]
        ) -> Callable[Concatenate[TournamentService, P], Awaitable[R]]:
    """``operation`` of the part held in the attribute ``part``, as a method of the facade
    (same name, signature and docstring)."""

    @functools.wraps(operation)
    async def delegate(self: TournamentService, *args: P.args, **kwargs: P.kwargs) -> R:
        # getattr with a default: on an object that is no service the operation still
        # refuses bad arguments first (its check runs before it touches its part)
        return await operation(getattr(self, part, None), *args, **kwargs)  # type: ignore[arg-type]

    return delegate


class TournamentService:
    """Every operation of the bot over one :class:`storage.db.Database`.

    ``TournamentService(db, clock=None, pairing=None)``: ``clock`` returns the current UTC
    datetime (tests pass a fake one to drive deadlines and auto-advance); ``pairing`` is
    where big rounds are paired (:class:`PairingPool`, one by default).

    Every public operation is marked ``@operation`` where it is defined
    (``service.operation``): its arguments are checked, it runs under ``db.retrying`` (on
    PostgreSQL a deadlock or a serialization failure before the operation committed anything
    runs it again; on SQLite it runs once), and the standings it deferred are completed after
    it.
    """

    def __init__(
        self,
        db: AnyDatabase,
        *,
        clock: Callable[[], datetime] | None = None,
        pairing: PairingPool | None = None,
    ) -> None:
        ctx = self.ctx = Context(db, clock=clock, pairing=pairing)
        # what announcements bring along (DMs, game threads), then the announcements
        self.notify = Notify(ctx)
        self.announcer = Announcer(ctx, self.notify)
        self.deferred = DeferredPosts(ctx, self.announcer)
        # the course of rounds and the top cut built on it (which it hands a finished Swiss)
        self.course = Course(ctx, self.announcer, self.deferred, lambda: self.playoffs)
        self.playoffs = Playoffs(ctx, self.announcer, self.deferred, self.course)
        self.completion = DeferredCompletion(ctx, self.announcer, self.playoffs)
        ctx.complete_deferred = self.completion.complete_all
        # entry
        self.confirm = Confirm(ctx)
        self.lichess_accounts = LichessAccounts(ctx)
        self.entry = Entry(ctx, self.announcer)
        self.players = Players(ctx, self.entry, self.confirm, self.lichess_accounts)
        self.requests = Requests(ctx, self.entry, self.players)
        # play
        self.runs = PairingRuns(ctx, self.announcer, self.course)
        self.rounds = Rounds(ctx, self.announcer, self.confirm, self.course, self.runs)
        self.drafts = Drafts(ctx, self.course)
        self.results = Results(ctx, self.announcer, self.deferred, self.course, self.notify)
        self.tournaments = Tournaments(ctx, self.announcer)
        self.settings = Settings(ctx, self.entry, self.tournaments)
        self.lifecycle = Lifecycle(
            ctx, self.announcer, self.deferred, self.completion, self.confirm, self.course,
            self.runs, self.playoffs, self.lichess_accounts)
        self.timers = Timers(ctx, self.announcer, self.course, self.runs, self.results,
                             self.lifecycle)
        self.lichess_games = LichessGames(ctx, self.announcer, self.course, self.notify)
        self.lichess_noshows = LichessNoShows(ctx, self.lichess_accounts, self.timers)
        self.lichess_pgn = LichessPgn(ctx, self.lichess_accounts)
        # reading, exporting, delivering
        self.explain = Explain(ctx)
        self.exports = Exports(ctx)
        self.identity = Identity(ctx)
        self.resolve = Resolve(ctx)
        self.decklists = Decklists(ctx)
        self.live = Live(ctx)
        self.advice = Advisor(ctx)
        self.outbox = Outbox(ctx)
        self.prompts = Prompts(ctx)
        self.health = Health(ctx)
        # team events: their rosters, then their rounds
        self.teams = Teams(ctx)
        self.team_rounds = TeamRounds(ctx)
        self.team_exports = TeamExports(ctx)
        # a member's data, and how long events are kept
        self.privacy = Privacy(ctx, self.exports, self.entry)

    # -- what the bot and the tests set or read --------------------------------------------
    @property
    def db(self) -> AnyDatabase:
        return self.ctx.db

    @property
    def pairing(self) -> PairingPool:
        return self.ctx.pairing

    @pairing.setter
    def pairing(self, pool: PairingPool) -> None:
        self.ctx.pairing = pool

    @property
    def on_announced(self) -> Callable[[], None] | None:
        return self.ctx.on_announced

    @on_announced.setter
    def on_announced(self, hook: Callable[[], None] | None) -> None:
        self.ctx.on_announced = hook

    @property
    def _clock(self) -> Callable[[], datetime]:
        return self.ctx.clock

    @_clock.setter
    def _clock(self, clock: Callable[[], datetime]) -> None:
        self.ctx.clock = clock

    @property
    def lichess(self) -> LichessApi | None:
        """The Lichess client (the bot sets it; None: no Lichess calls)."""
        return self.lichess_accounts.lichess

    @lichess.setter
    def lichess(self, client: LichessApi | None) -> None:
        self.lichess_accounts.lichess = client

    @property
    def token_cipher(self) -> TokenCipher | None:
        """How Lichess tokens are kept encrypted (None: none is kept)."""
        return self.lichess_accounts.token_cipher

    @token_cipher.setter
    def token_cipher(self, cipher: TokenCipher | None) -> None:
        self.lichess_accounts.token_cipher = cipher

    @property
    def advice_seconds(self) -> float:
        return self.advice.advice_seconds

    @advice_seconds.setter
    def advice_seconds(self, seconds: float) -> None:
        self.advice.advice_seconds = seconds

    @property
    def advice_tournaments(self) -> int | None:
        return self.advice.advice_tournaments

    @advice_tournaments.setter
    def advice_tournaments(self, count: int | None) -> None:
        self.advice.advice_tournaments = count

    def now(self) -> datetime:
        """The time stored in the tables (whole seconds)."""
        return self.ctx.now()

    def precise_now(self) -> datetime:
        return self.ctx.precise_now()

    def database_usage(self) -> PoolUsage | None:
        """The connections of the database (None for a test double without them)."""
        return self.health.database_usage()

    # -- the operations, each with the part it belongs to ----------------------------------
    # Tournaments
    get_guild_settings = _by("tournaments", Tournaments.get_guild_settings)
    set_organiser_role = _by("tournaments", Tournaments.set_organiser_role)
    set_default_channel = _by("tournaments", Tournaments.set_default_channel)
    set_timezone = _by("tournaments", Tournaments.set_timezone)
    set_language = _by("tournaments", Tournaments.set_language)
    guild_language = _by("tournaments", Tournaments.guild_language)
    create_tournament = _by("tournaments", Tournaments.create_tournament)
    edit_tournament = _by("settings", Settings.edit_tournament)
    update_settings = _by("settings", Settings.update_settings)
    list_tournaments = _by("tournaments", Tournaments.list_tournaments)
    tournament_info = _by("tournaments", Tournaments.tournament_info)

    # Lifecycle
    start_tournament = _by("lifecycle", Lifecycle.start_tournament)
    finish_tournament = _by("lifecycle", Lifecycle.finish_tournament)
    cancel_tournament = _by("lifecycle", Lifecycle.cancel_tournament)

    # Confirm
    preview_action = _by("confirm", Confirm.preview_action)

    # Players
    join = _by("players", Players.join)
    add_player = _by("players", Players.add_player)
    leave = _by("players", Players.leave)
    drop_player = _by("players", Players.drop_player)
    check_in = _by("players", Players.check_in)
    remove_player = _by("players", Players.remove_player)
    set_rating = _by("players", Players.set_rating)
    rate_player = _by("players", Players.rate_player)
    list_players = _by("players", Players.list_players)

    # Entry
    leave_waitlist = _by("entry", Entry.leave_waitlist)
    run_checkin_reminders = _by("entry", Entry.run_checkin_reminders)

    # Requests
    pending_requests = _by("requests", Requests.pending_requests)
    decide_bye_request = _by("requests", Requests.decide_bye_request)
    request_leave = _by("requests", Requests.request_leave)
    decide_leave_request = _by("requests", Requests.decide_leave_request)

    # Rounds
    pair_next_round = _by("rounds", Rounds.pair_next_round)
    undo_round = _by("rounds", Rounds.undo_round)
    pairings = _by("rounds", Rounds.pairings)
    request_bye = _by("rounds", Rounds.request_bye)
    cancel_bye_request = _by("rounds", Rounds.cancel_bye_request)
    forbid_pair = _by("rounds", Rounds.forbid_pair)
    due_auto_advances = _by("rounds", Rounds.due_auto_advances)
    run_auto_advances = _by("rounds", Rounds.run_auto_advances)

    # Drafts
    preview_round = _by("drafts", Drafts.preview_round)
    show_draft = _by("drafts", Drafts.show_draft)
    swap_in_draft = _by("drafts", Drafts.swap_in_draft)
    pair_in_draft = _by("drafts", Drafts.pair_in_draft)
    bye_in_draft = _by("drafts", Drafts.bye_in_draft)
    publish_draft = _by("drafts", Drafts.publish_draft)
    discard_draft = _by("drafts", Drafts.discard_draft)

    # Results
    report_result = _by("results", Results.report_result)
    confirm_result = _by("results", Results.confirm_result)
    dispute_result = _by("results", Results.dispute_result)
    set_result = _by("results", Results.set_result)
    get_game = _by("results", Results.get_game)
    standings = _by("results", Results.standings)

    # Prompts
    remember_prompt = _by("prompts", Prompts.remember_prompt)
    settled_prompts = _by("prompts", Prompts.settled_prompts)
    close_prompt = _by("prompts", Prompts.close_prompt)
    settled_dm_prompts = _by("prompts", Prompts.settled_dm_prompts)
    close_dm_prompt = _by("prompts", Prompts.close_dm_prompt)

    # Timers
    run_timers = _by("timers", Timers.run_timers)
    claim_no_show = _by("timers", Timers.claim_no_show)
    object_no_show = _by("timers", Timers.object_no_show)
    pending_timers = _by("timers", Timers.pending_timers)

    # DeferredCompletion
    complete_announcements = _by("completion", DeferredCompletion.complete_announcements)

    # PairingRuns
    recover_pairings = _by("runs", PairingRuns.recover_pairings)
    interrupted_pairings = _by("runs", PairingRuns.interrupted_pairings)
    end_interrupted_pairing = _by("runs", PairingRuns.end_interrupted_pairing)
    needs_pairing_workers = _by("runs", PairingRuns.needs_pairing_workers)
    pairing_state = _by("runs", PairingRuns.pairing_state)

    # Exports
    export = _by("exports", Exports.export)
    export_files = _by("exports", Exports.export_files)
    set_trf_header = _by("exports", Exports.set_trf_header)
    import_players = _by("exports", Exports.import_players)
    set_player_fields = _by("identity", Identity.set_player_fields)
    import_player_list = _by("identity", Identity.import_player_list)
    resolve_tournament = _by("resolve", Resolve.resolve_tournament)

    # Explain
    why = _by("explain", Explain.why)
    tiebreak_explanation = _by("explain", Explain.tiebreak_explanation)

    # Decklists
    submit_decklist = _by("decklists", Decklists.submit_decklist)
    publish_decklists = _by("decklists", Decklists.publish_decklists)
    decklist_status = _by("decklists", Decklists.decklist_status)
    show_decklist = _by("decklists", Decklists.show_decklist)

    # Live
    crosstable = _by("live", Live.crosstable)
    web_link = _by("live", Live.web_link)
    live_event = _by("live", Live.live_event)

    # Advisor
    advise = _by("advice", Advisor.advise)

    # Notify
    set_dm = _by("notify", Notify.set_dm)
    dm_setting = _by("notify", Notify.dm_setting)
    dm_refused = _by("notify", Notify.dm_refused)
    queue_dm = _by("notify", Notify.queue_dm)
    game_thread = _by("notify", Notify.game_thread)
    remember_thread = _by("notify", Notify.remember_thread)
    thread_problem = _by("notify", Notify.thread_problem)
    threads_to_archive = _by("notify", Notify.threads_to_archive)
    thread_archived = _by("notify", Notify.thread_archived)

    # Outbox
    pending_announcements = _by("outbox", Outbox.pending_announcements)
    claim_announcements = _by("outbox", Outbox.claim_announcements)
    release_announcements = _by("outbox", Outbox.release_announcements)
    open_delivery_presence = _by("outbox", Outbox.open_delivery_presence)
    renew_announcement_leases = _by("outbox", Outbox.renew_announcement_leases)
    free_dead_claims = _by("outbox", Outbox.free_dead_claims)
    leave_delivery = _by("outbox", Outbox.leave_delivery)
    mark_delivered = _by("outbox", Outbox.mark_delivered)
    remember_posted = _by("outbox", Outbox.remember_posted)
    posted_message = _by("outbox", Outbox.posted_message)
    mark_failed = _by("outbox", Outbox.mark_failed)
    report_delivery_problem = _by("outbox", Outbox.report_delivery_problem)
    announcement_tournament = _by("outbox", Outbox.announcement_tournament)
    give_up_announcement = _by("outbox", Outbox.give_up_announcement)
    announcements = _by("outbox", Outbox.announcements)

    # Health
    outbox_health = _by("health", Health.outbox_health)
    database_ping = _by("health", Health.database_ping)

    # Privacy
    privacy_export = _by("privacy", Privacy.privacy_export)
    privacy_summary = _by("privacy", Privacy.privacy_summary)
    privacy_forget = _by("privacy", Privacy.privacy_forget)
    set_retention = _by("privacy", Privacy.set_retention)
    run_retention = _by("privacy", Privacy.run_retention)

    # LichessAccounts
    lichess_link_code = _by("lichess_accounts", LichessAccounts.lichess_link_code)
    lichess_verify = _by("lichess_accounts", LichessAccounts.lichess_verify)
    lichess_oauth_start = _by("lichess_accounts", LichessAccounts.lichess_oauth_start)
    lichess_oauth_finish = _by("lichess_accounts", LichessAccounts.lichess_oauth_finish)
    lichess_unlink = _by("lichess_accounts", LichessAccounts.lichess_unlink)
    lichess_links = _by("lichess_accounts", LichessAccounts.lichess_links)
    lichess_link_of = _by("lichess_accounts", LichessAccounts.lichess_link_of)
    lichess_event = _by("lichess_accounts", LichessAccounts.lichess_event)
    lichess_ratings = _by("lichess_accounts", LichessAccounts.lichess_ratings)

    # LichessGames
    lichess_boards_to_create = _by("lichess_games", LichessGames.lichess_boards_to_create)
    store_lichess_game = _by("lichess_games", LichessGames.store_lichess_game)
    lichess_games_to_follow = _by("lichess_games", LichessGames.lichess_games_to_follow)
    record_lichess_game = _by("lichess_games", LichessGames.record_lichess_game)
    lichess_outage = _by("lichess_games", LichessGames.lichess_outage)
    lichess_claim_no_show = _by("lichess_noshows", LichessNoShows.lichess_claim_no_show)
    export_pgn = _by("lichess_pgn", LichessPgn.export_pgn)

    # Teams
    team_settings = _by("teams", Teams.team_settings)
    team_event = _by("teams", Teams.team_event)
    create_team = _by("teams", Teams.create_team)
    add_member = _by("teams", Teams.add_member)
    remove_member = _by("teams", Teams.remove_member)
    set_lineup = _by("teams", Teams.set_lineup)
    check_in_team = _by("teams", Teams.check_in_team)
    drop_team = _by("teams", Teams.drop_team)
    list_teams = _by("teams", Teams.list_teams)

    # TeamRounds
    pair_team_round = _by("team_rounds", TeamRounds.pair_team_round)
    team_pairings = _by("team_rounds", TeamRounds.team_pairings)
    team_standings = _by("team_rounds", TeamRounds.team_standings)
    report_board = _by("team_rounds", TeamRounds.report_board)
    confirm_board = _by("team_rounds", TeamRounds.confirm_board)
    report_match = _by("team_rounds", TeamRounds.report_match)
    confirm_match = _by("team_rounds", TeamRounds.confirm_match)
    set_team_result = _by("team_rounds", TeamRounds.set_team_result)

    # TeamExports
    export_team_files = _by("team_exports", TeamExports.export_team_files)
