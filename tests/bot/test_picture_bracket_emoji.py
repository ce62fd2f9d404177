"""The bracket picture (the cards' style: margins, boxes joined by lines, scores) and colour
emoji in every picture's text, read back from the PNG's pixels."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.pictures import faces
from bot.pictures.bracket import (
    BOX_HEIGHT,
    BOX_WIDTH,
    LINE,
    MATCH_GAP,
    ROUND_GAP,
    STAGE_HEIGHT,
    WON,
    _scores,
    draw_bracket,
)
from bot.pictures.draw import (
    BACKGROUND,
    HEADER_HEIGHT,
    MAX_ATTACHMENT_BYTES,
    MAX_WIDTH,
    PADDING,
    Column,
    Row,
    Table,
    draw_table,
)
from tests.bot.test_render_bracket import _payload

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

SCALE = 2


def _image(data: bytes) -> Any:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def _colourful(image: Any, box: tuple[int, int, int, int]) -> int:
    """Pixels in ``box`` with a strong colour (text is grey-black, the stripes pale grey)."""
    raw = image.crop(box).tobytes()
    pixels = (raw[i:i + 3] for i in range(0, len(raw), 3))
    return sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 90)


def test_the_bracket_joins_each_pair_of_matches_to_the_next_with_lines() -> None:
    image = _image(draw_bracket(_payload(4, decided=True), scale=SCALE))
    top = HEADER_HEIGHT + PADDING + STAGE_HEIGHT
    first = [top + BOX_HEIGHT / 2, top + BOX_HEIGHT + MATCH_GAP + BOX_HEIGHT / 2]
    joint = PADDING + BOX_WIDTH + ROUND_GAP / 2  # the vertical stroke between the columns
    final = sum(first) / 2
    for y in (first[0] + 4, final, first[1] - 4):  # the whole stroke from one semi to the other
        assert image.getpixel((round(joint * SCALE), round(y * SCALE))) == LINE, y
    # the final's entry line, and the line on to the champion
    entry = PADDING + BOX_WIDTH + ROUND_GAP * 0.75
    assert image.getpixel((round(entry * SCALE), round(final * SCALE))) == LINE
    out = PADDING + 2 * BOX_WIDTH + ROUND_GAP * 1.5
    assert image.getpixel((round(out * SCALE), round(final * SCALE))) == LINE


def test_the_bracket_keeps_its_margins_clear() -> None:
    image = _image(draw_bracket(_payload(8, decided=True), scale=SCALE))
    width, height = image.size
    below_header = HEADER_HEIGHT * SCALE
    bottom = height - 3 * SCALE  # the accent line
    for x in (*range(0, PADDING * SCALE - 2), *range(width - PADDING * SCALE + 2, width)):
        for y in range(below_header, bottom, 7):
            assert image.getpixel((x, y)) == BACKGROUND, (x, y)


def test_a_match_shows_its_score_when_the_payload_has_one_else_a_mark_by_the_winner() -> None:
    high, low = {"seed": 1, "name": "Ann"}, {"seed": 4, "name": "Dan"}
    assert _scores({"high": high, "low": low, "winner": 4, "score": [1, 2]}) == ("1", "2")
    assert _scores({"high": high, "low": low, "winner": 4}) == ("", WON)
    assert _scores({"high": high, "low": low, "winner": None}) == ("", "")
    assert _scores({"high": high, "low": None, "winner": 1, "bye": True}) == ("", "")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 16), st.booleans(),
       st.text(st.characters(exclude_categories=("Cs",)), max_size=40))
def test_any_bracket_is_a_png_within_discords_limits(entrants: int, decided: bool,
                                                     name: str) -> None:
    payload = _payload(entrants, decided=decided)
    for rnd in payload["rounds"]:
        for match in rnd["matches"]:
            if match["low"] is not None:
                match["low"]["name"] = name
    data = draw_bracket(payload, scale=SCALE)
    assert len(data) < MAX_ATTACHMENT_BYTES
    assert _image(data).width <= MAX_WIDTH


needs_emoji = pytest.mark.skipif(
    not faces.has_emoji(),
    reason="no colour emoji font (Debian's fonts-noto-color-emoji; make test installs it as "
           "root) or no fontTools: pictures draw boxes for emoji")


def _one_name(name: str) -> Any:
    table = Table(server="S", title="T", subtitle="", columns=[Column("Player", 300)],
                  rows=[Row([name])])
    return _image(draw_table(table, scale=SCALE))


def _name_cell(image: Any) -> tuple[int, int, int, int]:
    top = (HEADER_HEIGHT + PADDING + 30) * SCALE
    return (PADDING * SCALE, top, (PADDING + 300) * SCALE, top + 30 * SCALE)


@needs_emoji
def test_a_name_with_emoji_draws_the_emoji_in_colour() -> None:
    dragon = _one_name("🐉🦄 Drako")
    assert _colourful(dragon, _name_cell(dragon)) > 100
    plain = _one_name("Drako")
    assert _colourful(plain, _name_cell(plain)) == 0


@needs_emoji
def test_emoji_count_in_the_width_so_a_long_name_is_still_clipped_inside_its_cell() -> None:
    face = faces.font(16 * SCALE)
    assert face.getlength("🐉") > face.getlength("i")
    image = _one_name("🐉" * 60)
    _, top, right, bottom = _name_cell(image)
    # nothing drawn in the 8 px the cell keeps free at its right edge
    assert _colourful(image, (right - 6 * SCALE, top, right, bottom)) == 0


def test_without_the_emoji_font_names_are_drawn_with_the_text_font(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(faces, "_emoji_font", lambda: None)
    face = faces.font(16)
    assert list(face.runs("🐉 Drako")) == [("🐉 Drako", False)]
    assert _one_name("🐉 Drako").size[0] > 0


def test_variation_selectors_and_skin_tones_never_stand_alone() -> None:
    face = faces.font(16)
    text = "".join(run for run, _ in face.runs("☀\ufe0f 👍🏽"))
    assert "\ufe0f" not in text
    if faces.has_emoji():
        assert "\U0001f3fd" not in text
