"""``/tournament export`` through Discord (the real discord.py client, the sandbox): every
table as files, numbers as numbers, decklists only for organisers until they are published."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club

EPHEMERAL = 64


def _files(reply: dict[str, Any]) -> dict[str, str]:
    return {a["filename"]: a["content"] for a in reply.get("attachments") or []}


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


async def test_every_export_from_discord_with_decklists_for_organisers_only(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, ann, ben, cy = club.owner, *club.players[:3]
    await club.run(owner, "tournament create", name="File Cup", rounds=2)
    await club.run(owner, "decklist setup", mode="text")
    for player in (ann, ben, cy):
        await club.run(player, "join")
    await club.run(ann, "decklist submit", decklist="Secret opening prep")

    # a player: the players table without the unpublished decklists, and told why
    reply = await club.run(ben, "tournament export", what="players")
    assert reply["flags"] & EPHEMERAL and "not published" in reply["content"]
    (players,) = _files(reply).values()
    assert "decklist" not in _rows(players)[0] and "Secret" not in players
    reply = await club.run(ben, "tournament export", what="all", format="json")
    assert "Secret" not in "".join(_files(reply).values())
    # an organiser, any time: the decklist column
    reply = await club.run(owner, "tournament export", what="players", format="csv")
    (players,) = _files(reply).values()
    assert {r["name"]: r["decklist"] for r in _rows(players)}[ann.display_name] == \
        "Secret opening prep"

    await club.run(owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    game = view.games[0]
    await club.run(owner, "result set", player=f"#{game.white.number}", round=1,
                   result="draw")
    reply = await club.run(owner, "tournament export", what="all", format="csv")
    files = _files(reply)
    assert sorted(files) == ["file-cup-crosstable.csv", "file-cup-games.csv",
                             "file-cup-players.csv", "file-cup-standings.csv"]
    points = sorted(float(r["points"]) for r in _rows(files["file-cup-standings.csv"]))
    assert points == [0.5, 0.5, 1.0]  # the draw and the bye, as numbers
    games = _rows(files["file-cup-games.csv"])
    assert [(g["round"], g["stage"], g["result"]) for g in games] == [
        ("1", "swiss", "1/2-1/2"), ("1", "swiss", "bye:pairing")]

    reply = await club.run(cy, "tournament export", what="games", format="json")
    body = json.loads(next(iter(_files(reply).values())))
    assert [g["stage"] for g in body["games"]] == ["swiss", "swiss"]
    reply = await club.run(cy, "tournament export", what="crosstable")
    cross = _rows(next(iter(_files(reply).values())))
    assert {c["R1"] for c in cross} >= {f"{game.black.number}w½", f"{game.white.number}b½"}
    reply = await club.run(cy, "tournament export")
    assert list(_files(reply)) == ["file-cup.trf"]
    reply = await club.run(cy, "tournament export", what="players", format="trf")
    assert reply["flags"] & EPHEMERAL and "whole tournament" in reply["content"]
    assert not reply.get("attachments")
