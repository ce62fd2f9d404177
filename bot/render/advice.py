"""The pairing advisor's answer (``/tournament advise``): one embed within Discord's limits."""

from __future__ import annotations

import discord

from bot.render.format import plain
from bot.render.limits import EMBED_DESCRIPTION, FIELD_VALUE, add_field
from service import AdviceView
from service.limits import clip

FENCE = "```"
FOOTER = ("every figure: mean ± 95% interval · vs: tau minus the reference system's on the same "
          "simulated fields · best wins: the strongest player wins · clear win: one player "
          "alone on the top score · colour: mean |whites − blacks| per player · * the event's "
          "system")


def advice(view: AdviceView) -> discord.Embed:
    """The recommendation, the table in a code block, and the systems not compared."""
    # Imported here: the simulator needs numpy (the optional ``sim`` extra), and a bot without
    # it must still start; an AdviceView only exists when the simulator ran.
    from swiss.sim.advisor import TAU_MEANING, describe, format_table, notes

    result = view.advice
    text = "\n".join(line for line in (result.sentence, result.rounds_sentence,
                                        result.tiebreak_sentence, TAU_MEANING) if line)
    embed = discord.Embed(
        title=f"Pairing advice: {plain(view.tournament_name, 200)}",
        description=clip(text, EMBED_DESCRIPTION),
        colour=discord.Colour.blurple(),
    )
    add_field(embed, f"Simulated: {describe(result)}", table_block(format_table(result)),
              inline=False)
    skipped = notes(result)
    if skipped:
        add_field(embed, "Not compared", "\n".join(skipped), inline=False)
    embed.set_footer(text=FOOTER)
    return embed


def table_block(table: str, limit: int = FIELD_VALUE) -> str:
    """The table in a code block of at most ``limit`` characters: whole lines, and a last
    line saying how many rows did not fit (never a code block cut in the middle)."""
    lines = table.splitlines()
    room = limit - 2 * len(FENCE) - 2 - len("… 999 more")
    kept: list[str] = []
    for line in lines:
        if sum(len(k) + 1 for k in kept) + len(line) + 1 > room:
            break
        kept.append(line)
    if len(kept) < len(lines):
        kept.append(f"… {len(lines) - len(kept)} more")
    return FENCE + "\n" + "\n".join(kept) + "\n" + FENCE
