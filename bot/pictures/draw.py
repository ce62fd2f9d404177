"""Drawing helpers shared by every picture: theme, fonts, plain-text cells, the card, PNG.

A picture is a list of rows of cells drawn on an opaque card (so it reads the same on
Discord's dark and light themes), under a header band with the server's name and the event's
title. Nothing here knows what a standings table is.
"""

from __future__ import annotations

import asyncio
import io
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import util as import_util
from typing import Any, Literal, TypeVar

from bot.pictures.faces import FONT_SIZE, Face, draw_text, font

#: Discord's attachment limit for a server without boosts (bigger servers allow more).
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
#: Widest picture we draw: Discord shows wider ones scaled down to unreadable text.
MAX_WIDTH = 4000

# An opaque light card with dark text and a dark header: contrast ≥ 7:1 on both, and the
# card's own background means Discord's theme never shows through.
BACKGROUND = (250, 250, 252)
STRIPE = (236, 238, 244)
HIGHLIGHT = (255, 236, 179)  # the caller's own row
TEXT = (24, 26, 32)
MUTED = (92, 98, 112)
HEADER = (35, 39, 52)
HEADER_TEXT = (255, 255, 255)
HEADER_MUTED = (190, 196, 214)
BORDER = (88, 101, 242)

PADDING = 16
ROW_HEIGHT = 30
FOOTER_LINE = 18

T = TypeVar("T")


class PictureError(Exception):
    """The picture cannot be made (too large, too many players): the message says why."""


class PicturesUnavailable(PictureError):
    """Pillow is not installed."""


def missing_reason() -> str | None:
    """Why pictures cannot be drawn here, or None when they can."""
    if import_util.find_spec("PIL") is None:
        return ("pictures need Pillow, which is not installed on this bot "
                "(pip install 'swissbot[pictures]')")
    return None


# One picture at a time: the machine's cores belong to the bot's other work too. A thread
# lock (taken in the worker thread), not an asyncio one: it is bound to no event loop.
_RENDERING = threading.Lock()


async def render(draw: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a drawing function in a worker thread, so the event loop keeps answering."""
    reason = missing_reason()
    if reason is not None:
        raise PicturesUnavailable(reason)

    def locked() -> T:
        with _RENDERING:
            return draw(*args, **kwargs)

    return await asyncio.to_thread(locked)


# -- text ------------------------------------------------------------------------------------
def clean(text: str) -> str:
    """User text as plain drawable text: control and format characters (newlines, bidi
    overrides, zero-width joiners that some fonts choke on) become spaces or go."""
    out = []
    for char in str(text):
        category = unicodedata.category(char)
        if category == "Cc":
            out.append(" ")
        elif category in ("Cf", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(char)
    return " ".join("".join(out).split())


def clip(text: str, width: float, face: Face) -> str:
    """``text`` cut with "…" to fit ``width`` pixels in ``face``."""
    text = clean(text)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: float, face: Face) -> list[str]:
    """``text`` in lines that fit ``width`` pixels in ``face``, broken between words (a word
    wider than the line is clipped, never drawn past the edge)."""
    lines: list[str] = []
    line = ""
    for word in clean(text).split():
        candidate = f"{line} {word}" if line else word
        if line and face.getlength(candidate) > width:
            lines.append(clip(line, width, face))
            candidate = word
        line = candidate
    return [*lines, clip(line, width, face)]


# -- tables ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Column:
    title: str
    width: int
    align: Literal["left", "right", "center"] = "left"
    bold: bool = False


@dataclass(slots=True)
class Row:
    cells: Sequence[str]
    highlight: bool = False
    gap: bool = False  # the "⋯" marker between the top and the caller's own row
    muted: bool = False  # e.g. a withdrawn player


@dataclass(slots=True)
class Table:
    server: str
    title: str
    subtitle: str
    columns: Sequence[Column]
    rows: list[Row] = field(default_factory=list)
    footer: str = ""


#: Height of the header band with the server's name, the title and the subtitle.
HEADER_HEIGHT = 74


class PictureTooLarge(PictureError):
    """The PNG is over Discord's attachment limit (a smaller scale may fit)."""


class Card:
    """An opaque card ``width`` × ``height`` logical pixels drawn at ``scale``, with the
    header band (server, title, subtitle) on top and the accent line at the bottom. Drawing
    calls take logical coordinates."""

    def __init__(self, width: float, height: float, *, scale: int, server: str, title: str,
                 subtitle: str) -> None:
        from PIL import Image, ImageDraw

        self.width, self.height, self.scale = width, height, scale
        self.image = Image.new("RGB", (round(width * scale), round(height * scale)), BACKGROUND)
        self.pen = ImageDraw.Draw(self.image)
        small, big = font(13 * scale), font(22 * scale, True)
        inner = (width - 2 * PADDING) * scale
        self.box(0, 0, width, HEADER_HEIGHT, HEADER)
        self.text(PADDING, 22, clip(server, inner, small), small, HEADER_MUTED)
        self.text(PADDING, 46, clip(title, inner, big), big, HEADER_TEXT)
        self.text(PADDING, 64, clip(subtitle, inner, small), small, HEADER_MUTED)
        self.box(0, height - 3, width, height, BORDER)

    def box(self, x0: float, y0: float, x1: float, y1: float, colour: tuple[int, int, int],
            outline: tuple[int, int, int] | None = None, radius: float = 0) -> None:
        s = self.scale
        self.pen.rounded_rectangle((x0 * s, y0 * s, x1 * s - 1, y1 * s - 1), radius=radius * s,
                                   fill=colour, outline=outline, width=s if outline else 0)

    def line(self, points: Sequence[tuple[float, float]], colour: tuple[int, int, int],
             width: float = 1.5) -> None:
        s = self.scale
        self.pen.line([(x * s, y * s) for x, y in points], fill=colour,
                      width=max(1, round(width * s)), joint="curve")

    def text(self, x: float, y: float, value: str, face: Face, colour: tuple[int, int, int],
             anchor: str = "lm") -> None:
        draw_text(self.image, (x * self.scale, y * self.scale), value, face, colour, anchor)

    def png(self) -> bytes:
        """The card as PNG bytes; :class:`PictureTooLarge` over Discord's limit."""
        out = io.BytesIO()
        self.image.save(out, format="PNG", optimize=True)
        data = out.getvalue()
        if len(data) > MAX_ATTACHMENT_BYTES:
            raise PictureTooLarge(
                "the picture would be larger than Discord's 10 MB attachment limit")
        return data


def draw_table(table: Table, *, scale: int = 2) -> bytes:
    """The table as PNG bytes, checked against Discord's attachment limit. ``scale`` 2 draws
    at twice the size, so the text stays sharp when Discord scales the preview."""
    width = PADDING * 2 + sum(c.width for c in table.columns)
    if width * scale > MAX_WIDTH and scale > 1:
        return draw_table(table, scale=1)
    if width > MAX_WIDTH:
        raise PictureError("the table is too wide for a readable picture")
    small, regular = font(13 * scale), font(FONT_SIZE * scale)
    bold = font(FONT_SIZE * scale, True)
    inner = width - 2 * PADDING
    # the footer (a legend) is wrapped to the card's width: all of it stays in the picture
    footer = wrap(table.footer, inner * scale, small) if table.footer else []
    footer_height = (FOOTER_LINE * len(footer) + 10) if footer else 0
    height = HEADER_HEIGHT + PADDING + ROW_HEIGHT * (len(table.rows) + 1) + PADDING + footer_height
    card = Card(width, height, scale=scale, server=table.server, title=table.title,
                subtitle=table.subtitle)

    y = HEADER_HEIGHT + PADDING
    titles = [c.title for c in table.columns]
    _draw_cells(table.columns, titles, y, card.text, small, small, MUTED, scale)
    y += ROW_HEIGHT
    for index, row in enumerate(table.rows):
        if row.highlight:
            card.box(PADDING / 2, y, width - PADDING / 2, y + ROW_HEIGHT, HIGHLIGHT)
        elif index % 2 == 0:
            card.box(PADDING / 2, y, width - PADDING / 2, y + ROW_HEIGHT, STRIPE)
        if row.gap:
            card.text(width / 2, y + ROW_HEIGHT / 2, "⋯", bold, MUTED, anchor="mm")
        else:
            _draw_cells(table.columns, row.cells, y, card.text, regular, bold,
                        MUTED if row.muted else TEXT, scale)
        y += ROW_HEIGHT
    y += PADDING / 2
    for line in footer:
        card.text(PADDING, y + FOOTER_LINE / 2, line, small, MUTED)
        y += FOOTER_LINE
    try:
        return card.png()
    except PictureTooLarge:
        if scale > 1:
            return draw_table(table, scale=1)
        raise


def _draw_cells(columns: Sequence[Column], cells: Sequence[str], y: float,
                text: Callable[..., None], regular: Any, bold: Any,
                colour: tuple[int, int, int], scale: int) -> None:
    x = float(PADDING)
    middle = y + ROW_HEIGHT / 2
    for column, value in zip(columns, cells, strict=False):
        face = bold if column.bold else regular
        room = column.width - 8
        shown = clip(value, room * scale, face)
        if column.align == "right":
            text(x + column.width - 4, middle, shown, face, colour, anchor="rm")
        elif column.align == "center":
            text(x + column.width / 2, middle, shown, face, colour, anchor="mm")
        else:
            text(x + 4, middle, shown, face, colour, anchor="lm")
        x += column.width
