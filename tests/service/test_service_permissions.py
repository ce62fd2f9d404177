"""The permission matrix: every operation, called by a member, by an organiser who does not
manage the server, by a server manager and by an organiser of another guild."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service import (
    Actor,
    NotFoundError,
    NotManagerError,
    NotOrganiserError,
    PermissionDeniedError,
    ServiceError,
    TournamentService,
)
from service.permissions import OPERATIONS
from tests.lichess_helpers import LICHESS_CALLS, LICHESS_MEMBER_SCOPED
from tests.paths import REPO
from tests.service_helpers import OTHER_GUILD, manager, member, open_service, organiser
from tests.team_helpers import TEAM_CALLS

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()  # the organiser role, without Manage Server
BOSS = manager()
STRANGER_ORG = organiser(guild=OTHER_GUILD, user_id=9, name="Other Org")
LEVELS = ("manager", "organiser", "player", "anyone")


@dataclass
class Scene:
    """'Perm Cup' running (6 players, round 1 paired, board 1 reported by white, member 103
    asked for a bye in round 2) and 'Open Reg' in registration with check-in (members 201 and
    202 registered)."""

    service: TournamentService
    game_id: int
    confirmer: int  # black of board 1: may confirm or dispute
    reporter: int  # white of board 2: his game is still pending
    objector: int = 0  # black of board 2: a no-show may be claimed against him


@pytest.fixture
async def scene(tmp_path: Path) -> AsyncIterator[Scene]:
    async with open_service(tmp_path / "perm.sqlite3") as service:
        await service.create_tournament(ORG, "Perm Cup", 3, seed=1)
        for uid in range(101, 107):
            await service.join(member(uid), rating=2000 - uid)
        r1 = await service.start_tournament(ORG, "Perm Cup")
        board1, board2 = r1.games[0], r1.games[1]
        await service.report_result(member(board1.white.user_id), "win", tournament="Perm Cup")
        await service.request_bye(member(103), 2, tournament="Perm Cup")
        await service.create_tournament(ORG, "Open Reg", 3, checkin=True, seed=2)
        for uid in (201, 202):
            await service.join(member(uid), "Open Reg")
        yield Scene(service, board1.id, board1.black.user_id, board2.white.user_id,
                    board2.black.user_id)


async def _claim(s: Scene, a: Actor, operation: str = "claim_no_show") -> Any:
    """No-shows on (one minute of grace) and the grace over, then claim as ``a`` (through
    ``operation``: the Lichess claim takes the event's usual way off Lichess)."""
    await s.service.edit_tournament(ORG, "Perm Cup", noshow_grace_minutes=1)
    s.service._clock.advance(minutes=1)  # type: ignore[attr-defined]
    return await getattr(s.service, operation)(a, "Perm Cup")


async def _object(s: Scene, a: Actor) -> Any:
    """Board 2's white claims a no-show (once), then ``a`` objects."""
    with contextlib.suppress(ServiceError):  # claimed by an earlier call
        await _claim(s, member(s.reporter))
    return await s.service.object_no_show(a, tournament="Perm Cup")


Call = Callable[[Scene, Actor], Awaitable[Any]]

# Each operation: how to call it, and which member acts when it is a player operation.
CALLS: dict[str, tuple[Call, str | None]] = {
    "set_organiser_role": (lambda s, a: s.service.set_organiser_role(a, 5), None),
    "set_default_channel": (lambda s, a: s.service.set_default_channel(a, 6), None),
    "set_timezone": (lambda s, a: s.service.set_timezone(a, "Europe/Paris"), None),
    "get_guild_settings": (lambda s, a: s.service.get_guild_settings(a.guild_id), None),
    "set_language": (lambda s, a: s.service.set_language(a, "de"), None),
    "guild_language": (lambda s, a: s.service.guild_language(a.guild_id), None),
    "create_tournament": (lambda s, a: s.service.create_tournament(a, "New Cup", 3), None),
    "edit_tournament": (lambda s, a: s.service.edit_tournament(a, "Open Reg", rounds=4), None),
    "update_settings": (
        lambda s, a: s.service.update_settings(a, "Open Reg", {"rounds": 4}), None),
    "list_tournaments": (lambda s, a: s.service.list_tournaments(a.guild_id), None),
    "tournament_info": (lambda s, a: s.service.tournament_info(a.guild_id, "Perm Cup"), None),
    "start_tournament": (lambda s, a: s.service.start_tournament(a, "Open Reg"), None),
    "finish_tournament": (
        lambda s, a: s.service.finish_tournament(a, "Perm Cup", force=True), None),
    "cancel_tournament": (lambda s, a: s.service.cancel_tournament(a, "Open Reg"), None),
    "preview_action": (lambda s, a: s.service.preview_action(a, "cancel", "Open Reg"), None),
    "join": (lambda s, a: s.service.join(a, "Open Reg"), "newcomer"),
    "leave": (lambda s, a: s.service.leave(a, "Open Reg"), "registered"),
    "check_in": (lambda s, a: s.service.check_in(a, "Open Reg"), "registered"),
    "drop_player": (lambda s, a: s.service.drop_player(a, 102, "Perm Cup"), None),
    "add_player": (lambda s, a: s.service.add_player(a, "Guest", tournament="Open Reg"), None),
    "remove_player": (lambda s, a: s.service.remove_player(a, 201, "Open Reg"), None),
    "set_rating": (lambda s, a: s.service.set_rating(a, 102, 1234, "Perm Cup"), None),
    "rate_player": (lambda s, a: s.service.rate_player(a, 102, 1234, "Perm Cup"), None),
    "list_players": (lambda s, a: s.service.list_players(a.guild_id, "Perm Cup"), None),
    "pair_next_round": (
        lambda s, a: s.service.pair_next_round(a, "Perm Cup", force=True), None),
    "undo_round": (lambda s, a: s.service.undo_round(a, "Perm Cup"), None),
    "pairings": (lambda s, a: s.service.pairings(a.guild_id, "Perm Cup"), None),
    "request_bye": (lambda s, a: s.service.request_bye(a, 2, tournament="Perm Cup"), "player"),
    "cancel_bye_request": (
        lambda s, a: s.service.cancel_bye_request(a, 2, tournament="Perm Cup"), "player"),
    "forbid_pair": (lambda s, a: s.service.forbid_pair(a, 101, 102, "Perm Cup"), None),
    "report_result": (
        lambda s, a: s.service.report_result(a, "win", tournament="Perm Cup"), "reporter"),
    "confirm_result": (lambda s, a: s.service.confirm_result(a, s.game_id), "confirmer"),
    "dispute_result": (lambda s, a: s.service.dispute_result(a, s.game_id), "confirmer"),
    "set_result": (
        lambda s, a: s.service.set_result(a, 1, 101, "draw", tournament="Perm Cup"), None),
    "standings": (lambda s, a: s.service.standings(a.guild_id, "Perm Cup"), None),
    "export": (lambda s, a: s.service.export(a.guild_id, "json", "Perm Cup"), None),
    "export_files": (lambda s, a: s.service.export_files(a.guild_id, "csv", "Perm Cup",
                                                         what="all"), None),
    "export_pgn": (lambda s, a: s.service.export_pgn(a.guild_id, "Perm Cup"), None),
    "set_trf_header": (
        lambda s, a: s.service.set_trf_header(a, {"city": "Oslo"}, "Perm Cup"), None),
    "import_players": (
        lambda s, a: s.service.import_players(a, "Ann,1500\n", "csv", "Open Reg"), None),
    "set_player_fields": (
        lambda s, a: s.service.set_player_fields(a, 102, {"federation": "NOR"}, "Perm Cup"),
        None),
    "import_player_list": (lambda s, a: s.service.import_player_list(
        a, "name,federation\nAnn,NOR\n", "Open Reg"), None),
    "resolve_tournament": (
        lambda s, a: s.service.resolve_tournament(a.guild_id, a.user_id, []), None),
    "claim_no_show": (_claim, "reporter"),
    "lichess_claim_no_show": (lambda s, a: _claim(s, a, "lichess_claim_no_show"), "reporter"),
    "object_no_show": (_object, "objector"),
    "pending_timers": (lambda s, a: s.service.pending_timers(a.guild_id, "Perm Cup"), None),
    "preview_round": (lambda s, a: s.service.preview_round(a, "Perm Cup"), None),
    "show_draft": (lambda s, a: s.service.show_draft(a, "Perm Cup"), None),
    "swap_in_draft": (
        lambda s, a: s.service.swap_in_draft(a, 101, 102, version=1, tournament="Perm Cup"),
        None),
    "pair_in_draft": (
        lambda s, a: s.service.pair_in_draft(a, 101, 102, version=1, tournament="Perm Cup"),
        None),
    "bye_in_draft": (
        lambda s, a: s.service.bye_in_draft(a, 101, version=1, tournament="Perm Cup"), None),
    "publish_draft": (
        lambda s, a: s.service.publish_draft(a, version=1, tournament="Perm Cup"), None),
    "discard_draft": (lambda s, a: s.service.discard_draft(a, "Perm Cup"), None),
    "leave_waitlist": (lambda s, a: _wait_then_leave(s, a), "newcomer"),
    "pending_requests": (lambda s, a: s.service.pending_requests(a, "Perm Cup"), None),
    "decide_bye_request": (
        lambda s, a: s.service.decide_bye_request(a, 103, 2, approve=True,
                                                  tournament="Perm Cup"), None),
    "request_leave": (lambda s, a: s.service.request_leave(a, "Perm Cup"), None),
    "decide_leave_request": (
        lambda s, a: s.service.decide_leave_request(a, 104, approve=False,
                                                    tournament="Perm Cup"), None),
    "set_dm": (lambda s, a: s.service.set_dm(a, True), None),
}


async def _wait_then_leave(scene: Scene, actor: Actor) -> Any:
    """A member on the waitlist of a full tournament leaves it (the stranger organiser
    cannot even see that tournament)."""
    if actor.guild_id == ORG.guild_id:
        await scene.service.edit_tournament(ORG, "Open Reg", capacity=2)
        await scene.service.join(actor, "Open Reg")
    return await scene.service.leave_waitlist(actor, "Open Reg")

async def _with_decklists(scene: Scene) -> TournamentService:
    """'Open Reg' taking decklists, with one submitted by member 201."""
    await scene.service.edit_tournament(ORG, "Open Reg", decklists="text")
    await scene.service.submit_decklist(member(201), "4 Island", tournament="Open Reg")
    return scene.service


async def _submit(s: Scene, a: Actor) -> Any:
    await _with_decklists(s)
    return await s.service.submit_decklist(a, "4 Forest", tournament="Open Reg")


async def _publish(s: Scene, a: Actor) -> Any:
    return await (await _with_decklists(s)).publish_decklists(a, "Open Reg")


async def _status(s: Scene, a: Actor) -> Any:
    return await (await _with_decklists(s)).decklist_status(a, "Open Reg")


async def _show(s: Scene, a: Actor) -> Any:
    return await (await _with_decklists(s)).show_decklist(a, tournament="Open Reg")


CALLS |= {
    "why": (lambda s, a: s.service.why(a, 1, tournament="Perm Cup"), "player"),
    "tiebreak_explanation": (
        lambda s, a: s.service.tiebreak_explanation(a, "#1", tournament="Perm Cup"), None),
    "submit_decklist": (_submit, "registered"),
    "publish_decklists": (_publish, None),
    "decklist_status": (_status, None),
    "show_decklist": (_show, "registered"),
    "crosstable": (lambda s, a: s.service.crosstable(a.guild_id, "Perm Cup"), None),
    "web_link": (lambda s, a: s.service.web_link(a, "Perm Cup"), None),
    "advise": (lambda s, a: _advise(s, a), None),
} | LICHESS_CALLS | {
    # a member's own data; forgetting someone else is a manager's (test_privacy.py)
    "privacy_export": (lambda s, a: s.service.privacy_export(a), None),
    "privacy_summary": (lambda s, a: s.service.privacy_summary(a), None),
    "privacy_forget": (lambda s, a: s.service.privacy_forget(a), "registered"),
    "set_retention": (lambda s, a: s.service.set_retention(a, 30), None),
} | TEAM_CALLS
# Operations on the acting member's own data: a member of another server simply has none.
MEMBER_SCOPED = ("privacy_export", "privacy_summary", "privacy_forget", "set_retention")


async def _advise(scene: Scene, actor: Actor) -> Any:
    """The advisor on 'Perm Cup' (6 players, 3 rounds), a few events per system."""
    scene.service.advice_tournaments = 2  # type: ignore[attr-defined]
    return await scene.service.advise(actor, "Perm Cup")

# Background and delivery methods called by the bot itself, never by a user.
INTERNAL = {"lichess_boards_to_create", "store_lichess_game", "lichess_games_to_follow",
            "record_lichess_game", "lichess_outage",
            "due_auto_advances", "run_auto_advances", "run_timers", "run_checkin_reminders",
            "run_retention",
            "pending_announcements", "claim_announcements", "release_announcements",
            # the delivery's leases: renewed while it runs, the dead's taken back
            "open_delivery_presence", "renew_announcement_leases", "free_dead_claims",
            "leave_delivery",
            "mark_delivered", "mark_failed", "announcements", "get_game", "now",
            "remember_prompt", "settled_prompts", "close_prompt",
            "report_delivery_problem", "give_up_announcement", "announcement_tournament",
            # the delivery task disabling settled DM prompts
            "settled_dm_prompts", "close_dm_prompt",
            # issue 16: the delivery task's side of game threads and DMs
            "dm_setting", "dm_refused", "queue_dm", "game_thread", "remember_thread",
            "thread_problem", "threads_to_archive", "thread_archived",
            "live_event",  # the web page's read, by token
            "database_ping", "outbox_health",  # /readyz and the metrics' scrape-time reads
            # issue 13: the delivery's edit of the progress line, the bot's start-up, and the
            # "being paired" state (read by the tests and the benchmark)
            "remember_posted", "posted_message", "recover_pairings", "needs_pairing_workers",
            "interrupted_pairings", "end_interrupted_pairing",
            "pairing_state",
            # issue 13: the recovery of deferred standings (start-up and timer pass)
            "complete_announcements"}


def _member_for(scene: Scene, role: str | None) -> Actor:
    uid = {"newcomer": 150, "registered": 201, "player": 103, "reporter": scene.reporter,
           "objector": scene.objector,
           "confirmer": scene.confirmer, None: 104}[role]
    return member(uid)


def test_the_matrix_covers_every_public_operation() -> None:
    public = {
        name for name, _ in inspect.getmembers(TournamentService, inspect.iscoroutinefunction)
        if not name.startswith("_")
    } | {"now"}
    assert set(OPERATIONS) == set(CALLS)
    assert public - INTERNAL == set(OPERATIONS)
    assert set(OPERATIONS.values()) <= set(LEVELS)


def test_the_table_in_docs_matches_the_operations() -> None:
    """docs/discord.md shows who may do what; it must say what the code enforces."""
    text = (REPO / "docs" / "discord.md").read_text(encoding="utf-8")
    for operation, level in OPERATIONS.items():
        assert f"| `{operation}` | {level} |" in text, operation


def test_only_managers_decide_who_organises() -> None:
    assert {op for op, level in OPERATIONS.items() if level == "manager"} >= {
        "set_organiser_role", "set_default_channel"}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_permission_matrix(scene: Scene, operation: str) -> None:
    call, role = CALLS[operation]
    who = OPERATIONS[operation]
    # 1. A member who is not an organiser.
    someone = _member_for(scene, role)
    if who == "manager":
        with pytest.raises(NotManagerError, match="Only server managers can"):
            await call(scene, someone)
    elif who == "organiser":
        with pytest.raises(NotOrganiserError, match="Only organisers can"):
            await call(scene, someone)
    else:
        await call(scene, someone)  # a player or read-only operation simply works
    # 2. An organiser (the organiser role) who does not manage the server.
    if who == "manager":
        with pytest.raises(NotManagerError, match="Manage Server"):
            await call(scene, ORG)
    elif who == "organiser":
        await _not_refused(call, scene, ORG, operation)
    # 3. An organiser of another guild sees nothing of this guild.
    if operation not in ("create_tournament", "list_tournaments", "get_guild_settings",
                         "set_organiser_role", "set_default_channel", "set_timezone", "set_dm",
                         "set_language", "guild_language",
                         "resolve_tournament",  # a hint: none in a guild without events
                         *LICHESS_MEMBER_SCOPED, *MEMBER_SCOPED):
        with pytest.raises(NotFoundError):
            await call(scene, STRANGER_ORG)
    # 4. A server manager is never refused for permission.
    if who in ("manager", "organiser"):
        await _not_refused(call, scene, BOSS, operation)


async def _not_refused(call: Call, scene: Scene, actor: Actor, operation: str) -> None:
    """Other refusals (a state conflict) are fine here; a permission refusal is not."""
    try:
        await call(scene, actor)
    except PermissionDeniedError as exc:  # pragma: no cover
        pytest.fail(f"{operation} refused {actor.display_name}: {exc}")
    except ServiceError:
        pass


async def test_an_organiser_cannot_hand_the_organiser_role_to_everyone(scene: Scene) -> None:
    everyone = ORG.guild_id  # @everyone's role id is the guild id
    with pytest.raises(NotManagerError):
        await scene.service.set_organiser_role(ORG, everyone)
    with pytest.raises(NotManagerError):
        await scene.service.set_default_channel(ORG, 42)
    assert (await scene.service.get_guild_settings(ORG.guild_id)).organiser_role_id is None
    assert (await scene.service.set_organiser_role(BOSS, 77)).organiser_role_id == 77


def test_a_manager_is_an_organiser() -> None:
    assert Actor(1, 2, "x", is_manager=True).is_organiser


async def test_members_cannot_act_for_other_players(scene: Scene) -> None:
    with pytest.raises(NotOrganiserError, match="assign byes to other players"):
        await scene.service.request_bye(member(103), 2, player=104, tournament="Perm Cup")
    with pytest.raises(PermissionDeniedError, match="not your game"):
        await scene.service.confirm_result(member(105 if scene.confirmer != 105 else 106),
                                           scene.game_id)
    assert (await scene.service.request_bye(ORG, 2, player=104, tournament="Perm Cup")).round == 2
