"""The advisor's embed fits Discord's limits whatever the number of systems and the name."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.advice import advice as render_advice
from bot.render.advice import table_block
from bot.render.limits import FIELD_VALUE, problems
from service import AdviceView
from swiss.sim.advice_rules import Figure
from swiss.sim.advisor import Advice, AdviceRequest, SystemAdvice


def _advice(systems: int, note: str = "") -> Advice:
    wide = Figure(-12.3456, 10.1234)  # the widest cells a figure can print
    rows = tuple(
        SystemAdvice(f"system-{i:03d}", 10_000, wide, Figure(0.999, 0.999), Figure(0.5, 0.5),
                     wide, wide, wide, wide, note if i % 2 else "")
        for i in range(systems)
    )
    return Advice(AdviceRequest(players=4096, rounds=99), rows, "system-000",
                  "Use system-000: " + "it ranks best " * 30 + ".",
                  "99 rounds are too few for 4096 players to find a clear winner; 101 would.",
                  tiebreak_sentence="Tiebreaks: " + "ranking ties by rating " * 20 + ".")


@settings(max_examples=30, deadline=None)
@given(systems=st.integers(1, 60), name=st.text(min_size=1, max_size=50),
       note=st.text(max_size=300))
def test_the_embed_fits_discord(systems: int, name: str, note: str) -> None:
    embed = render_advice(AdviceView(1, name, _advice(systems, note)))
    assert problems(None, [embed]) == []
    table = embed.fields[0].value
    assert table.startswith("```\n") and table.endswith("\n```")


def test_a_long_table_is_cut_at_a_whole_line_and_says_how_much() -> None:
    table = "\n".join(f"row {i:03d} " + "x" * 60 for i in range(40))
    block = table_block(table)
    assert len(block) <= FIELD_VALUE
    lines = block.splitlines()
    assert lines[-2].startswith("… ") and lines[-2].endswith(" more")
    kept = len(lines) - 3
    assert lines[1:1 + kept] == table.splitlines()[:kept]
    assert int(lines[-2].split()[1]) == 40 - kept
    assert table_block("a\nb") == "```\na\nb\n```"


def test_the_name_cannot_ping_or_format() -> None:
    embed = render_advice(AdviceView(1, "@everyone **bold**", _advice(2)))
    assert "@everyone" not in (embed.title or "").replace("@\u200beveryone", "")
    assert "**" not in (embed.title or "")
