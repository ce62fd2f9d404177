"""Every other command through Discord: registration, organiser tools, autocomplete, the
life cycle, and how errors reach the user."""

from __future__ import annotations

from sandbox import FakeDiscord, SandboxGuild
from service import Actor
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def test_registration_and_organiser_tools(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, (ann, ben, cy, dee, eve) = club.owner, club.players[:5]
    reply = await club.run(owner, "tournament create", name="Tools Open", rounds=3)
    assert "Created" in reply["content"]
    await club.configure(owner, checkin=True)
    for player in (ann, ben, cy, dee, eve):
        await club.run(player, "join")
    # /checkin
    reply = await club.run(ann, "checkin")
    assert reply["flags"] & EPHEMERAL and "checked in" in reply["content"]
    reply = await club.run(ann, "checkin")
    assert "already checked in" in reply["content"]
    for player in (ben, cy, dee, eve):
        await club.run(player, "checkin")
    # /leave before the start removes the registration
    reply = await club.run(eve, "leave")
    assert "left" in reply["content"]
    # /admin add-player: a member by mention, and a guest by name
    frank = fake.add_member(guild, "frank", display_name="Frank")
    reply = await club.run(owner, "admin add-player", **{"member-or-name": f"<@{frank.id}>"})
    assert f"<@{frank.id}>" in reply["content"] and reply["mentions"] == []
    reply = await club.run(owner, "admin add-player", **{"member-or-name": "Gus Guest"},
                           rating=1700)
    assert "Gus Guest" in reply["content"] and "guest" in reply["content"]
    players = await bot.service.list_players(guild.id)
    assert {p.name for p in players} >= {"Frank", "Gus Guest"}
    # /admin remove-player
    reply = await club.run(owner, "admin remove-player", player="Gus Guest")
    assert "Removed **Gus Guest**" in reply["content"]
    # /admin forbid and /admin bye
    reply = await club.run(owner, "admin forbid", player=f"<@{ann.id}>", opponent=f"<@{ben.id}>")
    assert "will not be paired together" in reply["content"], reply["content"]
    reply = await club.run(owner, "admin bye", player=f"<@{cy.id}>", round=1, kind="half")
    assert "half bye in round 1" in reply["content"], reply["content"]
    # /tournament list and info
    reply = await club.run(ann, "tournament list")
    assert "Tools Open" in text_of(reply) and reply["flags"] & EPHEMERAL
    reply = await club.run(ann, "tournament info")
    assert "Players (" in text_of(reply)

    await club.run(owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    pairs = {frozenset((g.white.user_id, g.black.user_id)) for g in view.games}
    assert frozenset((ann.id, ben.id)) not in pairs
    assert [b.player.user_id for b in view.byes if b.kind == "half"] == [cy.id]

    # /admin drop, /round undo, /tournament cancel
    reply = await club.run(owner, "admin drop", player=f"<@{dee.id}>")
    assert "withdrawn" in reply["content"], reply["content"]
    reply = await club.run(owner, "round undo")
    assert "Round 1" in reply["content"] and "undone" in reply["content"]
    await club.wait_post(lambda m: "was undone" in (m.get("content") or ""))
    reply = await club.run(owner, "tournament cancel")  # it has players: asks first
    assert "This cancels 'Tools Open' before its first round" in reply["content"]
    reply = await club.click(reply, owner, "Confirm")
    assert "cancelled" in reply["content"]
    await club.wait_post(lambda m: "was cancelled" in (m.get("content") or ""))


async def test_tournament_and_player_autocomplete(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Spring Rapid", rounds=3)
    await club.run(club.owner, "tournament create", name="Summer Blitz", rounds=3)
    for player in club.players[:3]:
        await club.run(player, "join", tournament="Summer Blitz")
    # without the tournament option, the bot says which ones exist
    reply = await club.run(club.players[5], "join")
    assert "Spring Rapid" in reply["content"] and "Summer Blitz" in reply["content"]
    inter = await fake.send_autocomplete(
        guild, club.channel, club.players[0], "join", "tournament", {"tournament": "sum"}
    )
    choices = (await fake.reply(inter))["choices"]
    assert [c["name"] for c in choices] == ["Summer Blitz (registration)"]
    inter = await fake.send_autocomplete(
        guild, club.channel, club.owner, "admin drop", "player",
        {"player": "", "tournament": choices[0]["value"]},
    )
    names = [c["name"] for c in (await fake.reply(inter))["choices"]]
    assert names == [p.display_name for p in club.players[:3]]


async def test_unexpected_error_shows_an_id_and_is_logged(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, error_log
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database on fire")

    bot.service.list_tournaments = broken
    error_log.allowed.append("unexpected error")
    reply = await club.run(club.players[0], "tournament list")
    assert reply["flags"] & EPHEMERAL
    assert "error id `" in reply["content"] and "database on fire" not in reply["content"]
    incident = reply["content"].split("`")[1]
    (record,) = error_log.records
    assert incident in record.getMessage() and record.exc_info is not None


async def test_big_round_is_split_with_an_attachment_and_pings_only_players(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    sneaky = f"@everyone <@&{guild.role('Organisers').id}> Mega Open"
    reply = await club.run(club.owner, "tournament create", name=sneaky, rounds=5)
    assert reply["flags"] & EPHEMERAL and "mention" in reply["content"]
    await club.run(club.owner, "tournament create", name="Mega Open", rounds=5)
    await club.configure(club.owner, deadline_minutes=30)
    members = [fake.add_member(guild, f"m{i:03d}") for i in range(211)]
    for m in members:  # 211 players: joining through the service keeps the test quick
        await bot.service.join(Actor(m.id, guild.id, m.display_name))
    await club.run(club.owner, "tournament start")
    await club.wait_post(lambda m: "standings" in text_of(m) or "bye" in text_of(m), 20)
    posts = [m for m in club.posts() if "pairings" in text_of(m)]
    assert len(posts) > 1
    pinged = [u["id"] for m in posts for u in m["mentions"]]
    assert sorted(pinged) == sorted(str(m.id) for m in members)  # each player exactly once
    assert not any(m["mention_everyone"] or m["mention_roles"] for m in posts)
    (attachment,) = posts[0]["attachments"]
    assert attachment["filename"] == "round-1-pairings.txt"
    assert attachment["content"].count("\n") >= 106
    assert all(r.status == 200 for r in fake.requests if r.kind == "create_message")


async def test_auto_advance_pairs_the_next_round_in_the_background(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Autopilot", rounds=2)
    await club.configure(club.owner, auto_advance_minutes=0)
    for player in club.players[:4]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    for game in view.games:
        prompt = await club.run(guild.members[game.white.user_id], "report", result="win")
        await club.click(prompt, guild.members[game.black.user_id], "Confirm")
    # nobody runs /round next: the delivery loop's tick pairs round 2 and posts it
    await club.wait_post(lambda m: "Round 2 of 2 · pairings" in text_of(m))
    assert (await bot.service.tournament_info(guild.id)).current_round == 2


async def test_finish_early_posts_final_standings(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Short Night", rounds=5)
    for player in club.players[:4]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    reply = await club.run(club.owner, "tournament finish")
    assert reply["flags"] & EPHEMERAL  # open games would become double forfeits: it asks
    assert "2 open games become double forfeits" in reply["content"]
    reply = await club.click(reply, club.owner, "Confirm")
    assert "is finished" in reply["content"]
    await club.wait_post(lambda m: "Final standings" in (m.get("content") or ""))
    assert (await bot.service.tournament_info(guild.id)).status == "finished"


async def test_double_clicked_forced_round_next_pairs_one_round(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Twice", rounds=4)
    for player in club.players[:6]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    first = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True}
    )
    second = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True}
    )
    replies = [await fake.reply(first), await fake.reply(second)]
    # each asks first (round 1 has open games): nothing is paired until a Confirm
    assert all("This closes round 1" in r["content"] for r in replies), replies
    assert (await bot.service.tournament_info(guild.id)).current_round == 1
    await club.click(replies[0], club.owner, "Confirm")
    refused = await club.click(replies[1], club.owner, "Confirm")
    assert "Round 2 of 'Twice' is already paired" in refused["content"]
    assert (await bot.service.tournament_info(guild.id)).current_round == 2


MANAGE_GUILD = 1 << 5


async def test_config_commands_need_manage_server(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    """Items 11.1 and 11.2: the registered commands carry Manage Server on /config only, and
    an organiser without Manage Server cannot change who organises (nor the default channel)."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    registered = {c["name"]: c for c in fake.guild_commands.get(guild.id, [])
                  + fake.global_commands}
    assert int(registered["config"]["default_member_permissions"]) == MANAGE_GUILD
    for visible in ("admin", "tournament", "round", "result", "report", "join", "standings"):
        assert registered[visible].get("default_member_permissions") is None, visible
    organisers = guild.role("Organisers")
    await club.run(club.owner, "config organiser-role", role=organisers)
    org = fake.add_member(guild, "olga", display_name="Olga", roles=[organisers])
    # the organiser runs tournaments ...
    reply = await club.run(org, "tournament create", name="Olga Cup", rounds=3)
    assert "Created" in reply["content"]
    # ... but cannot hand the organiser role to @everyone, nor move the announcements
    everyone = guild.roles[guild.id]
    reply = await club.run(org, "config organiser-role", role=everyone)
    assert reply["flags"] & EPHEMERAL
    assert "Only server managers" in reply["content"] and "Manage Server" in reply["content"]
    reply = await club.run(org, "config channel", channel=club.channel)
    assert reply["flags"] & EPHEMERAL and "Only server managers" in reply["content"]
    settings = await bot.service.get_guild_settings(guild.id)
    assert (settings.organiser_role_id, settings.default_channel_id) == (organisers.id, None)
    # the owner (a manager) can
    reply = await club.run(club.owner, "config channel", channel=club.channel)
    assert f"<#{club.channel.id}>" in reply["content"]
    reply = await club.run(club.owner, "config show")
    assert f"<@&{organisers.id}>" in reply["content"] and reply["mentions"] == []


async def test_findings_finish_after_auto_finish_dispute_pings_owner_and_readmission(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, error_log
) -> None:
    """Item 11.9 through Discord: a dispute with no organiser role pings the owner;
    /tournament finish after the automatic finish says so with the final standings; a dropped
    player is re-admitted by /admin add-player; malformed ids get a clear refusal."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, players = club.owner, club.players[:4]
    await club.run(owner, "tournament create", name="Last Cup", rounds=2)
    for player in players:
        await club.run(player, "join")
    await club.run(owner, "tournament start")
    # a 20-digit id and "²" are refused in words (not "Something went wrong")
    for bad, words in (("99999999999999999999", "not a valid Discord user id"),
                       ("²", "No player '²'")):
        reply = await club.run(owner, "admin drop", player=bad)
        assert reply["flags"] & EPHEMERAL and words in reply["content"], reply["content"]
    # drop a player during round 1, and re-admit him: he is back in round 2
    leaver = players[3]
    await club.run(owner, "admin drop", player=f"<@{leaver.id}>")
    reply = await club.run(leaver, "join")
    assert "/admin add-player" in reply["content"]
    reply = await club.run(owner, "admin add-player", **{"member-or-name": f"<@{leaver.id}>"})
    assert "Re-admitted" in reply["content"] and reply["mentions"] == []
    # a dispute: no organiser role is set, so the owner is pinged
    view = await bot.service.pairings(guild.id)
    first, second = view.games
    white, black = guild.members[first.white.user_id], guild.members[first.black.user_id]
    prompt = await club.run(white, "report", result="win")
    await club.click(prompt, black, "Dispute")
    alert = await club.wait_post(lambda m: "disputed" in text_of(m))
    assert [u["id"] for u in alert["mentions"]] == [str(owner.id)]
    assert "no organiser role is set" in alert["content"]
    await club.run(owner, "result set", player=f"<@{white.id}>", round=1, result="win")
    await club.run(owner, "result set", player=f"#{second.white.number}", round=1,
                   result="draw")
    await club.run(owner, "round next")
    round2 = await bot.service.pairings(guild.id)
    seated = {s.user_id for g in round2.games for s in (g.white, g.black)}
    assert leaver.id in seated
    for game in round2.games:
        await club.run(owner, "result set", player=f"#{game.white.number}", round=2,
                       result="win")
    await club.wait_post(lambda m: "Final standings" in text_of(m))
    reply = await club.run(owner, "tournament finish")
    assert reply["flags"] & EPHEMERAL
    assert "'Last Cup' is already finished (after round 2)" in reply["content"]
    # without a top cut: one final standings post, the finish after it posts nothing more
    assert len([m for m in club.posts() if "final standings" in text_of(m).lower()]) == 1
    assert "Final standings: 1." in reply["content"]
