"""Each board's Lichess game: listed, created one request at a time against the fake Lichess,
stored once (a retry, a second worker or a restart never makes a board's game twice), and the
round's links announced once."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.lichess.client import LichessClient
from bot.lichess.games import LichessGames
from bot.render.lichess import game_links
from sandbox.lichess import FakeLichess
from service import TournamentService
from storage.lichess_games import GameLinks
from tests.lichess_helpers import lichess_event
from tests.service_helpers import Clock, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")
ORG = organiser()


_event = lichess_event


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TournamentService]:
    async with open_service(tmp_path / "games.sqlite3", clock=Clock()) as opened:
        yield opened


async def test_boards_are_listed_stored_once_and_announced_once(
        service: TournamentService) -> None:
    await _event(service, 4, deadline=60)
    round1 = await service.start_tournament(ORG, "Club Blitz")
    boards = await service.lichess_boards_to_create()
    assert [(b.board, b.white, b.black) for b in boards] == [
        (g.board, f"Player{g.white.user_id}", f"Player{g.black.user_id}") for g in round1.games]
    assert boards[0].deadline is not None and (boards[0].clock_limit, boards[0].clock_increment
                                               ) == (180, 2)
    first = GameLinks(boards[0].game_id, "abc", "https://l/abc?color=white",
                      "https://l/abc?color=black")
    assert await service.store_lichess_game(boards[0], first)
    assert not await service.store_lichess_game(boards[0], first)  # a retry: nothing twice
    assert not [a for a in await service.announcements() if a.kind == "lichess_games"]
    assert [b.game_id for b in await service.lichess_boards_to_create()] == [boards[1].game_id]
    await service.store_lichess_game(boards[1], GameLinks(boards[1].game_id, "def", "w", "b"))
    told = [a for a in await service.announcements() if a.kind == "lichess_games"]
    assert len(told) == 1 and len(told[0].payload["boards"]) == 2
    assert await service.lichess_boards_to_create() == []
    messages = game_links(told[0].payload)
    assert "https://l/abc?color=white" in messages[0].content


async def test_an_undone_round_loses_its_games(service: TournamentService) -> None:
    await _event(service, 4)
    await service.start_tournament(ORG, "Club Blitz")
    for board in await service.lichess_boards_to_create():
        await service.store_lichess_game(board, GameLinks(board.game_id, "x", "w", "b"))
    stale = (await service.lichess_boards_to_create()) or None
    assert stale is None
    await service.undo_round(ORG, "Club Blitz", force=True)
    await service.pair_next_round(ORG, "Club Blitz")
    assert len(await service.lichess_boards_to_create()) == 2  # the new pairing's boards


async def test_the_worker_makes_every_game_once_through_faults_and_restarts(
        service: TournamentService) -> None:
    fake = await FakeLichess().start()
    client = LichessClient(fake.url, backoff=0.01, budget=0.2)
    try:
        await _event(service, 32)
        await service.start_tournament(ORG, "Club Blitz")
        worker = LichessGames(service, client)
        fake.fail(503, times=1000)  # Lichess down: nothing made, nothing stored
        assert await worker.run_once() == 0
        fake._faults.clear()
        # a restart in the middle: the first worker stops after 5 boards (Lichess down again)
        original = fake._fault
        served = 0

        def down_after_five() -> int | None:
            nonlocal served
            served += 1
            return 503 if served > 5 else original()

        fake._fault = down_after_five  # type: ignore[method-assign]
        assert await worker.run_once() == 5
        fake._fault = original  # type: ignore[method-assign]
        restarted = LichessGames(service, client)
        assert await restarted.run_once() == 11
        users = [tuple(c["users"]) for c in fake.challenges]
        assert len(users) == 16 and len(set(users)) == 16  # no board made twice
        assert all(c["limit"] == 180 and c["increment"] == 2 and c["rated"]
                   and c["rules"] == "noRematch" for c in fake.challenges)
        told = [a for a in await service.announcements() if a.kind == "lichess_games"]
        assert len(told) == 1 and len(told[0].payload["boards"]) == 16
    finally:
        await client.close()
        await fake.stop()


async def test_games_for_many_boards_figures(service: TournamentService,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Prints how long the worker takes for the boards of a round (no timing assertion)."""
    fake = await FakeLichess().start()
    client = LichessClient(fake.url)
    try:
        await _event(service, 64)
        await service.start_tournament(ORG, "Club Blitz")
        began = time.perf_counter()
        made = await LichessGames(service, client).run_once()
        spent = time.perf_counter() - began
        assert made == 32
        with capsys.disabled():
            print(f"\n32 boards: games created and stored in {spent:.2f} s "
                  f"({1000 * spent / made:.1f} ms a board, fake Lichess on this machine)")
    finally:
        await client.close()
        await fake.stop()


async def test_results_are_read_from_lichess_and_anomalies_told_once(
        service: TournamentService) -> None:
    fake = await FakeLichess().start()
    client = LichessClient(fake.url, backoff=0.01)
    try:
        await _event(service, 12)
        await service.start_tournament(ORG, "Club Blitz")
        worker = LichessGames(service, client)
        assert await worker.run_once() == 6
        ids = [c["id"] for c in fake.challenges]  # board order
        fake.play(ids[0], "mate", "white")
        fake.play(ids[1], "draw")
        fake.play(ids[2], "resign", "white", swap=True)  # the paired black played white
        fake.play(ids[3], "aborted")
        fake.play(ids[4], "outoftime", "black", clock=(300, 0))
        fake.play(ids[5], "started")
        assert await worker.follow_once() == 2
        assert await worker.follow_once() == 0  # nothing twice, nobody told twice
        games = (await service.pairings(ORG.guild_id, "Club Blitz")).games
        assert [g.result for g in games] == ["1-0", "1/2-1/2", "*", "*", "*", "*"]
        told = [a.payload["problem"] for a in await service.announcements()
                if a.kind == "lichess_problem"]
        assert told == ["the colours are swapped: the paired black played white",
                        "the game was aborted", "the clock was 300+0 s, not 180+2 s"]
        # an organiser's result wins over what Lichess says later
        white = games[5].white
        await service.set_result(ORG, 1, f"#{white.number}", "loss", tournament="Club Blitz")
        fake.play(ids[5], "mate", "white")
        assert await worker.follow_once() == 0
        games = (await service.pairings(ORG.guild_id, "Club Blitz")).games
        assert games[5].result == "0-1"
        async with service.db.transaction() as conn:
            from storage import journal

            audit = [a for a in await journal.list_audit(conn, games[0].tournament_id)
                     if a.action == "result.lichess"]
        assert len(audit) == 2 and audit[0].after["lichess"] == ids[0]
        assert {e.route for e in fake.exchanges} >= {"/api/games/export/_ids"}
    finally:
        await client.close()
        await fake.stop()


async def test_an_organisers_result_set_meanwhile_wins(service: TournamentService) -> None:
    """The worker read the board before an organiser set its result: Lichess's later word
    does not replace it."""
    from service.lichess_api import LichessGame

    await _event(service, 2)
    await service.start_tournament(ORG, "Club Blitz")
    [board] = await service.lichess_boards_to_create()
    await service.store_lichess_game(board, GameLinks(board.game_id, "gm1", "w", "b"))
    [followed] = await service.lichess_games_to_follow()
    game = (await service.pairings(ORG.guild_id, "Club Blitz")).games[0]
    await service.set_result(ORG, 1, f"#{game.white.number}", "draw", tournament="Club Blitz")
    played = LichessGame(id="gm1", status="mate", winner="white", white_id=followed.white,
                         black_id=followed.black, clock_initial=180, clock_increment=2,
                         created_at_ms=int(followed.created_at.timestamp() * 1000) + 5000)
    assert await service.record_lichess_game(followed, played) == "final"
    assert (await service.pairings(ORG.guild_id, "Club Blitz")).games[0].result == "1/2-1/2"


async def test_lichess_down_for_a_while_results_caught_up_and_organisers_told_once(
        service: TournamentService) -> None:
    fake = await FakeLichess().start()
    client = LichessClient(fake.url, backoff=0.01, budget=0.1)
    try:
        await _event(service, 8)
        await service.start_tournament(ORG, "Club Blitz")
        worker = LichessGames(service, client)
        worker.notice_after = 0.0  # two minutes in production
        assert await worker.run_once() == 4
        for index, challenge in enumerate(fake.challenges):
            fake.play(challenge["id"], "resign", ("white", "black")[index % 2])
        fake.fail(502, times=10_000)  # down: every pass fails
        for _ in range(5):
            assert await worker.follow_once() == 0
        fake._faults.clear()  # back
        assert await worker.follow_once() == 4  # every result caught up, none lost
        outages = [a.payload for a in await service.announcements()
                   if a.kind == "lichess_outage"]
        assert [o["back"] for o in outages] == [False, True]  # told once, and once back
        assert "HTTP 502" in outages[0]["problem"]
        games = (await service.pairings(ORG.guild_id, "Club Blitz")).games
        assert all(g.result in ("1-0", "0-1") for g in games)
    finally:
        await client.close()
        await fake.stop()


async def test_an_outage_is_told_once_per_event_whoever_reports_it(
        service: TournamentService) -> None:
    """Two workers (or a restarted one) reporting the same outage tell the organisers once."""
    await _event(service, 2)
    await service.start_tournament(ORG, "Club Blitz")
    assert await service.lichess_outage("HTTP 503") == 1
    assert await service.lichess_outage("HTTP 503") == 0
    assert await service.lichess_outage(None) == 1
    assert await service.lichess_outage(None) == 0


async def test_game_links_are_in_the_exports_and_on_the_live_page(
        service: TournamentService) -> None:
    """The games table (CSV and JSON) has each board's game page on Lichess, and the live
    page's pairings link each result to its game; an event not on Lichess keeps its columns."""
    import csv
    import io
    import json

    from bot.web.app import event_json
    from bot.web.page import page_html

    await _event(service, 4)
    await service.start_tournament(ORG, "Club Blitz")
    boards = await service.lichess_boards_to_create()
    first, second = boards
    await service.store_lichess_game(first, GameLinks(
        first.game_id, "abcd1234", "https://lichess.org/abcd1234?color=white",
        "https://lichess.org/abcd1234?color=black"))
    csv_file = await service.export(ORG.guild_id, "csv", "Club Blitz", table="games")
    rows = {int(r["board"]): r for r in csv.DictReader(io.StringIO(csv_file.content))}
    assert rows[first.board]["game_url"] == "https://lichess.org/abcd1234"
    assert rows[second.board]["game_url"] == ""  # not made yet
    json_file = await service.export(ORG.guild_id, "json", "Club Blitz", table="games")
    records = {r["board"]: r for r in json.loads(json_file.content)["games"]}
    assert records[first.board]["game_url"] == "https://lichess.org/abcd1234"
    assert records[second.board]["game_url"] is None

    token = await service.web_link(ORG, "Club Blitz")
    event = await service.live_event(token)
    assert event is not None
    html = page_html(event, event.rounds[-1])
    assert '<a href="https://lichess.org/abcd1234" rel="noopener">' in html
    games = {g["board"]: g for g in event_json(event)["rounds"][0]["games"]}
    assert games[first.board]["url"] == "https://lichess.org/abcd1234"
    assert games[second.board]["url"] is None

    await service.create_tournament(ORG, "Over the board", 3)
    plain = await service.export(ORG.guild_id, "csv", "Over the board", table="games")
    assert "game_url" not in plain.content.splitlines()[0]
