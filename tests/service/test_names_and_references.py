"""Issue 11, item 9: names are stored without invisible characters (emoji stay), player
references are unambiguous, malformed ids are refused in words, and a dropped player can be
re-admitted (the rounds he missed are absences)."""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service import (
    AlreadyRegisteredError,
    InvalidArgumentError,
    InvalidInputError,
    TournamentNotRunningError,
    TournamentService,
    UnknownPlayerError,
    UnknownTournamentError,
)
from service.validation import (
    MAX_ID,
    MAX_PLAYER_NAME,
    PlayerReference,
    clean_name,
    looks_like_reference,
    member_name,
    parse_player_ref,
    strip_invisible,
)
from tests.service_helpers import member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()

EMOJI = [
    "👨‍👩‍👧‍👦",  # family: ZWJ sequence
    "🏳️‍🌈",  # rainbow flag: variation selector + ZWJ
    "👩🏽‍💻",  # skin tone + ZWJ
    "❤️‍🔥",
    "🇫🇷",  # regional indicators
    "🏴󠁧󠁢󠁳󠁣󠁴󠁿",  # Scotland: tag sequence
    "1️⃣",  # keycap
    "👍🏿",
]
INVISIBLE = ["\u202e", "\u202d", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\u200b",
             "\u200c", "\u2060", "\ufeff", "\u00ad", "\x00", "\x1b", "\u200d"]


@pytest.mark.parametrize("emoji", EMOJI)
def test_emoji_sequences_and_at_signs_are_kept(emoji: str) -> None:
    name = f"Ann @club {emoji}"
    assert clean_name(name, what="player name", limit=MAX_PLAYER_NAME) == name
    assert member_name(name, 1, limit=MAX_PLAYER_NAME) == name


@pytest.mark.parametrize("char", INVISIBLE)
def test_bidi_controls_and_zero_width_characters_are_stripped(char: str) -> None:
    assert clean_name(f"Ev{char}il{char}", what="player name", limit=32) == "Evil"
    assert member_name(f"{char}Ann{char}", 5, limit=32) == "Ann"
    assert member_name(char * 3, 5, limit=32) == "user 5"
    with pytest.raises(InvalidInputError, match="empty"):
        clean_name(char * 3, what="player name", limit=32)


def test_member_names_cannot_carry_mentions() -> None:
    assert member_name("<@123> @everyone", 9, limit=32) == "everyone"


# Any characters (lone surrogates too), mixed with whole emoji sequences and invisible ones.
_NAMES = st.lists(
    st.characters() | st.sampled_from(INVISIBLE + EMOJI + [" ", "#", "@", "<@1>"]),
    max_size=30,
).map("".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_NAMES)
def test_cleaned_names_hold_no_control_or_format_characters(text: str) -> None:
    cleaned = strip_invisible(text)
    assert strip_invisible(cleaned) == cleaned  # idempotent
    for index, ch in enumerate(cleaned):
        category = unicodedata.category(ch)
        if ch == "\u200d":  # only between emoji
            assert index > 0 and unicodedata.category(cleaned[index + 1]) == "So"
        elif 0xE0020 <= ord(ch) <= 0xE007F:  # only in a flag's tag sequence
            assert cleaned[:index].rstrip("".join(map(chr, range(0xE0020, 0xE0080))))[-1] \
                == "\U0001f3f4"
        else:
            assert category not in ("Cc", "Cf", "Cs"), (hex(ord(ch)), cleaned)
    assert cleaned == cleaned.strip() and "  " not in cleaned
    try:
        name = clean_name(text, what="player name", limit=MAX_PLAYER_NAME)
    except InvalidInputError:
        return
    assert name == cleaned and 0 < len(name) <= MAX_PLAYER_NAME
    # a stored name can never be read as a reference to someone else
    assert parse_player_ref(name) == PlayerReference("name", name)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.text(max_size=30),
    st.from_regex(r"\A(#|<@!?)?[0-9²٣]{1,25}>?\Z"),
))
def test_player_references_parse_or_refuse_clearly(ref: int | str) -> None:
    try:
        parsed = parse_player_ref(ref)
    except InvalidInputError as exc:
        assert str(exc)  # a refusal in words, never ValueError / OverflowError
        return
    if parsed.kind in ("user", "number"):
        assert isinstance(parsed.value, int) and 0 < parsed.value <= MAX_ID
    else:
        text = " ".join(str(ref).split())
        assert parsed.value == text
        # what reads as a mention, an id or "#N" is never looked up as a name
        assert not re.fullmatch(r"<@!?[0-9]+>|#\s*[0-9]+|[0-9]+", text, re.ASCII)


def test_reference_forms() -> None:
    assert parse_player_ref("#2") == PlayerReference("number", 2)
    assert parse_player_ref("<@!42>") == PlayerReference("user", 42)
    assert parse_player_ref(" 42 ") == PlayerReference("user", 42)
    assert parse_player_ref("Table #2") == PlayerReference("name", "Table #2")
    assert parse_player_ref("²") == PlayerReference("name", "²")
    for bad in ("99999999999999999999", "#99999999999999999999", "<@99999999999999999999>",
                10**20, 0, -5):
        with pytest.raises(InvalidInputError, match="not a valid"):
            parse_player_ref(bad)
    for name in ("#2", "# 2", "2", "²", "<@12>", "<#5>"):
        assert looks_like_reference(name)


async def _running(service: TournamentService, players: int = 6) -> None:
    await service.create_tournament(ORG, "Refs", 4, seed=3)
    for uid in range(101, 101 + players):
        await service.join(member(uid), rating=2000 - uid)
    await service.start_tournament(ORG)


async def test_a_guest_cannot_be_named_like_a_pairing_number(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Refs", 4, seed=3)
        for bad in ("#2", "# 2", "2", "²", "12345678901234567890"):
            with pytest.raises(InvalidInputError, match="reads like a pairing number"):
                await service.add_player(ORG, bad)
        await service.add_player(ORG, "Table #2 🎲")
        for uid in range(101, 104):
            await service.join(member(uid))
        await service.start_tournament(ORG)
        players = {p.number: p for p in await service.list_players(1000)}
        # "#2" is pairing number 2, whoever that is
        dropped = await service.drop_player(ORG, "#2")
        assert dropped.id == players[2].id
        assert (await service.drop_player(ORG, "Table #2 🎲")).name == "Table #2 🎲"


async def test_malformed_ids_are_refused_in_words(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _running(service)
        for ref in ("99999999999999999999", "<@99999999999999999999>"):
            with pytest.raises(InvalidInputError, match="not a valid Discord user id"):
                await service.drop_player(ORG, ref)
        # an int beyond 64 bits is refused where the operation is entered (service.boundary)
        with pytest.raises(InvalidArgumentError, match="The player must be a whole number"):
            await service.drop_player(ORG, 10**20)
        with pytest.raises(UnknownPlayerError, match="No player '²'"):
            await service.drop_player(ORG, "²")
        with pytest.raises(InvalidArgumentError, match="The user id must be a whole number"):
            await service.add_player(ORG, "Someone", user_id=10**20)
        for tournament in ("99999999999999999999", "²"):
            with pytest.raises(UnknownTournamentError):
                await service.tournament_info(1000, tournament)
        with pytest.raises(InvalidArgumentError, match="The tournament must be a whole number"):
            await service.tournament_info(1000, 10**20)


async def test_names_are_stored_without_invisible_characters(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Cup\u202e 🏆", 3)
        await service.join(member(101, name="\u202eAnn\u200b 👩🏽‍💻"))
        guest = await service.add_player(ORG, "Gus\u2066 @home")
        names = [p.name for p in await service.list_players(1000)]
        assert names == ["Ann 👩🏽‍💻", "Gus @home"] and guest.name == "Gus @home"
        assert (await service.tournament_info(1000)).name == "Cup 🏆"


@pytest.mark.slow
async def test_a_dropped_player_is_readmitted_with_absences(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _running(service, players=6)
        await service.add_player(ORG, "Gwen Guest")  # 7 players: one bye per round
        dropped_member = await service.drop_player(ORG, 101)
        dropped_guest = await service.drop_player(ORG, "Gwen Guest")
        # /join tells him how to come back
        with pytest.raises(AlreadyRegisteredError, match="re-admit you with /admin add-player"):
            await service.join(member(101))
        for _ in (1, 2):
            view = await service.pairings(1000)
            for game in view.games:
                if game.state != "final":
                    await service.set_result(ORG, view.number, f"#{game.white.number}", "draw")
            await service.pair_next_round(ORG)
        # round 1 was playing when they dropped: they play it, and miss rounds 2 and 3
        back = await service.add_player(ORG, "Ann", user_id=101)
        assert (back.id, back.status, back.withdrawn_round) == (dropped_member.id, "active", None)
        again = await service.add_player(ORG, "gwen guest")
        assert again.id == dropped_guest.id and again.status == "active"
        with pytest.raises(AlreadyRegisteredError):
            await service.add_player(ORG, "Ann", user_id=101)
        view = await service.pairings(1000)
        for game in view.games:
            await service.set_result(ORG, view.number, f"#{game.white.number}", "draw")
        round4 = await service.pair_next_round(ORG)
        paired = {s.player_id for g in round4.games for s in (g.white, g.black)}
        paired |= {b.player.player_id for b in round4.byes}
        assert {dropped_member.id, dropped_guest.id} <= paired  # paired again
        for rnd in (2, 3):  # absences: zero points, not the pairing-allocated bye
            byes = {b.player.player_id: b for b in (await service.pairings(1000, None, rnd)).byes}
            for pid in (dropped_member.id, dropped_guest.id):
                assert byes[pid].kind == "zero" and byes[pid].points == Fraction(0)
        standings = await service.standings(1000)
        row = next(r for r in standings.rows if r.player_id == dropped_member.id)
        assert not row.withdrawn
        audit = [a for a in await _audit(service) if a == "player.readmit"]
        assert len(audit) == 2


async def _audit(service: TournamentService) -> list[str]:
    from storage import journal

    async with service.db.transaction(readonly=True) as conn:
        return [row.action for row in await journal.list_audit(conn, 1)]


async def test_finish_after_the_automatic_finish_says_it_is_finished(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Done Cup", 1, seed=1)
        await service.join(member(101, name="Ann"))
        await service.join(member(102, name="Ben"))
        view = await service.start_tournament(ORG)
        game = view.games[0]
        await service.set_result(ORG, 1, f"#{game.white.number}", "win")
        assert (await service.tournament_info(1000, "Done Cup")).status == "finished"
        for ref in (None, "Done Cup"):
            with pytest.raises(TournamentNotRunningError,
                               match=r"'Done Cup' is already finished \(after round 1\)\. "
                                     r"Final standings: 1\. \w+ 1, 2\. \w+ 0\."):
                await service.finish_tournament(ORG, ref)


async def test_imported_ids_and_ratings_are_refused_in_words(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Import Cup", 3)
        for text, words in (("Ann,²\n", "CSV line 1: The rating '²' is not a whole number"),
                            ("name,rating,user_id\nAnn,1500,99999999999999999999\n",
                             "CSV line 2: '99999999999999999999' is not a valid Discord user id"),
                            ("name,rating,user_id\nAnn,1500,²\n", "not a valid Discord user id")):
            with pytest.raises(InvalidInputError, match=re.escape(words)):
                await service.import_players(ORG, text, "csv")
        (ann,) = await service.import_players(ORG, "name,rating,user_id\nAnn,1500,42\n", "csv")
        assert ann.user_id == 42
