"""The players' rating fields through Discord (the real discord.py client, the sandbox):
/admin player (organisers only, a private answer showing the record), /admin import-players
with a CSV attachment (every bad line and column, nothing changed, nobody pinged), and the
TRF export a rating officer sends carrying them in their columns."""

from __future__ import annotations

from typing import Any

from sandbox import Attachment, FakeDiscord, SandboxGuild
from swiss.trf import parse_trf
from tests.e2e.fixtures import Club, running_club

EPHEMERAL = 64


def _files(reply: dict[str, Any]) -> dict[str, str]:
    return {a["filename"]: a["content"] for a in reply.get("attachments") or []}


async def test_fields_set_imported_and_exported_in_the_trf(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await running_club(fake, guild, start_swissbot, "Rated Cup", rounds=2,
                                   players=4)
    owner, ann, ben = club.owner, club.players[0], club.players[1]

    refused = await club.run(ann, "admin player", player=f"<@{ann.id}>", title="GM")
    assert refused["flags"] & EPHEMERAL and "Only organisers" in refused["content"]

    reply = await club.run(owner, "admin player", player=f"<@{ann.id}>", fide_id="1503014",
                           federation="nor", birth="1990/11/30", sex="w", title="WGM",
                           trf_name="Alpha,Ann")
    assert reply["flags"] & EPHEMERAL, reply
    text = reply["content"]
    assert "Federation: NOR" in text and "Birth: 1990/11/30" in text and "Title: WGM" in text
    assert "TRF name: Alpha, Ann" in text and not reply.get("mentions")
    bad = await club.run(owner, "admin player", player=f"<@{ann.id}>", federation="DEU")
    assert bad["flags"] & EPHEMERAL and "GER, not DEU" in bad["content"]
    # a modified client sending more than the declared length: a short, specific answer
    bad = await club.run(owner, "admin player", player=f"<@{ann.id}>", trf_name="W" * 6000)
    assert bad["flags"] & EPHEMERAL and "at most 33" in bad["content"]
    assert len(bad["content"]) < 300

    # A file with bad rows: each named by line and column, nothing stored.
    broken = (f"user_id,federation,birth\n{ben.id},NED,1985\n{ben.id},XYZ,1985/02/30\n"
              "@everyone,ENG,\n")
    reply = await club.run(owner, "admin import-players",
                           file=Attachment("players.csv", broken.encode()))
    assert reply["flags"] & EPHEMERAL, reply
    assert "line 3, column 2 (federation)" in reply["content"]
    assert "line 3, column 3 (birth)" in reply["content"]
    assert "line 4, column 1 (user_id)" in reply["content"]
    assert not reply.get("mentions") and not reply.get("mention_everyone")
    shown = await club.run(owner, "admin player", player=f"<@{ben.id}>")  # no field: shown
    assert shown["flags"] & EPHEMERAL and "Federation: —" in shown["content"], shown
    assert "Birth: —" in shown["content"]
    # The good file: ben's fields set.
    good = f"User ID,Federation,Birth,Sex,TRF name\n{ben.id},ned,1985,m,\"Bravo, Ben\"\n"
    reply = await club.run(owner, "admin import-players",
                           file=Attachment("players.csv", good.encode()))
    assert "0 players added, 1 updated" in reply["content"], reply
    # Not UTF-8: said plainly.
    reply = await club.run(owner, "admin import-players",
                           file=Attachment("players.csv", "name\nJos\xe9\n".encode("latin-1")))
    assert "not UTF-8" in reply["content"]

    view = await bot.service.pairings(guild.id)
    for game in view.games:
        await club.run(owner, "result set", player=f"#{game.white.number}", round=1,
                       result="win")
    reply = await club.run(owner, "tournament export", format="trf")
    (trf,) = _files(reply).values()
    parsed = parse_trf(trf)
    numbers = {p.user_id: p.number for p in await bot.service.list_players(guild.id)}
    ann_info, ben_info = parsed.players[numbers[ann.id]], parsed.players[numbers[ben.id]]
    assert (ann_info.fide_id, ann_info.federation, ann_info.birth, ann_info.sex,
            ann_info.title) == ("1503014", "NOR", "1990/11/30", "w", "WGM")
    assert (ben_info.federation, ben_info.birth, ben_info.sex) == ("NED", "1985", "m")
    names = {p.id: p.name for p in parsed.tournament.players}
    assert names[numbers[ann.id]] == "Alpha, Ann" and names[numbers[ben.id]] == "Bravo, Ben"


async def test_the_command_takes_no_file_over_the_limit(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Big File", rounds=2)
    huge = b"name\n" + b"x" * 1_100_000
    reply = await club.run(club.owner, "admin import-players",
                           file=Attachment("huge.csv", huge))
    assert reply["flags"] & EPHEMERAL and "at most 1,000,000 bytes" in reply["content"]
