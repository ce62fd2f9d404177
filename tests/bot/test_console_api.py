"""The sandbox console's HTTP side with a real discord.py client: select menus and modals
reach the bot as Discord sends them, a retried action (same nonce) acts once, each member sees
only their own ephemeral answers, bad requests get a clear 400, members can be added and
renamed, and the bot's files are served."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from sandbox import FakeDiscord, SandboxChannel, SandboxGuild
from sandbox.harness import start_bot
from sandbox.payloads import PUBLIC_THREAD
from sandbox.wire import APPLICATION_COMMAND, MODAL_SUBMIT
from tests.e2e.fixtures import error_log, fake, guild  # noqa: F401  (fixtures)

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))


class Note(discord.ui.Modal, title="A note"):
    text: discord.ui.TextInput[Note] = discord.ui.TextInput(label="Note", custom_id="note:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}")


class Menu(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="menu:colour", options=[
        discord.SelectOption(label="White", value="w"), discord.SelectOption(label="Black",
                                                                            value="b")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"chose {select.values[0]}")

    @discord.ui.button(label="Write a note", custom_id="menu:note")
    async def note(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(Note())


class Cog(commands.Cog):
    @app_commands.command(name="menu", description="A menu and a note button")
    async def menu(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick", view=Menu())

    @app_commands.command(name="secret", description="An ephemeral answer")
    async def secret(self, interaction: discord.Interaction, word: str) -> None:
        await interaction.response.send_message(f"psst {word}", ephemeral=True)

    @app_commands.command(name="pick", description="Pick an event")
    async def pick(self, interaction: discord.Interaction, event: str) -> None:
        await interaction.response.send_message(f"picked {event}")

    @pick.autocomplete("event")
    async def events(self, interaction: discord.Interaction, typed: str
                     ) -> list[app_commands.Choice[str]]:
        names = ["Friday Open", "Saturday Rapid", "Sunday Blitz"]
        return [app_commands.Choice(name=n, value=n) for n in names if typed.lower() in n.lower()]

    @app_commands.command(name="picture", description="Post a picture")
    async def picture(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "here", file=discord.File(io.BytesIO(PNG), "board.png"))


class Api:
    def __init__(self, server: FakeDiscord, club: SandboxGuild, http: aiohttp.ClientSession):
        self.fake, self.guild, self.http = server, club, http
        self.base = server.console_url + "api/"
        self.channel = club.channel("general")

    async def post(self, what: str, who: Any, **body: Any) -> tuple[int, dict[str, Any]]:
        payload = {"guild": str(self.guild.id), "channel": str(self.channel.id),
                   "member": str(who.id) if who else "", **body}
        async with self.http.post(self.base + what, json=payload) as response:
            return response.status, await response.json()

    async def state(self, member: Any, **query: str) -> dict[str, Any]:
        params = {"guild": str(self.guild.id), "channel": str(self.channel.id),
                  "member": str(member.id), **query}
        async with self.http.get(self.base + "state", params=params) as response:
            assert response.status == 200
            return await response.json()

    async def answer(self, predicate: Any) -> dict[str, Any]:
        return await self.fake.wait_for_message(predicate, timeout=5)


@pytest.fixture
async def api(fake: FakeDiscord, guild: SandboxGuild) -> AsyncIterator[Api]:  # noqa: F811
    bot = commands.Bot(command_prefix=commands.when_mentioned,
                       intents=discord.Intents.default(), guild_ready_timeout=0.05)
    await bot.add_cog(Cog())
    bot.add_view(Menu())
    running = await start_bot(bot, fake)
    await bot.tree.sync()
    try:
        async with aiohttp.ClientSession() as http:
            yield Api(fake, guild, http)
    finally:
        await running.stop()


def _content(text: str) -> Any:
    return lambda m: m["content"] == text


async def test_a_select_menu_and_a_modal_reach_the_bot(api: Api) -> None:
    ann = api.fake.players(api.guild)[0]
    status, _ = await api.post("command", ann, text="/menu", nonce="n1")
    assert status == 200
    menu = await api.answer(_content("pick"))
    status, body = await api.post("component", ann, message=menu["id"],
                                  custom_id="menu:colour", values=["x"])
    assert (status, body["error"]) == (400, "'x' is not an option of the menu")
    await api.post("component", ann, message=menu["id"], custom_id="menu:colour", values=["b"])
    await api.answer(_content("chose b"))

    await api.post("component", ann, message=menu["id"], custom_id="menu:note")
    modal = None
    while modal is None:  # the page learns of the modal from the state
        modal = (await api.state(ann, since=""))["modal"]
    assert modal["title"] == "A note"
    assert (await api.state(api.fake.players(api.guild)[1]))["modal"] is None  # Ann's only
    status, _ = await api.post("modal", ann, token=modal["token"],
                               values={"note:text": "Rook \u265c on e1"})
    assert status == 200
    await api.answer(_content("noted: Rook \u265c on e1"))
    status, body = await api.post("modal", ann, token=modal["token"], values={})
    assert (status, body["error"]) == (400, "no open modal of this member for that interaction")
    submits = [r for r in api.fake.interactions.values() if r.payload["type"] == MODAL_SUBMIT]
    assert len(submits) == 1
    assert api.fake.unhandled == []


async def test_a_retried_action_acts_once_and_a_new_one_acts_again(api: Api) -> None:
    ann = api.fake.players(api.guild)[0]
    for _ in range(3):
        status, _ = await api.post("command", ann, text="/secret word:one", nonce="same")
        assert status == 200
    await api.post("command", ann, text="/secret word:two", nonce="other")
    await api.answer(_content("psst two"))
    commands_sent = [r for r in api.fake.interactions.values()
                     if r.payload["type"] == APPLICATION_COMMAND]
    assert len(commands_sent) == 2


async def test_each_member_sees_only_their_own_ephemeral_answers(api: Api) -> None:
    ann, bob = api.fake.players(api.guild)[:2]
    await api.post("command", ann, text='/secret word:"for Ann"')
    await api.answer(_content("psst for Ann"))
    seen_by_ann = [m["content"] for m in (await api.state(ann))["messages"]]
    seen_by_bob = [m["content"] for m in (await api.state(bob))["messages"]]
    assert seen_by_ann == ["psst for Ann"]
    assert seen_by_bob == []


async def test_the_state_waits_for_a_change_then_shows_it(api: Api) -> None:
    ann = api.fake.players(api.guild)[0]
    before = await api.state(ann)
    waiting = api.state(ann, since=before["digest"])
    await api.post("command", ann, text="/picture")
    after = await waiting
    while not after["messages"]:  # the first change may be the interaction, not the answer
        after = await api.state(ann, since=after["digest"])
    assert after["digest"] != before["digest"]
    [picture] = after["messages"][-1]["attachments"]
    assert picture["filename"] == "board.png"
    async with api.http.get(api.fake.console_url.removesuffix("/console/") + picture["url"]) as r:
        assert r.content_type == "image/png"
        assert await r.read() == PNG


async def test_the_bots_own_autocomplete_is_offered_quoted(api: Api) -> None:
    ann = api.fake.players(api.guild)[0]
    params = {"guild": str(api.guild.id), "channel": str(api.channel.id), "member": str(ann.id),
              "text": "/pick event:s"}
    async with api.http.get(api.base + "complete", params=params) as response:
        offered = await response.json()
    assert [s["text"] for s in offered] == [
        '/pick event:"Saturday Rapid" ', '/pick event:"Sunday Blitz" ']
    await api.post("command", ann, text=offered[1]["text"])
    await api.answer(_content("picked Sunday Blitz"))


async def test_threads_are_listed_under_their_channel(api: Api) -> None:
    general = api.channel
    thread = SandboxChannel(api.fake.snowflake(), api.guild.id, "Board 1", type=PUBLIC_THREAD,
                            parent_id=general.id)
    api.guild.channels[thread.id] = thread
    channels = (await api.state(api.fake.players(api.guild)[0]))["channels"]
    names = [c["name"] for c in channels]
    assert names.index("Board 1") == names.index("general") + 1
    assert channels[names.index("Board 1")]["thread"] is True


@pytest.mark.parametrize(("body", "error"), [
    ({"text": "/secret"}, "/secret needs word:"),
    ({"text": "/secret word:x", "channel": "dm"},
     "slash commands run in a guild channel: choose one"),
    ({"text": "/secret word:x", "member": "12"}, "choose a member of the guild"),
    ({"text": "x" * 4001}, "a command is at most 4000 characters"),
])
async def test_bad_commands_get_a_clear_error_and_send_nothing(
    api: Api, body: dict[str, Any], error: str
) -> None:
    ann = api.fake.players(api.guild)[0]
    status, answer = await api.post("command", ann, **body)
    assert (status, answer["ok"], answer["error"]) == (400, False, error)
    assert not [r for r in api.fake.interactions.values()
                if r.payload["type"] == APPLICATION_COMMAND]


async def test_a_request_that_is_not_json_is_refused(api: Api) -> None:
    async with api.http.post(api.base + "command", data="text=/secret") as response:
        assert response.status == 400
        assert (await response.json())["error"].startswith("send JSON")


async def test_members_are_added_renamed_and_made_organisers(api: Api) -> None:
    status, added = await api.post("member", None, username="zoe", organiser=True)
    assert status == 200
    zoe = api.guild.members[int(added["member"])]
    assert api.guild.role("Organisers").id in zoe.roles
    status, _ = await api.post("member", zoe, nick="Zoé Ziegler", organiser=False)
    assert status == 200
    view = next(m for m in (await api.state(zoe))["members"] if m["id"] == str(zoe.id))
    assert (view["display_name"], view["organiser"]) == ("Zoé Ziegler", False)
    status, body = await api.post("member", None, username="zoe")
    assert (status, body["error"]) == (400, "'zoe' is already a member")
    status, body = await api.post("member", None, username="two words")
    assert status == 400
    assert "no spaces" in body["error"]
