"""Discord's limits through the real client: every registered option range equals the bot's
own limits (service.limits), and hostile long inputs get a short, specific answer (the sandbox
answers an oversized message with Discord's 400, which would leave the user with nothing)."""

from __future__ import annotations

from typing import Any

from cogs.teams import MAX_LINEUP_TEXT
from sandbox import FakeDiscord, SandboxGuild
from service import limits, teams
from swiss.trf import player_fields
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64
OPT_SUB_COMMAND, OPT_GROUP, OPT_STRING, OPT_INTEGER = 1, 2, 3, 4

# Integer options, by name (and by command where one name has two meanings).
INTEGER_BOUNDS: dict[str, tuple[int, int]] = {
    "rounds": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),
    # a round that exists: the Swiss's or, after it, a top cut's (up to 5 knockout rounds)
    "round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS + limits.PLAYOFF_ROUNDS),
    "admin bye round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),  # byes are for Swiss rounds
    "bye request round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),  # likewise a requested bye
    "bye cancel round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),
    "why round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),  # Swiss rounds: the engine explains them
    "admin approve round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),
    "admin deny round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS),
    "standings round": (0, limits.MAX_ROUNDS),  # standings after round 0 = the start list
    "rating": (limits.MIN_RATING, limits.MAX_RATING),
    "my_games": (limits.MIN_GAMES_IN_MATCH, limits.MAX_GAMES_IN_MATCH),
    "their_games": (limits.MIN_GAMES_IN_MATCH, limits.MAX_GAMES_IN_MATCH),
    "noshow_drop_after": (limits.MIN_NOSHOW_DROP_AFTER, limits.MAX_NOSHOW_DROP_AFTER),
    "version": (1, limits.MAX_DRAFT_VERSION),
    "capacity": (limits.MIN_CAPACITY, limits.MAX_CAPACITY),
    "min_rating": (limits.MIN_RATING, limits.MAX_RATING),
    "max_rating": (limits.MIN_RATING, limits.MAX_RATING),
    "top": (limits.MIN_PICTURE_TOP, limits.MAX_PICTURE_TOP),
    "days": (limits.MIN_RETENTION_DAYS, limits.MAX_RETENTION_DAYS),
    # team events: rounds of the team Swiss (no top cut), boards, roster places, maps
    **{f"team {command} round": (limits.MIN_ROUNDS, limits.MAX_ROUNDS)
       for command in ("lineup", "pair", "pairings", "report", "score", "confirm", "result")},
    "team settings boards": (1, teams.MAX_BOARDS),
    "team result board": (1, teams.MAX_BOARDS),
    "team add board": (1, teams.MAX_MEMBERS),
    "wins": (1, teams.MAX_WINS),
    "mine": (0, teams.MAX_MAPS),
    "theirs": (0, teams.MAX_MAPS),
}
# Free-text options, by name: the longest text the service accepts.
STRING_LENGTHS: dict[str, int] = {
    "name": limits.MAX_TOURNAMENT_NAME,
    "tournament": limits.MAX_TOURNAMENT_REF,
    "tiebreaks": limits.MAX_TIEBREAKS_TEXT,
    "player": limits.MAX_PLAYER_REF,
    "opponent": limits.MAX_PLAYER_REF,
    "other": limits.MAX_PLAYER_REF,
    "registration_opens": limits.MAX_WINDOW_TEXT,
    "registration_closes": limits.MAX_WINDOW_TEXT,
    "checkin_opens": limits.MAX_WINDOW_TEXT,
    "checkin_closes": limits.MAX_WINDOW_TEXT,
    "member-or-name": limits.MAX_PLAYER_REF,
    "reminders": limits.MAX_REMINDERS_TEXT,
    "start_at": limits.MAX_START_TIME_TEXT,
    "decklist": limits.MAX_DECKLIST_TEXT,
    "deadline": limits.MAX_DECKLIST_DEADLINE_TEXT,
    "value": limits.MAX_TRF_HEADER_TEXT,  # trf-header; settings: the same
    "setting": limits.MAX_SETTING_NAME,
    # /admin player: the TRF columns of each field
    "fide_id": player_fields.FIDE_ID_DIGITS,
    "federation": player_fields.FEDERATION_LENGTH,
    "birth": player_fields.BIRTH_LENGTH,
    "trf_name": player_fields.TRF_NAME_LENGTH,
    "username": limits.MAX_LICHESS_USERNAME_TEXT,
    "clock": limits.MAX_CLOCK_TEXT,
    # durations typed as text ("1h30"; a number is minutes), ranges checked by the service
    "deadline_minutes": limits.MAX_TIME_TEXT,
    "auto_advance": limits.MAX_TIME_TEXT,
    "noshow_grace": limits.MAX_TIME_TEXT,
    "round_interval": limits.MAX_TIME_TEXT,
    "zone": limits.MAX_ZONE_NAME,
    "team": teams.MAX_TEAM_REF,
    "players": MAX_LINEUP_TEXT,
}


def _leaf_options(command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(command path, option) for every option of every (sub)command."""
    found: list[tuple[str, dict[str, Any]]] = []

    def walk(node: dict[str, Any], path: str) -> None:
        for option in node.get("options") or []:
            if option["type"] in (OPT_SUB_COMMAND, OPT_GROUP):
                walk(option, f"{path} {option['name']}")
            else:
                found.append((path, option))

    walk(command, command["name"])
    return found


async def test_registered_option_ranges_equal_the_bot_limits(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    await start_swissbot()
    commands = fake.guild_commands.get(guild.id, []) + fake.global_commands
    checked = 0
    for path, option in (o for c in commands for o in _leaf_options(c)):
        where = f"/{path} {option['name']}"
        if option["type"] == OPT_INTEGER and option.get("choices"):
            continue  # bounded by its choices (top_cut: 0/2/4/.../32, best of 1/3/5)
        if option["type"] == OPT_INTEGER:
            key = f"{path} {option['name']}" if f"{path} {option['name']}" in INTEGER_BOUNDS \
                else option["name"]
            assert key in INTEGER_BOUNDS, f"{where}: an integer option without a known limit"
            bounds = (option.get("min_value"), option.get("max_value"))
            assert bounds == INTEGER_BOUNDS[key], f"{where}: Discord {bounds}"
            checked += 1
        elif option["type"] == OPT_STRING and not option.get("choices"):
            assert option["name"] in STRING_LENGTHS, f"{where}: free text without a known limit"
            assert option.get("max_length") == STRING_LENGTHS[option["name"]], where
            checked += 1
    assert checked >= 30


async def test_hostile_long_inputs_get_a_short_specific_answer(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    """A modified client (or a future Discord change) can send more than the declared lengths:
    the bot still answers, within Discord's limits, and stores nothing it cannot display."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, ann = club.owner, club.players[0]
    huge = "W" * 6000

    reply = await club.run(ann, "tournament info", tournament=huge)
    assert reply["flags"] & EPHEMERAL and "There is no tournament" in reply["content"]
    assert len(reply["content"]) <= 300 and "W" * 61 not in reply["content"]

    tiebreaks = ",".join(["BH"] * 1000) + ",SB"  # 3,002 characters, accepted before
    reply = await club.run(owner, "tournament create", name="Long Open", rounds=5,
                           tiebreaks=tiebreaks)
    assert reply["flags"] & EPHEMERAL and "tiebreak list is too long" in reply["content"]
    assert await bot.service.list_tournaments(guild.id) == []

    reply = await club.run(owner, "tournament create", name=huge, rounds=5)
    assert reply["flags"] & EPHEMERAL and "too long" in reply["content"]
    reply = await club.run(owner, "tournament create", name="Long Open", rounds=5)
    assert "Created" in reply["content"]
    reply = await club.run(owner, "admin add-player", **{"member-or-name": huge})
    assert reply["flags"] & EPHEMERAL and "too long" in reply["content"]
    reply = await club.run(owner, "admin drop", player=huge)
    assert reply["flags"] & EPHEMERAL and "No player" in reply["content"]
    assert len(reply["content"]) <= 300

    reply = await club.run(ann, "tournament info")
    assert "Long Open" in text_of(reply)
    # every answer above arrived: nothing was refused by the sandbox's size checks
    assert not [r for r in fake.requests if r.status == 400]
