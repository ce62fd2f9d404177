"""Make the example pictures shown in README.md: ``python docs/make_pictures.py``.

Plays a small event through the service (a temporary database, fixed seed and results) and
draws its standings and crosstable with bot.pictures into docs/img/. The live page's
screenshot comes from the browser test: ``SWISSBOT_WRITE_DOCS=1 pytest
tests/test_web_browser.py``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.pictures.tables import crosstable_png, standings_png  # noqa: E402
from service import Actor, TournamentService  # noqa: E402
from storage.db import connect  # noqa: E402

OUT = ROOT / "docs" / "img"
NAMES = ["Magnus Carlsen-ish", "Hou Yifan fan", "<script>alert(1)</script>", "$x^2$ the Mathy",
         "Ærøskøbing Æsir", "🐉 Dragon Knight", "Jo", "A rather long name: WWWWWWWWWW",
         "Bea", "Cyrus", "Dora", "Emil", "Fatou", "Goran", "Hana", "Ivo"]
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
    print(f"wrote {OUT / 'standings.png'} and {OUT / 'crosstable.png'}")


if __name__ == "__main__":
    asyncio.run(main())
