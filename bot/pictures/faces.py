"""Fonts for the pictures: DejaVu Sans for text, and colour emoji for what DejaVu lacks.

Names are full of emoji (🐉 Drako) and DejaVu has none of the colourful ones: drawn with it
alone they come out as empty boxes. Debian's ``fonts-noto-color-emoji`` (Noto Color Emoji)
has them as colour bitmaps, which Pillow draws only at their one size (109 px): a
:class:`Face` cuts the text into runs, draws the emoji runs from that bitmap font scaled to
the text's size, and the rest with DejaVu. Which font has which character is read from the
fonts' own character maps (fontTools, part of the ``pictures`` extra). Without the emoji font
or fontTools, every character is drawn with DejaVu, as before: boxes, never a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import util as import_util
from pathlib import Path
from typing import Any

FONT_SIZE = 16
#: The one size Noto Color Emoji's bitmaps come in (Pillow refuses any other).
EMOJI_BITMAP_SIZE = 109
#: An emoji's height beside text of size ``size``: a little taller than a capital letter.
EMOJI_SCALE = 1.15

_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_EMOJI_FILES = ("NotoColorEmoji.ttf",)
_SYSTEM_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/truetype/noto"),
    Path("/usr/share/fonts/noto"),
    Path("/usr/local/share/fonts"),
)
# Presentation hints, never drawn on their own: variation selectors (a colour bitmap already
# is the emoji presentation), and skin tones after an emoji (the emoji is drawn plain).
_SELECTORS = frozenset(range(0xFE00, 0xFE10))
_SKIN_TONES = frozenset(range(0x1F3FB, 0x1F400))


def _font_dirs() -> list[Path]:
    dirs = list(_SYSTEM_FONT_DIRS)
    spec = import_util.find_spec("matplotlib")  # finds it without importing it
    if spec is not None and spec.origin:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


def _find(name: str) -> Path | None:
    for folder in _font_dirs():
        if (folder / name).is_file():
            return folder / name
    return None


@lru_cache(maxsize=4)
def _characters(path: Path) -> frozenset[int] | None:
    """The code points ``path`` has a glyph for, or None without fontTools."""
    if import_util.find_spec("fontTools") is None:
        return None
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as found:
        return frozenset(found.getBestCmap() or {})


@lru_cache(maxsize=1)
def _emoji_font() -> tuple[Any, frozenset[int]] | None:
    """Noto Color Emoji and its characters, or None where it (or fontTools) is missing."""
    from PIL import ImageFont

    path = next((p for p in map(_find, _EMOJI_FILES) if p is not None), None)
    if path is None:
        return None
    chars = _characters(path)
    if not chars:
        return None
    try:
        return ImageFont.truetype(str(path), EMOJI_BITMAP_SIZE), chars
    except OSError:  # a FreeType without colour bitmap support
        return None


def has_emoji() -> bool:
    """True when pictures draw colour emoji here (the font and fontTools are installed)."""
    return _emoji_font() is not None


@dataclass(frozen=True, slots=True)
class Face:
    """A text font at one size, with colour emoji for the characters it lacks."""

    text: Any  # PIL.ImageFont.FreeTypeFont (or Pillow's default font)
    size: int
    text_chars: frozenset[int] | None  # None: unknown (Pillow's default font)

    def _emoji(self, char: str) -> bool:
        emoji = _emoji_font()
        if emoji is None or ord(char) not in emoji[1]:
            return False
        if self.text_chars is None:
            return ord(char) >= 0x1F000
        return ord(char) not in self.text_chars

    def runs(self, text: str) -> Iterator[tuple[str, bool]]:
        """``text`` cut into runs, each with True when it is drawn as emoji."""
        run, emoji = "", False
        for char in text:
            if ord(char) in _SELECTORS or (ord(char) in _SKIN_TONES and emoji and run):
                continue
            this = self._emoji(char)
            if run and this != emoji:
                yield run, emoji
                run = ""
            run, emoji = run + char, this
        if run:
            yield run, emoji

    def getlength(self, text: str) -> float:
        """Width of ``text`` in pixels (the emoji at their drawn size)."""
        return sum(self._run_length(run, emoji) for run, emoji in self.runs(text))

    def _run_length(self, run: str, emoji: bool) -> float:
        if not emoji:
            return float(self.text.getlength(run))
        return sum(_emoji_image(char, self.size).width for char in run)


@lru_cache(maxsize=512)
def _emoji_image(char: str, size: int) -> Any:
    """One emoji as an RGBA image of height about ``size`` × EMOJI_SCALE."""
    from PIL import Image, ImageDraw

    found = _emoji_font()
    assert found is not None
    emoji = found[0]
    left, top, right, bottom = emoji.getbbox(char)
    tile = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((-left, -top), char, font=emoji, embedded_color=True)
    height = max(1, round(size * EMOJI_SCALE))
    width = max(1, round(tile.width * height / tile.height))
    return tile.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def font(size: int = FONT_SIZE, bold: bool = False) -> Face:
    """DejaVu Sans (wide Unicode coverage) from the system or matplotlib's copy, else
    Pillow's own scalable default font; colour emoji where installed."""
    from PIL import ImageFont

    path = _find(_FONT_FILES[1 if bold else 0])
    if path is None:
        return Face(ImageFont.load_default(size), size, None)
    return Face(ImageFont.truetype(str(path), size), size, _characters(path))


def draw_text(image: Any, xy: tuple[float, float], text: str, face: Face,
              colour: tuple[int, int, int], anchor: str = "lm") -> None:
    """Draw ``text`` at ``xy`` anchored like Pillow's ``anchor`` (horizontal l/m/r, vertical
    m or s), its emoji pasted in colour, centred on the line."""
    from PIL import ImageDraw

    pen = ImageDraw.Draw(image)
    width = face.getlength(text)
    x, y = xy
    x -= {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    vertical = anchor[1]
    for run, emoji in face.runs(text):
        if not emoji:
            pen.text((x, y), run, font=face.text, fill=colour, anchor="l" + vertical)
            x += face.text.getlength(run)
            continue
        # the emoji's middle on the text's middle (the line's x-height for a baseline anchor)
        middle = y if vertical == "m" else y - face.size * 0.35
        for char in run:
            tile = _emoji_image(char, face.size)
            image.paste(tile, (round(x), round(middle - tile.height / 2)), tile)
            x += tile.width
