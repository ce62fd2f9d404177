"""The sandbox against the real discord.py client: login, gateway, sync, interactions."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from sandbox import FakeDiscord, SandboxError
from sandbox.harness import start_bot
from tests.e2e.fixtures import error_log, fake, guild  # noqa: F401  (fixtures)


class EchoCog(commands.Cog):
    @app_commands.command(name="echo", description="Say it back")
    async def echo(self, interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.send_message(" ".join([text] * times))

    @app_commands.command(name="slow", description="Defer, then follow up")
    async def slow(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(f"hello {member.display_name}", ephemeral=True)

    @app_commands.command(name="post", description="Post in a channel")
    async def post(
        self, interaction: discord.Interaction, channel: discord.TextChannel, text: str
    ) -> None:
        await channel.send(text, file=discord.File(__import__("io").BytesIO(b"abc"), "a.txt"))
        await interaction.response.send_message("posted", ephemeral=True)


class Buttons(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Press", custom_id="test:press")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"pressed by {interaction.user.id}")


class ButtonCog(commands.Cog):
    @app_commands.command(name="buttons", description="Show a button")
    async def buttons(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("click", view=Buttons())


async def _bot(server: FakeDiscord) -> commands.Bot:
    bot = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        guild_ready_timeout=0.05,
    )
    await bot.add_cog(EchoCog())
    await bot.add_cog(ButtonCog())
    bot.add_view(Buttons())
    return bot


async def test_login_ready_and_guild_cache(fake, guild) -> None:  # noqa: F811
    bot = await _bot(fake)
    running = await start_bot(bot, fake)
    try:
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.application_id == fake.application_id
        cached = bot.get_guild(guild.id)
        assert cached is not None
        assert {c.name for c in cached.text_channels} == {"general", "tournaments"}
        assert "Organisers" in {r.name for r in cached.roles}
        assert fake.identifies[0]["token"] == fake.token
        assert fake.unhandled == []
    finally:
        await running.stop()


async def test_wrong_token_is_refused(fake) -> None:  # noqa: F811
    bot = await _bot(fake)
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def test_sync_and_slash_commands(fake, guild) -> None:  # noqa: F811
    bot = await _bot(fake)
    running = await start_bot(bot, fake)
    try:
        synced = await bot.tree.sync()
        assert {c.name for c in synced} == {"echo", "slow", "post", "buttons"}
        general = guild.channel("general")
        member = fake.players(guild)[0]

        inter = await fake.send_slash_command(
            guild, general, member, "echo", {"text": "hi", "times": 2}
        )
        reply = await fake.reply(inter)
        assert reply["content"] == "hi hi"
        assert reply in general.messages

        inter = await fake.send_slash_command(guild, general, member, "slow", {"member": member})
        reply = await fake.reply(inter)
        assert reply["content"] == "hello player01"
        assert reply["flags"] & 64  # the ephemeral "thinking" message became the answer

        tournaments = guild.channel("tournaments")
        inter = await fake.send_slash_command(
            guild, general, member, "post", {"channel": tournaments, "text": "<@1> @everyone"}
        )
        assert (await fake.reply(inter))["content"] == "posted"
        posted = tournaments.messages[-1]
        assert posted["attachments"][0]["content"] == "abc"
        # the bot's default allowed_mentions (discord.py: everything) pings @everyone
        assert posted["mention_everyone"] is True

        with pytest.raises(SandboxError, match="no option"):
            await fake.send_slash_command(guild, general, member, "echo", {"nope": 1})
        assert fake.unhandled == []
    finally:
        await running.stop()


async def test_persistent_button_click(fake, guild) -> None:  # noqa: F811
    bot = await _bot(fake)
    running = await start_bot(bot, fake)
    try:
        await bot.tree.sync()
        general = guild.channel("general")
        member = fake.players(guild)[1]
        inter = await fake.send_slash_command(guild, general, member, "buttons")
        message = await fake.reply(inter)
        click = await fake.click_button(message, member, label="Press")
        answer = await fake.reply(click)
        assert answer["content"] == f"pressed by {member.id}"
    finally:
        await running.stop()


async def test_rate_limit_is_retried_by_discord_py(fake, guild) -> None:  # noqa: F811
    bot = await _bot(fake)
    running = await start_bot(bot, fake)
    try:
        channel = bot.get_channel(guild.channel("general").id)
        assert isinstance(channel, discord.TextChannel)
        fake.fail_next("create_message", 429, retry_after=0.01)
        message = await channel.send("after a 429")
        statuses = [r.status for r in fake.requests if r.kind == "create_message"]
        assert statuses == [429, 200]
        assert message.content == "after a 429"
    finally:
        await running.stop()


def test_sandbox_command_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    for port in ("70000", "١٢", "²", "99999999999999999999"):
        with pytest.raises(SystemExit) as exit_:
            main(["sandbox", "--port", port])
        assert exit_.value.code == 2  # argparse's usage error, before anything listens
        err = capsys.readouterr().err
        assert "argument --port: value" in err and "Traceback" not in err


async def test_transcript_renders_names_embeds_and_buttons(fake, guild) -> None:  # noqa: F811
    import io

    from sandbox.transcript import Transcript

    bot = await _bot(fake)
    running = await start_bot(bot, fake)
    out = io.StringIO()
    Transcript(fake, out)
    try:
        await bot.tree.sync()
        general = guild.channel("general")
        member = fake.players(guild)[0]
        inter = await fake.send_slash_command(guild, general, member, "buttons")
        await fake.reply(inter)
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        embed = discord.Embed(title="Title", description=f"hello <@{member.id}> **bold**")
        await channel.send(f"<@{member.id}> in <#{general.id}> <t:0:f>", embed=embed)
    finally:
        await running.stop()
    text = out.getvalue()
    assert "#general       player01 › /buttons" in text
    assert "[Press]" in text
    assert "@player01 in #general 1970-01-01 00:00 UTC" in text
    assert "┌ Title" in text and "│ hello @player01 bold" in text


def test_sandbox_computes_channel_permissions_like_discord() -> None:
    from sandbox.payloads import (
        ATTACH_FILES,
        EMBED_LINKS,
        EVERYONE_PERMISSIONS,
        SEND_MESSAGES,
        VIEW_CHANNEL,
    )

    world = FakeDiscord()
    club = world.add_guild(players=1)
    channel, bot, role = club.channel("tournaments"), world.bot_member(club), world.bot_role(club)
    assert world.bot_permissions(club, channel) == EVERYONE_PERMISSIONS
    channel.overwrites[club.everyone.id] = (0, 0, SEND_MESSAGES)
    assert not world.bot_permissions(club, channel) & SEND_MESSAGES
    channel.overwrites[role.id] = (0, SEND_MESSAGES, EMBED_LINKS)  # the role's allow wins
    perms = world.bot_permissions(club, channel)
    assert perms & SEND_MESSAGES and not perms & EMBED_LINKS
    channel.overwrites[bot.id] = (1, EMBED_LINKS, ATTACH_FILES)  # the member's own comes last
    perms = world.bot_permissions(club, channel)
    assert perms & EMBED_LINKS and not perms & ATTACH_FILES
    channel.overwrites[bot.id] = (1, 0, VIEW_CHANNEL)
    assert world.bot_permissions(club, channel) == 0  # nothing without View Channel
    assert club.permissions_in(channel, world.owner_member(club)) & SEND_MESSAGES  # owner
    payload = channel.payload()["permission_overwrites"]
    assert {"id": str(bot.id), "type": 1, "allow": "0", "deny": str(VIEW_CHANNEL)} in payload


async def test_sandbox_answers_posts_the_bot_may_not_make_like_discord() -> None:
    import aiohttp

    from sandbox.payloads import EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL

    async with FakeDiscord() as server:
        club = server.add_guild()
        channel, role = club.channel("tournaments"), server.bot_role(club)
        headers = {"Authorization": f"Bot {server.token}"}
        url = f"{server.api_base}/channels/{channel.id}/messages"
        embed = {"embeds": [{"title": "t", "description": "d"}]}

        async def post(body: dict) -> tuple[int, dict]:
            async with aiohttp.ClientSession() as http, http.post(
                url, json=body, headers=headers
            ) as response:
                return response.status, await response.json()

        assert (await post({"content": "hi"}))[0] == 200
        await server.set_channel_permissions(club, channel, role, deny=EMBED_LINKS)
        assert (await post({"content": "hi"}))[0] == 200
        assert await post(embed) == (403, {"code": 50013, "message": "Missing Permissions"})
        await server.set_channel_permissions(club, channel, role, deny=SEND_MESSAGES)
        assert (await post({"content": "hi"}))[1]["code"] == 50013
        await server.set_channel_permissions(club, channel, role, deny=VIEW_CHANNEL)
        assert await post({"content": "hi"}) == (403, {"code": 50001, "message": "Missing Access"})
        await server.delete_channel(club, channel)
        assert await post({"content": "hi"}) == (404, {"code": 10003, "message": "Unknown Channel"})
        assert (await post({"content": "x" * 2001}))[0] == 404  # no channel: checked first
