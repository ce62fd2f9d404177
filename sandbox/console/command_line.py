"""Reading a slash command typed the way a Discord user types it:
``/tournament create name:"Friday Open" rounds:5``.

The words before the first ``name:value`` are the command path (a command, then optionally a
subcommand group and a subcommand); each option is ``name:value`` where the value runs to the
next space unless it is quoted (``"..."`` or ``'...'``, with ``\\"`` and ``\\\\`` escapes
inside). Errors name the column (1-based) where the problem starts, so the console can point
at it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Discord's rule for command and option names (CHAT_INPUT): 1-32 lowercase word characters
# or dashes; any script's letters count as word characters.
NAME = re.compile(r"^[-_\w]{1,32}$")
QUOTES = "\"'"


class CommandLineError(ValueError):
    """A typed command that cannot be read; ``column`` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"column {column}: {message}")
        self.message = message
        self.column = column


@dataclass(frozen=True)
class TypedOption:
    name: str
    value: str
    column: int  # where ``name`` starts (1-based)
    quoted: bool = False


@dataclass(frozen=True)
class CommandLine:
    path: tuple[str, ...]  # ("tournament", "create")
    options: tuple[TypedOption, ...] = field(default=())

    @property
    def command(self) -> str:
        return " ".join(self.path)


def parse_command_line(text: str) -> CommandLine:
    """The command path and the options of ``text``; raises :class:`CommandLineError`."""
    position = _skip_spaces(text, 0)
    if position < len(text) and text[position] == "/":
        position += 1
    path: list[str] = []
    options: list[TypedOption] = []
    seen: dict[str, int] = {}
    while True:
        position = _skip_spaces(text, position)
        if position >= len(text):
            break
        start = position
        while position < len(text) and not text[position].isspace() and text[position] != ":":
            position += 1
        word = text[start:position]
        column = start + 1
        if position < len(text) and text[position] == ":":
            if not word:
                raise CommandLineError("an option needs a name before ':'", column)
            _check_name(word, column, "option")
            if word in seen:
                raise CommandLineError(
                    f"option {word!r} is given twice (first at column {seen[word]})", column)
            seen[word] = column
            value, quoted, position = _read_value(text, position + 1)
            options.append(TypedOption(word, value, column, quoted))
            continue
        if word[0] in QUOTES:
            raise CommandLineError("a quoted value must follow an option name and ':'", column)
        if options:
            raise CommandLineError(
                f"{word!r} is not an option: write name:value (the command's words come "
                "before its options)", column)
        _check_name(word, column, "command")
        path.append(word)
    if not path:
        raise CommandLineError("type a command name after '/'", len(text) + 1)
    return CommandLine(tuple(path), tuple(options))


def _skip_spaces(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _check_name(word: str, column: int, what: str) -> None:
    if not NAME.match(word) or word != word.lower():
        raise CommandLineError(
            f"{word!r} is not a valid {what} name (lowercase letters, digits, '-' or '_', "
            "at most 32)", column)


def _read_value(text: str, position: int) -> tuple[str, bool, int]:
    """The value starting at ``position`` (just after ':'), whether it was quoted, and the
    position after it."""
    if position >= len(text) or text[position].isspace():
        return "", False, position
    quote = text[position]
    if quote not in QUOTES:
        end = position
        while end < len(text) and not text[end].isspace():
            if text[end] in QUOTES:
                raise CommandLineError(
                    "a quote inside a value: quote the whole value (name:\"...\")", end + 1)
            end += 1
        return text[position:end], False, end
    opened = position + 1
    chars: list[str] = []
    position += 1
    while position < len(text):
        char = text[position]
        if char == "\\" and position + 1 < len(text) and text[position + 1] in (quote, "\\"):
            chars.append(text[position + 1])
            position += 2
            continue
        if char == quote:
            after = position + 1
            if after < len(text) and not text[after].isspace():
                raise CommandLineError("put a space after the closing quote", after + 1)
            return "".join(chars), True, after
        chars.append(char)
        position += 1
    raise CommandLineError(f"the quote opened at column {opened} is never closed", opened)


def quote_value(value: str) -> str:
    """``value`` written so that :func:`parse_command_line` reads it back unchanged."""
    if value and not any(c.isspace() or c in QUOTES or c == "\\" for c in value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
