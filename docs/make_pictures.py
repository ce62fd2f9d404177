"""Make the example pictures shown in README.md: ``python docs/make_pictures.py``.

Plays a small event through the service (a temporary database, fixed seed and results) and
draws its standings and crosstable with bot.pictures into docs/img/, with the rows of a name
with emoji, and a top cut's bracket. The live page's screenshots (a computer's width and a
phone's) come from the browser tests: ``SWISSBOT_WRITE_DOCS=1 pytest
tests/bot/test_web_browser.py``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.pictures.bracket import draw_bracket  # noqa: E402
from bot.pictures.tables import crosstable_png, standings_png  # noqa: E402
from service import Actor, TournamentService  # noqa: E402
from storage.db import connect  # noqa: E402
from swiss import bracket  # noqa: E402

OUT = ROOT / "docs" / "img"
NAMES = ["Magnus Carlsen-ish", "Hou Yifan fan", "<script>alert(1)</script>", "$x^2$ the Mathy",
         "Ærøskøbing Æsir", "🐉 Dragon Knight", "Jo", "A rather long name: WWWWWWWWWW",
         "Bea", "Cyrus", "Dora", "Emil", "Fatou", "Goran", "Hana", "Zoë 🦄✨"]
ORG = Actor(user_id=1, guild_id=1, display_name="Orla", is_organiser=True)


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = await connect(Path(folder) / "docs.sqlite3")
        try:
            service = TournamentService(db)
            info = await service.create_tournament(ORG, "Friday Night Blitz", 5, seed=7)
            for index, name in enumerate(NAMES):
                await service.add_player(ORG, name, tournament=info.id,
                                         rating=2400 - index * 60, user_id=100 + index)
            await service.start_tournament(ORG, info.id)
            for number in range(1, 4):
                view = await service.pairings(ORG.guild_id, info.id)
                for board, game in enumerate(view.games):
                    result = ("win", "draw", "loss")[(board + number) % 3]
                    await service.set_result(ORG, number, f"#{game.white.number}", result,
                                             tournament=info.id)
                if number < 3:
                    await service.pair_next_round(ORG, info.id, round_number=number + 1)
            standings = await service.standings(ORG.guild_id, info.id)
            crosstable = await service.crosstable(ORG.guild_id, info.id)
        finally:
            await db.close()
    me = standings.rows[-3].user_id
    (OUT / "standings.png").write_bytes(
        standings_png(standings, server="Chess Club Discord", top=8, me=me))
    (OUT / "crosstable.png").write_bytes(crosstable_png(crosstable, server="Chess Club Discord"))
    dragon = next(r.user_id for r in standings.rows if r.name.startswith("🐉"))
    (OUT / "emoji-name.png").write_bytes(
        standings_png(standings, server="Chess Club Discord", top=3, me=dragon))
    (OUT / "bracket.png").write_bytes(
        draw_bracket(_bracket_payload([r.name for r in standings.rows[:8]]),
                     server="Chess Club Discord"))
    print(f"wrote standings, crosstable, emoji-name and bracket pictures in {OUT}")


def _bracket_payload(seeds: list[str]) -> dict[str, object]:
    """A top 8 played out in best-of-3 matches: the higher seed wins, except seed 3 in the
    semi-final; each match's score (the high seed's games first) as the service gives it."""
    upsets = {(2, 1): 3}

    def side(seed: int | None) -> dict[str, object] | None:
        return None if seed is None else {"seed": seed, "name": seeds[seed - 1]}

    winners: dict[tuple[int, int], int] = {}
    for number in range(1, bracket.rounds_of(len(seeds)) + 1):
        for match in bracket.build(len(seeds), winners)[number - 1]:
            if match.playable and match.high is not None and match.low is not None:
                winners[(number, match.index)] = upsets.get((number, match.index), match.high)
    matches = bracket.build(len(seeds), winners)
    return {
        "tournament": {"name": "Friday Night Blitz"},
        "note": "Single elimination, best of 3 games per match; the higher seed plays white "
                "in game 1.",
        "champion": side(matches[-1][0].winner),
        "rounds": [{"stage": bracket.stage_name(len(matches), number), "round": 5 + number,
                    "matches": [{"index": m.index, "high": side(m.high), "low": side(m.low),
                                 "winner": m.winner, "bye": m.bye,
                                 "score": _score(m.high, m.winner, m.index)}
                                for m in round_matches]}
                   for number, round_matches in enumerate(matches, start=1)],
    }


def _score(high: int | None, winner: int | None, index: int) -> list[str] | None:
    """The games of a decided best-of-3, the high seed's first: 2-0 or 2-1 by the match."""
    if winner is None:
        return None
    loser_games = str(index % 2)
    return ["2", loser_games] if winner == high else [loser_games, "2"]


if __name__ == "__main__":
    asyncio.run(main())
