"""A whole tournament through the service, against a real SQLite file: 9 players with a
bye, drops, a late join, a dispute and an organiser correction; reopening the database
mid-round; auto-advance; exports and imports."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from service import (
    ConflictError,
    ReportOutcome,
    RoundView,
    TournamentNotRunningError,
    TournamentService,
)
from swiss.trf import parse_trf
from tests.service_helpers import GUILD, Clock, manager, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
CHANNEL = 555


def _chooser(game_index: int, round_number: int) -> str:
    """A fixed but varied result for a board, seen by white."""
    return ("win", "loss", "draw")[(game_index + round_number) % 3]


async def play_round(
    service: TournamentService, view: RoundView, *, skip: set[int] = frozenset()
) -> list[ReportOutcome]:
    """White reports, black confirms with the button; guests' games are set by an organiser."""
    outcomes = []
    for index, game in enumerate(view.games):
        if game.board in skip:
            continue
        choice = _chooser(index, view.number)
        if game.white.user_id is None or game.black.user_id is None:
            outcomes.append(await service.set_result(ORG, view.number, f"#{game.white.number}",
                                                     choice))
            continue
        white = member(game.white.user_id)
        black = member(game.black.user_id)
        reported = await service.report_result(white, choice)
        assert reported.status == "awaiting_confirmation"
        assert reported.opponent.user_id == black.user_id
        outcomes.append(await service.confirm_result(black, game.id))
    return outcomes


def _points_by_hand(rounds: list[RoundView]) -> dict[int, Fraction]:
    """Chess points summed from the stored results, independently of swiss.standings."""
    points: Counter[int] = Counter()
    value = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)),
             "+--": (1, 0), "--+": (0, 1), "---": (0, 0)}
    bye_value = {"pairing": 1, "full": 1, "half": Fraction(1, 2), "zero": 0}
    for rnd in rounds:
        for g in rnd.games:
            w, b = value[g.result]
            points[g.white.player_id] += w
            points[g.black.player_id] += b
        for bye in rnd.byes:
            points[bye.player.player_id] += bye_value[bye.kind]
    return {pid: Fraction(p) for pid, p in points.items()}


async def _kinds(service: TournamentService, tournament_id: int) -> list[str]:
    return [a.kind for a in await service.announcements(tournament_id)]


async def test_full_nine_player_tournament(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "club.sqlite3", clock) as service:
        info = await service.create_tournament(
            ORG, "Club Swiss", 5, channel_id=CHANNEL, deadline_minutes=90, late_join_until=3,
            seed=11,
        )
        for uid in range(101, 109):
            await service.join(member(uid, name=f"Member {uid}"), rating=2100 - 10 * uid % 400)
        guest = await service.add_player(ORG, "Guest Gus", rating=1500)
        assert guest.user_id is None and guest.checked_in

        # -- round 1: nine players, so a pairing-allocated bye --------------------------------
        r1 = await service.start_tournament(ORG)
        assert r1.number == 1 and len(r1.games) == 4
        assert [b.kind for b in r1.byes] == ["pairing"] and r1.byes[0].points == 1
        assert r1.deadline == clock.now.replace(hour=13, minute=30)
        players = await service.list_players(GUILD)
        assert sorted(p.number for p in players) == list(range(1, 10))
        by_rating = sorted(players, key=lambda p: p.number or 0)
        assert [p.rating for p in by_rating] == sorted((p.rating for p in players), reverse=True)

        pairing_note = (await service.announcements(info.id))[-1]
        assert pairing_note.kind == "pairings" and pairing_note.channel_id == CHANNEL
        payload = pairing_note.payload
        assert payload["round"] == 1 and len(payload["games"]) == 4
        assert payload["deadline_unix"] == int(r1.deadline.timestamp())
        assert payload["byes"][0]["points"] == "1"
        assert set(payload["mention_user_ids"]) <= set(range(101, 109))

        # A dispute on board 1: white claims a win, black disputes with the button.
        board1 = r1.games[0]
        white1 = board1.white if board1.white.user_id else board1.black
        black1 = board1.black if white1 is board1.white else board1.white
        await service.report_result(member(white1.user_id), "win")
        disputed = await service.dispute_result(member(black1.user_id), board1.id)
        assert disputed.status == "disputed" and disputed.game.state == "disputed"
        dispute = (await service.announcements(info.id))[-1]
        assert dispute.kind == "dispute" and dispute.payload["game"]["board"] == 1
        # The organiser decides: a draw.
        decided = await service.set_result(ORG, 1, f"#{white1.number}", "draw")
        assert decided.game.result == "1/2-1/2" and decided.game.state == "final"

        await play_round(service, r1, skip={1})
        assert (await service.pairings(GUILD)).state == "complete"
        kinds = await _kinds(service, info.id)
        assert kinds[-2:] == ["round_results", "standings"]

        # -- drops and a late join ------------------------------------------------------------
        quitter = next(p for p in players if p.user_id == 103)
        left = await service.leave(member(103))
        assert left.status == "withdrawn" and left.withdrawn_round == 2

        r2 = await service.pair_next_round(ORG)
        in_r2 = {s.player_id for g in r2.games for s in (g.white, g.black)}
        in_r2 |= {b.player.player_id for b in r2.byes}
        assert quitter.id not in in_r2 and len(in_r2) == 8

        late = await service.join(member(120, name="Late Lou"), rating=1900)
        assert late.number == 10 and late.joined_round == 3 and late.status == "active"
        late_byes = [(r.number, b.kind) for r in (await service.pairings(GUILD, None, 1),
                                                   await service.pairings(GUILD, None, 2))
                     for b in r.byes if b.player.player_id == late.id]
        assert late_byes == [(1, "zero"), (2, "zero")]

        # The organiser drops a player mid-round; his game still needs a result: a forfeit.
        dropped_game = next(g for g in r2.games if g.white.user_id and g.black.user_id)
        dropped = await service.drop_player(ORG, dropped_game.black.user_id)
        assert dropped.withdrawn_round == 3
        await service.set_result(ORG, 2, dropped_game.white.user_id, "forfeit_win")
        await play_round(service, r2, skip={dropped_game.board})
        assert (await service.pairings(GUILD)).state == "complete"

        # -- organiser correction of a round-1 result -----------------------------------------
        before = {r.player_id: r.points for r in (await service.standings(GUILD)).rows}
        target = r1.games[1]
        old = (await service.pairings(GUILD, None, 1)).games[1].result
        new_choice = "win" if old != "1-0" else "loss"
        corrected = await service.set_result(ORG, 1, f"#{target.white.number}", new_choice)
        assert corrected.game.result != old
        note = (await service.announcements(info.id))[-1]
        assert note.kind == "result_corrected" and note.payload["previous_result"] == old
        after = {r.player_id: r.points for r in (await service.standings(GUILD)).rows}
        assert after != before  # the standings follow the correction

        # -- rounds 3 to 5 ---------------------------------------------------------------------
        for number in (3, 4, 5):
            view = await service.pair_next_round(ORG)
            assert view.number == number
            paired = {s.player_id for g in view.games for s in (g.white, g.black)}
            assert quitter.id not in paired and dropped.id not in paired
            outcomes = await play_round(service, view)
        assert outcomes[-1].round_complete and outcomes[-1].tournament_finished

        final = await service.tournament_info(GUILD, "Club Swiss")
        assert final.status == "finished" and final.current_round == 5
        kinds = await _kinds(service, info.id)
        assert kinds[-2:] == ["round_results", "final_standings"]
        assert kinds.count("pairings") == 5 and kinds.count("dispute") == 1

        # -- invariants over the whole event ---------------------------------------------------
        rounds = [await service.pairings(GUILD, info.id, n) for n in range(1, 6)]
        meetings = Counter(
            frozenset((g.white.player_id, g.black.player_id)) for r in rounds for g in r.games
            if g.result in ("1-0", "0-1", "1/2-1/2")
        )
        assert max(meetings.values()) == 1  # no rematch
        pab = Counter(b.player.player_id for r in rounds for b in r.byes if b.kind == "pairing")
        assert max(pab.values()) == 1
        table = await service.standings(GUILD, info.id)
        assert table.final and len(table.rows) == 10
        hand = _points_by_hand(rounds)
        assert {r.player_id: r.points for r in table.rows} == {
            pid: hand.get(pid, Fraction(0)) for pid in (r.player_id for r in table.rows)
        }
        assert [r.points for r in table.rows] == sorted((r.points for r in table.rows),
                                                        reverse=True)
        assert {r.player_id for r in table.rows if r.withdrawn} == {quitter.id, dropped.id}

        # Players can no longer report; an organiser's correction still moves the standings.
        last_game = next(g for g in rounds[4].games if g.white.user_id)
        with pytest.raises(TournamentNotRunningError, match="not running"):
            await service.report_result(member(last_game.white.user_id), "win",
                                        tournament=info.id)
        flipped = "loss" if last_game.result == "1-0" else "win"
        await service.set_result(ORG, 5, last_game.white.user_id, flipped, tournament=info.id)
        note = (await service.announcements(info.id))[-1]
        assert note.kind == "result_corrected" and note.payload["standings"]["final"]


async def test_reopen_the_database_mid_round_and_continue(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    clock = Clock()
    async with open_service(path, clock) as service:
        info = await service.create_tournament(ORG, "Restart Open", 3, seed=3)
        for uid in range(201, 207):
            await service.join(member(uid), rating=1000 + uid)
        r1 = await service.start_tournament(ORG)
        await play_round(service, r1)
        r2 = await service.pair_next_round(ORG)
        first, second = r2.games[0], r2.games[1]
        await service.report_result(member(first.white.user_id), "win")  # awaiting confirmation
        await service.report_result(member(second.white.user_id), "draw")
        await service.confirm_result(member(second.black.user_id), second.id)
        delivered = await service.pending_announcements()
        for note in delivered:
            assert await service.mark_delivered(note.id)

    # A new process: same file, new connection, new service.
    async with open_service(path, clock) as service:
        again = await service.pairings(GUILD)
        assert again.number == 2
        assert [g.state for g in again.games[:2]] == ["reported", "final"]
        assert await service.pending_announcements() == []  # nothing delivered twice
        # The old Confirm button (game id) still works after the restart.
        confirmed = await service.confirm_result(member(first.black.user_id), first.id)
        assert confirmed.status == "final" and confirmed.game.result == "1-0"
        await play_round(service, again, skip={1, 2})
        r3 = await service.pair_next_round(ORG)
        assert r3.number == 3
        pending = await service.pending_announcements()
        assert [a.kind for a in pending] == ["round_results", "standings", "pairings"]
        assert info.id == r3.tournament_id


async def test_auto_advance_pairs_the_next_round_after_the_delay(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "auto.sqlite3", clock) as service:
        info = await service.create_tournament(ORG, "Auto Cup", 2, auto_advance_minutes=5,
                                               seed=9)
        for uid in range(301, 305):
            await service.join(member(uid))
        r1 = await service.start_tournament(ORG)
        assert await service.due_auto_advances() == []
        await play_round(service, r1)
        due_at = (await service.tournament_info(GUILD)).auto_advance_due
        assert due_at == clock.now.replace(minute=5)
        assert await service.due_auto_advances() == []  # not yet
        assert await service.run_auto_advances() == []
        clock.advance(minutes=5)
        assert await service.due_auto_advances() == [info.id]
        paired = await service.run_auto_advances()
        assert [v.number for v in paired] == [2]
        assert await service.run_auto_advances() == []  # exactly once
        await play_round(service, paired[0])
        clock.advance(minutes=10)
        # After the last round there is nothing to advance: the tournament finished.
        assert await service.due_auto_advances() == []
        assert (await service.tournament_info(GUILD, info.id)).status == "finished"


async def test_auto_advance_failure_is_announced_not_retried(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "auto.sqlite3", clock) as service:
        info = await service.create_tournament(ORG, "Tiny", 3, auto_advance_minutes=0,
                                               rematches="forbid", seed=1)
        await service.join(member(401))
        await service.join(member(402))
        r1 = await service.start_tournament(ORG)
        await play_round(service, r1)
        assert await service.run_auto_advances() == []  # the pair met: no legal round 2
        notes = await service.announcements(info.id)
        assert notes[-1].kind == "auto_advance_failed"
        assert "No valid pairing exists for round 2" in notes[-1].payload["error"]
        # the reason follows the prefix once, not "no valid pairing exists: no valid ..."
        assert notes[-1].payload["error"].lower().count("no valid pairing") == 1
        assert await service.due_auto_advances() == []


async def test_undo_round_then_pair_again(tmp_path: Path) -> None:
    async with open_service(tmp_path / "undo.sqlite3") as service:
        await service.create_tournament(ORG, "Undo Cup", 3, seed=5)
        for uid in range(501, 506):
            await service.join(member(uid))
        r1 = await service.start_tournament(ORG)
        await play_round(service, r1)
        r2 = await service.pair_next_round(ORG)
        await service.drop_player(ORG, r2.games[0].white.user_id)
        undone = await service.undo_round(ORG)
        assert undone.number == 2
        assert (await service.pairings(GUILD)).number == 1
        again = await service.pair_next_round(ORG)
        paired = {s.player_id for g in again.games for s in (g.white, g.black)}
        assert r2.games[0].white.player_id not in paired  # the drop still holds
        await service.report_result(member(again.games[0].white.user_id), "win")
        await service.confirm_result(member(again.games[0].black.user_id), again.games[0].id)
        forced = await service.undo_round(ORG, force=True)
        assert forced.games[0].result == "1-0"


async def test_requested_byes_and_forbidden_pairs_reach_the_pairing(tmp_path: Path) -> None:
    async with open_service(tmp_path / "byes.sqlite3") as service:
        await service.create_tournament(ORG, "Bye Cup", 3, seed=2)
        for uid in range(601, 608):
            await service.join(member(uid), rating=2000 - uid)
        # Seven players; 607 asks for a half-point bye, so six are paired and nobody gets the
        # PAB. The Dutch round 1 would pair 1-4: forbid it.
        await service.forbid_pair(ORG, 601, "<@604>")
        request = await service.request_bye(member(607), 1)
        assert request.kind == "half" and request.round == 1
        assert request.status == "pending"  # a player's own request waits for an organiser
        await service.decide_bye_request(ORG, "<@607>", 1, approve=True)
        r1 = await service.start_tournament(ORG)
        assert [(b.player.user_id, b.kind) for b in r1.byes] == [(607, "half")]
        assert len(r1.games) == 3
        assert all({g.white.user_id, g.black.user_id} != {601, 604} for g in r1.games)
        # An organiser may assign a full-point bye to anyone, and take it back.
        await service.request_bye(ORG, 2, kind="full", player=605)
        await service.cancel_bye_request(ORG, 2, player=605)
        await service.request_bye(ORG, 2, kind="zero", player="#6")
        await play_round(service, r1)
        r2 = await service.pair_next_round(ORG)
        assert [(b.player.number, b.kind) for b in r2.byes] == [(6, "zero")]
        assert all({g.white.user_id, g.black.user_id} != {601, 604} for g in r2.games)


async def test_checkin_leaves_out_who_did_not_check_in(tmp_path: Path) -> None:
    async with open_service(tmp_path / "checkin.sqlite3") as service:
        await service.create_tournament(ORG, "Check Cup", 2, checkin=True, seed=4)
        for uid in (701, 702, 703):
            await service.join(member(uid))
        await service.check_in(member(701))
        await service.check_in(member(702))
        r1 = await service.start_tournament(ORG)
        assert {(g.white.user_id, g.black.user_id) for g in r1.games} in (
            {(701, 702)}, {(702, 701)})
        statuses = {p.user_id: p.status for p in await service.list_players(GUILD)}
        assert statuses == {701: "active", 702: "active", 703: "no_show"}


async def test_match_scoring_with_game_scores(tmp_path: Path) -> None:
    async with open_service(tmp_path / "mtg.sqlite3") as service:
        info = await service.create_tournament(ORG, "Friday Magic", 2, scoring="match",
                                               colours=False, seed=8)
        assert info.settings.tiebreaks == "mtg"
        for uid in range(801, 805):
            await service.join(member(uid))
        r1 = await service.start_tournament(ORG)
        for game in r1.games:
            await service.report_result(member(game.black.user_id), "win", my_games=2,
                                        their_games=1)
            done = await service.confirm_result(member(game.white.user_id), game.id)
            assert done.game.result == "0-1"
            assert (done.game.white_games, done.game.black_games) == (1, 2)
            assert done.game.result_text == "0-1 (1-2)"
        table = await service.standings(GUILD)
        assert [r.points for r in table.rows] == [3, 3, 0, 0]
        assert table.tiebreaks  # the mtg preset (OMW%, GW%, OGW%)


async def test_exports_and_imports(tmp_path: Path) -> None:
    async with open_service(tmp_path / "export.sqlite3") as service:
        info = await service.create_tournament(ORG, "Export Open", 3, seed=6)
        imported = await service.import_players(
            ORG, "name,rating\nAnn Alpha,2200\nBob Bravo,2100\nCy Charlie,\n", "csv"
        )
        assert [(p.name, p.rating) for p in imported] == [
            ("Ann Alpha", 2200), ("Bob Bravo", 2100), ("Cy Charlie", 0)]
        await service.join(member(901, name="Dee Delta"), rating=1900)
        r1 = await service.start_tournament(ORG)
        for game in r1.games:
            await service.set_result(ORG, 1, f"#{game.white.number}", "win")
        await service.pair_next_round(ORG)  # round 2 pending: TRF holds the complete rounds

        trf = await service.export(GUILD, "trf")
        assert trf.filename == "export-open.trf"
        parsed = parse_trf(trf.content).tournament
        assert len(parsed.players) == 4 and parsed.rounds_played == 1
        assert parsed.total_rounds == 3

        standings = await service.export(GUILD, "csv")
        rows = list(csv.reader(io.StringIO(standings.content)))
        assert rows[0][:4] == ["rank", "number", "name", "points"] and len(rows) == 5
        games = await service.export(GUILD, "csv", table="rounds")
        assert sum(1 for row in csv.reader(io.StringIO(games.content))) == 1 + 2 + 2
        body = json.loads((await service.export(GUILD, "json")).content)
        assert body["tournament"]["name"] == "Export Open"
        assert len(body["players"]) == 4 and len(body["rounds"]) == 2
        assert body["standings"]["rows"][0]["points"] == 1  # a number, not text

        # The TRF round-trips into a new tournament's player list.
        await service.create_tournament(ORG, "From TRF", 3, seed=1)
        again = await service.import_players(ORG, trf.content, "trf", "From TRF")
        assert sorted(p.name for p in again) == sorted(p.name for p in parsed.players)
        assert info.id != again[0].tournament_id


async def test_guild_settings_and_default_channel(tmp_path: Path) -> None:
    async with open_service(tmp_path / "guild.sqlite3") as service:
        settings = await service.get_guild_settings(GUILD)
        assert settings.organiser_role_id is None
        await service.set_organiser_role(manager(), 77)
        await service.set_default_channel(manager(), 88)
        assert await service.get_guild_settings(GUILD) == type(settings)(GUILD, 77, 88)
        await service.create_tournament(ORG, "No Channel", 1, seed=1)
        await service.join(member(1001))
        await service.join(member(1002))
        await service.start_tournament(ORG)
        notes = await service.pending_announcements()
        assert notes[-1].kind == "pairings" and notes[-1].channel_id == 88


async def test_edit_settings_before_and_after_start(tmp_path: Path) -> None:
    async with open_service(tmp_path / "edit.sqlite3") as service:
        await service.create_tournament(ORG, "Edit Me", 3, seed=1)
        edited = await service.edit_tournament(ORG, system="burstein", rounds=4,
                                               name="Edited")
        assert edited.name == "Edited" and edited.settings.system == "burstein"
        assert edited.settings.rounds == 4
        await service.join(member(1101))
        await service.join(member(1102))
        await service.start_tournament(ORG, "Edited")
        running = await service.edit_tournament(ORG, deadline_minutes=30)
        assert running.settings.deadline_minutes == 30


async def test_forced_pairing_and_forced_finish_close_the_open_games(tmp_path: Path) -> None:
    async with open_service(tmp_path / "force.sqlite3") as service:
        info = await service.create_tournament(ORG, "Force Cup", 3, seed=12)
        for uid in range(1201, 1207):
            await service.join(member(uid))
        r1 = await service.start_tournament(ORG)
        reported, disputed, untouched = r1.games
        await service.report_result(member(reported.white.user_id), "loss")
        await service.report_result(member(disputed.white.user_id), "win")
        await service.report_result(member(disputed.black.user_id), "win")  # contradiction
        r2 = await service.pair_next_round(ORG, force=True)
        assert r2.number == 2
        closed = {g.id: g for g in (await service.pairings(GUILD, None, 1)).games}
        assert closed[reported.id].result == "0-1"  # the waiting report stands
        assert closed[disputed.id].result == "---"
        assert closed[untouched.id].result == "---"
        assert (await service.pairings(GUILD, None, 1)).state == "complete"
        # A correction of a forced result is still possible.
        await service.set_result(ORG, 1, disputed.white.user_id, "win")
        assert (await service.pairings(GUILD, None, 1)).games[1].result == "1-0"

        await service.report_result(member(r2.games[0].white.user_id), "draw")
        table = await service.finish_tournament(ORG, force=True)
        assert table.final and table.after_round == 2
        r2_closed = await service.pairings(GUILD, info.id, 2)
        assert [g.result for g in r2_closed.games] == ["1/2-1/2", "---", "---"]
        kinds = [a.kind for a in await service.announcements(info.id)]
        assert kinds[-1] == "final_standings" and kinds.count("final_standings") == 1


async def test_custom_tiebreak_list(tmp_path: Path) -> None:
    async with open_service(tmp_path / "tb.sqlite3") as service:
        await service.create_tournament(ORG, "Custom TB", 2, tiebreaks="BH-C1,SB", seed=3)
        for uid in range(1301, 1305):
            await service.join(member(uid))
        r1 = await service.start_tournament(ORG)
        await play_round(service, r1)
        table = await service.standings(GUILD)
        assert len(table.tiebreaks) == 2 and table.tiebreaks[1] == "SB"
        assert all(len(row.values) == 2 for row in table.rows)
        note = (await service.announcements(table.tournament_id))[-1]
        assert note.kind == "standings" and len(note.payload["rows"][0]["values"]) == 2


async def test_tiebreak_rules_setting(tmp_path: Path) -> None:
    """The C.07 edition: "auto" follows the creation date (the test clock's), or is chosen."""
    async with open_service(tmp_path / "rules.sqlite3") as service:
        info = await service.create_tournament(ORG, "Rules", 2, seed=3)
        assert info.settings.tiebreak_rules == "auto"
        for uid in range(1401, 1405):
            await service.join(member(uid))
        await service.edit_tournament(ORG, tiebreak_rules="2024")
        with pytest.raises(Exception, match="tie-break rules"):
            await service.edit_tournament(ORG, tiebreak_rules="2030")
        r1 = await service.start_tournament(ORG)
        await play_round(service, r1)
        table = await service.standings(GUILD)
        assert table.rules == "2024"
    async with open_service(tmp_path / "auto.sqlite3") as service:
        await service.create_tournament(ORG, "Auto", 2, seed=3)
        for uid in range(1401, 1405):
            await service.join(member(uid))
        r1 = await service.start_tournament(ORG)
        await play_round(service, r1)
        table = await service.standings(GUILD)
        expected = "2026" if service.now().date().isoformat() >= "2026-03-01" else "2024"
        assert table.rules == expected


async def test_organiser_player_management(tmp_path: Path) -> None:
    async with open_service(tmp_path / "manage.sqlite3") as service:
        await service.create_tournament(ORG, "Managed", 3, late_join_until=1,
                                        late_join_bye="half", seed=2)
        await service.add_player(ORG, "Member Max", user_id=1401, rating=1800)
        await service.add_player(ORG, "Guest Gil", rating=1700)
        await service.join(member(1402), rating=1600)
        await service.join(member(1403))
        rated = await service.set_rating(ORG, "Guest Gil", 2500)
        assert rated.rating == 2500
        removed = await service.remove_player(ORG, 1403)
        assert removed.user_id == 1403
        assert [p.name for p in await service.list_players(GUILD)] == [
            "Member Max", "Guest Gil", "Player1402"]
        r1 = await service.start_tournament(ORG)
        numbers = {p.name: p.number for p in await service.list_players(GUILD)}
        assert numbers == {"Guest Gil": 1, "Member Max": 2, "Player1402": 3}  # rating order
        assert [b.player.name for b in r1.byes] == ["Player1402"]
        # Past the members' late-join limit, an organiser can still add someone...
        late = await service.add_player(ORG, "Late Guest", rating=1500)
        assert late.number == 4 and late.joined_round == 2
        half = (await service.pairings(GUILD, None, 1)).byes
        assert [(b.player.name, b.kind, b.points) for b in half] == [
            ("Player1402", "pairing", 1), ("Late Guest", "half", Fraction(1, 2))]
        # ...and remove him again while he has played nothing: his late-join byes go too.
        await service.remove_player(ORG, "Late Guest")
        assert [b.player.name for b in (await service.pairings(GUILD, None, 1)).byes] == [
            "Player1402"]
        # The PAB counts as having played: that player can only be dropped.
        with pytest.raises(ConflictError, match="drop him"):
            await service.remove_player(ORG, 1402)


async def test_cancel_list_get_game_and_delivery_retry(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "misc.sqlite3", clock) as service:
        first = await service.create_tournament(ORG, "First", 2, seed=1)
        await service.create_tournament(ORG, "Second", 2, seed=1)
        assert [t.name for t in await service.list_tournaments(GUILD)] == ["First", "Second"]
        await service.join(member(1501), "Second")
        await service.join(member(1502), "Second")
        r1 = await service.start_tournament(ORG, "Second")
        game = await service.get_game(GUILD, r1.games[0].id)
        assert game == r1.games[0]

        cancelled = await service.cancel_tournament(ORG, "First")
        assert cancelled.status == "cancelled"
        assert [t.name for t in await service.list_tournaments(GUILD)] == ["Second"]
        assert [t.status for t in await service.list_tournaments(GUILD, include_closed=True)
                ] == ["cancelled", "running"]
        again = await service.create_tournament(ORG, "First", 2, seed=1)  # the name is free
        assert again.id != first.id
        assert (await service.announcements(first.id))[-1].kind == "tournament_cancelled"

        # Delivery: a failure hides the row until its retry time; then it is delivered once.
        pending = await service.pending_announcements()
        assert [a.kind for a in pending] == ["pairings", "tournament_cancelled"]
        assert await service.mark_failed(pending[0].id, "503 from Discord",
                                         retry_after_seconds=60)
        assert [a.kind for a in await service.pending_announcements()] == [
            "tournament_cancelled"]
        clock.advance(seconds=60)
        retry = await service.pending_announcements()
        assert retry[0].id == pending[0].id and retry[0].attempts == 1
        assert retry[0].last_error == "503 from Discord"
        assert await service.mark_delivered(retry[0].id)
        assert not await service.mark_failed(retry[0].id, "late failure")  # already delivered
