"""``swissbot sandbox``: run the local Discord stand-in on its own, to point a bot at it.

It prints the settings to give the bot (``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
``DISCORD_TOKEN``), the address of the web console (a person types slash commands there as
any member), and then the channels as they change, until interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from cli.options import whole

MAX_SANDBOX_MEMBERS = 1000
MAX_SANDBOX_SHARDS = 64


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "sandbox",
        help="run the local Discord sandbox on its own (for `swissbot run` to connect to)",
        description="Serve a fake Discord (REST v10 and gateway) on 127.0.0.1 with one guild, "
        "and a web console (/console/) to use it by hand.",
    )
    parser.add_argument("--port", type=whole(0, 65535), default=8765,
                        help="TCP port (default 8765; 0: any)")
    parser.add_argument("--players", type=whole(0, MAX_SANDBOX_MEMBERS), default=8,
                        help=f"members to create (default 8; up to {MAX_SANDBOX_MEMBERS})")
    parser.add_argument("--token", default="sandbox-token", help="the token the bot must use")
    parser.add_argument("--shards", type=whole(1, MAX_SANDBOX_SHARDS), default=1,
                        help="Discord shards to ask for (default 1; 2..64: one guild per shard, "
                        "for trying SWISSBOT_SHARDS / SWISSBOT_SHARD_IDS, docs/deploy.md)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        asyncio.run(_serve(args.port, args.players, args.token, args.shards))
    except OSError as exc:
        print(f"swissbot sandbox: cannot listen on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    return EXIT_OK


async def _serve(port: int, players: int, token: str, shards: int = 1) -> None:
    from sandbox import FakeDiscord
    from sandbox.transcript import Transcript

    fake = FakeDiscord(token=token, port=port, shards=shards)
    await fake.start()
    if shards == 1:
        guilds = [fake.add_guild("Sandbox Chess Club", players=players)]
    else:
        guilds = [fake.add_guild(f"Sandbox Club {s}", players=players, shard=s)
                  for s in range(shards)]
    Transcript(fake)
    for guild in guilds:
        print(f"sandbox guild {guild.name!r} (id {guild.id}) is up.")
    ids = ",".join(str(g.id) for g in guilds)
    sharding = "" if shards == 1 else f" SWISSBOT_SHARDS={shards} SWISSBOT_SHARD_IDS=0-{shards - 1}"
    print("Start the bot with:")
    print(f"  DISCORD_TOKEN={token} DISCORD_API_BASE={fake.api_base} \\")
    print(f"  DISCORD_GATEWAY_URL={fake.gateway_url} SWISSBOT_GUILD_IDS={ids}{sharding} \\")
    print("  swissbot run")
    print(f"Then open the console to use it by hand: {fake.console_url}")
    print("Ctrl-C stops the sandbox.", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fake.stop()
