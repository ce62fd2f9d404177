"""The Confirm / Dispute prompts the bot posted (in the channel, a game's thread or a DM):
where each one is, and which ones were answered another way, so the bot disables their
buttons. Called by the bot's delivery, not by users."""

from __future__ import annotations

from service.base import (
    Context,
    part,
)
from service.errors import (
    UnknownGameError,
)
from service.operation import operation
from service.present import (
    stored_game_view,
)
from service.views import (
    DmPromptView,
    PromptView,
)
from storage import notify as notify_repo
from storage import prompts as prompt_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.shards import ALL, Shards


@part
class Prompts:
    ctx: Context

    @operation
    async def remember_prompt(
        self, guild_id: int, game_id: int, channel_id: int, message_id: int
    ) -> None:
        """Where the Confirm / Dispute prompt of ``game_id`` was posted."""
        async with self.ctx.db.transaction() as conn:
            game = await round_repo.get_game(conn, game_id)
            t = None if game is None else await tournament_repo.get_tournament(
                conn, game.tournament_id)
            if game is None or t is None or t.guild_id != guild_id:
                raise UnknownGameError("This game does not exist in this server.")
            await prompt_repo.remember(conn, game_id=game_id, guild_id=guild_id,
                                       channel_id=channel_id, message_id=message_id,
                                       now=self.ctx.now())

    @operation
    async def settled_prompts(
        self, guild_id: int | None, shards: Shards = ALL
    ) -> list[PromptView]:
        """Open prompts of the guild (None: of every guild on ``shards``, for the background
        pass after a deadline or an automatic round settled results) whose result was settled
        another way (the opponent's /report, /result set, a forced round or finish) or whose
        round was undone."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            views = []
            for row in await prompt_repo.settled(conn, guild_id, shards):
                game = None
                if row.game_state is not None:
                    stored = await round_repo.get_game(conn, row.game_id)
                    t = None if stored is None else await tournament_repo.get_tournament(
                        conn, stored.tournament_id)
                    if t is not None and t.guild_id == row.guild_id:
                        game = await stored_game_view(conn, t, row.game_id)
                views.append(PromptView(row.game_id, row.channel_id, row.message_id, game,
                                        row.guild_id))
            return views

    @operation
    async def close_prompt(self, guild_id: int, game_id: int) -> bool:
        """The prompt's buttons are disabled: True the first time."""
        async with self.ctx.db.transaction() as conn:
            return await prompt_repo.close(conn, guild_id, game_id, self.ctx.now())

    @operation
    async def settled_dm_prompts(self, shards: Shards = ALL) -> list[DmPromptView]:
        """Confirm / Dispute prompts sent by DM (remembered when posted) whose game no longer
        waits for an answer: confirmed, disputed, set by an organiser, closed by a deadline
        or a forced round, or undone. In the guilds of ``shards``."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            views = []
            for row in await notify_repo.open_dm_prompts(conn, shards):
                stored = await round_repo.get_game(conn, row.game_id)
                t = None if stored is None else await tournament_repo.get_tournament(
                    conn, stored.tournament_id)
                if stored is not None and t is not None and t.guild_id == row.guild_id:
                    if stored.state == "reported":
                        continue  # still waiting for this answer
                    game = await stored_game_view(conn, t, row.game_id)
                else:
                    game = None  # its round was undone
                views.append(DmPromptView(row.outbox_id, row.guild_id, row.game_id,
                                          row.channel_id, row.message_id, game))
            return views

    @operation
    async def close_dm_prompt(self, announcement_id: int) -> bool:
        """The DM prompt's buttons are disabled: True the first time."""
        async with self.ctx.db.transaction() as conn:
            return await notify_repo.forget_dm_prompt(conn, announcement_id)
