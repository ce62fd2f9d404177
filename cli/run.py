"""``swissbot run``: start the Discord bot with the settings from the environment / ``.env``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE

# discord.py and pydantic load inside the functions: every sub-command builds this module's
# parser, and `swissbot pair` must not pay for (or need) the bot's libraries.
if TYPE_CHECKING:
    from bot.client import SwissBot
    from bot.settings import Settings

log = logging.getLogger(__name__)

EXIT_REJECTED = 4
#: The exit code of a stop forced by a second signal or a hung shutdown.
EXIT_FORCED = 1
#: The longest a clean stop may take before the connection is cancelled whatever it does.
STOP_SECONDS = 4.0
#: After this, a stop that still has not ended the process ends it without cleaning up.
FORCED_STOP_SECONDS = 8.0
#: During a stop the event loop must run at least this often (else something holds it and
#: would hold the stop too: the process ends).
LOOP_ANSWER_SECONDS = 2.0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "run",
        help="start the Discord bot (needs DISCORD_TOKEN)",
        description="Start the Discord bot. Settings come from the environment and .env; "
        "see .env.example.",
    )
    parser.set_defaults(func=run)


def load_settings() -> Settings | None:
    """The settings, or None after printing one line per bad value."""
    from pydantic import ValidationError

    from bot.settings import Settings

    try:
        return Settings()
    except ValidationError as exc:
        for error in exc.errors():
            message = str(error["msg"]).removeprefix("Value error, ")
            where = ".".join(str(p) for p in error["loc"])
            # A check of several settings together has no location: its message names them.
            heading = f"invalid setting {where}" if where else "invalid settings"
            print(f"swissbot: {heading}: {message}", file=sys.stderr)
        return None


def run(args: argparse.Namespace, **bot_options: Any) -> int:
    """``swissbot run``; ``bot_options`` go to the client (the demo's bot process starts with
    a shorter wait for its guilds)."""
    import discord

    settings = load_settings()
    if settings is None:
        return EXIT_INVALID_INPUT
    token = settings.token
    if token is None:
        print(
            "swissbot: DISCORD_TOKEN is not set. Put your bot token in the environment or in "
            ".env (see .env.example), or try `swissbot demo`, which needs no token.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from bot.client import point_at
    from bot.logs import configure_logging
    from bot.web.serving import PortUnavailable

    configure_logging(settings.log_level, fmt=settings.log_format, secrets=(token,))
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(_run(settings, token, **bot_options))
    except KeyboardInterrupt:  # Ctrl+C before the bot's own handlers were in place
        log.info("stopping: SIGINT")
        return EXIT_OK
    except discord.LoginFailure:
        print(
            "swissbot: Discord rejected the token in DISCORD_TOKEN. Copy it again from the "
            "Developer Portal (Bot -> Reset Token).",
            file=sys.stderr,
        )
        return EXIT_REJECTED
    except discord.PrivilegedIntentsRequired:
        print("swissbot: Discord refused the requested gateway intents.", file=sys.stderr)
        return EXIT_REJECTED
    except DatabaseProblem as exc:
        print(f"swissbot: {exc} (SWISSBOT_DATABASE)", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except PortUnavailable as exc:  # SWISSBOT_WEB_PORT or SWISSBOT_METRICS_PORT
        print(f"swissbot: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except (OSError, discord.GatewayNotFound) as exc:
        print(f"swissbot: cannot reach Discord: {exc}", file=sys.stderr)
        return EXIT_REJECTED
    return EXIT_OK


class DatabaseProblem(Exception):
    """The SQLite file cannot be opened or migrated."""


async def _run(settings: Settings, token: str, **bot_options: Any) -> None:
    from bot.client import make_bot, open_service
    from storage.db import UnusableDatabase

    stop = _stop_on_signals()  # first: a signal while the database opens is not lost
    # Open the database before logging in, so a wrong path is reported before anything else.
    file = settings.database_file  # None: a PostgreSQL URL
    if file is not None and not file.parent.is_dir():
        raise DatabaseProblem(
            f"cannot open the database {settings.database}: the folder {file.parent} does not "
            "exist"
        )
    try:
        database, service = await open_service(settings)
    except UnusableDatabase as exc:  # already one line naming the file and what is wrong
        raise DatabaseProblem(str(exc)) from exc
    except (OSError, sqlite3.Error) as exc:
        await asyncio.sleep(0.1)  # let aiosqlite's worker thread finish before the loop closes
        where = settings.database if file is not None else "(PostgreSQL)"  # no password shown
        raise DatabaseProblem(f"cannot open the database {where}: {exc}") from exc
    try:
        if stop.requested.is_set():  # while the database was opening
            log.info("stopping: %s", stop.name)
        else:
            bot = make_bot(settings, service=service, **bot_options)
            async with bot:
                await _serve(bot, token, stop)
    finally:
        service.pairing.close()  # no worker outlives the bot (nor waits for its exit)
        # After the bot: Database.close waits for the transaction in progress to finish.
        await database.close()


async def _serve(bot: SwissBot, token: str, stop: _Stop) -> None:
    """Run the bot until its connection ends (a refused token, an error: raised) or a signal
    stops it. The stop cancels the connection whatever it is doing: connected, identifying,
    or waiting out discord.py's reconnect back-off while Discord is unreachable (up to
    minutes, which close() alone would wait for)."""
    gateway = asyncio.create_task(bot.start(token), name="swissbot-gateway")
    signalled = asyncio.create_task(stop.requested.wait(), name="swissbot-signals")
    try:
        await asyncio.wait({gateway, signalled}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        signalled.cancel()
    if gateway.done():
        gateway.result()  # LoginFailure and the like go to run(), which explains them
        return
    try:
        await asyncio.wait_for(bot.shutdown(stop.name), timeout=STOP_SECONDS)
    except TimeoutError:
        log.warning("the shutdown took longer than %ss: stopping anyway", STOP_SECONDS)
    gateway.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await gateway  # whatever the connection was doing, it is over


class _Stop:
    """The first SIGTERM / SIGINT received: its name, and the event the loop waits on."""

    def __init__(self) -> None:
        self.requested = asyncio.Event()
        self.name = ""


def _stop_on_signals() -> _Stop:
    """SIGTERM (systemd, Docker, Kubernetes) and SIGINT (Ctrl+C) shut the bot down cleanly
    instead of killing it mid-transaction. A stop is never ignored: a second signal ends the
    process at once, and so does a watchdog thread when the event loop stops running for
    :data:`LOOP_ANSWER_SECONDS` (something holds it) or the process is still there after
    :data:`FORCED_STOP_SECONDS`.

    ``signal.signal``, not the loop's ``add_signal_handler``: the latter runs the handler in
    the event loop, which a stuck loop never reaches; this one runs in the main thread
    between two bytecodes, whatever the loop is doing."""
    loop = asyncio.get_running_loop()
    stop = _Stop()

    def on_signal(signum: int, _: object) -> None:
        name = signal.Signals(signum).name
        if stop.name:
            _force_exit(f"received {name} again")
        stop.name = name
        threading.Thread(target=_watch_stop, args=(stop, loop), name="swissbot-stop-watchdog",
                         daemon=True).start()
        loop.call_soon_threadsafe(stop.requested.set)

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(ValueError, OSError):  # not the main thread, or no SIGTERM
            signal.signal(sig, on_signal)
    return stop


def _watch_stop(stop: _Stop, loop: asyncio.AbstractEventLoop) -> None:
    """End the process if the event loop stops running (something holds it: it would never
    finish the stop) or the process is still there :data:`FORCED_STOP_SECONDS` after the
    signal. The loop is asked to answer every quarter of a second."""
    deadline = time.monotonic() + FORCED_STOP_SECONDS
    while time.monotonic() < deadline:
        answered = threading.Event()
        try:
            loop.call_soon_threadsafe(answered.set)
        except RuntimeError:  # the loop is closed: the interpreter is on its way out
            time.sleep(max(0.0, deadline - time.monotonic()))
            break
        if not answered.wait(LOOP_ANSWER_SECONDS):
            _force_exit(f"the event loop has not run for {LOOP_ANSWER_SECONDS:g}s since "
                        f"{stop.name}")
        time.sleep(0.25)
    _force_exit(f"still running {FORCED_STOP_SECONDS:g}s after {stop.name}")


def _force_exit(why: str) -> None:
    """End the process now (SQLite's write-ahead log keeps the database whole, as after a
    crash; a round being paired is told at the next start). One line on stderr, written
    directly: this may run inside a signal handler, where the logging module's locks may be
    held by the code it interrupted."""
    os.write(2, f"swissbot: stopping now: {why}\n".encode())
    os._exit(EXIT_FORCED)
