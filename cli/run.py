"""``swissbot run``: start the Discord bot with the settings from the environment / ``.env``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from typing import TYPE_CHECKING

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE

# discord.py and pydantic load inside the functions: every sub-command builds this module's
# parser, and `swissbot pair` must not pay for (or need) the bot's libraries.
if TYPE_CHECKING:
    from bot.client import SwissBot
    from bot.settings import Settings

log = logging.getLogger(__name__)

EXIT_REJECTED = 4


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


def run(args: argparse.Namespace) -> int:
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
        asyncio.run(_run(settings, token))
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


async def _run(settings: Settings, token: str) -> None:
    from bot.client import make_bot, open_service
    from storage.db import UnusableDatabase

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
        bot = make_bot(settings, service=service)
        stopped_by = _stop_on_signals(bot)
        async with bot:
            await bot.start(token)
    finally:
        # After the bot: Database.close waits for the transaction in progress to finish.
        await database.close()
    if stopped_by:
        log.info("swissbot stopped cleanly after %s; the database is closed", stopped_by[0])


def _stop_on_signals(bot: SwissBot) -> list[str]:
    """SIGTERM (systemd, Docker, Kubernetes) and SIGINT (Ctrl+C) shut the bot down cleanly
    instead of killing it mid-transaction. Returns the list that receives the signal's name."""
    loop = asyncio.get_running_loop()
    received: list[str] = []
    tasks: set[asyncio.Task[None]] = set()  # keep a reference until the task is done

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig.name)
        task = loop.create_task(bot.shutdown(f"received {sig.name}"), name="swissbot-shutdown")
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    for sig in (signal.SIGTERM, signal.SIGINT):
        # Windows has no add_signal_handler: there the default handlers stay.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, on_signal, sig)
    return received
