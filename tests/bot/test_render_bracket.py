"""The bracket's text and picture stay within Discord's limits and keep user text inert."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render.bracket import MAX_PNG_BYTES, bracket_message, bracket_png
from swiss import bracket

EVIL = "@everyone <@123> $\\alpha$ **bold** `tick` " + "x" * 80


def _payload(entrants: int, *, decided: bool = False) -> dict[str, Any]:
    winners: dict[tuple[int, int], int] = {}
    if decided:
        for k in range(1, bracket.rounds_of(entrants) + 1):
            for m in bracket.build(entrants, winners)[k - 1]:
                if m.playable:
                    assert m.low is not None
                    winners[(k, m.index)] = m.low

    def side(seed: int | None) -> dict[str, Any] | None:
        return None if seed is None else {"seed": seed, "name": f"{EVIL} {seed}",
                                          "user_id": 1000 + seed}

    matches = bracket.build(entrants, winners)
    champion = matches[-1][0].winner
    return {
        "tournament": {"id": 1, "name": EVIL, "guild_id": 1},
        "event": "final" if decided else "seeded",
        "note": "Single elimination, best of 3 games per match.",
        "champion": side(champion),
        "rounds": [
            {"stage": bracket.stage_name(len(matches), k), "round": 5 + k,
             "matches": [{"index": m.index, "high": side(m.high), "low": side(m.low),
                          "winner": m.winner, "bye": m.bye} for m in ms]}
            for k, ms in enumerate(matches, start=1)
        ],
    }


def test_text_fits_a_message_or_goes_to_an_attachment() -> None:
    for entrants in (2, 3, 6, 8, 17, 32):
        for decided in (False, True):
            out = bracket_message(_payload(entrants, decided=decided))
            assert len(out.content) <= 2000
            assert not out.mention_users and not out.mention_roles
            assert out.allowed_mentions().everyone is False
    big = bracket_message(_payload(32, decided=True))
    assert big.files and big.files[0].filename == "bracket.txt"
    # the title line (outside the code block) has the name escaped: no ping, no markdown
    head = big.content.split("\n")[0]
    assert "@\u200beveryone" in head and "\\*\\*bold" in head


def test_picture_is_a_small_png_even_for_32() -> None:
    for entrants in (2, 6, 32):
        picture = bracket_png(_payload(entrants, decided=True))
        assert picture is not None and picture.filename == "bracket.png"
        assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(picture.data) < MAX_PNG_BYTES


def test_without_pillow_the_bracket_is_text_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.render import bracket as render_bracket

    monkeypatch.setattr(render_bracket, "missing_reason", lambda: "no Pillow here")
    assert bracket_png(_payload(4)) is None
    assert bracket_message(_payload(4)).content  # the text still goes out
