"""The top cut's bracket as a picture, on the same card as the standings and crosstable.

One column per playoff round; each match a box with its two seeds (the winner in bold, the
loser muted) and the match score when the payload has it (``score``: the high seed's games,
then the low seed's), else a check mark by the winner. Lines join every match to the one its
winner plays next, and the champion closes the bracket on the right. Drawing is CPU work:
call it through :func:`bot.pictures.render` (a worker thread), never on the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.pictures.draw import (
    BORDER,
    FONT_SIZE,
    HEADER_HEIGHT,
    HIGHLIGHT,
    MAX_WIDTH,
    MUTED,
    PADDING,
    STRIPE,
    TEXT,
    Card,
    PictureTooLarge,
    clip,
    font,
)
from bot.pictures.faces import has_emoji

BOX_WIDTH = 230
LINE_HEIGHT = 26  # one seed's line in a match box
BOX_HEIGHT = 2 * LINE_HEIGHT
ROUND_GAP = 44  # between two columns: room for the connecting lines
MATCH_GAP = 18  # between two first-round matches
STAGE_HEIGHT = 28  # the stage's name above its column
SCORE_WIDTH = 30
LINE = (160, 166, 182)
WHITE = (255, 255, 255)
WON = "✓"

Side = dict[str, Any] | None


def _label(side: Side) -> str:
    return "?" if side is None else f"({side['seed']}) {side['name']}"


def _scores(match: dict[str, Any]) -> tuple[str, str]:
    """What stands right of each seed: the games won, else a check mark by the winner."""
    score = match.get("score")
    if isinstance(score, Sequence) and len(score) == 2 and not match.get("bye"):
        return str(score[0]), str(score[1])
    winner = match.get("winner")
    if winner is None or match.get("bye"):
        return "", ""
    high, low = match.get("high"), match.get("low")
    return (WON if high and high["seed"] == winner else "",
            WON if low and low["seed"] == winner else "")


def _centres(rounds: list[list[dict[str, Any]]], top: float) -> list[list[float]]:
    """The vertical middle of every match box: the first round evenly spaced, every later
    match halfway between the two it follows."""
    first = len(rounds[0]) if rounds else 0
    centres = [[top + i * (BOX_HEIGHT + MATCH_GAP) + BOX_HEIGHT / 2 for i in range(first)]]
    for matches in rounds[1:]:
        before = centres[-1]
        centres.append([(before[2 * i] + before[min(2 * i + 1, len(before) - 1)]) / 2
                        if 2 * i < len(before) else top + BOX_HEIGHT / 2
                        for i in range(len(matches))])
    return centres


def draw_bracket(payload: dict[str, Any], *, server: str = "", scale: int = 2) -> bytes:
    """The bracket of a ``bracket`` payload (service.playoffs) as PNG bytes."""
    rounds = [list(r.get("matches", [])) for r in payload.get("rounds", [])]
    stages = [str(r.get("stage", "")) for r in payload.get("rounds", [])]
    columns = len(rounds) + 1  # the champion's column
    width = 2 * PADDING + columns * BOX_WIDTH + (columns - 1) * ROUND_GAP
    first = max(1, len(rounds[0]) if rounds else 1)
    top = HEADER_HEIGHT + PADDING + STAGE_HEIGHT
    height = top + first * (BOX_HEIGHT + MATCH_GAP) - MATCH_GAP + PADDING + 8
    if width * scale > MAX_WIDTH and scale > 1:
        return draw_bracket(payload, server=server, scale=1)
    name = str((payload.get("tournament") or {}).get("name", "Bracket"))
    card = Card(width, height, scale=scale, server=server or "Top cut", title=name,
                subtitle=str(payload.get("note", "")))
    regular, bold = font(FONT_SIZE * scale), font(FONT_SIZE * scale, True)
    small = font(13 * scale)
    centres = _centres(rounds, top)
    for column, matches in enumerate(rounds):
        x = PADDING + column * (BOX_WIDTH + ROUND_GAP)
        card.text(x + 2, top - STAGE_HEIGHT / 2, stages[column], small, MUTED)
        for index, match in enumerate(matches):
            middle = centres[column][index]
            _match(card, match, x, middle - BOX_HEIGHT / 2, (regular, bold))
            # to the match its winner plays next, or (the final) to the champion
            target = centres[column + 1][index // 2] if column + 1 < len(rounds) else middle
            _join(card, x + BOX_WIDTH, middle, target)
    _champion(card, payload.get("champion"), len(rounds), centres, top, (small, bold))
    try:
        return card.png()
    except PictureTooLarge:
        if scale > 1:
            return draw_bracket(payload, server=server, scale=1)
        raise


def _match(card: Card, match: dict[str, Any], x: float, y: float, faces: tuple[Any, Any]
           ) -> None:
    regular, bold = faces
    scale = card.scale
    card.box(x, y, x + BOX_WIDTH, y + BOX_HEIGHT, WHITE, outline=LINE, radius=5)
    card.line([(x + 1, y + LINE_HEIGHT), (x + BOX_WIDTH - 1, y + LINE_HEIGHT)], STRIPE, 1)
    winner = match.get("winner")
    scores = _scores(match)
    sides = (match.get("high"), match.get("low"))
    for line, (side, score) in enumerate(zip(sides, scores, strict=True)):
        middle = y + line * LINE_HEIGHT + LINE_HEIGHT / 2
        won = side is not None and winner == side["seed"] and not match.get("bye")
        lost = winner is not None and side is not None and not won and not match.get("bye")
        if side is None and match.get("bye"):
            label, colour, face = "bye", MUTED, regular
        else:
            label = _label(side)
            colour = MUTED if lost or side is None else TEXT
            face = bold if won else regular
        room = (BOX_WIDTH - 16 - SCORE_WIDTH) * scale
        card.text(x + 8, middle, clip(label, room, face), face, colour)
        if score:
            if won:
                card.box(x + BOX_WIDTH - SCORE_WIDTH, middle - LINE_HEIGHT / 2 + 3,
                         x + BOX_WIDTH - 4, middle + LINE_HEIGHT / 2 - 3, HIGHLIGHT, radius=3)
            card.text(x + BOX_WIDTH - SCORE_WIDTH / 2 - 2, middle, score, face,
                      TEXT if won else MUTED, anchor="mm")


def _join(card: Card, x: float, y: float, target: float) -> None:
    """A line from a match's right side to the middle of the gap, then to the next match."""
    middle = x + ROUND_GAP / 2
    card.line([(x, y), (middle, y), (middle, target), (x + ROUND_GAP, target)], LINE)


def _champion(card: Card, champion: Side, column: int, centres: list[list[float]],
              top: float, faces: tuple[Any, Any]) -> None:
    small, bold = faces
    x = PADDING + column * (BOX_WIDTH + ROUND_GAP)
    middle = centres[-1][0] if centres and centres[-1] else top + BOX_HEIGHT / 2
    card.text(x + 2, top - STAGE_HEIGHT / 2, "Winner", small, MUTED)
    if champion is None:
        card.box(x, middle - LINE_HEIGHT / 2, x + BOX_WIDTH, middle + LINE_HEIGHT / 2,
                 STRIPE, outline=LINE, radius=5)
        card.text(x + 8, middle, "to be decided", small, MUTED)
        return
    card.box(x, middle - LINE_HEIGHT / 2 - 4, x + BOX_WIDTH, middle + LINE_HEIGHT / 2 + 4,
             HIGHLIGHT, outline=BORDER, radius=5)
    room = (BOX_WIDTH - 16) * card.scale
    trophy = "🏆 " if has_emoji() else ""  # DejaVu has no trophy: no box instead
    card.text(x + 8, middle, clip(trophy + _label(champion), room, bold), bold, TEXT)
