"""The words of a small event through Discord (the real bot, the sandbox): a status that reads
as a sentence, "board 1 has", a bye worth "1 point", standings that say a round is still in
play, mark the tiebreak that decided and explain DE and the dash of a cut tiebreak; the
placing DMs say "#1 of 3 players with 1½ points"."""

from __future__ import annotations

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


def _table_rows(message: dict) -> list[str]:
    description = message["embeds"][0]["description"]
    return [line for line in description.splitlines() if line[:3].strip().isdigit()]


async def test_a_small_event_reads_right(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Tiny", rounds=2,
                   tiebreaks="BH,DE,AROC")
    for player in club.players[:3]:
        await club.run(player, "join")
        await club.run(player, "notify", dm="on")
    early = await club.run(club.players[0], "report", result="win")
    assert early["flags"] & EPHEMERAL
    assert "'Tiny' is not running (it is still open for registration)" in early["content"]

    await club.run(club.owner, "tournament start")
    pairings = await club.wait_post(lambda m: "Round 1 of 2 · pairings" in text_of(m))
    assert "pairing bye (1 point)" in text_of(pairings)
    during = await club.run(club.owner, "standings")
    assert during["embeds"][0]["title"] == "Tiny · standings with round 1 in play"

    refused = await club.run(club.owner, "round next")
    assert "board 1 has no final result. Set it with /result set" in refused["content"]

    game = (await bot.service.pairings(guild.id)).games[0]
    white, black = guild.members[game.white.user_id], guild.members[game.black.user_id]
    prompt = await club.run(white, "report", result="win")
    await club.click(prompt, black, "Confirm")
    after = await club.wait_post(lambda m: "standings after round 1" in text_of(m))
    rows = _table_rows(after)
    # the bye and the winner both have 1 point; Buchholz put the bye's player first
    assert rows[0].split()[3].endswith("*") and rows[0].split()[2] == "1"
    assert all(row.split()[-1] == "–" for row in rows)  # AROC cuts the only round
    footer = after["embeds"][0]["footer"]["text"]
    assert "* the tiebreak that put a player ahead of the next one on equal points" in footer
    assert "DE: lower is better" in footer and "– not enough rounds yet" in footer

    await club.run(club.owner, "round next")
    game = (await bot.service.pairings(guild.id)).games[0]
    white, black = guild.members[game.white.user_id], guild.members[game.black.user_id]
    prompt = await club.run(white, "report", result="draw")
    await club.click(prompt, black, "Confirm")
    await club.wait_post(lambda m: "Final standings" in text_of(m))
    standings = await bot.service.standings(guild.id)
    for row in standings.rows:
        member = guild.members[row.user_id]
        dm = await fake.wait_for_message(
            lambda m, uid=member.id: m["channel_id"] == str(fake.dm_channels.get(uid))
            and "Thanks for playing" in (m.get("content") or ""), 10)
        points = "1 point" if row.points == 1 else "1½ points"
        assert f"of 3 players with {points}." in dm["content"], dm["content"]
