"""Words an organiser does not have to apologise for: every message family rendered with one
and with two of everything says "1 board", "2 boards", "½ point", "1½ points", never "(s)",
never "1 games", never a prefix twice; the standings' columns read one way each."""

from __future__ import annotations

import re
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render import tournament as render
from bot.render.bracket import bracket_lines
from bot.render.confirm import paired_text
from bot.render.explain import render_tiebreaks
from bot.render.format import point_phrase
from bot.render.message import Outgoing
from bot.render.notify import dm_message
from bot.render.timers import timer_announcement
from bot.standings_columns import column_texts
from service.explain import TiebreakLine, TiebreakView
from service.views import (
    ByeView,
    GameView,
    RoundView,
    Seat,
    StandingsRowView,
    StandingsView,
)
from swiss.wording import numbered, plural, status_phrase
from tests.bot.test_render import PAIRED, _round, _seat

#: A count of one with a plural noun, a "(s)" or "(es)", a status read as a noun.
SLIPS = [
    re.compile(r"(?<![\d.,½])1 (boards|points|players|rounds|games|matches|byes|results)\b"),
    re.compile(r"(?<![\d.,])½ points\b"),
    re.compile(r"\w\((s|es)\)"),
    re.compile(r"\bit is (registration|running)\b"),
    re.compile(r"(no valid pairing).*\1", re.IGNORECASE),
]


def text_of(messages: list[Outgoing] | Outgoing | str) -> str:
    if isinstance(messages, str):
        return messages
    if isinstance(messages, Outgoing):
        messages = [messages]
    parts = []
    for message in messages:
        parts.append(message.content)
        for embed in message.embeds:
            data = embed.to_dict()
            parts += [data.get("title", ""), data.get("description", ""),
                      data.get("footer", {}).get("text", "")]
            parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def slips(text: str) -> list[str]:
    return [m.group(0) for pattern in SLIPS for m in pattern.finditer(text)]


def _standings(count: int, *, final: bool = False, points: Fraction = Fraction(1)
               ) -> StandingsView:
    rows = tuple(StandingsRowView(rank=i, player_id=i, number=i, name=f"P{i}",
                                  user_id=None, points=points, values=(Fraction(i),))
                 for i in range(1, count + 1))
    return StandingsView(1, "Club", count, 5, final, ("BH",), rows)


def _info(players: int) -> Any:
    return SimpleNamespace(name="Club", status="running", current_round=1, players=players,
                           channel_id=None, settings=SimpleNamespace(rounds=5))


def _families(n: int) -> str:
    """Every message family with ``n`` of each counted thing."""
    round_ = _round(n)
    byes = tuple(ByeView(_seat(40 + i), "half", Fraction(1, 2)) for i in range(n))
    half = RoundView(1, "Club", 2, 5, "playing", round_.games, byes, paired_at=PAIRED)
    game = {"white": {"name": "A", "user_id": 1}, "black": {"name": "B", "user_id": 2},
            "board": 1}
    tiebreaks = TiebreakView(tournament_id=1, tournament_name="Club", player=_seat(1), rank=1,
                             points=Fraction(n, 2), after_round=n, edition="2026",
                             unplayed_rule="as played", lines=(TiebreakLine(
                                 acronym="BH", value="1", text="1", article="C.07 8.1"),))
    texts = [
        text_of(render.pairings(round_)), text_of(render.pairings(half)),
        text_of(render.round_results(round_)), paired_text(round_, "paired"),
        paired_text(round_, "started"),
        text_of(render.standings(_standings(n))),
        text_of(render.standings(_standings(n, final=True))),
        render.tournament_list([_info(n)]).description or "",
        text_of(dm_message("dm_final", {"tournament": {"name": "Club"}, "rank": 1,
                                        "players": n, "points": "½" if n == 1 else "1"})[0]),
        text_of(dm_message("dm_final", {"tournament": {"name": "Club"}, "rank": 1,
                                        "players": n, "points": "1½"})[0]),
        text_of(timer_announcement("deadline_passed", {"round": 1, "decided": [],
                                                       "waiting": [game] * n}, "Club")),
        text_of(render_tiebreaks(tiebreaks)),
    ]
    return "\n".join(texts)


def test_one_and_two_of_everything_read_right() -> None:
    one, two = _families(1), _families(2)
    assert slips(one) == [] and slips(two) == []
    assert "1 board" in one and "2 boards" in two
    assert "(½ point)" in one  # a half-point bye
    assert "of 1 player with ½ point" in one and "with 1½ points" in one
    assert "1 game needs a decision" in one and "2 games need a decision" in two
    assert "½ point after round 1" in one and "1 point after round 2" in two


def test_the_slip_patterns_catch_the_old_wording() -> None:
    old = ["round 1 is paired (1 boards)", "you finished #1 of 3 with 1 points",
           "pairing bye (½ points)", "board(s) 1 have no final result",
           "'Club' is not running (it is registration)", "2 game(s) need a decision",
           "No valid pairing exists for round 3: no valid pairing exists: players 1, 2"]
    for text in old:
        assert slips(text), text


@given(st.integers(min_value=0, max_value=400))
def test_points_are_singular_up_to_one(halves: int) -> None:
    value = Fraction(halves, 2)
    text = point_phrase(value)
    assert text.endswith(" point") == (0 < value <= 1)
    assert point_phrase(text.split()[0]) == text  # the payload's text reads the same


@given(st.lists(st.integers(min_value=1, max_value=99), min_size=1, max_size=5))
def test_numbered_lists_agree_with_their_count(numbers: list[int]) -> None:
    text = numbered("board", numbers)
    assert text.startswith("board " if len(numbers) == 1 else "boards ")
    assert text.endswith(", ".join(map(str, numbers)))
    assert plural(len(numbers), "board").split()[1] == text.split()[0]


def test_every_status_reads_after_is() -> None:
    for status in ("registration", "running", "finished", "cancelled"):
        assert status_phrase(status) != "registration"
    assert status_phrase("registration") == "still open for registration"


@given(st.lists(st.one_of(st.integers(0, 40).map(lambda h: Fraction(h, 2)),
                          st.integers(0, 300).map(lambda t: Fraction(t, 3)),
                          st.floats(0, 100).map(lambda f: round(f, 2))), min_size=1))
def test_a_tiebreak_column_has_one_number_format(values: list[Any]) -> None:
    texts = column_texts(values)
    halves = all(isinstance(v, Fraction) and v.denominator in (1, 2) for v in values)
    if halves:
        assert not any("." in t for t in texts)
    else:  # every value with two decimals: no "1½" beside "1.33"
        assert all(re.fullmatch(r"\d+\.\d\d", t) for t in texts), texts


def test_column_texts_read_payload_text_the_same_as_fractions() -> None:
    assert column_texts(["2½", "1"]) == column_texts([Fraction(5, 2), Fraction(1)])
    assert column_texts(["2½", "1.33"]) == ["2.50", "1.33"]


def _table(values: list[tuple[Fraction, ...]], points: list[Fraction], *,
           tiebreaks: tuple[str, ...] = ("BH", "DE", "AROC"), after: int = 3,
           in_play: bool = False, ranks: list[int] | None = None) -> StandingsView:
    rows = tuple(StandingsRowView(rank=(ranks or list(range(1, len(points) + 1)))[i],
                                  player_id=i + 1, number=i + 1, name=f"P{i + 1}",
                                  user_id=None, points=points[i], values=values[i])
                 for i in range(len(points)))
    return StandingsView(1, "Club", after, 5, False, tiebreaks, rows, in_play=in_play)


def test_the_deciding_tiebreak_is_marked_and_explained() -> None:
    view = _table([(Fraction(5), Fraction(0), Fraction(0)),
                   (Fraction(4), Fraction(0), Fraction(0)),
                   (Fraction(4), Fraction(1), Fraction(0)),
                   (Fraction(4), Fraction(2), Fraction(0))],
                  [Fraction(2), Fraction(2), Fraction(2), Fraction(1)])
    _, rows = render.standings_table(view)
    assert rows[0].split()[3] == "5*"  # BH put P1 ahead of P2
    assert rows[1].split()[4] == "0*"  # DE put P2 ahead of P3 (lower is better)
    assert "*" not in rows[2] and "*" not in rows[3]  # P3 and P4 differ on points
    footer = render.standings(view)[0].embeds[0].footer.text or ""
    assert "* the tiebreak that put a player ahead" in footer
    assert "DE: lower is better" in footer


def test_a_cut_tiebreak_shows_a_dash_until_there_are_enough_rounds() -> None:
    row = [(Fraction(1), Fraction(0), Fraction(0))]
    _, rows = render.standings_table(_table(row, [Fraction(1)], after=1))
    assert rows[0].split()[-1] == "–"
    footer = render.standings(_table(row, [Fraction(1)], after=1))[0].embeds[0].footer.text
    assert "– not enough rounds yet" in (footer or "")
    _, rows = render.standings_table(_table(row, [Fraction(1)], after=2))
    assert rows[0].split()[-1] == "0"


def test_standings_while_a_round_is_played_do_not_say_after_it() -> None:
    row = [(Fraction(1), Fraction(0), Fraction(0))]
    title = render.standings(_table(row, [Fraction(1)], after=2, in_play=True))[0]
    assert title.embeds[0].title == "Club · standings with round 2 in play"
    done = render.standings(_table(row, [Fraction(1)], after=2))[0]
    assert done.embeds[0].title == "Club · standings after round 2"


def test_the_bracket_text_shows_each_match_score_high_seed_first() -> None:
    payload = {"rounds": [{"stage": "Final", "round": 4, "matches": [
        {"index": 0, "high": {"seed": 1, "name": "Ann"}, "low": {"seed": 2, "name": "Bob"},
         "winner": 2, "bye": False, "score": ["1", "2"]}]}],
        "champion": {"seed": 2, "name": "Bob"}}
    assert "(1) Ann" in bracket_lines(payload)[1]
    assert bracket_lines(payload)[1].endswith("-> Bob (1-2)")


def test_playoff_pairings_list_the_higher_seed_first_with_seeds() -> None:
    game = GameView(id=1, tournament_id=1, round=4, board=1, white=Seat(4, 4, "Dee", 104),
                    black=Seat(3, 3, "Cal", 103), result="*", state="pending")
    view = RoundView(1, "Club", 4, 3, "playing", (game,), (), paired_at=PAIRED,
                     stage="Semi-finals", seeds=((4, 3), (3, 2)))
    text = text_of(render.pairings(view))
    assert "(2) <@103> v (3) <@104>" in text
    assert "`#4`" not in text and "`#3`" not in text  # no pairing numbers beside seeds



@pytest.mark.parametrize(("value", "shown"), [
    ("½", "½ point"), ("1", "1 point"), ("1½", "1½ points"), ("0", "0 points"),
    ("0.5", "½ point"), (Fraction(3, 2), "1½ points"), (2, "2 points"),
])
def test_a_bye_says_its_points_with_the_right_noun(value: object, shown: str) -> None:
    """The pairings post's bye line takes the points as stored (text such as "½") or as a
    number; both read "½ point", "1½ points"."""
    assert point_phrase(value) == shown  # type: ignore[arg-type]
