"""Delivery of issue 16's outbox kinds: game threads (open, add the players, post the pairing
with the result buttons; archive once the result is final) and direct messages.

Called by :class:`bot.delivery.OutboxDelivery` for the rows of kind ``game_thread`` and
``dm_*`` (the other kinds are posted as before). Exactly once across restarts: a thread's id is
stored the moment it exists (:meth:`service.NotifyOps.remember_thread`), so a retried row
reuses it; adding a member is idempotent; the pairing message carries the row's nonce.
What is left: a crash between Discord creating the thread and the database storing its id (a
few milliseconds) leaves one orphan thread, and the retry opens another.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.lifecycle import stopping
from bot.nonces import nonce_for
from bot.render.notify import (
    dm_message,
    dm_prompt_buttons,
    lichess_thread,
    report_prompt_buttons,
    result_buttons,
    thread_name,
    thread_opening,
)
from bot.render.tournament import prompt_closed
from service import ALL_SHARDS, Shards
from service.notify import DM_KINDS

log = logging.getLogger(__name__)

# Discord's JSON error codes.
UNKNOWN_MEMBER = 10007
UNKNOWN_USER = 10013
CANNOT_DM = 50007
WRONG_CHANNEL_TYPE = 50024  # e.g. a private thread where the server cannot have them
MAX_THREADS = (160006, 160007)  # active threads / active announcement threads
THREAD_KINDS = ("game_thread", "lichess_thread")
ARCHIVE_AFTER_MINUTES = 1440


def handles(kind: str) -> bool:
    return kind in THREAD_KINDS or kind in DM_KINDS


def thread_permission_problem(channel: discord.abc.GuildChannel) -> tuple[str | None, bool]:
    """(problem, private): what keeps the bot from opening game threads in ``channel`` (None
    when it can), and whether they will be private (public when it may only create those)."""
    me = channel.guild.me
    perms = channel.permissions_for(me)
    where = f"#{channel.name}"
    if not perms.send_messages_in_threads:
        return f"missing Send Messages in Threads in {where}", False
    if perms.create_private_threads:
        return None, True
    if perms.create_public_threads:
        return None, False
    return f"missing Create Private Threads (and Create Public Threads) in {where}", False


async def deliver(delivery: Any, row: Any) -> bool:
    """Deliver one row of an issue-16 kind; True when it is done (delivered or settled)."""
    if row.kind in DM_KINDS:
        return await _deliver_dm(delivery, row)
    if row.kind == "lichess_thread":
        return await _deliver_lichess_links(delivery, row)
    return await _deliver_thread(delivery, row)


async def _deliver_lichess_links(delivery: Any, row: Any) -> bool:
    """The links of a board's Lichess game in its thread. Queued after the board's
    ``game_thread`` row in the same channel, so the thread is open (or known not to be) by
    now; a board without a thread has its links in the channel's post anyway."""
    stored = await delivery.service.game_thread(int(row.payload["game_id"]))
    if stored is None or stored.thread_id is None:
        return await _done(delivery, row)
    client = delivery.client
    try:
        thread = client.get_channel(stored.thread_id) or await client.fetch_channel(
            stored.thread_id)
        await thread.send(**lichess_thread(row.payload).send_kwargs(),
                          nonce=nonce_for(row.id, 0))
    except (discord.NotFound, discord.Forbidden):
        pass  # the thread was deleted or closed to the bot: the channel post has the links
    return await _done(delivery, row)


async def _deliver_thread(delivery: Any, row: Any) -> bool:
    service = delivery.service
    game = row.payload["game"]
    stored = await service.game_thread(int(game["id"]))
    if stored is not None and stored.thread_id is None:
        # the problem was recorded (and the organisers told) on an earlier attempt
        return await _done(delivery, row)
    parent = await delivery._channel(row.channel_id)
    thread: Any
    if stored is not None and stored.thread_id is not None:
        client = delivery.client
        thread = client.get_channel(stored.thread_id) or await client.fetch_channel(
            stored.thread_id)
    else:
        if not isinstance(parent, discord.TextChannel):
            return await _problem(delivery, row, f"#{getattr(parent, 'name', parent.id)} "
                                  "cannot have threads")
        problem, private = thread_permission_problem(parent)
        if problem is not None:
            return await _problem(delivery, row, problem)
        try:
            thread = await _create(parent, row.payload, private)
        except discord.Forbidden:
            missing = "Create Private Threads" if private else "Create Public Threads"
            return await _problem(delivery, row, f"missing {missing} in #{parent.name}")
        except discord.HTTPException as exc:
            if exc.code in MAX_THREADS:
                return await _problem(
                    delivery, row, "the server has reached Discord's limit of active threads "
                    "(archive some threads)")
            raise  # rate limits and server errors: the delivery retries
        if not await service.remember_thread(row.id, thread.id, private=thread.type
                                             == discord.ChannelType.private_thread):
            # another attempt stored one first: use it (this one is left empty)
            stored = await service.game_thread(int(game["id"]))
            if stored is not None and stored.thread_id is not None:
                thread = await delivery.client.fetch_channel(stored.thread_id)
    gone: list[str] = []
    for side in ("white", "black"):
        user_id = game[side].get("user_id")
        if not user_id:
            continue  # a guest: nobody to add
        try:
            await thread.add_user(discord.Object(int(user_id)))
        except discord.NotFound as exc:
            if exc.code not in (UNKNOWN_MEMBER, UNKNOWN_USER):
                raise
            gone.append(str(game[side].get("name", user_id)))
        except discord.Forbidden:
            return await _problem(delivery, row,
                                  f"missing Send Messages in Threads in #{parent.name}")
    if gone:
        # the thread still serves the other player; the organisers hear why it is one-sided
        await service.thread_problem(
            row.id, f"{', '.join(n[:32] for n in gone)} left the server (board "
            f"{game.get('board')})")
    outgoing = thread_opening(row.payload)
    white = str(game["white"].get("name", "White"))
    black = str(game["black"].get("name", "Black"))
    try:
        await thread.send(**outgoing.send_kwargs(), nonce=nonce_for(row.id, 0),
                          view=result_buttons(int(game["id"]), white, black,
                                              colours=row.payload.get("use_colours", True)))
    except discord.Forbidden:
        # revoked since the check: the pairing is in the channel; retrying would hold the
        # channel's later announcements behind this thread
        return await _problem(delivery, row,
                              f"missing Send Messages in Threads in #{parent.name}")
    return await _done(delivery, row)


async def _create(parent: discord.TextChannel, payload: dict[str, Any], private: bool) -> Any:
    name = thread_name(payload)
    if private:
        try:
            return await parent.create_thread(
                name=name, type=discord.ChannelType.private_thread, invitable=False,
                auto_archive_duration=ARCHIVE_AFTER_MINUTES,  # type: ignore[arg-type]
                reason="swissbot: game thread")
        except discord.HTTPException as exc:
            if exc.code != WRONG_CHANNEL_TYPE or isinstance(exc, discord.Forbidden):
                raise
            # no private threads in this server: a public one still gathers the game
    return await parent.create_thread(
        name=name, type=discord.ChannelType.public_thread,
        auto_archive_duration=ARCHIVE_AFTER_MINUTES,  # type: ignore[arg-type]
        reason="swissbot: game thread")


async def _problem(delivery: Any, row: Any, problem: str) -> bool:
    """No thread for this board: the pairing is in the channel anyway; the organisers are told
    once per round (a ``thread_problem`` notice in the channel, and the audit log)."""
    log.info("game thread of announcement %s not opened: %s", row.id, problem)
    if await delivery.service.thread_problem(row.id, problem):
        delivery.wake()  # post the notice now
    return await _done(delivery, row)


async def _done(delivery: Any, row: Any) -> bool:
    if await delivery.service.mark_delivered(row.id):
        delivery.delivered += 1
    return True


async def _deliver_dm(delivery: Any, row: Any) -> bool:
    user_id = int(row.payload["user_id"])
    outgoing, view = dm_message(row.kind, row.payload)
    client = delivery.client
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        kwargs = outgoing.send_kwargs()
        if view is not None:
            kwargs["view"] = view
        sent = await user.send(**kwargs, nonce=nonce_for(row.id, 0))
    except discord.NotFound:
        await delivery.service.give_up_announcement(row.id, "the user no longer exists")
        return False
    except discord.Forbidden as exc:
        if exc.code != CANNOT_DM:
            raise
        # closed DMs: remembered, never retried; the player is told once in the channel
        if await delivery.service.dm_refused(row.id):
            delivery.wake()
        return False
    if view is not None and sent is not None:
        # remembered so that its buttons can be disabled once the result is settled
        await delivery.service.remember_posted(row.id, sent.channel.id, sent.id)
    return await _done(delivery, row)


async def close_settled_dm_prompts(
    client: discord.Client, service: Any, shards: Shards = ALL_SHARDS
) -> int:
    """Disable the Confirm / Dispute buttons of the prompts sent by DM whose result was
    settled another way (an answer in the server, /result set, a deadline, a forced round,
    an undo), by editing the DM. Returns how many were closed."""
    closed = 0
    try:
        prompts = await service.settled_dm_prompts(shards)
    except Exception:
        log.warning("cannot list the settled DM prompts", exc_info=True)
        return 0
    for prompt in prompts:
        if stopping(client):
            break  # the session closes next; the next pass does the rest
        try:
            channel = client.get_partial_messageable(
                prompt.channel_id, type=discord.ChannelType.private)
            await channel.get_partial_message(prompt.message_id).edit(
                content=prompt_closed(prompt.game),
                view=dm_prompt_buttons(prompt.guild_id, prompt.game_id, disabled=True),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted, or the DM is closed: nothing left to disable
        except Exception:
            log.warning("cannot close the DM prompt of game %s; retrying later",
                        prompt.game_id, exc_info=True)
            continue
        if await service.close_dm_prompt(prompt.announcement_id):
            closed += 1
    return closed


async def archive_settled_threads(
    client: discord.Client, service: Any, shards: Shards = ALL_SHARDS
) -> int:
    """Archive (and lock, where the bot has Manage Threads) the threads of final results and
    of undone rounds, in the guilds of ``shards``. Idempotent: a thread already archived is
    simply marked. Returns how many were archived."""
    done = 0
    try:
        threads = await service.threads_to_archive()
    except Exception:
        log.warning("cannot list the game threads to archive", exc_info=True)
        return 0
    for view in threads:
        if stopping(client):
            break  # the session closes next; the next pass does the rest
        if not shards.owns(view.guild_id):
            continue  # another process's guild
        try:
            thread: Any = client.get_channel(view.thread_id) or await client.fetch_channel(
                view.thread_id)
            try:
                await thread.edit(archived=True, locked=True)
            except discord.Forbidden:
                await thread.edit(archived=True)  # locking needs Manage Threads
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted, or no longer ours: nothing left to archive
        except Exception:
            log.warning("cannot archive the thread of game %s; retrying later", view.game_id,
                        exc_info=True)
            continue
        if await service.thread_archived(view.game_id):
            done += 1
    return done


async def close_settled_channel_prompts(
    client: discord.Client, service: Any, shards: Shards = ALL_SHARDS
) -> int:
    """Disable the Confirm / Dispute buttons of the report prompts in channels whose result
    was settled in the background (a deadline action, a no-show expiry, an automatic round
    that closed open games); the commands do it themselves for what they settle."""
    closed = 0
    try:
        prompts = await service.settled_prompts(None, shards)
    except Exception:
        log.warning("cannot list the settled report prompts", exc_info=True)
        return 0
    for prompt in prompts:
        if stopping(client):
            break  # the session closes next; the next pass does the rest
        try:
            channel = client.get_partial_messageable(prompt.channel_id)
            await channel.get_partial_message(prompt.message_id).edit(
                content=prompt_closed(prompt.game),
                view=report_prompt_buttons(prompt.game_id, disabled=True),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted, or no longer ours to edit: nothing left to disable
        except Exception:
            log.warning("cannot close the report prompt of game %s; retrying later",
                        prompt.game_id, exc_info=True)
            continue
        if await service.close_prompt(prompt.guild_id, prompt.game_id):
            closed += 1
    return closed
