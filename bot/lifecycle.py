"""The bot's life cycle: what survives a restart (the answer to a command that a crash cut
short) and what notices a stop.

A slash command that pairs a round answers "thinking..." at once (Discord wants an answer
within 3 s) and its result when the round is paired. If the process dies in between, Discord
shows "thinking..." for good. The pairing run remembers the command's reply token
(:func:`deferred_reply`, kept in the run's row and deleted with it); at the next start the bot
edits that answer into what happened (:func:`answer_interrupted`), or, once the token has
expired (Discord keeps it 15 minutes), the service tells the event's channel instead.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import aiohttp
import discord

from bot.render.limits import fit_content
from service.views import DeferredReply, InterruptedPairing

log = logging.getLogger(__name__)

#: How long Discord accepts a follow-up or an edit of an interaction's answer.
INTERACTION_TOKEN_LIFETIME = timedelta(minutes=15)
#: A token this close to its end is not used: the edit would race its expiry.
TOKEN_MARGIN = timedelta(seconds=30)
#: Seconds one edit may take at start-up before the channel is told instead.
ANSWER_TIMEOUT = 10.0


def stopping(client: discord.Client) -> bool:
    """Whether the bot is shutting down: a loop of Discord calls (editing hundreds of prompts)
    stops there rather than run into the closed HTTP session; its next pass does the rest."""
    return bool(getattr(client, "shutting_down", False)) or client.is_closed()


def deferred_reply(interaction: discord.Interaction) -> DeferredReply | None:
    """The interaction's reply handle (None for an interaction that cannot be answered
    later: an autocomplete)."""
    if interaction.type is discord.InteractionType.autocomplete:
        return None
    return DeferredReply(application_id=interaction.application_id, token=interaction.token,
                         until=interaction.created_at + INTERACTION_TOKEN_LIFETIME)


async def answer_interrupted(client: discord.Client, run: InterruptedPairing) -> bool:
    """Edit the "thinking..." answer of the command that started ``run`` into its text.
    False when it cannot be (no command, the token expired or is refused, Discord is
    unreachable): the channel is told instead. The token is never logged."""
    reply = run.reply
    if reply is None or reply.until - TOKEN_MARGIN <= discord.utils.utcnow():
        return False
    webhook = discord.Webhook.partial(reply.application_id, reply.token, client=client)
    try:
        await asyncio.wait_for(webhook.edit_message(
            "@original",  # type: ignore[arg-type]  # the interaction's own answer
            content=fit_content(run.text), allowed_mentions=discord.AllowedMentions.none()),
            timeout=ANSWER_TIMEOUT)
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
        log.warning("cannot answer the command that paired round %d of tournament %d (%s); "
                    "telling its channel instead", run.round_number, run.tournament_id,
                    type(exc).__name__)
        return False
    except Exception:  # never stop the start-up for it: the channel is told instead
        log.exception("answering the command that paired round %d of tournament %d failed",
                      run.round_number, run.tournament_id)
        return False
    log.info("told the organiser that round %d of tournament %d was interrupted",
             run.round_number, run.tournament_id)
    return True
