"""Issue 16, items 4 and 5: the crosstable, the standings / crosstable pictures and the live
web page (service level, the PNGs, and the aiohttp app through its HTTP interface)."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.pictures.draw import (
    FOOTER_LINE,
    MAX_ATTACHMENT_BYTES,
    PADDING,
    PictureError,
    clean,
    clip,
    font,
    wrap,
)
from bot.pictures.tables import (
    MAX_CROSSTABLE_PLAYERS,
    crosstable_player,
    crosstable_png,
    standings_png,
)
from bot.web.app import SECURITY_HEADERS
from service import Actor, CrosstableView, TournamentService
from tests.service_helpers import OTHER_GUILD, member, open_service, organiser
from tests.web_helpers import web_client

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

ORG = organiser()
HOSTILE = ["<script>alert(1)</script>", "$\\frac{1}{2}$ Ann", "🐉🦄 Drako 𓀀", "W" * 32,
           "Line break RTL ÆØÅ", "Bob", "Cleo", "Dan"]


async def _event(service: TournamentService, players: int = 8, name: str = "Live Cup",
                 **options: str) -> int:
    info = await service.create_tournament(ORG, name, 3, seed=3, **options)  # type: ignore[arg-type]
    for index in range(players):
        player = HOSTILE[index] if index < len(HOSTILE) else f"Player {index}"
        await service.add_player(ORG, player, tournament=info.id, rating=2000 - index)
    await service.start_tournament(ORG, info.id)
    return info.id


async def _finish_round(service: TournamentService, tid: int) -> None:
    view = await service.pairings(ORG.guild_id, tid)
    for game in view.games:
        if game.result == "*":
            await service.set_result(ORG, view.number, f"#{game.white.number}", "win",
                                     tournament=tid)


async def _crosstable_after_round_1(service: TournamentService) -> CrosstableView:
    tid = await _event(service)
    await _finish_round(service, tid)
    return await service.crosstable(ORG.guild_id, tid)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TournamentService]:
    async with open_service(tmp_path / "live.sqlite3") as svc:
        yield svc


# -- service ---------------------------------------------------------------------------------
async def test_crosstable_names_opponents_by_start_number_with_colour_and_score(
    service: TournamentService,
) -> None:
    table = await _crosstable_after_round_1(service)
    assert table.after_round == 1 and len(table.rows) == 8
    round1 = await service.pairings(ORG.guild_id, table.tournament_id, 1)
    game = round1.games[0]
    white = next(r for r in table.rows if r.name == game.white.name)
    assert white.cells == (f"{game.black.number}w1",)
    black = next(r for r in table.rows if r.name == game.black.name)
    assert black.cells == (f"{game.white.number}b0",)
    assert "start number" in table.legend and "w = white" in table.legend


CELL = re.compile(r"^(?P<opponent>\d+)(?P<colour>[wb])(?P<score>1|0|½|\+|-|…)$")


async def test_every_cell_of_an_event_with_ties_names_exactly_one_opponent(
    service: TournamentService,
) -> None:
    """8 players, 2 rounds with draws: many tied ranks, yet every cell names the one player
    met (by the start number in the row headers), and that player's cell names him back."""
    tid = await _event(service, tiebreaks="")
    for number in (1, 2):
        view = await service.pairings(ORG.guild_id, tid, number)
        for index, game in enumerate(view.games):
            await service.set_result(ORG, number, f"#{game.white.number}",
                                     "draw" if index % 2 else "win", tournament=tid)
        if number == 1:
            await service.pair_next_round(ORG, tid)
    table = await service.crosstable(ORG.guild_id, tid)
    ranks = [row.rank for row in table.rows]
    assert len(set(ranks)) < len(ranks)  # ties: a rank would not say who
    by_number = {row.number: row for row in table.rows}
    assert len(by_number) == len(table.rows)  # a start number is one player's
    for number in (1, 2):
        met = {}
        for game in (await service.pairings(ORG.guild_id, tid, number)).games:
            met[game.white.number], met[game.black.number] = game.black.number, game.white.number
        for row in table.rows:
            cell = CELL.match(row.cells[number - 1])
            assert cell is not None, row.cells
            opponent = int(cell["opponent"])
            assert opponent == met[row.number]
            back = CELL.match(by_number[opponent].cells[number - 1])
            assert back is not None and int(back["opponent"]) == row.number


async def test_crosstable_before_the_start_is_refused(service: TournamentService) -> None:
    await service.create_tournament(ORG, "Not yet", 3)
    with pytest.raises(Exception, match="has not started"):
        await service.crosstable(ORG.guild_id, "Not yet")


async def test_web_link_is_random_stored_once_and_audited(service: TournamentService) -> None:
    tid = await _event(service)
    first = await service.web_link(member(50), tid)
    assert first == await service.web_link(ORG, tid)  # made once
    assert len(first) >= 22
    other = await _event(service, name="Second Cup")
    assert await service.web_link(ORG, other) != first
    event = await service.live_event(first)
    assert event is not None and event.info.id == tid
    async with service.db.transaction(readonly=True) as conn, conn.execute(
        "SELECT count(*) FROM audit_log WHERE action = 'web_page_created'"
    ) as cursor:
        assert (await cursor.fetchone())[0] == 2


async def test_web_link_stays_in_its_guild(service: TournamentService) -> None:
    tid = await _event(service)
    stranger = Actor(user_id=9, guild_id=OTHER_GUILD, display_name="Other")
    with pytest.raises(Exception, match="no tournament"):
        await service.web_link(stranger, tid)


@pytest.mark.parametrize("token", ["", "nope", "1", "x" * 500, "../etc/passwd"])
async def test_unknown_tokens_show_nothing(service: TournamentService, token: str) -> None:
    await service.web_link(ORG, await _event(service))
    assert await service.live_event(token) is None


# -- pictures --------------------------------------------------------------------------------
def _image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG") and len(data) < MAX_ATTACHMENT_BYTES
    return Image.open(io.BytesIO(data))


async def test_standings_picture_of_a_played_round_is_an_opaque_png(
    service: TournamentService,
) -> None:
    tid = await _event(service, players=30)
    await _finish_round(service, tid)
    view = await service.standings(ORG.guild_id, tid)
    last = view.rows[-1]
    small = _image(standings_png(view, server="Chess Club", top=5))
    # a caller far down gets his own row under a gap marker: two more rows
    assert last.user_id is None
    picture = standings_png(view, server="Chess Club", top=5, me=None)
    assert _image(picture).size == small.size
    assert small.mode == "RGB"  # opaque: Discord's theme never shows through


def test_standings_picture_highlights_a_member_below_the_top() -> None:
    from fractions import Fraction

    from service import StandingsRowView, StandingsView

    rows = tuple(StandingsRowView(rank=i, player_id=i, number=i, name=f"P{i}",
                                  user_id=100 + i, points=Fraction(10 - i), values=(Fraction(i),))
                 for i in range(1, 21))
    view = StandingsView(tournament_id=1, tournament_name="T", after_round=3, total_rounds=5,
                         final=False, tiebreaks=("BH",), rows=rows)
    top_only = _image(standings_png(view, server="S", top=5))
    with_me = _image(standings_png(view, server="S", top=5, me=120))
    next_one = _image(standings_png(view, server="S", top=5, me=106))
    inside = _image(standings_png(view, server="S", top=5, me=103))
    assert with_me.height > next_one.height > top_only.height  # gap marker + row, then row
    assert inside.height == top_only.height


async def test_hostile_names_draw_as_plain_text_without_crashing(
    service: TournamentService,
) -> None:
    tid = await _event(service)
    await _finish_round(service, tid)
    view = await service.standings(ORG.guild_id, tid)
    _image(standings_png(view, server="$\\alpha$ 🐉 server", top=10))
    _image(crosstable_png(await service.crosstable(ORG.guild_id, tid), server="S"))


async def test_crosstable_picture_draws_its_whole_legend_and_start_numbers(
    service: TournamentService,
) -> None:
    view = await _crosstable_after_round_1(service)
    legend = _image(crosstable_png(view, server="S"))
    bare = _image(crosstable_png(replace(view, legend=""), server="S"))
    scale = 2  # a one-round table is narrow: drawn at twice the size
    lines = wrap(view.legend, legend.width - 2 * PADDING * scale, font(13 * scale))
    assert len(lines) > 1 and " ".join(lines) == view.legend  # wrapped, nothing cut off
    assert legend.height - bare.height == (FOOTER_LINE * len(lines) + 10) * scale
    # each legend line is drawn: dark text in its band at the bottom of the card
    top = bare.height - 3 * scale
    for index in range(len(lines)):
        band = legend.crop((0, top + (8 + index * FOOTER_LINE) * scale, legend.width,
                            top + (8 + (index + 1) * FOOTER_LINE) * scale)).convert("L")
        assert band.getextrema()[0] < 150, index
    assert crosstable_player(view.rows[0]) == f"#{view.rows[0].number} {view.rows[0].name}"


def test_text_is_cleaned_and_clipped() -> None:
    assert clean("a\nb\u202ec\u200d") == "a bc"
    face = font(16)
    clipped = clip("x" * 200, 100, face)
    assert clipped.endswith("…") and face.getlength(clipped) <= 100
    assert clip("$x^2$", 500, face) == "$x^2$"  # kept as typed, never interpreted


async def test_crosstable_picture_refuses_more_than_64_players(
    service: TournamentService,
) -> None:
    tid = await _event(service, players=MAX_CROSSTABLE_PLAYERS + 1)
    with pytest.raises(PictureError, match="export"):
        crosstable_png(await service.crosstable(ORG.guild_id, tid), server="S")


async def test_crosstable_picture_of_64_players_fits_discord(
    service: TournamentService,
) -> None:
    tid = await _event(service, players=MAX_CROSSTABLE_PLAYERS)
    await _finish_round(service, tid)
    picture = _image(crosstable_png(await service.crosstable(ORG.guild_id, tid), server="S"))
    assert picture.width <= 4000


# -- the web app -----------------------------------------------------------------------------
@pytest.fixture
async def web(service: TournamentService) -> AsyncIterator[TestClient]:
    async with web_client(service) as client:
        yield client


async def test_page_and_json_escape_user_text_and_send_a_csp(
    service: TournamentService, web: TestClient
) -> None:
    tid = await _event(service, name="<b>Cup</b> & co")
    token = await service.web_link(ORG, tid)
    page = await web.get(f"/e/{token}")
    assert page.status == 200
    text = await page.text()
    assert "&lt;b&gt;Cup&lt;/b&gt; &amp; co" in text and "<b>Cup</b>" not in text
    for name, value in SECURITY_HEADERS.items():
        assert page.headers[name] == value
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    data = await (await web.get(f"/e/{token}/data.json")).json()
    names = {row["name"] for row in data["standings"]["rows"]}
    assert "<script>alert(1)</script>" in names  # JSON; the script puts it in textContent
    assert "user_id" not in str(data)  # no Discord ids on a public page
    script = await (await web.get("/static/live.js")).text()
    # the page is the server's escaped HTML; the script parses it with DOMParser (which runs
    # no script) and never writes HTML from strings
    assert "innerHTML" not in script and "DOMParser" in script
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script>alert" not in text


@pytest.mark.parametrize("path", ["/", "/e/", "/e/unknown", "/e/unknown/data.json", "/static/",
                                  "/static/../storage", "/e/1", "/guilds/1000"])
async def test_anything_else_is_404_without_listing(
    service: TournamentService, web: TestClient, path: str
) -> None:
    await service.web_link(ORG, await _event(service))
    response = await web.get(path)
    assert response.status == 404
    assert "Live Cup" not in await response.text()
    assert "Content-Security-Policy" in response.headers


async def test_the_page_takes_no_writes(service: TournamentService, web: TestClient) -> None:
    token = await service.web_link(ORG, await _event(service))
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        response = await web.request(method, f"/e/{token}/data.json")
        assert response.status == 405


async def test_the_json_follows_results(service: TournamentService, web: TestClient) -> None:
    tid = await _event(service)
    token = await service.web_link(ORG, tid)
    before = await (await web.get(f"/e/{token}/data.json")).json()
    assert all(g["result"] == "…" for g in before["rounds"][-1]["games"])
    await _finish_round(service, tid)
    after = await (await web.get(f"/e/{token}/data.json")).json()
    assert all(g["result"] in ("1-0", "0-1") for g in after["rounds"][-1]["games"])
    assert after["crosstable"]["after_round"] == 1


# -- settings and the missing extra ---------------------------------------------------------
def test_web_settings() -> None:
    from bot.settings import Settings

    off = Settings(_env_file=None, web_port="", public_url="")  # type: ignore[call-arg]
    assert off.web_port is None and off.public_url is None
    on = Settings(_env_file=None, web_port="8080",  # type: ignore[call-arg]
                  public_url="https://swiss.example.org/")
    assert on.web_port == 8080 and on.public_url == "https://swiss.example.org"
    for bad in ("swiss.example.org", "javascript:alert(1)", "ftp://x"):
        with pytest.raises(ValueError, match="SWISSBOT_PUBLIC_URL"):
            Settings(_env_file=None, public_url=bad)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Settings(_env_file=None, web_port="70000")  # type: ignore[call-arg]


async def test_without_pillow_render_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.pictures import draw

    monkeypatch.setattr(draw.import_util, "find_spec",
                        lambda name: None if name == "PIL" else object())
    with pytest.raises(draw.PicturesUnavailable, match="Pillow"):
        await draw.render(lambda: b"")


async def test_the_pictures_setting_reaches_the_standings_announcements(
    service: TournamentService,
) -> None:
    tid = await _event(service)
    await service.edit_tournament(ORG, tid, pictures=True)  # may change while running
    assert (await service.tournament_info(ORG.guild_id, tid)).settings.pictures
    await _finish_round(service, tid)
    kinds = {a.kind: a.payload for a in await service.announcements(tid)}
    assert kinds["standings"]["pictures"] is True
    assert "pictures" not in kinds["pairings"]


async def test_pictures_are_drawn_off_the_event_loop() -> None:
    import threading

    from bot.pictures import render

    loop_thread = threading.current_thread()
    drawn_in = await render(threading.current_thread)
    assert drawn_in is not loop_thread


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghij½#=·…", min_size=1, max_size=12), max_size=40),
       st.integers(min_value=80, max_value=600))
def test_wrapped_text_keeps_every_word_and_fits_its_width(words: list[str], width: int) -> None:
    face = font(13)
    text = " ".join(words)
    lines = wrap(text, width, face)
    assert all(face.getlength(line) <= width for line in lines)
    if all(face.getlength(word) <= width for word in words):  # nothing had to be clipped
        assert " ".join(line for line in lines if line) == clean(text)
