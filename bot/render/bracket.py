"""The top cut's bracket as text (a code block, or an attachment when long) and as a PNG
picture (matplotlib, the ``sim`` extra), from the ``bracket`` payload of service.playoffs.

The picture is drawn on an opaque dark-grey card with light text, so it reads the same on
Discord's dark and light themes; names are clipped and drawn without maths parsing (a ``$``
in a name stays a dollar). Drawing takes a few hundred milliseconds: callers run
:func:`bracket_png` in a worker thread (``asyncio.to_thread``), never on the event loop.
"""

from __future__ import annotations

import io
import logging
from typing import Any

from bot.render.format import code_safe, plain
from bot.render.limits import fit_content
from bot.render.message import BinaryFile, Outgoing, TextFile

log = logging.getLogger(__name__)

NAME_WIDTH = 20
# Discord refuses attachments over 10 MiB for bots (8 MiB on older limits); a bracket of 32
# at this size is about 100 kB.
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
    """The bracket as a PNG (None without matplotlib). Blocking: call it in a thread."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:  # the bot runs without the sim extra: text only
        log.info("matplotlib is not installed: the bracket is posted as text only")
        return None
    rounds = payload.get("rounds", [])
    first = max(1, len(rounds[0]["matches"]) if rounds else 1)
    columns = max(1, len(rounds))
    width = 1.2 + 3.0 * columns
    height = max(2.5, 0.62 * first * 2 + 1.0)
    fig = Figure(figsize=(width, height), dpi=100, facecolor="#2b2d31")
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.9))
    ax.set_facecolor("#2b2d31")
    ax.set_xlim(0, columns * 3.0 + 0.2)
    ax.set_ylim(0, first * 2)
    ax.axis("off")
    name = " ".join(str((payload.get("tournament") or {}).get("name", "Bracket")).split())[:60]
    fig.text(0.02, 0.95, name, color="#f2f3f5", fontsize=14, weight="bold", parse_math=False)
    text_colour, muted, win_colour = "#f2f3f5", "#b5bac1", "#f0b232"
    for c, rnd in enumerate(rounds):
        matches = rnd.get("matches", [])
        span = (first * 2) / max(1, len(matches))
        x = 0.1 + c * 3.0
        ax.text(x, first * 2 - 0.05, str(rnd.get("stage", "")), color=muted, fontsize=9,
                va="top", parse_math=False)
        for i, m in enumerate(matches):
            centre = first * 2 - (i + 0.5) * span - 0.25
            for offset, side in ((0.22, m.get("high")), (-0.22, m.get("low"))):
                if side is None:
                    label = "bye" if m.get("bye") and offset < 0 else "?"
                    colour = muted
                else:
                    label = f"({side['seed']}) {' '.join(str(side['name']).split())[:22]}"
                    colour = win_colour if m.get("winner") == side["seed"] and not m.get(
                        "bye") else text_colour
                ax.text(x, centre + offset, label, color=colour, fontsize=9, va="center",
                        parse_math=False, clip_on=True)
            ax.plot([x - 0.05, x + 2.6, x + 2.6, x - 0.05],
                    [centre + 0.42, centre + 0.42, centre - 0.42, centre - 0.42],
                    color="#4e5058", linewidth=1)
    champion = payload.get("champion")
    if champion:
        fig.text(0.98, 0.95, f"Winner: {' '.join(str(champion['name']).split())[:30]}",
                 color=win_colour, fontsize=12, ha="right", weight="bold", parse_math=False)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", facecolor=fig.get_facecolor())
    data = buffer.getvalue()
    if len(data) > MAX_PNG_BYTES:
        log.warning("bracket picture too large (%d bytes): text only", len(data))
        return None
    return BinaryFile("bracket.png", data)
