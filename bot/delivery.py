"""Deliver the outbox: the announcements the service queued, posted to their channels.

The service writes announcements (pairings, results, standings, disputes...) to the outbox
in the same transaction as the change they announce. This background task posts them:

* in order per channel: a failed announcement keeps its retry time in the outbox and holds
  back its channel's later announcements until it is posted or given up, whichever process
  claims them and across restarts (the claim itself keeps the order: ``storage.journal``);
* with retries: rate limits wait ``retry_after``, other Discord errors back off exponentially
  (2 s, 4 s, ... capped at 5 minutes) and are recorded on the row;
* bounded: after ``max_attempts`` failed attempts (about 14 minutes of back-off with the
  default 10), or at once on an error retrying cannot fix (the channel was deleted, the bot
  cannot see it: 404 10003 / 403 50001, no channel at all), the row is given up: kept
  undelivered with the reason, audited (``announcement.abandoned``), shown by
  ``/tournament info``, and the organiser is told once per event and reason. A given-up row
  no longer holds back its channel's later announcements;
* exactly once: a row is marked delivered once all its messages are posted, and every message
  carries a nonce derived from the row id with ``enforce_nonce``, so if the bot dies between
  posting and marking, Discord returns the earlier message instead of posting a duplicate;
* on restart it resumes at once: undelivered rows are still in the outbox, and the rows its
  killed predecessor had claimed are taken back at start (``bot.leases``);
* across processes (several bot processes on one database): each pass CLAIMS a few rows with
  a short lease (``service.claim_announcements``), renewed while the process runs, so two
  processes never post the same row at the same time; the rows of a process that died are
  taken over within one lease (10 s by default), or at once when its lock shows it is dead,
  and posted again with the same nonces (Discord returns the earlier message). With shards, a
  process claims the rows of the guilds on its shards, plus those of shards no live process
  serves (posting is REST: any process can), and runs only its own shards' timers,
  auto-advances and check-in reminders.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from datetime import timedelta
from typing import Any

import discord

from bot import metrics, notify
from bot.leases import LeaseKeeper
from bot.nonces import nonce_for
from bot.permissions import forbidden_problem, missing_permissions
from bot.render.announcements import render_announcement
from bot.render.bracket import bracket_png
from bot.render.format import plain
from bot.render.limits import fit_content
from bot.render.message import BinaryFile, Outgoing
from bot.render.offload import RenderPool
from bot.web.links import live_page_url, live_pages_on
from i18n import N_, _, in_words
from service import ALL_SHARDS, Actor, Shards

log = logging.getLogger(__name__)

__all__ = ["OutboxDelivery", "backoff", "nonce_for"]

MAX_BACKOFF_SECONDS = 300.0
# Failed attempts before an announcement is given up: 2+4+...+256+300 s, about 14 minutes for
# an admin to restore a permission (the organiser is told at the first refusal).
MAX_ATTEMPTS = 10
# How long stop() lets the pass in progress finish (one announcement, or one auto-advance).
STOP_TIMEOUT_SECONDS = 3.0
# Rows claimed per batch: small, so a lease covers the whole batch comfortably.
CLAIM_BATCH = 20
# Batches per pass at most (the loop comes back at once when woken).
MAX_BATCHES = 5
#: The default lease of a claimed announcement (SWISSBOT_OUTBOX_LEASE_SECONDS), renewed
#: every third of it while the process runs.
LEASE_SECONDS = 10.0


#: The wait after the first failure (SWISSBOT_DELIVERY_RETRY_SECONDS); each later one doubles it.
FIRST_RETRY_SECONDS = 2.0


def backoff(attempts: int, first: float = FIRST_RETRY_SECONDS) -> float:
    """Seconds to wait after the ``attempts``-th failure: ``first``, then twice as long each
    time, at most :data:`MAX_BACKOFF_SECONDS`."""
    return min(MAX_BACKOFF_SECONDS, first * 2.0 ** (max(1, attempts) - 1))


class OutboxDelivery:
    """The delivery loop. ``wake()`` after a command queued something to post it at once."""

    def __init__(
        self,
        client: discord.Client,
        service: Any,
        *,
        interval: float = 2.0,
        lease_seconds: float = LEASE_SECONDS,
        shards: Shards = ALL_SHARDS,
        max_attempts: int = MAX_ATTEMPTS,
        first_retry_seconds: float = FIRST_RETRY_SECONDS,
    ) -> None:
        self.client = client
        self.first_retry_seconds = first_retry_seconds
        self.max_attempts = max(1, max_attempts)
        self.service = service
        self.interval = interval
        self.lease_seconds = lease_seconds
        self.shards = shards
        self.leases = LeaseKeeper(service, lease_seconds=lease_seconds, shards=shards)
        self.delivered = 0
        self.failures = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._stopping = False
        self._passing = False  # a pass is running (stop() lets it finish its announcement)
        self._commands: dict[int, discord.Interaction] = {}  # guild -> last command that posted
        # (guild, tournament, reason) already told as given up: one message per event and
        # reason, not one per announcement (a deleted channel gives up every row of it)
        self._told_given_up: set[tuple[int, int | None, str]] = set()
        self._given_up_now: set[int] = set()
        self.renderer = RenderPool()  # big posts are rendered in its worker process

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="swissbot-outbox")

    async def stop(self, timeout: float = STOP_TIMEOUT_SECONDS) -> None:
        """Let the pass in progress finish its current announcement (so no transaction is cut
        in half and nothing posted stays unmarked), then end the loop. Cancels the pass only if
        that takes longer than ``timeout`` seconds; the loop at once when no pass runs."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        if self._passing:  # let it finish its announcement, for up to ``timeout`` seconds
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), timeout=timeout)
            if not task.done():
                log.warning("the outbox pass did not finish within %ss: cancelling it", timeout)
        # Between passes it waits for the gateway or for work: nothing to cut in half.
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        self.renderer.close()
        # What we claimed and did not post goes back at once (another process, or our next
        # start, takes it without waiting for the leases to expire).
        await self.leases.stop()

    @property
    def claimant(self) -> str:
        """This process's name on the rows it claims."""
        return self.leases.claimant

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        # before the gateway is ready: a restart takes back its predecessor's rows at once
        await self.leases.start()
        await self.client.wait_until_ready()
        while not self._stopping and not self.client.is_closed():
            # Clear before the pass, not after: a command that queues an announcement and
            # calls wake() while this pass runs must trigger another pass at once, not wait
            # for the next interval (clearing afterwards lost that wake-up).
            self._wake.clear()
            self._passing = True
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                # The loop must survive anything (a database hiccup, a bug in one renderer).
                log.exception("the outbox delivery pass failed; retrying in %ss", self.interval)
            finally:
                self._passing = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.interval)

    async def tick(self) -> None:
        """One pass: pair rounds whose auto-advance is due, run the due stored timers
        (reminders, deadline actions, no-show expiries, scheduled rounds), then deliver the
        outbox (which holds what both of them announced)."""
        if self._stopping:
            return
        settled = False  # did a background pass settle results (prompts to disable)?
        try:
            paired = await self.service.run_auto_advances(shards=self.shards)
        except Exception:
            log.exception("the auto-advance pass failed")
        else:
            settled = bool(paired)
            for view in paired:
                log.info("auto-advanced %s to round %d", view.tournament_name, view.number)
        try:
            run = await self.service.run_timers(shards=self.shards)
        except Exception:
            log.exception("the timer pass failed")
        else:
            settled = settled or bool(run.fired)
            for line in run.fired:
                log.info("timer fired: %s", line)
        try:
            await self.service.run_checkin_reminders(shards=self.shards)
        except Exception:
            log.exception("the check-in reminder pass failed")
        retention = getattr(self.service, "run_retention", None)
        if retention is not None:
            try:  # events past their server's retention: the last export, then the deletion
                await retention(shards=self.shards)
            except Exception:
                log.exception("the retention pass failed")
        complete = getattr(self.service, "complete_announcements", None)
        if complete is not None:
            try:  # standings deferred by a process that stopped (service.deferred)
                await complete(older_than=DEFERRED_GRACE)
            except Exception:
                log.exception("completing the deferred standings failed")
        await self.deliver_due()
        if not self._stopping:
            # game threads whose result became final (issue 16): archive them
            await notify.archive_settled_threads(self.client, self.service, self.shards)
            # DM prompts whose result was settled another way: disable their buttons
            await notify.close_settled_dm_prompts(self.client, self.service, self.shards)
            if settled:  # and the channel prompts of what the timers settled
                await notify.close_settled_channel_prompts(self.client, self.service,
                                                           self.shards)

    async def deliver_due(self) -> int:
        """Claim and deliver the due announcements now; returns how many were delivered."""
        async with self._lock:
            delivered = 0
            for _ in range(MAX_BATCHES):
                done, claimed = await self._deliver_batch()
                delivered += done
                if self._stopping or done == 0 or claimed < CLAIM_BATCH:
                    break
            return delivered

    async def _deliver_batch(self) -> tuple[int, int]:
        """One claim and its deliveries: (delivered, claimed)."""
        started = asyncio.get_running_loop().time()
        rows = await self.service.claim_announcements(
            self.claimant, limit=CLAIM_BATCH, lease_seconds=self.lease_seconds,
            shards=self.shards, unparsed_from=PARSE_IN_PROCESS_FROM,
        )
        # Measured on our clock, not the database's: the lease ends at the latest then.
        self.leases.claimed(started)
        delivered = 0
        waiting: set[int] = set()  # channels whose earlier row failed in this batch
        skipped: list[int] = []
        for index, row in enumerate(rows):
            if self._stopping:
                break  # shutting down: stop() releases the rest for the next start
            if not self.leases.may_start():
                # The lease is running out (the renewals failed): give the rest back rather
                # than post them after another process may have taken them.
                skipped += [r.id for r in rows[index:]]
                break
            if row.channel_id is not None and row.channel_id in waiting:
                skipped.append(row.id)  # behind a failed row: the claim keeps it waiting
                continue
            if await self._deliver(row):
                delivered += 1
                metrics.delivered()
            elif row.id in self._given_up_now:
                # nothing to keep in order behind a row that will never be posted
                self._given_up_now.discard(row.id)
            elif row.channel_id is not None:
                waiting.add(row.channel_id)
        if skipped:
            await self.service.release_announcements(self.claimant, skipped)
        return delivered, len(rows)

    async def _deliver(self, row: Any) -> bool:
        try:
            if row.payload_text is not None and (notify.handles(row.kind)
                                                 or row.kind in PARSED_HERE):
                row = dataclasses.replace(row, payload=json.loads(row.payload_text),
                                          payload_text=None)
            if notify.handles(row.kind):  # game threads and direct messages (issue 16)
                return await notify.deliver(self, row)
            channel = await self._channel(row.channel_id)
            organiser_role = owner = None
            # an outbox row queued before the server chose a language: its Discord locale
            server = self.client.get_guild(row.guild_id)
            language = None if server is None else str(server.preferred_locale)
            if row.kind == "dispute":
                settings = await self.service.get_guild_settings(row.guild_id)
                organiser_role = settings.organiser_role_id
                guild = self.client.get_guild(row.guild_id)
                owner = guild.owner_id if guild is not None else None  # pinged when no role
            if row.payload_text is not None:
                # 600 kB of JSON (a big round's pairings): parsed in the worker with the
                # render (tens of ms in the event loop); what else is needed of the payload
                # comes back without its boards
                messages, head = await self.renderer.render_text(
                    row.kind, row.payload_text, organiser_role_id=organiser_role,
                    owner_id=owner, language=language)
                row = dataclasses.replace(row, payload=head, payload_text=None)
            elif _big(row.payload):
                # a big round's pairings or a big table: 30-100 ms and more of formatting
                # and paginating, in a worker process (a thread would hold the GIL that long
                # in slices, and every guild's commands would wait for it)
                messages = await self.renderer.render(
                    row.kind, row.payload, organiser_role_id=organiser_role, owner_id=owner,
                    language=language)
            else:
                messages = render_announcement(row.kind, row.payload,
                                               organiser_role_id=organiser_role, owner_id=owner,
                                               language=language)
            if row.kind == "bracket" and messages:
                # drawing is slow and blocking: in a worker thread, off the event loop
                picture = await asyncio.to_thread(bracket_png, row.payload)
                if picture is not None:
                    messages[0].files.append(picture)
            if row.kind == "pairings" and row.tournament_id is not None:
                messages = await self._with_live_link(row, messages)
            if row.kind in ("standings", "final_standings") and row.payload.get("pictures"):
                messages = await self._with_picture(row, messages)
            first = 0
            replaces = row.payload.get("replaces")
            if replaces is not None and messages:
                first = await self._replace(row, int(replaces), messages[0])
            for part, outgoing in enumerate(messages):
                if part < first:
                    continue
                sent = await channel.send(**outgoing.send_kwargs(), nonce=nonce_for(row.id, part))
                if part == 0 and row.kind in EDITED_LATER and sent is not None:
                    await self.service.remember_posted(row.id, sent.channel.id, sent.id)
        except discord.RateLimited as exc:
            # Discord says when to come back: not a failure of the row, never given up for it
            await self._failed(row, f"rate limited for {exc.retry_after:.1f}s", exc.retry_after,
                               bounded=False)
            return False
        except discord.Forbidden as exc:
            if exc.code == MISSING_ACCESS:
                # the bot cannot even see the channel (hidden from it, or another server's)
                await self._give_up(row, f"I cannot see the channel <#{row.channel_id}> "
                                    "(Missing Access)")
                return False
            # The permissions changed after the cog's check: retry for a while (an admin may
            # fix them) and tell the organisers once which permission is missing where.
            await self._forbidden(row, exc)
            return False
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self._give_up(row, "the channel was deleted")
                return False
            await self._failed(row, f"HTTP {exc.status}: {exc.text or exc}",
                               self._backoff(row))
            return False
        except discord.HTTPException as exc:
            wait = self._backoff(row)
            await self._failed(row, f"HTTP {exc.status}: {exc.text or exc}", wait)
            return False
        except _NoChannel as exc:
            # the row's channel is fixed when it is queued: no retry can give it one
            await self._give_up(row, str(exc))
            return False
        except Exception as exc:
            log.exception("cannot deliver announcement %s (%s)", row.id, row.kind)
            await self._failed(row, f"{type(exc).__name__}: {exc}", MAX_BACKOFF_SECONDS)
            return False
        if await self.service.mark_delivered(row.id):
            self.delivered += 1
        return True

    async def _replace(self, row: Any, replaced: int, outgoing: Outgoing) -> int:
        """Edit the message of announcement ``replaced`` (the "Pairing round 4..." line) into
        this announcement's first message; returns how many messages that covered (0: the
        line was never posted or is gone, so post everything).

        Discord notifies nobody of a mention added by an edit and cannot add attachments to
        one here: a first message that pings players or carries a file is posted anew, and
        the line becomes its one-line header ("Round 4 of X is paired.")."""
        posted = await self.service.posted_message(replaced)
        if posted is None:
            return 0
        channel_id, message_id = posted
        channel = await self._channel(channel_id)
        get = getattr(channel, "get_partial_message", None)
        if get is None:
            return 0
        whole = not outgoing.mention_users and not outgoing.mention_roles and not outgoing.files
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if whole:
            kwargs["content"] = outgoing.content or None
            kwargs["embeds"] = list(outgoing.embeds)
        else:
            header = outgoing.content or "The pairings are ready."
            kwargs["content"] = header.splitlines()[0] + " ⬇️"
            kwargs["embeds"] = []
        try:
            await get(message_id).edit(**kwargs)
        except discord.NotFound:
            return 0  # someone deleted the line: the post simply comes as new messages
        return 1 if whole else 0

    async def _with_picture(self, row: Any, messages: list[Outgoing]) -> list[Outgoing]:
        """The standings post carries a PNG of the table (the tournament's ``pictures``
        setting). Drawn from the payload alone, so a retry draws the same picture; when it
        cannot be drawn the text goes out without it (the text has everything)."""
        from bot.pictures import PictureError, render
        from bot.pictures.tables import standings_png
        from bot.render.announcements import standings_from_payload

        name = (row.payload.get("tournament") or {}).get("name", "")
        guild = self.client.get_guild(row.guild_id)
        try:
            png = await render(standings_png, standings_from_payload(row.payload, name),
                               server=guild.name if guild is not None else "", top=10)
        except PictureError as exc:
            log.warning("standings picture of announcement %s left out: %s", row.id, exc)
            return messages
        picture = BinaryFile(f"standings-round-{row.payload.get('after_round', 0)}.png", png)
        if messages and len(messages[0].files) < 10:  # Discord: 10 attachments per message
            messages[0].files.append(picture)
            return messages
        return [*messages, Outgoing(files=[picture])]

    async def _with_live_link(self, row: Any, messages: list[Outgoing]) -> list[Outgoing]:
        """Round posts link to the event's live page when the bot serves one (the token is
        made once and stored, so a retried post links to the same page)."""
        if not live_pages_on(self.client):
            return messages
        system = Actor(user_id=0, guild_id=row.guild_id, display_name="swissbot")
        token = await self.service.web_link(system, row.tournament_id)
        url = live_page_url(self.client, token)
        line = f"🌐 Live page: <{url}>"
        last = messages[-1] if messages else None
        if last is not None and not last.files and len(last.content) + len(line) + 1 <= 2000:
            last.content = f"{last.content}\n{line}" if last.content else line
            return messages
        return [*messages, Outgoing(content=line)]

    async def _failed(self, row: Any, error: str, wait: float, *, bounded: bool = True) -> None:
        if bounded and row.attempts + 1 >= self.max_attempts:
            await self._give_up(row, f"{error} ({row.attempts + 1} attempts)")
            return
        self.failures += 1
        metrics.delivery_retried()
        log.warning(
            "announcement %s (%s) not delivered (attempt %d): %s; retrying in %.0fs",
            row.id, row.kind, row.attempts + 1, error, wait,
        )
        await self.service.mark_failed(row.id, error, retry_after_seconds=wait)

    async def _channel(self, channel_id: int | None) -> discord.abc.Messageable:
        if channel_id is None:
            raise _NoChannel(
                "the tournament has no channel and the server has no default channel"
            )
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.NotFound:
                raise _NoChannel(
                    f"channel {channel_id} does not exist (any more)", permanent=True
                ) from None
        if not isinstance(channel, discord.abc.Messageable):
            raise _NoChannel(f"channel {channel_id} cannot receive messages")
        return channel

    # -- telling the organisers ---------------------------------------------------------------

    def watch(self, interaction: discord.Interaction) -> None:
        """Remember the command that just queued announcements: if posting them fails, its
        user is told in a follow-up while the interaction is still valid (15 minutes)."""
        if interaction.guild_id is not None:
            self._commands[interaction.guild_id] = interaction

    def _backoff(self, row: Any) -> float:
        return backoff(row.attempts + 1, self.first_retry_seconds)

    async def _forbidden(self, row: Any, error: discord.Forbidden) -> None:
        channel = self.client.get_channel(row.channel_id) if row.channel_id else None
        guild_channel = channel if isinstance(channel, discord.abc.GuildChannel) else None
        if row.channel_id and (guild_channel is None or not missing_permissions(guild_channel)):
            # the gateway has not told us of the change yet: ask Discord for the overwrites
            with contextlib.suppress(discord.HTTPException):
                fetched = await self.client.fetch_channel(row.channel_id)
                if isinstance(fetched, discord.abc.GuildChannel):
                    guild_channel = fetched
        problem = forbidden_problem(guild_channel, row.channel_id or 0, error)
        first = row.last_error != problem  # tell once per announcement and problem
        last = row.attempts + 1 >= self.max_attempts  # given up now: _give_up tells
        await self._failed(row, problem, self._backoff(row))
        if first and not last:
            await self._tell_organisers(row, problem)

    async def _tell_organisers(self, row: Any, problem: str) -> None:
        """Reply to the command if still possible, else DM the tournament's organiser; the
        audit log and /tournament info record it in any case."""
        info = await self.service.report_delivery_problem(row.id, problem)
        name = info.name if info is not None else "this server's tournament"
        text = fit_content(
            f"⚠️ I cannot post the announcements of **{plain(name, 80)}**: {problem}. Ask a "
            "server admin to allow it for my role in that channel; I keep retrying for a "
            "while, and `/tournament info` shows the state."
        )
        await self._send_to_organisers(row, info, text, problem)

    async def _send_to_organisers(self, row: Any, info: Any, text: str, problem: str) -> None:
        """``text`` to the organiser: a follow-up to the last command, else a DM to the
        tournament's creator, else only the log (the audit log has it already)."""
        quiet = discord.AllowedMentions.none()
        interaction = self._commands.get(row.guild_id)
        if interaction is not None and not await self._organiser_ran(interaction):
            interaction = None  # a player's /report queued it: he cannot fix the channel
        if interaction is not None and not interaction.is_expired():
            try:
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=quiet)
                return
            except discord.HTTPException:
                pass  # the token may be gone: try a DM
        if info is not None:
            try:
                user = self.client.get_user(info.created_by) or await self.client.fetch_user(
                    info.created_by
                )
                await user.send(text, allowed_mentions=quiet)
                return
            except discord.HTTPException:
                pass  # DMs closed: the audit log and /tournament info still say it
        log.warning("could not tell the organisers of guild %s: %s", row.guild_id, problem)

    async def _organiser_ran(self, interaction: discord.Interaction) -> bool:
        """Was the watched command run by an organiser (the owner, Manage Server or
        Administrator, or the organiser role)? Only then is it the one to tell."""
        user = interaction.user
        guild = interaction.guild
        if guild is not None and guild.owner_id == user.id:
            return True
        permissions = interaction.permissions
        if permissions.manage_guild or permissions.administrator:
            return True
        try:
            settings = await self.service.get_guild_settings(interaction.guild_id)
        except Exception:
            return False
        role = settings.organiser_role_id
        return role is not None and any(r.id == role for r in getattr(user, "roles", ()))

    async def _give_up(self, row: Any, reason: str) -> None:
        """Stop retrying the row (kept, audited, shown by /tournament info) and tell the
        organiser once per event and reason."""
        self.failures += 1
        metrics.delivery_given_up()
        self._given_up_now.add(row.id)
        log.warning("announcement %s (%s) given up: %s", row.id, row.kind, reason)
        if not await self.service.give_up_announcement(row.id, reason):
            return  # delivered or given up meanwhile (another process)
        key = (row.guild_id, row.tournament_id, reason)
        if key in self._told_given_up:
            return
        self._told_given_up.add(key)
        info = await self.service.announcement_tournament(row.id)
        name = info.name if info is not None else "this server's tournament"
        what = in_words(KIND_NAMES, row.kind) if row.kind in KIND_NAMES \
            else _("an announcement")
        text = fit_content(_(
            "⚠️ I gave up posting {what} of **{tournament}**: {reason}. It is not retried and "
            "holds nothing else back; `/tournament info` shows it and the audit log keeps it. "
            "Let me post in the event's channel again for what comes next.", what=what,
            tournament=plain(name, 80), reason=reason))
        await self._send_to_organisers(row, info, text, reason)


UNKNOWN_CHANNEL = 10003  # Discord's JSON error codes
MISSING_ACCESS = 50001
#: How the given-up message names an announcement.
KIND_NAMES = {
    "pairings": N_("the pairings"), "round_results": N_("the round results"),
    "standings": N_("the standings"), "final_standings": N_("the final standings"),
    "dispute": N_("a dispute notice"), "result_corrected": N_("a result correction"),
    "bracket": N_("the bracket"), "team_pairings": N_("the team pairings"),
    "team_standings": N_("the team standings"),
}
#: Boards or table rows from which an announcement is rendered in the worker process
#: (rendering 1,500 boards takes 30-100 ms; below this it is a few milliseconds, less than a
#: process round trip).
RENDER_IN_PROCESS_FROM = 200
#: An announcement whose payload is this much JSON or more (a big round's pairings: 600 kB at
#: 1,500 boards; 200 boards are ~80 kB) is claimed unparsed and parsed in the render worker:
#: json.loads of 600 kB held the event loop 15-50 ms (issue 13, loop_spans).
PARSE_IN_PROCESS_FROM = 64 * 1024
#: Kinds whose payload the delivery needs whole besides rendering it (the bracket's picture
#: is drawn from it): parsed here, as before, however big.
PARSED_HERE = frozenset({"bracket"})
# A deferred announcement older than this was left by a process that stopped before its
# second step (service.deferred): the timer pass completes it (younger ones are still being
# completed by the operation that wrote them).
DEFERRED_GRACE = timedelta(minutes=1)


def _big(payload: dict[str, Any]) -> bool:
    sizes = (payload.get("games"), payload.get("rows"),
             (payload.get("standings") or {}).get("rows"))
    return sum(len(s) for s in sizes if isinstance(s, list)) >= RENDER_IN_PROCESS_FROM


#: Announcements whose message a later one edits (``replaces``): remember it when posted.
EDITED_LATER = frozenset({"pairing_progress"})


class _NoChannel(Exception):
    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent  # the channel is gone: retrying cannot help
