"""The top cut's bracket as text (a code block, or an attachment when long) and as a PNG
picture (bot.pictures.bracket: Pillow, the ``pictures`` extra), from the ``bracket`` payload
of service.playoffs.

The picture is the standings' opaque card, so it reads the same on Discord's dark and light
themes; names are clipped and drawn as plain text (a ``$`` in a name stays a dollar).
Drawing a big bracket takes a few hundred milliseconds: callers run :func:`bracket_png` in a
worker thread (``asyncio.to_thread``), never on the event loop.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.pictures.bracket import draw_bracket
from bot.pictures.draw import PictureError, missing_reason
from bot.render.format import code_safe, plain
from bot.render.limits import fit_content
from bot.render.message import BinaryFile, Outgoing, TextFile

log = logging.getLogger(__name__)

NAME_WIDTH = 20
# Discord refuses attachments over 10 MiB for bots (the picture checks that limit); a
# bracket of 32 is about 150 kB.
MAX_PNG_BYTES = 8 * 1024 * 1024
_CONTENT_BUDGET = 1900

_EVENT_TITLE = {
    "seeded": "The top cut is seeded",
    "advanced": "Bracket updated",
    "final": "The bracket is complete",
    "corrected": "Bracket corrected",
}


def _side(side: dict[str, Any] | None, width: int = NAME_WIDTH) -> str:
    if side is None:
        return code_safe("?", width + 5)
    return code_safe(f"({side['seed']}) {side['name']}", width + 5)


def bracket_lines(payload: dict[str, Any]) -> list[str]:
    """The bracket, round by round, as fixed-width lines (for a code block or a file)."""
    lines: list[str] = []
    for rnd in payload.get("rounds", []):
        lines.append(f"{rnd['stage']} (round {rnd['round']})")
        for m in rnd.get("matches", []):
            if m.get("bye"):
                lines.append(f"  {_side(m['high'])} bye")
                continue
            winner = m.get("winner")
            mark = ""
            if winner is not None:
                who = m["high"] if m["high"] and m["high"]["seed"] == winner else m["low"]
                mark = f" -> {code_safe(who['name'], NAME_WIDTH).rstrip()}" if who else ""
                score = m.get("score")
                if mark and isinstance(score, list) and len(score) == 2:
                    mark += f" ({score[0]}-{score[1]})"  # the high seed's games first
            lines.append(f"  {_side(m['high'])} v {_side(m['low']).rstrip()}{mark}")
        lines.append("")
    champion = payload.get("champion")
    if champion:
        lines.append(f"Winner: ({champion['seed']}) "
                     f"{code_safe(champion['name'], NAME_WIDTH).rstrip()}")
    return lines


def bracket_message(payload: dict[str, Any]) -> Outgoing:
    """The bracket post: a title line, the rules, the bracket as a code block (attached as
    a text file when it does not fit one message)."""
    name = plain((payload.get("tournament") or {}).get("name", "the tournament"), 80)
    title = _EVENT_TITLE.get(str(payload.get("event")), "Bracket")
    head = f"🏆 **{name}** · {title}\n{plain(str(payload.get('note', '')), 300)}\n"
    body = "\n".join(bracket_lines(payload)).rstrip()
    text = f"{head}```\n{body}\n```"
    if len(text) <= _CONTENT_BUDGET:
        return Outgoing(content=text)
    return Outgoing(content=fit_content(head + "The whole bracket is attached."),
                    files=[TextFile("bracket.txt", body + "\n")])


def bracket_png(payload: dict[str, Any]) -> BinaryFile | None:
    """The bracket as a PNG (None without Pillow, or when it cannot be drawn). Blocking:
    call it in a thread."""
    if missing_reason() is not None:  # the bot runs without the pictures extra: text only
        log.info("Pillow is not installed: the bracket is posted as text only")
        return None
    try:
        data = draw_bracket(payload)
    except PictureError as exc:
        log.warning("bracket picture not drawn (%s): text only", exc)
        return None
    return BinaryFile("bracket.png", data)
