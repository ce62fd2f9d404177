"""The reply of /tournament export: files within Discord's size limit, the others named."""

from __future__ import annotations

from bot.render.exports import export_reply
from bot.render.limits import problems
from service import ExportFile


def test_files_over_the_limit_are_named_not_attached() -> None:
    small = ExportFile("cup-players.csv", "number,name\n1,Ann\n", "text/csv")
    big = ExportFile("cup.json", "x" * 3_000_000, "application/json",
                     note="The decklists are not published yet: they are not in this export.")
    text, files = export_reply([small, big], 2 * 1024 * 1024)
    assert [f.filename for f in files] == ["cup-players.csv"]
    assert "`cup.json` (2.9 MB)" in text and "2.0 MB per file" in text
    assert "not published" in text and problems(text, []) == []


def test_everything_attached_when_it_fits() -> None:
    exported = [ExportFile(f"cup-{n}.csv", "a,b\n", "text/csv") for n in ("standings", "games")]
    text, files = export_reply(exported, 10 * 1024 * 1024)
    assert len(files) == 2 and text == "`cup-standings.csv`, `cup-games.csv`"
