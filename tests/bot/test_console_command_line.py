"""Reading typed slash commands in the sandbox console, and checking them against the schema
the bot registered: what a person types either becomes exactly the command they meant, or an
error naming the column where it goes wrong (and nothing is sent)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import FakeDiscord, SandboxGuild
from sandbox.console.command_line import (
    CommandLineError,
    parse_command_line,
    quote_value,
)
from sandbox.console.schema import autocomplete_target, resolve, suggest

NAMES = st.text(
    alphabet=st.characters(categories=["Ll", "Nd"]) | st.sampled_from("-_"),
    min_size=1, max_size=32,
).filter(lambda n: parse_ok(n))


def parse_ok(name: str) -> bool:
    try:
        return parse_command_line(name).path == (name,)
    except CommandLineError:
        return False


@given(
    path=st.lists(NAMES, min_size=1, max_size=3),
    options=st.dictionaries(NAMES, st.text(max_size=40), max_size=5),
    spaces=st.sampled_from([" ", "  ", "\t", " \u3000 "]),
)
def test_a_written_command_reads_back_as_written(
    path: list[str], options: dict[str, str], spaces: str
) -> None:
    """Any value (unicode, spaces, quotes, backslashes, empty) written with quote_value
    comes back unchanged, whatever the spaces between the parts."""
    parts = [*path, *(f"{name}:{quote_value(value)}" for name, value in options.items())]
    line = parse_command_line("/" + spaces.join(parts))
    assert line.path == tuple(path)
    assert {o.name: o.value for o in line.options} == options


@given(st.text(max_size=60))
def test_any_text_reads_or_fails_with_a_column_inside_it(text: str) -> None:
    try:
        line = parse_command_line(text)
    except CommandLineError as error:
        assert 1 <= error.column <= len(text) + 1
        assert str(error).startswith(f"column {error.column}: ")
    else:
        assert line.path


@given(before=st.text(alphabet="abc ", max_size=10), value=st.text(max_size=20))
def test_an_unclosed_quote_is_named_where_it_opens(before: str, value: str) -> None:
    text = f"/cmd {before.replace(' ', '_')}x:\"{value.replace(chr(34), '')}"
    if text.endswith("\\"):
        text += "z"
    opened = text.index('"') + 1
    with pytest.raises(CommandLineError, match="never closed") as error:
        parse_command_line(text)
    assert error.value.column == opened


@pytest.mark.parametrize(("text", "column", "words"), [
    ("/tournament create name:x extra", 27, "not an option"),
    ("/join rating:1 rating:2", 16, "given twice"),
    ("/join :5", 7, "needs a name"),
    ("/Join", 2, "not a valid command name"),
    ('/join name:"a"b', 15, "space after the closing quote"),
    ("/join name:a\"b", 13, "quote inside a value"),
    ("/", 2, "type a command name"),
    ("   ", 4, "type a command name"),
])
def test_mistakes_name_their_column(text: str, column: int, words: str) -> None:
    with pytest.raises(CommandLineError, match=words) as error:
        parse_command_line(text)
    assert error.value.column == column


# ---------------------------------------------------------------------- against a schema

TOURNAMENT = {
    "name": "tournament", "type": 1, "description": "Tournaments", "options": [
        {"name": "create", "type": 1, "description": "Create one", "options": [
            {"name": "name", "type": 3, "required": True, "description": "its name",
             "max_length": 100},
            {"name": "rounds", "type": 4, "required": True, "description": "rounds",
             "min_value": 1, "max_value": 50},
            {"name": "system", "type": 3, "description": "pairing system",
             "choices": [{"name": "FIDE Dutch", "value": "dutch"},
                         {"name": "Monrad", "value": "monrad"}]},
            {"name": "rated", "type": 5, "description": "rated?"},
            {"name": "k", "type": 10, "description": "a number"},
            {"name": "channel", "type": 7, "description": "where"},
        ]},
        {"name": "start", "type": 1, "description": "Start it", "options": [
            {"name": "tournament", "type": 3, "description": "which", "autocomplete": True},
        ]},
    ],
}
JOIN = {"name": "join", "type": 1, "description": "Join", "options": [
    {"name": "player", "type": 6, "description": "who"},
    {"name": "team", "type": 8, "description": "a role"},
]}
COMMANDS: list[dict[str, Any]] = [JOIN, TOURNAMENT]


@pytest.fixture(scope="module")
def club() -> SandboxGuild:
    return FakeDiscord().add_guild(players=3)


def test_a_command_becomes_typed_values(club: SandboxGuild) -> None:
    text = ('/tournament create name:"Friday Night Open" rounds:5 system:"FIDE Dutch" '
            "rated:yes k:2.5 channel:#tournaments")
    resolved = resolve(text, COMMANDS, club)
    assert resolved.command == "tournament create"
    assert resolved.options == {
        "name": "Friday Night Open", "rounds": 5, "system": "dutch", "rated": True, "k": 2.5,
        "channel": club.channel("tournaments"),
    }
    player = club.member("player02")
    assert resolve(f"/join player:{player.mention}", COMMANDS, club).options == {
        "player": player}
    assert resolve("/join player:@player02 team:@Organisers", COMMANDS, club).options == {
        "player": player, "team": club.role("Organisers")}


@pytest.mark.parametrize(("text", "at", "words"), [
    ("/tournament create name:x rounds:5 colour:yes", "colour", "has no option 'colour'"),
    ("/tournament create name:x rounds:five", "five", "'five' is not a whole number"),
    ("/tournament create name:x rounds:99", "99", "out of range (1 to 50)"),
    ("/tournament create name:x rounds:2 system:swiss", "swiss", "not one of the choices"),
    ("/tournament create name:x rounds:2 rated:maybe", "maybe", "not true or false"),
    ("/tournament create name:x rounds:2 k:nan", "nan", "not a number"),
    ("/tournament create name:x rounds:2 channel:#nowhere", "#nowhere", "no channel"),
    ("/tournament create name:x rounds:", "", "a value is missing"),
    ("/tournament create name:x", "", "needs rounds:"),
    ("/tournament remove", "remove", "has no subcommand 'remove'"),
    ("/tournament", "", "needs a subcommand: create, start"),
    ("/tourney create", "tourney", "no command /tourney"),
    ("/join player:nobody", "nobody", "no member 'nobody'"),
    ("/join now", "now", "takes no subcommand"),
])
def test_a_wrong_command_names_the_column_and_why(
    club: SandboxGuild, text: str, at: str, words: str
) -> None:
    with pytest.raises(CommandLineError) as error:
        resolve(text, COMMANDS, club)
    assert words in error.value.message
    column = text.rindex(at) + 1 if at else len(text) + 1
    assert error.value.column == column


def test_suggestions_follow_what_is_typed() -> None:
    assert [s["text"] for s in suggest("/to", COMMANDS)] == ["/tournament "]
    assert [s["label"] for s in suggest("/tournament ", COMMANDS)] == ["create", "start"]
    labels = [s["label"] for s in suggest('/tournament create name:"A B" ', COMMANDS)]
    assert labels[0] == "rounds:"  # required first; name: is given already
    assert "name:" not in labels
    choices = suggest("/tournament create system:Mo", COMMANDS)
    assert [s["text"] for s in choices] == ["/tournament create system:Monrad "]
    assert suggest("/nothing ", COMMANDS) == []
    assert autocomplete_target("/tournament start tournament:Fri", COMMANDS) == (
        "tournament start", "tournament", "Fri")
    assert autocomplete_target("/tournament create name:Fri", COMMANDS) is None


@given(st.text(alphabet=st.sampled_from(list("/ :\"'\\-_#@<>tournamecrsjoiplayk0159é\u3000")),
               max_size=50))
def test_any_typed_text_is_checked_or_refused_with_a_column(text: str) -> None:
    club = FakeDiscord().add_guild(players=2)
    try:
        resolve(text, COMMANDS, club)
    except CommandLineError as error:
        assert 1 <= error.column <= len(text) + 1
    for suggestion in suggest(text, COMMANDS):
        assert suggestion["text"].startswith("/")
    autocomplete_target(text, COMMANDS)
