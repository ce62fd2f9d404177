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
from functools import lru_cache
from importlib import util as import_util
from pathlib import Path
from typing import Any, Literal, TypeVar

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
FONT_SIZE = 16

_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_SYSTEM_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)

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


@lru_cache(maxsize=8)
def font(size: int = FONT_SIZE, bold: bool = False) -> Any:
    """DejaVu Sans (wide Unicode coverage) from the system or matplotlib's copy, else
    Pillow's own scalable default font."""
    from PIL import ImageFont

    name = _FONT_FILES[1 if bold else 0]
    for folder in _font_dirs():
        path = folder / name
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def _font_dirs() -> list[Path]:
    dirs = list(_SYSTEM_FONT_DIRS)
    spec = import_util.find_spec("matplotlib")  # finds it without importing it
    if spec is not None and spec.origin:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


def clip(text: str, width: float, face: Any) -> str:
    """``text`` cut with "…" to fit ``width`` pixels in ``face``."""
    text = clean(text)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: float, face: Any) -> list[str]:
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


def draw_table(table: Table, *, scale: int = 2) -> bytes:
    """The table as PNG bytes, checked against Discord's attachment limit. ``scale`` 2 draws
    at twice the size, so the text stays sharp when Discord scales the preview."""
    from PIL import Image, ImageDraw

    width = PADDING * 2 + sum(c.width for c in table.columns)
    if width * scale > MAX_WIDTH and scale > 1:
        return draw_table(table, scale=1)
    if width > MAX_WIDTH:
        raise PictureError("the table is too wide for a readable picture")
    header_height = 74
    small, regular = font(13 * scale), font(FONT_SIZE * scale)
    bold, big = font(FONT_SIZE * scale, True), font(22 * scale, True)
    inner = width - 2 * PADDING
    # the footer (a legend) is wrapped to the card's width: all of it stays in the picture
    footer = wrap(table.footer, inner * scale, small) if table.footer else []
    footer_height = (FOOTER_LINE * len(footer) + 10) if footer else 0
    height = header_height + PADDING + ROW_HEIGHT * (len(table.rows) + 1) + PADDING + footer_height
    image = Image.new("RGB", (width * scale, height * scale), BACKGROUND)
    pen = ImageDraw.Draw(image)

    def box(x0: float, y0: float, x1: float, y1: float, colour: tuple[int, int, int]) -> None:
        pen.rectangle((x0 * scale, y0 * scale, x1 * scale - 1, y1 * scale - 1), fill=colour)

    def text(x: float, y: float, value: str, face: Any, colour: tuple[int, int, int],
             anchor: str = "lm") -> None:
        pen.text((x * scale, y * scale), value, font=face, fill=colour, anchor=anchor)

    box(0, 0, width, header_height, HEADER)
    text(PADDING, 22, clip(table.server, inner * scale, small), small, HEADER_MUTED)
    text(PADDING, 46, clip(table.title, inner * scale, big), big, HEADER_TEXT)
    text(PADDING, 64, clip(table.subtitle, inner * scale, small), small, HEADER_MUTED)

    y = header_height + PADDING
    titles = [c.title for c in table.columns]
    _draw_cells(table.columns, titles, y, text, small, small, MUTED, scale)
    y += ROW_HEIGHT
    for index, row in enumerate(table.rows):
        if row.highlight:
            box(PADDING / 2, y, width - PADDING / 2, y + ROW_HEIGHT, HIGHLIGHT)
        elif index % 2 == 0:
            box(PADDING / 2, y, width - PADDING / 2, y + ROW_HEIGHT, STRIPE)
        if row.gap:
            text(width / 2, y + ROW_HEIGHT / 2, "⋯", bold, MUTED, anchor="mm")
        else:
            _draw_cells(table.columns, row.cells, y, text, regular, bold,
                        MUTED if row.muted else TEXT, scale)
        y += ROW_HEIGHT
    box(0, height - 3, width, height, BORDER)
    y += PADDING / 2
    for line in footer:
        text(PADDING, y + FOOTER_LINE / 2, line, small, MUTED)
        y += FOOTER_LINE
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    data = out.getvalue()
    if len(data) > MAX_ATTACHMENT_BYTES:
        if scale > 1:
            return draw_table(table, scale=1)
        raise PictureError("the picture would be larger than Discord's 10 MB attachment limit")
    return data


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
