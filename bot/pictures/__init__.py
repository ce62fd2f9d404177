"""PNG pictures of an event: the standings and the crosstable (issue 16, item 4).

Drawn with Pillow (the optional ``pictures`` extra: ``pip install 'swissbot[pictures]'``), not
matplotlib: every text is drawn as plain text (no mathtext, so a name like ``$x$`` stays as it
is), it is small, and it draws a box for a glyph the font lacks instead of failing.

``bot.pictures.draw`` holds the reusable pieces (theme, fonts, clipping, the card with its
header, the PNG encoding with the size check); ``standings`` and ``crosstable`` use them, and
so can other pictures (the top-cut bracket). Rendering is CPU work: call :func:`render` from
the event loop, it runs the drawing in a worker thread.
"""

from __future__ import annotations

from bot.pictures.draw import (
    MAX_ATTACHMENT_BYTES,
    PictureError,
    PicturesUnavailable,
    missing_reason,
    render,
)

__all__ = [
    "MAX_ATTACHMENT_BYTES",
    "PictureError",
    "PicturesUnavailable",
    "missing_reason",
    "render",
]
