"""Rendering: Discord limits, splitting, attachments, mentions and timestamps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render import tournament as render
from bot.render.format import discord_timestamp, plain, points
from bot.render.limits import problems
from bot.render.message import Outgoing
from service.views import ByeView, GameView, RoundView, Seat, StandingsRowView, StandingsView

PAIRED = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


def _seat(n: int, *, guest: bool = False, name: str | None = None) -> Seat:
    return Seat(player_id=n, number=n, name=name or f"Player {n}",
                user_id=None if guest else 10**17 + n)


def _round(boards: int, *, bye: bool = True, deadline: datetime | None = None,
           names: list[str] | None = None, guests: set[int] = frozenset()) -> RoundView:
    games = []
    for b in range(1, boards + 1):
        w, k = 2 * b - 1, 2 * b
        games.append(GameView(
            id=b, tournament_id=1, round=3, board=b,
            white=_seat(w, guest=w in guests, name=names[w - 1] if names else None),
            black=_seat(k, guest=k in guests, name=names[k - 1] if names else None),
            result="*", state="pending",
        ))
    odd = 2 * boards + 1
    byes = (ByeView(_seat(odd, guest=odd in guests), "pairing", Fraction(1)),) if bye else ()
    return RoundView(1, "Club <@&42> @everyone Open", 3, 7, "playing", tuple(games), byes,
                     paired_at=PAIRED, deadline=deadline)


def check_limits(messages: list[Outgoing]) -> None:
    for message in messages:
        assert len(message.content) <= 2000
        assert len(message.embeds) <= 10
        total = 0
        for embed in message.embeds:
            data = embed.to_dict()
            assert len(data.get("title", "")) <= 256
            assert len(data.get("description", "")) <= 4096
            total += len(data.get("title", "")) + len(data.get("description", ""))
            total += len(data.get("footer", {}).get("text", ""))
        assert total <= 6000
        allowed = message.allowed_mentions()
        assert allowed.everyone is False


def mentioned(messages: list[Outgoing]) -> list[int]:
    return [u for m in messages for u in m.mention_users]


def test_small_round_is_one_message_pinging_exactly_the_paired_players() -> None:
    deadline = PAIRED + timedelta(hours=2)
    messages = render.pairings(_round(4, deadline=deadline))
    assert len(messages) == 1
    (message,) = messages
    players = [10**17 + n for n in range(1, 10)]
    assert list(message.mention_users) == players
    for user in players:
        assert message.content.count(f"<@{user}>") == 1
    allowed = message.allowed_mentions().to_dict()
    assert allowed["parse"] == []  # nothing parsed from text: no @everyone, no roles
    assert sorted(int(u) for u in allowed["users"]) == players
    assert "roles" not in allowed
    description = message.embeds[0].description or ""
    assert f"<t:{int(deadline.timestamp())}:R>" in description
    assert "bye" in description and message.files == []
    # the tournament name cannot ping: its mention syntax and @everyone are defused
    assert "<@&42>" not in message.content and "@everyone" not in message.content
    assert "<@&42>" not in (message.embeds[0].title or "")


def test_large_round_splits_and_attaches_the_full_list() -> None:
    round_ = _round(300, guests={5, 6, 77})
    messages = render.pairings(round_)
    check_limits(messages)
    assert len(messages) > 1
    expected = [10**17 + n for n in range(1, 602) if n not in {5, 6, 77}]
    assert mentioned(messages) == expected  # each once, in board order
    (attachment,) = messages[0].files
    assert attachment.filename == "round-3-pairings.txt"
    lines = attachment.text.splitlines()
    assert sum(1 for line in lines if line[:4].strip().isdigit()) == 300
    assert "Player 601 (#601)" in attachment.text
    assert all(m.files == [] for m in messages[1:])
    # every board appears once, in order, across the embeds
    text = "\n".join(e.description or "" for m in messages for e in m.embeds)
    positions = [text.index(f"`{b:>3}` ") for b in range(1, 301)]
    assert positions == sorted(positions)


def test_one_hundred_boards_need_no_attachment() -> None:
    messages = render.pairings(_round(100))
    check_limits(messages)
    assert all(m.files == [] for m in messages)


@settings(max_examples=40, deadline=None)
@given(
    boards=st.integers(min_value=0, max_value=260),
    name_length=st.integers(min_value=1, max_value=120),
    guests=st.sets(st.integers(min_value=1, max_value=521), max_size=30),
)
def test_pairings_always_fit_discord_limits(
    boards: int, name_length: int, guests: set[int]
) -> None:
    names = [("ab*_`|" * 30)[:name_length] + str(i) for i in range(1, 2 * boards + 2)]
    round_ = _round(boards, names=names, guests=guests, deadline=PAIRED)
    messages = render.pairings(round_)
    check_limits(messages)
    expected = [10**17 + n for n in range(1, 2 * boards + 2) if n not in guests]
    assert mentioned(messages) == expected


def _standings(rows: int, final: bool = False) -> StandingsView:
    return StandingsView(
        tournament_id=1, tournament_name="Open", after_round=5, total_rounds=5, final=final,
        tiebreaks=("BH-C1", "BH", "SB"),
        rows=tuple(
            StandingsRowView(rank=i, player_id=i, number=i, name=f"A rather long name {i}",
                             user_id=10**17 + i, points=Fraction(rows - i, 2),
                             values=(Fraction(i), Fraction(2 * i + 1, 2), 3.25))
            for i in range(1, rows + 1)
        ),
    )


def test_standings_footer_names_the_c07_edition_and_the_ties_left() -> None:
    from dataclasses import replace

    note = "Tied after every tie-break: places 2-3: #2 B, #3 C. " + "x" * 3000
    view = replace(_standings(30), rules="2026", ties_note=note)
    for message in render.standings(view):
        for embed in message.embeds:
            text = embed.footer.text or ""
            assert text.startswith("Tiebreaks (FIDE C.07 2026): BH-C1, BH, SB")
            assert "places 2-3" in text and len(text) <= 1024  # half the footer limit
            assert len(embed) <= 6000


def test_standings_table_and_split() -> None:
    small = render.standings(_standings(8))
    assert len(small) == 1 and small[0].mention_users == ()
    description = small[0].embeds[0].description or ""
    assert description.startswith("```") and "BH-C1" in description
    assert "  1 A rather long name 1" in description
    assert "3½" in description and "3.25" in description
    big = render.standings(_standings(400, final=True))
    check_limits(big)
    assert "Final standings" in big[0].content
    (attachment,) = big[0].files
    assert attachment.filename == "final-standings.txt"
    assert "A rather long name 400" in attachment.text
    text = "\n".join(e.description or "" for m in big for e in m.embeds)
    assert all(f"A rather long name {i} " in text for i in (1, 199, 400))


def test_dispute_alert_pings_the_organiser_role_only() -> None:
    game = _round(1).games[0]
    message = render.dispute_alert(game, 555, "Open")
    allowed = message.allowed_mentions().to_dict()
    assert allowed["roles"] == [555] and "users" not in allowed and allowed["parse"] == []
    assert message.content.startswith("<@&555>")


def test_dispute_alert_without_organiser_role_pings_the_owner_or_says_so() -> None:
    game = _round(1).games[0]
    message = render.dispute_alert(game, None, "Open", owner_id=77)
    allowed = message.allowed_mentions().to_dict()
    assert allowed["users"] == [77] and "roles" not in allowed
    assert message.content.startswith("<@77> (no organiser role is set)")
    assert "/config organiser-role" in (message.embeds[0].description or "")
    nobody = render.dispute_alert(game, None, "Open")
    assert "nobody was pinged" in nobody.content
    assert nobody.allowed_mentions().to_dict() == {"parse": []}


def test_plain_defuses_markdown_and_mentions() -> None:
    assert plain("**bold** @everyone <@123> <@&9> <#7>") == (
        "\\*\\*bold\\*\\* @\u200beveryone <@\u200b123> <@&\u200b9> <#\u200b7>"
    )
    assert plain("x" * 300, 10) == "x" * 9 + "…"


def test_timestamps_and_points() -> None:
    naive = datetime(2026, 1, 1, 12, 0)
    assert discord_timestamp(naive) == "<t:1767268800:R>"
    assert discord_timestamp(naive.replace(tzinfo=UTC), "f") == "<t:1767268800:f>"
    assert points(Fraction(5, 2)) == "2½"
    assert points(Fraction(1, 2)) == "½"
    assert points(3) == "3"
    assert points(0.5) == "0.50"


def test_outgoing_send_kwargs_carry_files_and_mentions() -> None:
    message = render.pairings(_round(120))[0]
    kwargs = message.send_kwargs()
    assert isinstance(kwargs["files"][0], discord.File)
    assert kwargs["allowed_mentions"].everyone is False


def test_standings_limit_attaches_the_rest() -> None:
    messages = render.standings(_standings(60), limit=50)
    check_limits(messages)
    text = "\n".join(e.description or "" for m in messages for e in m.embeds)
    assert "A rather long name 50 " in text and "A rather long name 51 " not in text
    assert "10 more in the attached file" in text
    (attachment,) = messages[0].files
    assert "A rather long name 60" in attachment.text
    assert render.standings(_standings(50), limit=50)[0].files == []


@given(st.integers(1, 20))
def test_counts_agree_with_their_nouns(missed: int) -> None:
    """"missed 1 games", "1 boards": a count of one takes the singular."""
    from bot.render.timers import timer_announcement
    from swiss.wording import plural

    player = {"player_id": 1, "name": "Ann", "number": 1, "user_id": None}
    [message] = timer_announcement("player_dropped", {"player": player, "missed": missed,
                                                      "round": 3}, "Cup")
    assert message.content is not None
    assert f"missed {missed} game{'s' if missed != 1 else ''} in a row" in message.content
    assert plural(1, "board") == "1 board" and plural(2, "board") == "2 boards"
    assert plural(1, "match", "matches") == "1 match" and plural(0, "player") == "0 players"


def _cut_payload(players: int) -> dict[str, object]:
    """A finished top-4 event's final standings payload: seed 4 won the playoffs."""
    rows = [{"rank": n, "number": n, "player_id": n, "name": f"P{n}", "user_id": None,
             "points": "1", "values": [], "withdrawn": False} for n in range(1, players + 1)]
    place = {4: 1, 1: 2, 2: 3, 3: 3}
    for row in rows:
        row["place"] = place.get(row["player_id"], row["rank"])  # type: ignore[call-overload]
    placings = [{"place": name, "seed": seed, "player_id": seed, "name": f"P{seed}",
                 "user_id": None} for name, seed in (("Winner", 4), ("Finalist", 1),
                                                     ("Semi-finalist", 2),
                                                     ("Semi-finalist", 3))]
    return {"tournament": {"name": "Cut <@1> Open"}, "after_round": 5, "total_rounds": 5,
            "final": True, "tiebreaks": [], "placings": placings, "rows": rows}


def test_a_top_cut_ends_with_one_final_result_ranked_by_place() -> None:
    from bot.render.announcements import render_announcement

    for players in (6, 300):
        messages = render_announcement("final_standings", _cut_payload(players))
        assert messages[0].content.startswith("🏆 **Final result** of **Cut")
        assert "🥇 **Winner**: P4 (4)" in messages[0].content
        title = messages[0].embeds[0].title or ""
        assert title.startswith("Cut") and title.endswith("final result")
        table = (messages[0].embeds[0].description or "").splitlines()
        rows = [line.split()[:2] for line in table if line[:3].strip().isdigit()]
        assert rows[:5] == [["1", "P4"], ["2", "P1"], ["3", "P2"], ["3", "P3"], ["5", "P5"]]
        for message in messages:
            assert problems(message.content, message.embeds) == []
        assert "<@1>" not in messages[0].content
    swiss = render_announcement("swiss_final", {
        "tournament": {"name": "Cut Open"}, "seeded": 4,
        "standings": {**_cut_payload(6), "placings": [],
                      "rows": [{k: v for k, v in r.items() if k != "place"}
                               for r in _cut_payload(6)["rows"]]}})  # type: ignore[attr-defined]
    assert swiss[0].embeds[0].title == "Cut Open · Swiss standings"
    assert "the top 4 advance to the playoffs" in (swiss[0].content or "")
