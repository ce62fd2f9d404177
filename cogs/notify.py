"""``/notify dm:on|off``: a member's choice of direct messages (issue 16)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import actor_of, answer, service_of
from service.limits import DM_CHOICES


class NotifyCog(commands.Cog):
    """How the bot reaches a player besides the tournament channel."""

    @app_commands.command(name="notify", description="Get your pairings and result prompts "
                                                     "by direct message")
    @app_commands.guild_only()
    @app_commands.describe(dm="on: pairings, result prompts, reminders and your final placing "
                              "by DM; off: only in the channel")
    @app_commands.choices(dm=[app_commands.Choice(name=c, value=c) for c in DM_CHOICES])
    async def notify(self, interaction: discord.Interaction, dm: str) -> None:
        setting = await service_of(interaction).set_dm(await actor_of(interaction), dm == "on")
        if setting.enabled:
            text = ("📬 I will send you your pairings, the results to confirm, reminders and "
                    "your final placing by direct message (as well as in the channel). If your "
                    "DMs are closed to me I stop and tell you in the channel.")
        else:
            text = "📭 No more direct messages: everything stays in the tournament channel."
        await answer(interaction, text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NotifyCog())
