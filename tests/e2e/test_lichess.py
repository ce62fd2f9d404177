"""Lichess through the real discord.py client against the fake Discord and the fake Lichess:
linking by a profile code and by OAuth (the browser's part done with plain HTTP requests to
the fake's authorize page and the bot's web server), and joining an event rated by Lichess."""

from __future__ import annotations

import asyncio
import re
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from sandbox.lichess import FakeLichess
from tests.e2e.fixtures import Club, text_of

pytestmark = pytest.mark.e2e
EPHEMERAL = 64


@pytest.fixture
async def lichess() -> AsyncIterator[FakeLichess]:
    server = await FakeLichess().start()
    yield server
    await server.stop()


def _private(reply: dict[str, Any]) -> str:
    assert reply["flags"] & EPHEMERAL, text_of(reply)
    return text_of(reply)


async def _event_on_lichess(fake: Any, start_swissbot: Any, lichess: FakeLichess,
                            players: int, name: str, clock: str, *, now: Any = None,
                            **settings: Any) -> Club:
    """A new server of ``players`` members and a 4-round event on Lichess with ``clock``
    (and the ``settings`` given with /tournament settings) that each of them joined, after
    linking an account by profile code. ``now``: the service's clock, when the test moves
    it."""
    club = Club(fake, fake.add_guild(f"{name} Club", players=players))
    bot = await start_swissbot(settings={"lichess_url": lichess.url})
    if now is not None:
        bot.service._clock = now
    await club.run(club.owner, "tournament create", name=name, rounds=4)
    if settings:
        await club.configure(club.owner, **settings)
    await club.run(club.owner, "lichess event", clock=clock)
    for index, player in enumerate(club.players):
        account = lichess.add_account(f"{name[:2]}{index:02d}",
                                      perfs={"blitz": (1200 + 25 * index, 100, False)})
        text = _private(await club.run(player, "lichess link", username=account.username))
        code = re.search(r"swissbot-[0-9a-f]{10}", text)
        assert code is not None
        account.bio = code.group(0)
        _private(await club.run(player, "lichess verify"))
        assert "joined" in text_of(await club.run(player, "join"))
    return club


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_link_by_profile_code_then_join_an_event_on_lichess(
        fake, guild, start_swissbot, lichess: FakeLichess) -> None:
    await start_swissbot(settings={"lichess_url": lichess.url})
    club = Club(fake, guild)
    ann, bob = club.players[0], club.players[1]
    account = lichess.add_account("AnnPlays", perfs={"blitz": (1875, 300, False)})
    text = _private(await club.run(ann, "lichess link", username="AnnPlays"))
    code = re.search(r"swissbot-[0-9a-f]{10}", text)
    assert code is not None and "**Bio** or the **Location**" in text
    text = _private(await club.run(ann, "lichess verify"))
    assert f"{code.group(0)} is not in the Bio" in text
    account.location = f"Basel {code.group(0)}"
    assert "linked to the Lichess account **AnnPlays**" in _private(
        await club.run(ann, "lichess verify"))
    # the same account claimed by another member: refused, privately
    assert "already linked to another member" in _private(
        await club.run(bob, "lichess link", username="annplays"))
    assert "Ghost" in _private(await club.run(bob, "lichess link", username="Ghost"))

    await club.run(club.owner, "tournament create", name="Lichess Blitz", rounds=3)
    assert "blitz" in _private(await club.run(club.owner, "lichess event", clock="3+2"))
    assert "link your account first" in _private(await club.run(bob, "join"))
    reply = await club.run(ann, "join")
    assert "joined" in text_of(reply), text_of(reply)
    assert "AnnPlays" in _private(await club.run(club.owner, "lichess ratings"))
    assert "1875" in _private(await club.run(club.owner, "lichess ratings"))
    links = _private(await club.run(club.owner, "lichess links"))
    assert "AnnPlays" in links and "Refused claims" in links
    assert "Only organisers" in _private(await club.run(bob, "lichess links"))
    assert fake.unhandled == []


async def test_link_by_oauth_through_the_bots_web_server(
        fake, guild, start_swissbot, database, lichess: FakeLichess) -> None:
    port = _free_port()
    await start_swissbot(settings={"lichess_url": lichess.url, "web_port": port,
                                   "public_url": f"http://127.0.0.1:{port}",
                                   "secret_key": "test passphrase"})
    club = Club(fake, guild)
    carl = club.players[2]
    lichess.add_account("CarlCastles", perfs={"rapid": (1500, 3, True)})
    text = _private(await club.run(carl, "lichess link"))
    url = re.search(r"<(http[^>]+/oauth\?[^>]+)>", text)
    assert url is not None, text
    lichess.approve_as("CarlCastles")
    async with aiohttp.ClientSession() as browser:
        async with browser.get(url.group(1), allow_redirects=False) as to_lichess:
            assert to_lichess.status == 302
            back = to_lichess.headers["Location"]
        assert back.startswith(f"http://127.0.0.1:{port}/lichess/oauth?")
        async with browser.get(back) as page:
            body = await page.text()
            assert page.status == 200, body
            assert "CarlCastles" in body
        async with browser.get(back) as again:  # the state works once
            assert again.status == 400
            assert "used already" in await again.text()
    assert "CarlCastles" in _private(await club.run(club.owner, "lichess links"))
    # the token is kept, encrypted: not in the database in clear
    token = next(iter(lichess.tokens))
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT token FROM lichess_tokens").fetchall()
    assert len(rows) == 1 and token not in rows[0][0]
    assert token.encode() not in database.read_bytes()
    assert fake.unhandled == []


async def test_a_round_of_16_boards_gets_its_lichess_games_posted(
        fake, start_swissbot, lichess: FakeLichess) -> None:
    """32 members link by profile code and join a 3+2 event on Lichess; at the start every
    board gets its game on Lichess, only for its two players, and the links are posted."""
    club = await _event_on_lichess(fake, start_swissbot, lichess, 32, "Arena Swiss", "3+2")
    began = time.perf_counter()
    await club.run(club.owner, "tournament start")
    posted = await club.wait_post(lambda m: "your games on Lichess" in (m.get("content") or ""))
    last = lichess.challenges[-1]["id"] if len(lichess.challenges) == 16 else "?"
    await club.wait_post(lambda m: f"{last}?color=black" in (m.get("content") or ""))
    spent = time.perf_counter() - began
    links = "\n".join(m.get("content") or "" for m in club.posts())
    assert len({frozenset(c["users"]) for c in lichess.challenges}) == 16  # one game a board
    for challenge in lichess.challenges:
        assert f"{challenge['id']}?color=white" in links
        assert f"{challenge['id']}?color=black" in links
    assert "Arena Swiss" in posted["content"]
    print(f"\n16 boards: from /tournament start to the links posted {spent:.2f} s")
    assert fake.unhandled == []


async def test_each_player_gets_his_colours_link_by_dm_and_both_links_in_the_thread(
        fake, start_swissbot, lichess: FakeLichess) -> None:
    """With game threads and DMs: each board's thread gets both links of its game, and a
    player who opted in to DMs gets the link of his own colour only."""
    club = await _event_on_lichess(fake, start_swissbot, lichess, 4, "Thread Links", "3+2",
                                   game_threads=True)
    first = club.players[0]
    await club.run(first, "notify", dm="on")
    await club.run(club.owner, "tournament start")

    def threads() -> list[Any]:
        return [c for c in club.guild.channels.values() if c.is_thread]

    def linked(thread: Any) -> bool:
        return any("on Lichess" in (m.get("content") or "") for m in thread.messages)

    async def until(condition: Any) -> None:
        async with asyncio.timeout(15):
            while not condition():
                await asyncio.sleep(0.02)

    await until(lambda: len(threads()) == 2 and all(linked(t) for t in threads()))
    assert len(lichess.challenges) == 2
    for thread in threads():
        text = "\n".join(m.get("content") or "" for m in thread.messages)
        ours = [c for c in lichess.challenges if c["id"] in text]
        assert len(ours) == 1  # the thread's own board, not the other one
        challenge = ours[0]
        assert f"{challenge['id']}?color=white" in text
        assert f"{challenge['id']}?color=black" in text
    mine = next(c for c in lichess.challenges if "Th00" in c["users"])
    await until(lambda: any("on Lichess" in (m.get("content") or "")
                            for m in fake.direct_messages(first)))
    dm = next(m["content"] for m in fake.direct_messages(first) if "on Lichess" in m["content"])
    colour = "white" if mine["users"][0] == "Th00" else "black"
    other = "black" if colour == "white" else "white"
    assert f"{mine['id']}?color={colour}" in dm and f"?color={other}" not in dm
    assert f"**{colour}**" in dm
    assert fake.direct_messages(club.players[1]) == []  # not opted in
    assert fake.unhandled == []


async def test_a_no_show_on_lichess_is_claimed_by_the_player_there_and_becomes_a_forfeit(
        fake, start_swissbot, lichess: FakeLichess) -> None:
    """The opponent never opens the game on Lichess: the claimant, online there, claims it
    with /report noshow; the opponent is pinged with what Lichess shows, and after the
    objection time the game is the claimant's forfeit win."""
    from tests.e2e.test_timers import OffsetClock

    clock = OffsetClock()
    club = await _event_on_lichess(fake, start_swissbot, lichess, 2, "Empty Chair", "3+2",
                                   now=clock)
    await club.run(club.owner, "tournament start")
    await club.wait_post(lambda m: "your games on Lichess" in (m.get("content") or ""))
    [challenge] = lichess.challenges
    white = club.players[int(challenge["users"][0][2:])]
    black = club.players[int(challenge["users"][1][2:])]
    clock.advance(minutes=11)
    offline = _private(await club.run(white, "report", result="noshow"))
    assert "offline" in offline and f"{challenge['id']}?color=white" in offline
    lichess.accounts[challenge["users"][0].lower()].online = True
    assert "No-show claimed" in _private(await club.run(white, "report", result="noshow"))
    claim = await club.wait_post(lambda m: "did not show up" in text_of(m))
    assert {int(u["id"]) for u in claim["mentions"]} == {black.id}
    assert "On Lichess:" in text_of(claim) and "is offline" in text_of(claim)
    clock.advance(minutes=11)
    await club.wait_post(lambda m: "forfeit win for" in text_of(m), timeout=20)
    assert fake.unhandled == []


async def test_a_16_player_4_round_event_where_nobody_types_a_result(
        fake, start_swissbot, lichess: FakeLichess) -> None:
    """16 members link and join; each round's games are made on Lichess, played there, and
    their results read from Lichess: the organiser only pairs the rounds."""
    club = await _event_on_lichess(fake, start_swissbot, lichess, 16, "No Typing", "5+3")
    waits = []
    for number in range(1, 5):
        command = "tournament start" if number == 1 else "round next"
        await club.run(club.owner, command)
        made = 8 * number
        await club.wait_post(lambda m, made=made: len(lichess.challenges) >= made and (
            f"{lichess.challenges[made - 1]['id']}?color=black" in (m.get("content") or "")))
        for index, challenge in enumerate(lichess.challenges[made - 8:made]):
            lichess.play(challenge["id"], ("mate", "draw", "resign")[index % 3],
                         None if index % 3 == 1 else ("white", "black")[index % 2])
        ended = time.perf_counter()
        post = ("Final standings" if number == 4 else f"standings after round {number}")
        await club.wait_post(lambda m, post=post: post in text_of(m), timeout=20)
        waits.append(time.perf_counter() - ended)
    assert len(lichess.challenges) == 32
    assert len({frozenset(c["users"]) for c in lichess.challenges}) == 32  # no rematch
    print(f"\n16 players, 4 rounds: last game's end to the round's standings posted "
          f"{', '.join(f'{w:.2f} s' for w in waits)}")
    assert fake.unhandled == []


async def test_a_restart_while_making_200_games_makes_each_board_once(
        fake, start_swissbot, lichess: FakeLichess) -> None:
    """400 members (linked and joined through the service, to keep the test short): the bot
    stops while it makes the 200 boards' games and starts again on the same database; every
    board gets exactly one game and all the links are posted."""
    from service import Actor
    from storage import lichess as repo

    guild = fake.add_guild("Big Lichess Club")
    bot = await start_swissbot(settings={"lichess_url": lichess.url})
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Two Hundred", rounds=3)
    await club.run(club.owner, "lichess event", clock="3+2")
    for index in range(400):
        member = fake.add_member(guild, f"m{index:03d}")
        account = lichess.add_account(f"Big{index:03d}", perfs={"blitz": (1000 + index, 50,
                                                                            False)})
        async with bot.service.db.transaction() as conn:
            await repo.insert_link(conn, repo.LinkRow(guild.id, member.id, account.id,
                                                      account.username, "profile",
                                                      bot.service.now()))
        await bot.service.join(Actor(member.id, guild.id, member.display_name))
    lichess.delay = 0.01  # each game takes Lichess a moment
    await club.run(club.owner, "tournament start")
    while len(lichess.challenges) < 40:
        await asyncio.sleep(0.02)
    await bot.close()  # stopped in the middle of making the games ...
    made_before = len(lichess.challenges)
    assert made_before < 200
    await start_swissbot(settings={"lichess_url": lichess.url})  # ... and back
    last_seen = None
    for _ in range(600):
        if len(lichess.challenges) == 200:
            last_seen = lichess.challenges[-1]["id"]
            break
        await asyncio.sleep(0.1)
    assert last_seen is not None, len(lichess.challenges)
    await club.wait_post(lambda m: f"{last_seen}?color=black" in (m.get("content") or ""),
                         timeout=30)
    assert len({frozenset(c["users"]) for c in lichess.challenges}) == 200  # none twice
    links = "\n".join(m.get("content") or "" for m in club.posts())
    assert all(f"{c['id']}?color=white" in links for c in lichess.challenges)
    print(f"\n200 boards: {made_before} made before the restart, the rest after it")


async def test_creating_a_chess_event_tells_of_lichess_event(fake, guild, start_swissbot
                                                             ) -> None:
    """/tournament create's answer names /lichess event for a chess event (colours, chess
    scoring), not for a match-points one."""
    await start_swissbot()
    club = Club(fake, guild)
    chess = await club.run(club.owner, "tournament create", name="Club Rapid", rounds=5)
    assert "`/lichess event clock:3+2`" in text_of(chess)
    cards = await club.run(club.owner, "tournament create", name="Card Night", rounds=5,
                           scoring="match")
    assert "Created **Card Night**" in text_of(cards) and "/lichess" not in text_of(cards)


async def test_the_events_pgn_export_has_the_games_moves_from_lichess(
        fake, start_swissbot, lichess: FakeLichess) -> None:
    """A game played on the fake Lichess: its result is read, then /tournament export
    format:pgn gives it with swissbot's tags and Lichess's moves."""
    club = await _event_on_lichess(fake, start_swissbot, lichess, 2, "Pgn Club", "3+2")
    await club.run(club.owner, "tournament start")
    await club.wait_post(lambda m: "your games on Lichess" in (m.get("content") or ""))
    [challenge] = lichess.challenges
    lichess.play(challenge["id"], "mate", "white")
    await club.wait_post(lambda m: "standings after round 1" in text_of(m), timeout=20)
    reply = await club.run(club.players[1], "tournament export", format="pgn")
    assert reply["flags"] & EPHEMERAL
    (attachment,) = reply["attachments"]
    assert attachment["filename"] == "pgn-club.pgn"
    text = attachment["content"]
    assert '[Event "Pgn Club"]' in text and '[Round "1.1"]' in text
    assert f'[Site "https://lichess.org/{challenge["id"]}"]' in text
    assert '[Result "1-0"]' in text and "4. Qxf7# 1-0" in text
    assert fake.unhandled == []
