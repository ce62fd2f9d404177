"""Big announcements are rendered in a worker process, into the very messages the event loop
would have made (issue 13: a render in a thread held the GIL ~100 ms per big post).

Compared on everything that reaches Discord: content, embeds (as Discord's JSON), attached
files, who may be pinged, buttons. Both the pool's own path and the delivery's are checked,
and the fallback when the worker is gone.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import discord
import pytest

from bot.delivery import PARSE_IN_PROCESS_FROM, RENDER_IN_PROCESS_FROM, OutboxDelivery
from bot.render.announcements import render_announcement
from bot.render.message import Outgoing
from bot.render.offload import RenderPool
from service.views import Announcement

BOARDS = RENDER_IN_PROCESS_FROM + 60
CHANNEL_ID = 77


def _seat(number: int) -> dict[str, Any]:
    # members (pinged) and guests, names with markdown and a would-be mass ping
    user = 10_000 + number if number % 3 else None
    return {"player_id": number, "number": number, "name": f"P{number} *@everyone_",
            "user_id": user}


def pairings_payload(boards: int = BOARDS) -> dict[str, Any]:
    return {
        "tournament": {"id": 1, "name": "Big **Open**"}, "number": 4, "total_rounds": 9,
        "state": "playing", "use_colours": True, "deadline": "2026-11-24T20:00:00+00:00",
        "games": [{"id": b, "round": 4, "board": b, "white": _seat(2 * b - 1),
                   "black": _seat(2 * b)} for b in range(1, boards + 1)],
        "byes": [{"player": _seat(2 * boards + 1), "kind": "pairing", "points": "1"}],
    }


def standings_payload(rows: int = BOARDS) -> dict[str, Any]:
    return {
        "tournament": {"id": 1, "name": "Big Open"}, "after_round": 4, "total_rounds": 9,
        "final": False, "tiebreaks": ["Buchholz"],
        "rows": [{"rank": r, "player_id": r, "number": r, "name": f"P{r}",
                  "user_id": 10_000 + r, "points": str(9 - r // 40), "values": [str(r % 17)],
                  "withdrawn": False} for r in range(1, rows + 1)],
    }


def sent(messages: list[Outgoing]) -> list[dict[str, Any]]:
    """What Discord would receive of each message."""
    return [{"content": m.content, "embeds": [e.to_dict() for e in m.embeds],
             "files": [(f.filename, getattr(f, "text", None)) for f in m.files],
             "users": m.mention_users, "roles": m.mention_roles, "buttons": m.buttons}
            for m in messages]


@pytest.fixture
async def pool() -> Any:
    renderer = RenderPool()
    try:
        yield renderer
    finally:
        renderer.close()


@pytest.mark.parametrize("kind", ["pairings", "round_results", "standings", "final_standings"])
async def test_the_worker_renders_the_same_messages_as_the_event_loop(
    pool: RenderPool, kind: str
) -> None:
    payload = standings_payload() if "standings" in kind else pairings_payload()
    if kind == "final_standings":
        payload["final"] = True
    inline = render_announcement(kind, payload)
    # a big post: several messages, or the whole table attached
    assert len(inline) > 1 or any(m.files for m in inline)
    offloaded = await pool.render(kind, payload)
    assert pool.in_process == 1 and pool.in_thread == 0
    assert sent(offloaded) == sent(inline)


async def test_a_dead_worker_falls_back_to_a_thread_then_is_replaced(pool: RenderPool) -> None:
    payload = pairings_payload()
    await pool.warm_up()
    executor = pool._executor
    assert executor is not None
    for pid in list(executor._processes):  # type: ignore[union-attr]
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.2)
    first = await pool.render("pairings", payload)
    assert pool.in_thread == 1
    assert sent(first) == sent(render_announcement("pairings", payload))
    second = await pool.render("pairings", payload)  # a new worker
    assert pool.in_process == 1
    assert sent(second) == sent(first)


async def test_renderer_errors_pass_through(pool: RenderPool) -> None:
    with pytest.raises(KeyError):
        await pool.render("pairings", {"games": [{"board": b} for b in range(BOARDS)]})


class RecordingChannel(discord.abc.Messageable):
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> None:  # type: ignore[override]
        self.sent.append(kwargs)


class Client:
    def __init__(self, channel: RecordingChannel) -> None:
        self.channel = channel

    def get_channel(self, channel_id: int) -> RecordingChannel | None:
        return self.channel if channel_id == CHANNEL_ID else None

    def get_guild(self, guild_id: int) -> None:
        return None  # not in the cache: the post is in the language it was queued with


class Service:
    """What the delivery asks of the service for one pairings row (no live page)."""

    async def mark_delivered(self, announcement_id: int) -> bool:
        return True


def _posted(channel: RecordingChannel) -> list[dict[str, Any]]:
    return [{"content": k.get("content"), "embeds": [e.to_dict() for e in k.get("embeds", [])],
             "files": [f.filename for f in k.get("files", [])],
             "mentions": k["allowed_mentions"].to_dict()} for k in channel.sent]


@pytest.mark.parametrize("boards", [RENDER_IN_PROCESS_FROM - 1, BOARDS])
async def test_the_delivery_posts_the_same_whichever_renders(boards: int) -> None:
    """Below the threshold the delivery renders in the event loop, from it in the worker:
    what is posted is the same as rendering inline."""
    payload = pairings_payload(boards)
    row = Announcement(id=5, guild_id=1, channel_id=CHANNEL_ID, tournament_id=None,
                       kind="pairings", payload=payload, created_at=None)  # type: ignore[arg-type]
    channel = RecordingChannel()
    delivery = OutboxDelivery(Client(channel), Service())  # type: ignore[arg-type]
    try:
        assert await delivery._deliver(row)
    finally:
        delivery.renderer.close()
    expected = RecordingChannel()
    for outgoing in render_announcement("pairings", payload):
        await expected.send(**outgoing.send_kwargs())
    assert _posted(channel) == _posted(expected)
    assert delivery.renderer.in_process == (1 if boards >= RENDER_IN_PROCESS_FROM else 0)


async def test_the_render_worker_runs_at_a_lower_cpu_priority_than_the_bot(
        pool: RenderPool) -> None:
    from service.workers import WORKER_NICE

    await pool.warm_up()
    pids = pool.worker_pids()
    assert len(pids) == 1
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, pids[0]) == min(19, ours + WORKER_NICE)


async def test_a_payload_claimed_as_text_is_parsed_and_rendered_in_the_worker() -> None:
    """A big round's pairings claimed unparsed (``payload_text``): the worker parses and
    renders it; what is posted is the same as rendering the parsed payload inline, and the
    payload's other fields (``replaces``) still reach the delivery."""
    payload = pairings_payload(2 * BOARDS)
    text = json.dumps(payload)
    assert len(text) >= PARSE_IN_PROCESS_FROM
    row = Announcement(id=5, guild_id=1, channel_id=CHANNEL_ID, tournament_id=None,
                       kind="pairings", payload={}, created_at=None,  # type: ignore[arg-type]
                       payload_text=text)
    channel = RecordingChannel()
    delivery = OutboxDelivery(Client(channel), Service())  # type: ignore[arg-type]
    try:
        assert await delivery._deliver(row)
        _messages, head = await delivery.renderer.render_text(
            "pairings", json.dumps({**payload, "replaces": 4}))
    finally:
        delivery.renderer.close()
    expected = RecordingChannel()
    for outgoing in render_announcement("pairings", payload):
        await expected.send(**outgoing.send_kwargs())
    assert _posted(channel) == _posted(expected)
    assert delivery.renderer.in_process == 2 and delivery.renderer.in_thread == 0
    assert head["replaces"] == 4 and "games" not in head
    assert head == {k: v for k, v in payload.items() if k != "games"} | {"replaces": 4}
