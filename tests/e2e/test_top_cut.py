"""A whole event with a top cut of 4 through Discord (the real bot, the sandbox): a 2-round
Swiss of 8, the bracket posted as text and PNG, best-of-3 semi-finals reported with /report
and the Confirm button, a draw refused, a restart between the report and the confirmation,
an undone and re-paired final, the placing above the Swiss standings."""

from __future__ import annotations

from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def _swiss_round(club: Club, bot: Any) -> None:
    view = await bot.service.pairings(club.guild.id)
    for game in view.games:
        white = club.guild.members[game.white.user_id]
        black = club.guild.members[game.black.user_id]
        prompt = await club.run(white, "report", result="win")
        await club.click(prompt, black, "Confirm")


async def test_event_with_a_top_cut_of_4(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    reply = await club.run(club.owner, "tournament create", name="Cut Open", rounds=2)
    assert "Created **Cut Open**" in reply["content"]
    await club.configure(club.owner, top_cut=4, playoff_best_of=3)
    for index, player in enumerate(club.players[:8]):
        await club.run(player, "join", rating=2000 - 10 * index)
    await club.run(club.owner, "tournament start")
    await _swiss_round(club, bot)
    await club.run(club.owner, "round next")
    await _swiss_round(club, bot)

    seeded = await club.wait_post(lambda m: "The top cut is seeded" in text_of(m))
    assert "Semi-finals (round 3)" in seeded["content"] and "best of 3" in seeded["content"]
    assert [a["filename"] for a in seeded["attachments"]] == ["bracket.png"]
    assert 0 < seeded["attachments"][0]["size"] < 8 * 1024 * 1024
    assert seeded["mentions"] == []
    swiss = await club.wait_post(lambda m: "The Swiss of **Cut Open** is over" in text_of(m))
    # the Swiss's table, titled as the Swiss's: the final standings come after the playoffs
    assert swiss["embeds"][0]["title"] == "Cut Open · Swiss standings"
    assert "final" not in text_of(swiss).lower()
    assert "the top 4 advance to the playoffs" in swiss["content"]

    reply = await club.run(club.owner, "round next")
    assert "**Semi-finals** of **Cut Open**: paired as round 3 (2 matches)" in reply["content"]
    paired = await club.wait_post(lambda m: "Semi-finals (round 3) · pairings" in text_of(m))
    semis = await bot.service.pairings(guild.id)
    # as the bracket: the higher seed first, seeds beside the names (not pairing numbers)
    match_lines = [line for line in text_of(paired).splitlines() if line.startswith("`  ")]
    assert [line.split()[2::3] for line in match_lines] == [["(1)", "(4)"], ["(2)", "(3)"]]
    assert "`#" not in "".join(match_lines)
    first, second = semis.games
    white = guild.members[first.white.user_id]
    black = guild.members[first.black.user_id]
    refusal = await club.run(white, "report", result="draw")
    assert refusal["flags"] & EPHEMERAL and "cannot end in a draw" in refusal["content"]
    refusal = await club.run(white, "report", result="win")
    assert refusal["flags"] & EPHEMERAL and "best of 3" in refusal["content"]
    prompt = await club.run(white, "report", result="win", my_games=2, their_games=1)
    answer = await club.click(prompt, black, "Confirm")
    assert "final" in answer["content"]

    other_white = guild.members[second.white.user_id]
    other_black = guild.members[second.black.user_id]
    prompt = await club.run(other_black, "report", result="win", my_games=2, their_games=0)
    await bot.close()  # the bot dies between the report and the confirmation
    bot = await start_swissbot()
    answer = await club.click(prompt, other_white, "Confirm")  # a button from before
    assert "final" in answer["content"], answer["content"]
    updated = await club.wait_post(lambda m: "Bracket updated" in text_of(m))
    assert "Final (round 4)" in updated["content"]

    reply = await club.run(club.owner, "round next")
    assert "**Final**" in reply["content"]
    reply = await club.run(club.owner, "round undo", round=4)
    assert "Round 4 of **Cut Open** is undone" in reply["content"]
    reply = await club.run(club.owner, "round next", round=4)
    assert "**Final**" in reply["content"]
    final = (await bot.service.pairings(guild.id)).games[0]
    assert {final.white.user_id, final.black.user_id} == {other_black.id, white.id}
    winner = guild.members[final.white.user_id]
    loser = guild.members[final.black.user_id]
    prompt = await club.run(winner, "report", result="win", my_games=2, their_games=1)
    await club.click(prompt, loser, "Confirm")
    done = await club.wait_post(lambda m: "The bracket is complete" in text_of(m))
    assert "Winner:" in done["content"]
    # every match with its score, the high seed's games first
    assert f"-> {first.white.name} (2-1)" in done["content"]
    assert f"-> {second.black.name} (0-2)" in done["content"]
    assert f"-> {final.white.name} (2-1)" in done["content"] or (
        f"-> {final.white.name} (1-2)" in done["content"])
    final_post = await club.wait_post(lambda m: "Final result" in text_of(m))
    assert "🥇 **Winner**" in final_post["content"]
    assert final_post["embeds"][0]["title"] == "Cut Open · final result"
    # ranked by the final result: the winner first, the finalist second, then the others
    table = final_post["embeds"][0]["description"].splitlines()
    rows = [line for line in table if line[:3].strip().isdigit()]
    assert rows[0].split()[:2] == ["1", final.white.name], rows
    assert rows[1].split()[:2] == ["2", final.black.name], rows
    finals = [m for m in club.posts() if "final standings" in text_of(m).lower()
              or "final result" in text_of(m).lower()]
    assert [m["id"] for m in finals] == [final_post["id"]]  # one final post, not two

    reply = await club.run(club.owner, "standings")
    body = text_of(reply)
    assert "Winner" in body and "Finalist" in body and "Semi-finalists" in body
    assert body.index("Winner") < body.index("Swiss final standings")
    info = await bot.service.tournament_info(guild.id)
    assert info.status == "finished"
