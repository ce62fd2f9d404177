"""The Confirm / Dispute buttons of a result report.

They are dynamic items: the custom_id ``swissbot:confirm:<game id>`` carries everything the
click needs, and the play cog registers the template when it loads (``add_dynamic_items``), so
buttons on messages posted before a restart keep working.

The reporter's opponent or an organiser may click (the service decides). Once the result is
settled, by a click or another way (the opponent's ``/report``, ``/result set``, a forced round,
an undo), the prompt is edited: its buttons stay visible but disabled, so nobody clicks a dead
button. The service remembers where each prompt was posted (``remember_prompt``).
"""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import discord

from bot.errors import UserFacingError, report_error
from bot.lifecycle import stopping
from bot.render import requests as requests_render
from bot.render import tournament as render
from bot.render.format import plain
from bot.render.message import allowed_mentions
from cogs.common import actor_of, announced, answer, service_of
from i18n import N_, _
from service import (
    Actor,
    AlreadyFinalError,
    AlreadyReportedError,
    ConflictError,
    NotYourGameError,
    TournamentNotRunningError,
    UnknownGameError,
)
from service.validation import MAX_ID
from service.views import RequestsView

log = logging.getLogger(__name__)

# (the labels in the language of whoever the buttons are shown to: _(label) where built)
ACTIONS = {"confirm": (N_("Confirm"), discord.ButtonStyle.success),
           "dispute": (N_("Dispute"), discord.ButtonStyle.danger)}


class ReportButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:(?P<action>confirm|dispute):(?P<game>[0-9]+)",
):
    def __init__(self, action: str, game_id: int) -> None:
        label, style = ACTIONS[action]
        super().__init__(
            discord.ui.Button(label=_(label), style=style,
                              custom_id=f"swissbot:{action}:{game_id}")
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> ReportButton:
        return cls(match["action"], _id(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # Errors are handled here: a view's default handler would only log them.
        try:
            actor = await actor_of(interaction)
            service = service_of(interaction)
            if self.action == "confirm":
                outcome = await service.confirm_result(actor, self.game_id)
            else:
                outcome = await service.dispute_result(actor, self.game_id)
            # keep the report's embed (who reported what); the content says what happened,
            # and both buttons are disabled (the other one can no longer apply either)
            await interaction.response.edit_message(
                content=render.report_answer(outcome),
                view=answered_buttons(self.game_id),
                allowed_mentions=allowed_mentions(),
            )
            await service.close_prompt(actor.guild_id, self.game_id)
            announced(interaction)
        except Exception as exc:
            await report_error(interaction, exc, f"the {self.action} button")
            if isinstance(exc, SETTLED):
                await disable_clicked(interaction, answered_buttons(self.game_id))
                await close_settled_prompts(interaction)
            return
        await close_settled_prompts(interaction)


def _id(digits: str) -> int:
    """An id from a button's custom_id. A forged one beyond the database's integers becomes
    0, which names nothing: the click gets the service's specific "does not exist" answer
    instead of an overflow deep in the database driver."""
    value = int(digits)
    return value if 0 < value <= MAX_ID else 0


# Refusals that mean the prompt will never apply again: the result is final or disputed, the
# game is gone (its round was undone), or the event is over (finished, cancelled). Not "being
# paired" (it passes).
SETTLED = (AlreadyFinalError, AlreadyReportedError, UnknownGameError, TournamentNotRunningError)


async def disable_clicked(interaction: discord.Interaction, disabled: discord.ui.View) -> None:
    """A click on a prompt that no longer applies was refused (the ephemeral answer says
    why): disable the buttons of the clicked message too, so nobody clicks them again. A
    prompt nobody remembered (or sent before this was done) is closed this way."""
    message = interaction.message
    if message is None:
        return
    try:
        await message.edit(view=disabled, allowed_mentions=allowed_mentions())
    except discord.HTTPException:
        log.info("cannot disable the buttons of message %s", message.id, exc_info=True)


def report_buttons(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton("confirm", game_id))
    view.add_item(ReportButton("dispute", game_id))
    return view


def answered_buttons(game_id: int) -> discord.ui.View:
    """The same two buttons, disabled: what an answered prompt shows."""
    view = discord.ui.View(timeout=None)
    for action, (label, style) in ACTIONS.items():
        view.add_item(discord.ui.Button(label=_(label), style=style, disabled=True,
                                        custom_id=f"swissbot:{action}:{game_id}"))
    view.stop()  # nothing to listen to: the buttons are disabled
    return view


async def remember_prompt(interaction: discord.Interaction, game_id: int) -> None:
    """After posting a report prompt as the reply: note where it is, so that it can be closed
    when the result is settled another way."""
    try:
        message = await interaction.original_response()
        await service_of(interaction).remember_prompt(
            interaction.guild_id, game_id, message.channel.id, message.id
        )
    except Exception:  # the prompt still works; only its later clean-up is lost
        log.warning("cannot remember the report prompt of game %s", game_id, exc_info=True)


async def close_settled_prompts(source: discord.Interaction | Any) -> int:
    """Disable the buttons of every open prompt of the guild whose result is settled (or whose
    round was undone) by editing the message. Called after the commands that can settle a
    result; never fails the command (it has answered already). Returns how many were closed."""
    guild_id = getattr(source, "guild_id", None)
    client: Any = getattr(source, "client", None)
    if guild_id is None or client is None:
        return 0
    service = client.service
    closed = 0
    try:
        prompts = await service.settled_prompts(guild_id)
    except Exception:
        log.warning("cannot list the settled report prompts", exc_info=True)
        return 0
    for prompt in prompts:
        if stopping(client):
            break  # the session closes next: the guild's next settling command does the rest
        if prompt.game_id in _CLOSING:
            continue  # another command of this process is closing it right now
        _CLOSING.add(prompt.game_id)
        try:
            closed += await _close_prompt(client, service, guild_id, prompt)
        finally:
            _CLOSING.discard(prompt.game_id)
    return closed


#: The games whose prompt a command of this process is closing now. Every report and click
#: closes the guild's settled prompts; with many games reported at once they would all edit
#: the same messages (one edit each is enough; another process's edit is harmless).
_CLOSING: set[int] = set()


async def _close_prompt(client: Any, service: Any, guild_id: int, prompt: Any) -> int:
    """Disable one prompt's buttons and mark it closed: 1 when this call closed it."""
    try:
        channel = client.get_channel(prompt.channel_id) or await client.fetch_channel(
            prompt.channel_id)
        await channel.get_partial_message(prompt.message_id).edit(
            content=render.prompt_closed(prompt.game),
            view=answered_buttons(prompt.game_id),
            allowed_mentions=allowed_mentions(),
        )
    except (discord.NotFound, discord.Forbidden):
        pass  # deleted, or no longer ours to edit: nothing left to disable
    except Exception:
        log.warning("cannot close the report prompt of game %s; retrying later",
                    prompt.game_id, exc_info=True)
        return 0
    try:
        return 1 if await service.close_prompt(guild_id, prompt.game_id) else 0
    except Exception:  # edited already; at worst it is edited again next time
        log.warning("cannot mark the report prompt of game %s closed", prompt.game_id,
                    exc_info=True)
        return 0



class NoShowObjectButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:noshow-object:(?P<game>[0-9]+)",
):
    """"I am here" on a no-show claim (bot.render.timers posts it with the announcement)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=_("I am here"), style=discord.ButtonStyle.primary,
                                           custom_id=f"swissbot:noshow-object:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> NoShowObjectButton:
        return cls(_id(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            claim = await service_of(interaction).object_no_show(
                await actor_of(interaction), self.game_id)
            # The button has done its work: the claim message loses it, says what happened.
            await interaction.response.edit_message(
                content=f"🙋 {plain(claim.opponent.name, 60)} is here: the no-show claim on "
                f"board {claim.game.board} lapses.",
                view=None,
                allowed_mentions=allowed_mentions(),
            )
            announced(interaction)
        except Exception as exc:
            await report_error(interaction, exc, "the I am here button")

class DraftButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=(r"swissbot:draft:(?P<action>swap|pair|bye|publish):(?P<t>[0-9]+):"
              r"(?P<version>[0-9]+)(?::(?P<a>[0-9]+))?(?::(?P<b>[0-9]+))?"),
):
    """"Apply anyway" on an edit that breaks a rule, and "Publish" on a draft. The custom_id
    names the tournament, the draft version and the players (pairing numbers), so a click on
    an old message acts on that version or is refused; it survives restarts."""

    def __init__(self, action: str, tournament_id: int, version: int,
                 players: tuple[int, ...] = ()) -> None:
        custom_id = ":".join(["swissbot", "draft", action, str(tournament_id), str(version),
                              *(str(p) for p in players)])
        label = (_("Publish v{version}", version=version) if action == "publish"
                 else _("Apply anyway"))
        style = discord.ButtonStyle.success if action == "publish" else \
            discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.action = action
        self.tournament_id = tournament_id
        self.version = version
        self.players = players

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> DraftButton:
        players = tuple(_id(p) for p in (match["a"], match["b"]) if p)
        return cls(match["action"], _id(match["t"]), _id(match["version"]), players)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            actor = await actor_of(interaction)
            service = service_of(interaction)
            refs = [f"#{p}" for p in self.players]
            if self.action == "publish":
                view = await service.publish_draft(actor, version=self.version,
                                                   tournament=self.tournament_id)
                announced(interaction)
                await interaction.response.edit_message(
                    content=f"Round {view.number} is published (draft v{self.version}).",
                    view=None, allowed_mentions=allowed_mentions())
                return
            edit_op = {"swap": service.swap_in_draft, "pair": service.pair_in_draft,
                       "bye": service.bye_in_draft}[self.action]
            edit = await edit_op(actor, *refs, version=self.version, confirm=True,
                                 tournament=self.tournament_id)
            await interaction.response.edit_message(
                content=requests_render.draft_edit(edit),
                embeds=[requests_render.draft(edit.draft)],
                view=draft_buttons(edit.draft.tournament_id, edit.draft.version),
                allowed_mentions=allowed_mentions(),
            )
        except Exception as exc:
            await report_error(interaction, exc, "the draft button")


def draft_buttons(tournament_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DraftButton("publish", tournament_id, version))
    return view


def confirm_edit_button(tournament_id: int, action: str, version: int,
                        players: tuple[int, ...]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DraftButton(action, tournament_id, version, players))
    return view


class LeaveButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:leave:(?P<t>[0-9]+):(?P<user>[0-9]+)",
):
    """The player's confirmation of /leave after the start: it files the request an
    organiser decides. Only the member who ran /leave can click it."""

    def __init__(self, tournament_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(
            label=_("Yes, ask to leave"), style=discord.ButtonStyle.danger,
            custom_id=f"swissbot:leave:{tournament_id}:{user_id}"))
        self.tournament_id = tournament_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> LeaveButton:
        return cls(_id(match["t"]), _id(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.user.id != self.user_id:
                raise UserFacingError("This button is for the player who ran /leave.")
            await service_of(interaction).request_leave(await actor_of(interaction),
                                                        self.tournament_id)
            await interaction.response.edit_message(
                content="Your request to leave is filed: an organiser will decide, and you "
                "will be told.", view=None, allowed_mentions=allowed_mentions())
        except Exception as exc:
            await report_error(interaction, exc, "the leave button")


class DecisionButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=(r"swissbot:decide:(?P<verdict>approve|deny):(?P<what>bye|leave):(?P<t>[0-9]+):"
              r"(?P<player>[0-9]+):(?P<round>[0-9]+)"),
):
    """Approve / Deny under /tournament info: names the request (kind, player by database
    number, round), so a second click finds it decided and is refused."""

    def __init__(self, verdict: str, what: str, tournament_id: int, number: int,
                 round_number: int, label: str) -> None:
        style = discord.ButtonStyle.success if verdict == "approve" else \
            discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=label[:80], style=style,
            custom_id=f"swissbot:decide:{verdict}:{what}:{tournament_id}:{number}:"
                      f"{round_number}"))
        self.verdict, self.what = verdict, what
        self.tournament_id, self.number, self.round_number = tournament_id, number, round_number

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> DecisionButton:
        return cls(match["verdict"], match["what"], _id(match["t"]), _id(match["player"]),
                   _id(match["round"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            actor = await actor_of(interaction)
            service = service_of(interaction)
            approve = self.verdict == "approve"
            if self.what == "bye":
                request = await service.decide_bye_request(
                    actor, f"#{self.number}", self.round_number, approve=approve,
                    tournament=self.tournament_id)
                text = (f"{'Approved' if approve else 'Denied'}: {plain(request.player.name)}'s "
                        f"{request.kind} bye in round {request.round}.")
            else:
                player = await service.decide_leave_request(
                    actor, f"#{self.number}", approve=approve, tournament=self.tournament_id)
                text = (f"{'Approved' if approve else 'Denied'}: "
                        f"{plain(player.name)}'s request to leave.")
            announced(interaction)
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=allowed_mentions())
        except Exception as exc:
            await report_error(interaction, exc, "the decision button")


def leave_button(tournament_id: int, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(tournament_id, user_id))
    return view


#: Requests with buttons under /tournament info (two buttons each; Discord allows 25).
DECISION_BUTTONS = 10


def decision_buttons(requests: RequestsView) -> discord.ui.View | None:
    """Approve / Deny for the first requests (the others by /admin approve and /admin deny)."""
    items: list[tuple[str, int, int, str]] = []
    for bye in requests.byes:
        if bye.player.number is not None:
            items.append(("bye", bye.player.number, bye.round,
                          f"{bye.player.name} · bye r{bye.round}"))
    for seat in requests.leaves:
        if seat.number is not None:
            items.append(("leave", seat.number, 0, f"{seat.name} · leave"))
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for what, number, round_number, label in items[:DECISION_BUTTONS]:
        view.add_item(DecisionButton("approve", what, requests.tournament_id, number,
                                     round_number, f"✓ {label}"))
        view.add_item(DecisionButton("deny", what, requests.tournament_id, number,
                                     round_number, f"✗ {label}"))
    return view


class ResultButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:result:(?P<game>[0-9]+):(?P<side>white|draw|black)",
):
    """The result buttons under the pairing in a game's thread (issue 16): one of the two
    players reports with a click, exactly like ``/report``; the reply is the usual Confirm /
    Dispute prompt for the opponent, in the thread."""

    def __init__(self, game_id: int, side: str) -> None:
        super().__init__(discord.ui.Button(label=side, custom_id=f"swissbot:result:{game_id}:"
                                                                 f"{side}"))
        self.game_id = game_id
        self.side = side

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> ResultButton:
        return cls(_id(match["game"]), match["side"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            actor = await actor_of(interaction)
            service = service_of(interaction)
            game = await service.get_game(actor.guild_id, self.game_id)
            as_white = game.white.user_id == actor.user_id
            if not as_white and game.black.user_id != actor.user_id:
                raise NotYourGameError(
                    "Only the two players of this board report with these buttons; organisers "
                    "set results with `/result set`.")
            info = await service.tournament_info(actor.guild_id, game.tournament_id)
            if info.current_round != game.round or info.status != "running":
                # report_result acts on the player's current game: never on another round's
                raise ConflictError(
                    f"This thread is for round {game.round}, which is over: report the current "
                    "round with `/report`, or ask an organiser (`/result set`).")
            result = "draw" if self.side == "draw" else (
                "win" if (self.side == "white") == as_white else "loss")
            outcome = await service.report_result(
                # the thread's game names its round: never recorded on a later one
                actor, result, tournament=game.tournament_id, round_number=game.round)
            announced(interaction)
            prompt = render.report_prompt(outcome)
            if outcome.status == "awaiting_confirmation":
                await answer(interaction, prompt.content, embeds=prompt.embeds,
                             view=report_buttons(outcome.game.id),
                             mention_users=prompt.mention_users)
                await remember_prompt(interaction, outcome.game.id)
                return
            await answer(interaction, render.report_answer(outcome), embeds=prompt.embeds)
        except Exception as exc:
            await report_error(interaction, exc, "the result button")
            return
        await close_settled_prompts(interaction)


class DmAnswerButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:dm:(?P<action>confirm|dispute):(?P<guild>[0-9]+):(?P<game>[0-9]+)",
):
    """Confirm / Dispute in a direct message (issue 16). A DM has no guild: the custom_id
    names it, and the clicker acts as a plain member (organisers answer in the server); the
    service still checks that he is the reporter's opponent in that guild."""

    def __init__(self, action: str, guild_id: int, game_id: int) -> None:
        label, style = ACTIONS[action]
        super().__init__(discord.ui.Button(
            label=_(label), style=style,
            custom_id=f"swissbot:dm:{action}:{guild_id}:{game_id}"))
        self.action = action
        self.guild_id = guild_id
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> DmAnswerButton:
        return cls(match["action"], _id(match["guild"]), _id(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            actor = Actor(user_id=interaction.user.id, guild_id=self.guild_id,
                          display_name=interaction.user.display_name)
            service = service_of(interaction)
            if self.action == "confirm":
                outcome = await service.confirm_result(actor, self.game_id)
            else:
                outcome = await service.dispute_result(actor, self.game_id)
            await interaction.response.edit_message(
                content=render.report_answer(outcome),
                view=dm_answered_buttons(self.guild_id, self.game_id),
                allowed_mentions=allowed_mentions(),
            )
            announced(interaction)
        except Exception as exc:
            await report_error(interaction, exc, f"the {self.action} button")
            if isinstance(exc, SETTLED):
                await disable_clicked(interaction,
                                      dm_answered_buttons(self.guild_id, self.game_id))
            return
        # the prompt in the server (or thread) is settled too: disable its buttons
        await close_settled_prompts(SimpleNamespace(guild_id=self.guild_id,
                                                    client=interaction.client))


def dm_answered_buttons(guild_id: int, game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action, (label, style) in ACTIONS.items():
        view.add_item(discord.ui.Button(label=label, style=style, disabled=True,
                                        custom_id=f"swissbot:dm:{action}:{guild_id}:{game_id}"))
    view.stop()
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem], ...] = (  # type: ignore[type-arg]
    ReportButton, NoShowObjectButton, DraftButton, LeaveButton, DecisionButton, ResultButton,
    DmAnswerButton,
)
