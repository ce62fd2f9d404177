"""The Discord client: a ``commands.Bot`` subclass that wires settings, the service, the cogs,
the persistent buttons and the outbox delivery together.

Nothing here decides anything about tournaments; the cogs call the service and the renderer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
import yarl
from discord.ext import commands

import i18n
from bot.errors import SwissTree
from bot.settings import Settings

log = logging.getLogger(__name__)

#: How long shutdown() waits for the commands in progress. With the outbox pass's limit
#: (:data:`DELIVERY_STOP_SECONDS`) and the rest of the closing, a stop takes under 5 s.
SHUTDOWN_GRACE_SECONDS = 2.0
#: How long the close lets the outbox pass in progress finish its announcement (what it did
#: not post stays in the outbox for the next start).
DELIVERY_STOP_SECONDS = 1.5
#: How long the close waits for a command it cancelled to unwind.
CANCEL_WAIT_SECONDS = 0.5

#: The cog extensions loaded by default (each module has ``async def setup(bot)``).
DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "cogs.tournament",
    "cogs.rounds",
    "cogs.tables",
    "cogs.play",
    "cogs.admin",
    "cogs.notify",
    "cogs.explain",
    "cogs.lichess",
    "cogs.privacy",
    "cogs.teams",
)


def point_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST and gateway traffic to these endpoints.

    discord.py reads them from two class attributes (``Route.BASE`` for every REST call,
    interaction callbacks and webhooks included, and ``DiscordWebSocket.DEFAULT_GATEWAY`` for a
    non-sharded client), so this changes them for the whole process.
    """
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class SwissBot(commands.Bot):
    """swissbot's client.

    ``service`` is the Discord-free tournament service (``service.TournamentService``); when
    it is None, :meth:`setup_hook` opens one on ``settings.database``. ``extensions`` are the cog
    modules to load. Tests pass ``guild_ready_timeout=0.05`` and a short ``delivery_interval``.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        service: Any | None = None,
        extensions: Sequence[str] = DEFAULT_EXTENSIONS,
        guild_ready_timeout: float = 2.0,
        delivery_interval: float = 2.0,
        sync_commands: bool | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.default()  # guilds + slash commands; nothing privileged
        super().__init__(
            **client_options,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=SwissTree,
            # Nothing the bot sends pings anyone unless a message says so explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
        )
        self.settings = settings
        self.service: Any = service
        self._database: Any = None  # storage.db.Database when we opened it ourselves
        self._extensions = tuple(extensions)
        self.delivery_interval = delivery_interval
        # With shards in several processes, one of them (the one that runs shard 0) syncs the
        # commands; the others would only repeat the same PUT.
        if sync_commands is None:
            sync_commands = settings.shards.everything or 0 in settings.shards.ids
        self.sync_commands_on_start = sync_commands
        self.delivery: Any = None  # bot.delivery.OutboxDelivery once set up
        self.shutting_down = False  # set by shutdown(): the command tree refuses new commands
        self.web: Any = None  # bot.web.app.LiveServer when SWISSBOT_WEB_PORT is set
        self.metrics: Any = None  # bot.metrics.MetricsServer when SWISSBOT_METRICS_PORT is set
        self._lichess: Any = None  # bot.lichess.client.LichessClient we opened
        self.lichess_games: Any = None  # bot.lichess.games.LichessGames
        self._warm_up: asyncio.Task[None] | None = None
        self._completing: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        if self.service is None:
            self._database, self.service = await open_service(self.settings)
        from bot.lichess import web as lichess

        self._lichess = lichess.attach(self.service, self.settings)
        from bot.languages import speak_each_interaction
        from bot.translator import CatalogueTranslator

        speak_each_interaction(self)
        # the catalogues are parsed here, not by the first German answer in the event loop
        await asyncio.to_thread(i18n.load_all)

        # the commands' names and descriptions in every shipped language, sent on sync
        await self.tree.set_translator(CatalogueTranslator())
        for extension in self._extensions:
            await self.load_extension(extension)
        if self.sync_commands_on_start:
            await self.sync_commands()
        from bot.delivery import OutboxDelivery

        self.delivery = OutboxDelivery(self, self.service, interval=self.delivery_interval,
                                       lease_seconds=self.settings.outbox_lease_seconds,
                                       shards=self.settings.shards,
                                       first_retry_seconds=self.settings.delivery_retry_seconds)
        # A big pairing queues its "Pairing round 4..." line and then computes for seconds:
        # the line is posted at once, not at the next delivery tick.
        self.service.on_announced = self.delivery.wake
        await self._recover_pairings()
        self.delivery.start()
        from bot.health import probe_for
        from bot.metrics import start_monitoring

        self.metrics = await start_monitoring(self, probe_for(self))  # SWISSBOT_METRICS_PORT
        if self._lichess is not None:  # each board's Lichess game (events on Lichess)
            from bot.lichess.games import LichessGames

            # a read every pass even without events on Lichess: not more than twice a second
            self.lichess_games = LichessGames(self.service, self._lichess,
                                              interval=max(self.delivery_interval, 0.5),
                                              shards=self.settings.shards)
            self.lichess_games.start()
        if self.settings.web_port is not None:
            from bot.web.app import LiveServer

            public_url = self.settings.public_url
            self.web = LiveServer(
                self.service, host=self.settings.web_host, port=self.settings.web_port,
                health=probe_for(self),
                routes=(lambda app: lichess.add_routes(app, self.service, public_url))
                if public_url else None)
            await self.web.start()

    async def _recover_pairings(self) -> None:
        """Free the rounds a previous run of the bot was pairing when it stopped (the command
        that started each is answered if Discord still accepts it, else the channel is told;
        the audit log says it too), and start the pairing workers in the background so that
        the first big /round next does not wait for them."""
        recover = getattr(self.service, "recover_pairings", None)
        if recover is not None:
            from bot.lifecycle import answer_interrupted

            freed = await recover(lambda run: answer_interrupted(self, run))
            if freed:
                log.warning("cleared the pairing marker of %d tournament(s) left by a "
                            "previous run", len(freed))
        complete = getattr(self.service, "complete_announcements", None)
        if complete is not None:
            # standings a previous run committed but did not compute (service.deferred):
            # seconds for a big event, so in the background; their channel waits for them
            self._completing = asyncio.create_task(_logged(complete(), "deferred standings"),
                                                   name="swissbot-complete-announcements")
        pool = getattr(self.service, "pairing", None)
        needed = getattr(self.service, "needs_pairing_workers", None)
        if pool is not None and needed is not None and await needed():
            self._warm_up = asyncio.create_task(
                self._warm(pool.warm_up(), self.delivery.renderer.warm_up()),
                name="swissbot-pairing-warm-up")

    async def _warm(self, *starts: Any) -> None:
        """The pairing workers and the render worker start together (a big event needs
        both). Best effort: a worker that did not start is started by its first use."""
        # all of them to the end (or cancelled together by close()), failures collected
        for failure in await asyncio.gather(*starts, return_exceptions=True):
            if isinstance(failure, Exception) and not self.shutting_down:  # a stop kills
                log.warning("could not start a worker process ahead of use: %s", failure)

    async def sync_commands(self) -> None:
        """Sync the slash commands: to the configured guilds at once (changes show instantly),
        otherwise globally (Discord may take a while to show them)."""
        if self.settings.guild_ids:
            for guild_id in self.settings.guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_ready(self) -> None:
        assert self.user is not None
        shards = getattr(self, "shard_ids", None)
        where = "" if not self.settings.sharded else (
            f" on shard(s) {', '.join(map(str, shards or range(self.shard_count or 1)))}"
            f" of {self.shard_count}")
        log.info("connected as %s (%s) to %d guild(s)%s", self.user, self.user.id,
                 len(self.guilds), where)
        from bot.heap import settle_heap

        # the start-up heap out of the collector's full passes (50-70 ms stalls of the loop)
        frozen = settle_heap()
        if frozen:
            log.info("%d start-up objects frozen out of the garbage collector's passes", frozen)

    async def shutdown(self, reason: str, *, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
        """Stop cleanly (SIGTERM / SIGINT): refuse new commands, stop the pairings running in
        workers (their commands answer "interrupted by a restart" at once), let the commands
        and button clicks in progress finish (their transactions commit and they still
        answer) for up to ``grace`` seconds, then :meth:`close`. One log line.

        What is still queued in the outbox stays there and is posted after the next start.
        """
        if self.shutting_down:
            return
        self.shutting_down = True
        log.info("stopping: %s", reason)
        pool = getattr(self.service, "pairing", None)
        if pool is not None and hasattr(pool, "interrupt"):
            pool.interrupt()
        running = _interaction_tasks()
        if running:
            await asyncio.wait(running, timeout=grace)
        await self.close()

    async def close(self) -> None:
        """Close in the order that leaves nothing half-done: the background work first (the
        start-up's, then the outbox pass, which finishes its announcement or is abandoned:
        its rows stay for the next start, and the Lichess worker, which stores the game it is
        making), the web page, the commands still running, the worker processes, and only
        then the gateway and the HTTP sessions all of them used."""
        self.shutting_down = True  # from here on a new command is refused
        # the start-up's background work first (the workers it is starting are stopped
        # next; what the completion did not complete, the next start completes)
        background = {t for t in (self._completing, self._warm_up) if t is not None}
        self._completing = self._warm_up = None
        await _cancelled(background)
        games, self.lichess_games = self.lichess_games, None
        stops = [games.stop()] if games is not None else []
        if self.delivery is not None:
            stops.append(self.delivery.stop(timeout=DELIVERY_STOP_SECONDS))
        await asyncio.gather(*stops)
        for server in (self.web, self.metrics):
            if server is not None:
                await server.stop()
        self.web = self.metrics = None
        late = await _cancelled(_interaction_tasks())
        if late:
            log.warning("%d command(s) still running: stopped", late)
        lichess, self._lichess = self._lichess, None
        if lichess is not None:
            await lichess.close()
        from service.advice import stop_workers

        stop_workers()  # the advisor's worker process, if /tournament advise started it
        pool = getattr(self.service, "pairing", None)
        if pool is not None:
            pool.close()  # the pairing workers: they are only started again by a pairing
        _stop_waiting_for_guilds(self._connection)
        await super().close()
        # close() runs twice (ours, then discord.py's connect loop): close the database once.
        database, self._database = self._database, None
        if database is not None:
            await database.close()


def _stop_waiting_for_guilds(state: Any) -> None:
    """discord.py waits ``guild_ready_timeout`` seconds after READY for the guilds, in a task
    its close() leaves running: stopped within that wait, the task would then dispatch
    ``ready`` on a closed client and die with a traceback."""
    waits = [getattr(state, "_ready_task", None),
             *(getattr(state, "_ready_tasks", None) or {}).values()]  # one per shard
    for task in waits:
        if task is not None and not task.done():
            task.cancel()


async def _cancelled(tasks: set[asyncio.Task[Any]]) -> int:
    """Cancel ``tasks`` and give them a moment to unwind (their transactions roll back).
    Returns how many were still running."""
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: a failure is its own business, not the stop's
    tasks = {task for task in tasks if not task.done()}
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=CANCEL_WAIT_SECONDS)
    return len(tasks)


async def _logged(job: Any, what: str) -> None:
    """Await ``job``, logging (not raising) its failure: a background task at start-up."""
    try:
        await job
    except Exception:
        log.exception("%s: failed", what)


# discord.py runs each slash command and each button click in a task of its own, named
# after what it runs (app_commands.CommandTree._from_interaction, ui.view.ViewStore).
_INTERACTION_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal",
)


def _interaction_tasks() -> set[asyncio.Task[Any]]:
    """The interaction handlers running now (not the caller)."""
    current = asyncio.current_task()
    return {
        task for task in asyncio.all_tasks()
        if task is not current and not task.done()
        and task.get_name().startswith(_INTERACTION_TASK_PREFIXES)
    }


class ShardedSwissBot(SwissBot, commands.AutoShardedBot):
    """swissbot over Discord's sharding (``SWISSBOT_SHARDS``): one gateway connection per
    shard, this process running ``SWISSBOT_SHARD_IDS`` of them (default all). Everything else
    is :class:`SwissBot`; its background work is limited to the guilds of these shards."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord allows one IDENTIFY per 5 s (per max_concurrency bucket): discord.py waits
        # before each shard but the first. The sandbox has no such limit.
        if self.settings.uses_discord:
            await super().before_identify_hook(shard_id, initial=initial)


def make_bot(settings: Settings, **options: Any) -> SwissBot:
    """The client the settings ask for: :class:`SwissBot` (one connection, the default), or
    :class:`ShardedSwissBot` when ``SWISSBOT_SHARDS`` is set (``auto``: the count Discord
    recommends in ``GET /gateway/bot``)."""
    options.setdefault("delivery_interval", settings.delivery_interval)
    if not settings.sharded:
        return SwissBot(settings, **options)
    count = settings.shard_count if isinstance(settings.shard_count, int) else None
    ids = list(settings.shard_ids) or None
    return ShardedSwissBot(settings, shard_count=count, shard_ids=ids, **options)


async def open_service(settings: Settings) -> tuple[Any, Any]:
    """Open the SQLite database (creating and migrating it) and the service over it."""
    from service import TournamentService
    from service.pairing_pool import PairingPool
    from storage.db import connect

    database = await connect(settings.database)
    return database, TournamentService(database, pairing=PairingPool(settings.pairing_limits))


def wake_delivery(client: discord.Client) -> None:
    """Post queued announcements now rather than at the next tick."""
    delivery = getattr(client, "delivery", None)
    if delivery is not None:
        delivery.wake()
