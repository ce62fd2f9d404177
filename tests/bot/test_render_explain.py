"""/why, /tiebreak and /decklist replies stay inside Discord's limits, attaching the full text
when it does not fit, and keep user text inert."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

from bot.render import limits
from bot.render.explain import (
    render_decklist,
    render_decklist_status,
    render_tiebreaks,
    render_why,
)
from service import DecklistStatus, DecklistView, Seat, TiebreakView, WhyView
from service.explain import TiebreakLine
from service.limits import MAX_DECKLIST_TEXT

NOW = datetime(2026, 1, 1, tzinfo=UTC)
LONG_NAME = "@everyone <@123> **bold** " + "x" * 40


def _seat(n: int) -> Seat:
    return Seat(player_id=n, number=n, name=f"{LONG_NAME}{n}"[:32], user_id=None)


def test_a_long_tiebreak_working_is_cut_and_attached() -> None:
    lines = tuple(TiebreakLine(f"TB{i}", "12½", "r1 #3 opponent 1; " * 200, "art. 8.1")
                  for i in range(30))
    view = TiebreakView(1, "T" * 50, _seat(1), 9, Fraction(5), 1, "2026", "C.07 art. 16",
                        lines)
    out = render_tiebreaks(view)
    assert limits.problems(out.content, out.embeds) == []
    assert out.files and "TB29" in out.files[0].text


def test_a_short_tiebreak_working_is_one_embed() -> None:
    lines = (TiebreakLine("BH", "3", "r1 #2 Bob 1; r2 #3 Cy 2 = 3", "art. 8.1"),)
    out = render_tiebreaks(TiebreakView(1, "Cup", _seat(1), 2, Fraction(2), 1, "2026",
                                        "C.07 art. 16", lines))
    assert not out.files and limits.problems(out.content, out.embeds) == []


def test_why_fits_and_names_stay_inert() -> None:
    reasons = (("Opponent", f"You were paired down because {LONG_NAME} " * 40),
               ("Colour", "You got white because ..."))
    view = WhyView(1, "Cup", 3, _seat(1), _seat(2), "white", None, reasons, "a=1, " * 400)
    out = render_why(view)
    assert limits.problems(out.content, out.embeds) == []
    data = out.embeds[0].to_dict()
    text = str(data)
    assert "<@123>" not in text and "@everyone" not in text


def test_the_longest_decklist_fits_and_cannot_break_its_code_block() -> None:
    deck = DecklistView(1, "Cup", _seat(1), "text", "`" * MAX_DECKLIST_TEXT, NOW, False)
    out = render_decklist(deck, note="saved")
    assert limits.problems(out.content, out.embeds) == []
    assert out.embeds[0].description.count("```") == 2


def test_a_big_status_attaches_the_names() -> None:
    seats = tuple(_seat(n) for n in range(1, 400))
    status = DecklistStatus(1, "Cup", "text", None, None, seats[:200], seats[200:])
    out = render_decklist_status(status)
    assert limits.problems(out.content, out.embeds) == []
    assert out.files
