"""The service layer: every organiser and player operation, Discord-free.

May import storage and swiss; never discord, bot, cogs or cli.

The cogs (and the tests) call one object::

    from storage.db import connect
    from service import TournamentService, Actor, ServiceError

    db = await connect("swissbot.sqlite3")          # WAL, foreign keys, migrations
    service = TournamentService(db)                 # clock=... for tests
    actor = Actor(user_id=..., guild_id=..., display_name="Ann", is_organiser=True)
    info = await service.create_tournament(actor, "Friday Blitz", 5)

Conventions
-----------
* Every operation is **one transaction** (``BEGIN IMMEDIATE``): it all happens or nothing does;
  announcements are written to the outbox in the same transaction.
* Acting operations take an :class:`Actor`; ``is_manager`` (Manage Server, Administrator or
  the guild owner) and ``is_organiser`` (a manager or the guild's organiser role, see
  :meth:`TournamentService.get_guild_settings`) are decided by the cog. Who may call what:
  ``service.permissions.OPERATIONS`` (manager / organiser / player / anyone).
  Read-only ones take the ``guild_id``. Guilds never see each other's tournaments.
* ``tournament``: an id, a name, or ``None`` = the guild's one open tournament (an error names
  them when there are several). Read-only operations fall back to the latest closed one.
  The cogs first ask ``resolve_tournament`` (``service.resolve``) which event a command
  means when the member named none: the game thread, the event's channel, his events.
* ``player`` (organiser operations): a Discord user id (int), a mention ``"<@123>"``, a
  pairing number ``"#3"`` or a name (guests are known by name).
* Refusals raise :class:`ServiceError` subclasses (``service.errors``) whose message is
  for the user: show ``str(error)`` ephemerally. ``error.code`` is a stable name.
* Arguments are checked against each operation's annotations where it is entered
  (``service.boundary``): ids are ``int`` from 1, round numbers from 0, up to 2**63 - 1; no
  ``bool``/``float``/text where a whole number belongs, no ``inf``/``nan``, ``None`` only
  where optional; anything else is an :class:`InvalidArgumentError` (``invalid_argument``)
  naming the parameter, before any transaction.
* Results are dataclasses from ``service.views`` (points are Fractions; render them with
  :func:`format_points`).

Operations (all ``async``; see each docstring)
---------------------------------------------
Guild:       get_guild_settings(guild_id), set_organiser_role(actor, role_id),
             set_default_channel(actor, channel_id), set_timezone(actor, zone) (IANA name:
             typed moments such as "tomorrow 19:00" are read in it; service.times),
             set_language(actor, language) (the public posts' language, i18n.LANGUAGES or
             None), guild_language(guild_id)
Tournaments: create_tournament(actor, name, rounds, *, system, scoring, tiebreaks, colours,
             rematches, channel_id, deadline_minutes, auto_advance_minutes, checkin,
             late_join_until, late_join_bye, top_cut, playoff_best_of, playoff_privilege,
             seed, reminders, deadline_action, deadline_fallback, noshow_grace_minutes,
             noshow_drop_after, first_round_at, round_interval_minutes) -> TournamentInfo
             edit_tournament(actor, tournament=None, **changes) -> TournamentInfo
             update_settings(actor, tournament, changes, *, version=None, apply=None)
             -> SettingsUpdate  (service.settings: any setting; version: the panel's
             settings_version, a stale one is refused (SettingsChangedError); after the
             start pairing rules apply from the next round, scoring and tiebreaks to the
             standings, apply "next-round" / "standings" names it; each change audited)
             list_tournaments(guild_id, *, include_closed=False) -> list[TournamentInfo]
             tournament_info(guild_id, tournament=None) -> TournamentInfo
             start_tournament(actor, tournament=None) -> RoundView  (round 1)
             finish_tournament(actor, tournament=None, *, force=False, round_number=None,
             version=None) -> StandingsView
             cancel_tournament(actor, tournament=None, *, version=None) -> TournamentInfo
Confirming:  preview_action(actor, action, tournament=None, *, player=None) -> ActionPreview
             (action: next / undo / finish / cancel / drop: what it would do now, in words,
             whether that destroys anything (needs_confirmation), and the state it was
             computed from: the course version (bumped by every pairing, undo, status change
             and drop) and the round it names. The confirmation button passes them back as
             version= and round_number=; a stale one is refused (RoundChangedError): the
             first click acts, a later click of that prompt or of an older one does not.)
Players:     join(actor, tournament=None, *, rating=None) -> PlayerView   (late join too)
             leave(actor, tournament=None) -> PlayerView   (withdraws after the start)
             check_in(actor, tournament=None) -> PlayerView
             add_player(actor, name, *, tournament=None, user_id=None, rating=None)
             remove_player(actor, player, tournament=None) -> PlayerView
             drop_player(actor, player, tournament=None, *, version=None) -> PlayerView
             set_rating(actor, player, rating, tournament=None) -> PlayerView
             rate_player(actor, player, rating, tournament=None) -> RatingChange  (the
             seeding it changed; the setting ``ratings``: players / organisers / source)
             list_players(guild_id, tournament=None) -> list[PlayerView]
Rounds:      pair_next_round(actor, tournament=None, *, force=False, round_number=None,
             version=None) -> RoundView
             undo_round(actor, tournament=None, *, force=False, round_number=None,
             version=None) -> RoundView (the removed one)
             (round_number names the round exactly, version the confirmation prompt's state:
             a double click or a second organiser acts once. finish_tournament takes them too;
             report_result and claim_no_show take round_number: RoundChangedError. Never the
             time a command was sent: a bot that answers fast makes a double submit look
             deliberate.)
             pairings(guild_id, tournament=None, round_number=None) -> RoundView
             request_bye(actor, round_number=None, *, kind="half", player=None,
             tournament=None) -> ByeRequestView;  cancel_bye_request(...)
             forbid_pair(actor, first, second, tournament=None) -> (PlayerView, PlayerView)
Drafts:      preview_round(actor, tournament=None) -> DraftView  (stored, not published)
             show_draft(actor, tournament=None) -> DraftView;  discard_draft(actor, ...)
             swap_in_draft / pair_in_draft(actor, first, second, *, version, confirm=False)
             bye_in_draft(actor, player, *, version, confirm=False) -> DraftEdit
             (an edit that breaks a rule the draft did not break returns applied=False with
             new_warnings until confirmed)
             publish_draft(actor, *, version, tournament=None) -> RoundView  (refused when
             the version was replaced or the draft is stale: RoundChangedError)
Entry and requests:
             join -> WaitingView when full (capacity); leave_waitlist(actor, ...)
             pending_requests(actor, tournament=None) -> RequestsView  (organisers)
             decide_bye_request(actor, player, round_number, *, approve) -> ByeRequestView
             request_leave(actor, ...) -> PlayerView  (after the start; an organiser decides)
             decide_leave_request(actor, player, *, approve) -> PlayerView
             run_checkin_reminders(now=None) -> list[int]  (background: once per event)
Results:     report_result(actor, result, *, tournament=None, my_games=None,
             their_games=None, round_number=None) -> ReportOutcome  (win/draw/loss/...)
             confirm_result(actor, game_id) -> ReportOutcome   (the Confirm button)
             dispute_result(actor, game_id) -> ReportOutcome   (the Dispute button)
             set_result(actor, round_number, player, result, *, tournament=None,
             my_games=None, their_games=None) -> ReportOutcome   (organiser override)
             get_game(guild_id, game_id) -> GameView
Prompts:     remember_prompt(guild_id, game_id, channel_id, message_id);  settled_prompts(
             guild_id) -> list[PromptView] (answered another way: disable the buttons);
             close_prompt(guild_id, game_id) -> bool;  settled_prompts(None, shards) (every
             guild of the shards);  settled_dm_prompts(shards) -> list[DmPromptView],
             close_dm_prompt(announcement_id) -> bool  (Confirm / Dispute sent by DM)
             standings(guild_id, tournament=None, round_number=None) -> StandingsView
Top cut:     top_cut N > 0: when the Swiss ends (last round complete or
             finish_tournament) the bracket is seeded (``bracket`` announcement) and the
             tournament stays running; pair_next_round / undo_round / report_result /
             set_result then act on playoff rounds (numbered after the Swiss); standings()
             carries ``placings``; the final's result finishes the tournament.
Exports:     export_files(guild_id, fmt="trf"|"csv"|"json", tournament=None, *,
             what="standings"|"players"|"games"|"crosstable"|"all", viewer=None)
             -> list[ExportFile]  (decklists once published, or for organisers; numbers as
             numbers);  export(guild_id, fmt, tournament=None, *, table=..., viewer=None)
             -> ExportFile  (one of them);  set_trf_header(actor, changes, tournament=None)
             -> dict[str, str]  (the TRF report's header lines)
Explain:     why(actor, round_number=None, *, player=None, tournament=None) -> WhyView
             (own pairing; organisers: anyone's);  tiebreak_explanation(actor, player=None, *,
             tournament=None) -> TiebreakView
Decklists:   submit_decklist(actor, content, *, player=None, tournament=None) -> DecklistView
             publish_decklists(actor, tournament=None) -> DecklistStatus
             decklist_status(actor, tournament=None) -> DecklistStatus
             show_decklist(actor, player=None, *, tournament=None) -> DecklistView
             import_players(actor, text, fmt="csv"|"trf", tournament=None) -> list[PlayerView]
Rating fields: set_player_fields(actor, player, changes, tournament=None) -> PlayerRecordView
             (FIDE id, federation, birth, sex, title, TRF name; "-" clears; no changes: show)
             import_player_list(actor, text, tournament=None) -> PlayerImportView  (a CSV
             with a header: sets players' fields, adds new players before the start; every
             bad line and column listed, nothing stored)
Which event: resolve_tournament(guild_id, user_id, channels, purpose="play"|"join"|"organise")
             -> int | None  (None: nothing tells; AmbiguousTournamentError names them)
Background:  due_auto_advances(now=None) -> list[int];  run_auto_advances(now=None)
             -> list[RoundView];  run_timers(now=None) -> TimerRun  (reminders, deadline
             actions, no-show expiries, scheduled rounds: stored, each fires once)
             (call every few seconds; the service never sleeps)
No-shows:    claim_no_show(actor, tournament=None, *, round_number=None) -> NoShowView
             object_no_show(actor, game_id=None, tournament=None) -> NoShowView
             pending_timers(guild_id, tournament=None) -> list[TimerRow]
Notify:      set_dm(actor, enabled) -> DmSettingView;  dm_setting(guild_id, user_id);
             queue_dm(conn, t, user_id, kind, payload) (the DM hook, inside an operation);
             dm_refused(announcement_id);  game_thread(game_id);  remember_thread(
             announcement_id, thread_id, *, private);  thread_problem(announcement_id,
             problem);  threads_to_archive(guild_id=None);  thread_archived(game_id)
Live:        crosstable(guild_id, tournament=None) -> CrosstableView
             web_link(actor, tournament=None) -> str   (the live page's token, made once)
             live_event(token) -> LiveEventView | None   (the web page; None = 404)
Advice:      advise(actor, tournament=None) -> AdviceView  (organisers: every
             pairing system simulated on the event's size, in a worker process, ~10 s; one
             at a time per guild)
Lichess:     (docs/lichess.md) lichess_link_code,
             lichess_verify, lichess_oauth_start / _finish, lichess_unlink, lichess_links,
             lichess_event, lichess_ratings;  lichess_boards_to_create(limit) and
             store_lichess_game(board, links) (background: each board's game, stored once);
             lichess_link_of(guild_id, user_id);  lichess_games_to_follow(limit, *, shards),
             record_lichess_game(board, game), lichess_outage(problem, *, shards)
             (background: the games followed on Lichess);  lichess_claim_no_show(actor,
             tournament=None, *, round_number=None) -> NoShowView (the opponent never came
             to the game on Lichess; then as claim_no_show);  export_pgn(guild_id,
             tournament=None) -> ExportFile (every game; moves from Lichess when played there)
Privacy:     (service.privacy) privacy_export(actor), privacy_summary(actor, member_id=None),
             privacy_forget(actor, member_id=None, *, entries=None), set_retention(actor, days),
             run_retention(now=None, *, shards)  (background)
Teams:       (service.teams, service.team_rounds, service.team_exports; docs/teams.md)
             team_settings(actor, system, *, boards, ...) -> TeamEventView;  team_event(
             guild_id);  create_team, add_member, remove_member (roster ``version``),
             set_lineup(actor, round_number, members), check_in_team, drop_team, list_teams;
             pair_team_round(actor, round_number) -> TeamRoundView;  team_pairings,
             team_standings;  report_board / confirm_board (chess), report_match /
             confirm_match (e-sports), set_team_result (organisers);  export_team_files
Outbox:      pending_announcements(limit=50) -> list[Announcement];
             claim_announcements(claimant, *, limit, lease_seconds, shards) -> leased rows;
             release_announcements(claimant, ids=None)   (several processes)
             (a channel's rows come in order: a failed row holds back the later ones);
             open_delivery_presence(label) -> Presence (its .name is the claimant);
             renew_announcement_leases(claimant, *, lease_seconds, shards) -> rows held;
             free_dead_claims(presence) -> dead claimants whose rows were released;
             leave_delivery(claimant) -> rows released  (a clean stop)
             mark_delivered(id) -> bool (True once);  mark_failed(id, error, *,
             retry_after_seconds=30);  announcements(tournament_id=None)
             remember_posted(id, channel_id, message_id), posted_message(id) (a later post
             that replaces it);  report_delivery_problem(id, problem),
             announcement_tournament(id), give_up_announcement(id, reason)
Shards:      run_timers / run_auto_advances / run_checkin_reminders take ``shards=``
             (``Shards(count, ids)``): only the guilds of this process's Discord shards
Recovery:    complete_announcements(tournament_id=None, *, older_than=None) (deferred
             standings a stopped process left);  recover_pairings(tell=None),
             interrupted_pairings(), end_interrupted_pairing(run, *, told) (pairing runs a
             stopped process left);  needs_pairing_workers();  pairing_state(guild_id, ...)
Health:      outbox_health(), database_ping(), database_usage() (the /health page)

How it is built
---------------
``TournamentService`` is a facade (``service.facade``): it builds the parts below, each given
in its constructor exactly the parts it calls, and a table names, for each operation, the
part it belongs to. Every part also gets the :class:`service.base.Context` (database, clock,
pairing pool, hooks) and uses the plain lookups of ``service.base`` (``find_tournament``,
``find_player``, ``audit``, ...). A part marks its public operations ``@operation`` where
they are defined (``service.operation``: the argument check, ``db.retrying``, the deferred
standings completed after it); a part calls another part's plain methods, never its
operations, so retries never nest. Each line depends only on the lines below it (the
import-linter contract "Service parts" in pyproject.toml keeps it so)::

    facade         TournamentService: builds everything below, delegates the operations
    timers         Timers(announcer, course, runs, results, lifecycle); TeamExports()
    settings       Settings(entry, tournaments): every change of settings after creation
    tournaments    Tournaments(announcer): create, list, guild settings
    lifecycle      Lifecycle(announcer, deferred, completion, confirm, course, runs,
                             playoffs, lichess_accounts): start, finish, cancel
    results        Results(announcer, deferred, course, notify)
    requests       Requests(entry, players)
    team_rounds    TeamRounds(): a team event's rounds, results and standings
    privacy        Privacy(exports, entry): a member's data exported or forgotten, retention
    rounds         Rounds(announcer, confirm, course, runs)
    drafts         Drafts(course)
    lichess_games  LichessGames(announcer, course, notify)
    lichess_noshows LichessNoShows(lichess_accounts, timers): a no-show on Lichess claimed
    lichess_pgn    LichessPgn(lichess_accounts): the event's games as one PGN file
    players        Players(entry, confirm, lichess_accounts)
    exports        Exports()  (the live page's and the bracket's tables, as functions)
    pairing_runs   PairingRuns(announcer, course): the engine between two transactions
    entry          Entry(announcer): capacity, waitlist, check-in
    playoffs       Playoffs(announcer, deferred, course): the top cut
    course         Course(announcer, deferred, playoffs): pairing, storing and closing
                   rounds (``playoffs`` a getter: the top cut is built on the course)
    deferred       DeferredPosts(announcer), DeferredCompletion(announcer, playoffs)
    announcer      Announcer(notify): an outbox row, then its DMs and game threads
    notify         Notify()
    (leaves)       Confirm(), LichessAccounts(), Advisor(), Explain(), Decklists(), Live(),
                   Outbox(), Prompts() (where the Confirm / Dispute prompts are), Health(),
                   Identity() (players' rating fields), Resolve() (which event is meant),
                   Teams() (a team event's rosters and lineups)
    operation      @operation
    base           Context, the lookups, audit, post_announcement
"""

from __future__ import annotations

from service.advice import AdviceView
from service.decklists import DecklistStatus, DecklistView
from service.errors import (
    AlreadyFinalError,
    AlreadyRegisteredError,
    AlreadyReportedError,
    AmbiguousTournamentError,
    ConflictError,
    InvalidArgumentError,
    InvalidInputError,
    NotFoundError,
    NotManagerError,
    NotOrganiserError,
    NotPairedError,
    NotRegisteredError,
    NotYourGameError,
    PairingFailedError,
    PermissionDeniedError,
    RegistrationClosedError,
    RoundChangedError,
    RoundNotCompleteError,
    ServiceError,
    TournamentNotRunningError,
    UnknownGameError,
    UnknownPlayerError,
    UnknownRoundError,
    UnknownTournamentError,
)
from service.explain import TiebreakView, WhyView
from service.facade import TournamentService
from service.health import OutboxHealth
from service.live import LiveEventView
from service.notify import DmSettingView, ThreadView
from service.views import (
    ActionPreview,
    Actor,
    Announcement,
    ByeRequestView,
    ByeView,
    CrosstableRowView,
    CrosstableView,
    DraftBoard,
    DraftEdit,
    DraftView,
    ExportFile,
    GameView,
    GuildSettingsView,
    NoShowView,
    PlayerView,
    PromptView,
    ReportOutcome,
    RequestsView,
    RoundView,
    Seat,
    StandingsRowView,
    StandingsView,
    TimerRun,
    TournamentInfo,
    TournamentSettings,
    WaitingView,
    format_points,
)
from storage.shards import ALL_SHARDS, Shards, shard_of

__all__ = [
    "ALL_SHARDS",
    "ActionPreview",
    "Actor",
    "AdviceView",
    "AlreadyFinalError",
    "AlreadyRegisteredError",
    "AlreadyReportedError",
    "AmbiguousTournamentError",
    "Announcement",
    "ByeRequestView",
    "ByeView",
    "ConflictError",
    "CrosstableRowView",
    "CrosstableView",
    "DecklistStatus",
    "DecklistView",
    "DmSettingView",
    "DraftBoard",
    "DraftEdit",
    "DraftView",
    "ExportFile",
    "GameView",
    "GuildSettingsView",
    "InvalidArgumentError",
    "InvalidInputError",
    "LiveEventView",
    "NoShowView",
    "NotFoundError",
    "NotManagerError",
    "NotOrganiserError",
    "NotPairedError",
    "NotRegisteredError",
    "NotYourGameError",
    "OutboxHealth",
    "PairingFailedError",
    "PermissionDeniedError",
    "PlayerView",
    "PromptView",
    "RegistrationClosedError",
    "ReportOutcome",
    "RequestsView",
    "RoundChangedError",
    "RoundNotCompleteError",
    "RoundView",
    "Seat",
    "ServiceError",
    "Shards",
    "StandingsRowView",
    "StandingsView",
    "ThreadView",
    "TiebreakView",
    "TimerRun",
    "TournamentInfo",
    "TournamentNotRunningError",
    "TournamentService",
    "TournamentSettings",
    "UnknownGameError",
    "UnknownPlayerError",
    "UnknownRoundError",
    "UnknownTournamentError",
    "WaitingView",
    "WhyView",
    "format_points",
    "shard_of",
]
