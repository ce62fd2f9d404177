"""A typed command checked against the schema the bot registered: the command path exists,
each option is declared, its value has the declared type (and fits its choices and bounds),
and every required option is there. Values of user, channel and role options are found in the
guild by mention, id or name. Also the suggestions the console offers while a person types.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sandbox.console.command_line import (
    CommandLine,
    CommandLineError,
    TypedOption,
    parse_command_line,
    quote_value,
)
from sandbox.payloads import SandboxChannel, SandboxGuild, SandboxMember, SandboxRole
from sandbox.wire import (
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    OPT_USER,
)

TYPE_NAMES = {
    OPT_STRING: "text", OPT_INTEGER: "whole number", OPT_BOOLEAN: "true or false",
    OPT_USER: "member", OPT_CHANNEL: "channel", OPT_ROLE: "role",
    OPT_MENTIONABLE: "member or role", OPT_NUMBER: "number", 11: "attachment",
}
TRUE_WORDS = {"true", "yes", "on", "1"}
FALSE_WORDS = {"false", "no", "off", "0"}
INTEGER = re.compile(r"^[+-]?\d+$")
MAX_SAFE_INTEGER = 2**53 - 1  # Discord's bound for integer options
MAX_SUGGESTIONS = 25


@dataclass(frozen=True)
class ResolvedCommand:
    command: str  # "tournament create"
    options: dict[str, Any]  # values for FakeDiscord.send_slash_command


def chat_commands(registered: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The slash (chat input) commands among ``registered``, guild ones first, by name."""
    seen: dict[str, dict[str, Any]] = {}
    for command in registered:
        if command.get("type", 1) == 1:
            seen.setdefault(command["name"], command)
    return sorted(seen.values(), key=lambda c: c["name"])


def resolve(
    text: str, commands: Sequence[dict[str, Any]], guild: SandboxGuild
) -> ResolvedCommand:
    """Read and check ``text``; raises :class:`CommandLineError` naming the column."""
    line = parse_command_line(text)
    leaf = _leaf(line, text, commands)
    declared = {o["name"]: o for o in leaf.get("options", [])}
    values: dict[str, Any] = {}
    for option in line.options:
        schema = declared.get(option.name)
        if schema is None:
            known = ", ".join(declared) or "none"
            raise CommandLineError(
                f"/{line.command} has no option {option.name!r} (its options: {known})",
                option.column)
        values[option.name] = _value(option, schema, guild)
    missing = [n for n, o in declared.items() if o.get("required") and n not in values]
    if missing:
        raise CommandLineError(
            f"/{line.command} needs {', '.join(m + ':' for m in missing)}", len(text) + 1)
    return ResolvedCommand(line.command, values)


def _leaf(line: CommandLine, text: str, commands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The schema node of the command path: the command, or its (group's) subcommand."""
    node: dict[str, Any] | None = next(
        (c for c in commands if c["name"] == line.path[0]), None)
    column = text.index(line.path[0]) + 1
    if node is None:
        known = ", ".join("/" + c["name"] for c in commands) or "none yet: is the bot connected?"
        raise CommandLineError(f"no command /{line.path[0]} (commands: {known})", column)
    search_from = column - 1 + len(line.path[0])
    for depth, word in enumerate(line.path[1:], start=1):
        children = _subcommands(node)
        column = text.index(word, search_from) + 1
        search_from = column - 1 + len(word)
        node = next((c for c in children if c["name"] == word), None)
        if node is None:
            where = "/" + " ".join(line.path[:depth])
            known = ", ".join(c["name"] for c in children)
            hint = f"its subcommands: {known}" if known else "it takes no subcommand"
            raise CommandLineError(f"{where} has no subcommand {word!r} ({hint})", column)
    if _subcommands(node):
        where = "/" + line.command
        known = ", ".join(c["name"] for c in _subcommands(node))
        raise CommandLineError(f"{where} needs a subcommand: {known}", len(text) + 1)
    return node


def _subcommands(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in node.get("options", [])
            if o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)]


def _value(option: TypedOption, schema: dict[str, Any], guild: SandboxGuild) -> Any:
    kind = schema["type"]
    raw = option.value
    value_column = option.column + len(option.name) + 1

    def fail(why: str) -> CommandLineError:
        return CommandLineError(f"{option.name}: {why}", value_column)

    if raw == "" and not option.quoted:
        raise fail(f"a value is missing (expected {TYPE_NAMES.get(kind, 'a value')})")
    choices = schema.get("choices") or []
    if choices:
        for choice in choices:
            if raw in (choice["name"], str(choice["value"])):
                return choice["value"]
        names = ", ".join(str(c["name"]) for c in choices)
        raise fail(f"{raw!r} is not one of the choices: {names}")
    if kind == OPT_STRING:
        low, high = schema.get("min_length", 0), schema.get("max_length", 6000)
        if not low <= len(raw) <= high:
            raise fail(f"expected {low} to {high} characters, got {len(raw)}")
        return raw
    if kind in (OPT_INTEGER, OPT_NUMBER):
        number = _number(raw, kind)
        if number is None:
            raise fail(f"{raw!r} is not a {TYPE_NAMES[kind]}")
        low, high = schema.get("min_value"), schema.get("max_value")
        if (low is not None and number < low) or (high is not None and number > high):
            bounds = f"{'-inf' if low is None else low} to {'inf' if high is None else high}"
            raise fail(f"{raw} is out of range ({bounds})")
        return number
    if kind == OPT_BOOLEAN:
        if raw.lower() in TRUE_WORDS | FALSE_WORDS:
            return raw.lower() in TRUE_WORDS
        raise fail(f"{raw!r} is not true or false")
    if kind in (OPT_USER, OPT_MENTIONABLE):
        member = _member(guild, raw)
        if member is not None:
            return member
        if kind == OPT_MENTIONABLE and (role := _role(guild, raw)) is not None:
            return role
        raise fail(f"no member {raw!r} in the guild")
    if kind == OPT_ROLE:
        role = _role(guild, raw)
        if role is None:
            raise fail(f"no role {raw!r} in the guild")
        return role
    if kind == OPT_CHANNEL:
        channel = _channel(guild, raw)
        if channel is None:
            raise fail(f"no channel {raw!r} in the guild")
        return channel
    raise fail(f"the console cannot send a {TYPE_NAMES.get(kind, f'type {kind}')} option")


def _number(raw: str, kind: int) -> int | float | None:
    if kind == OPT_INTEGER:
        if not INTEGER.match(raw) or len(raw) > 20 or abs(int(raw)) > MAX_SAFE_INTEGER:
            return None
        return int(raw)
    try:
        number = float(raw)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _find(
    raw: str, mention: str, prefix: str, items: dict[int, Any],
    names: Callable[[Any], tuple[str, ...]],
) -> Any:
    """The item ``raw`` names: by mention (``mention``, a pattern with the id), bare id, or
    name (with or without ``prefix``, "@" or "#")."""
    found = re.fullmatch(mention, raw)
    if found or raw.isdigit():
        return items.get(int(found.group(1) if found else raw))
    name = raw.removeprefix(prefix)
    return next((item for item in items.values() if name in names(item)), None)


def _member(guild: SandboxGuild, raw: str) -> SandboxMember | None:
    return _find(raw, r"<@!?(\d+)>", "@", guild.members,
                 lambda m: (m.user.username, m.display_name))


def _role(guild: SandboxGuild, raw: str) -> SandboxRole | None:
    return _find(raw, r"<@&(\d+)>", "@", guild.roles,
                 lambda r: (r.name, r.name.removeprefix("@")))  # "@everyone" is a role's name


def _channel(guild: SandboxGuild, raw: str) -> SandboxChannel | None:
    return _find(raw, r"<#(\d+)>", "#", guild.channels, lambda c: (c.name,))


# ---------------------------------------------------------------------- suggestions


def suggest(text: str, commands: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    """What may come next in ``text``: each suggestion is the whole line completed
    (``text``), what it adds (``label``) and a hint (``hint``: description, type)."""
    body = text.lstrip()
    if not body.startswith("/"):
        body = "/" + body
    ends_with_space = body[-1:].isspace()
    words = body[1:].split()
    partial = "" if ends_with_space or not words else words.pop()
    node: dict[str, Any] = {"options": commands}
    for word in words:
        children = _children(node)
        if not children:
            break  # the rest are options
        child = next((c for c in children if c["name"] == word), None)
        if child is None:
            return []
        node = child
    return _next_words(body, partial, node)


def _children(node: dict[str, Any]) -> list[dict[str, Any]]:
    if "options" in node and "type" not in node:
        return list(node["options"])  # the top: the commands themselves
    return _subcommands(node)


def _next_words(body: str, partial: str, node: dict[str, Any]) -> list[dict[str, str]]:
    stem = body[: len(body) - len(partial)]
    children = _children(node)
    if children:
        return [
            {"text": f"{stem}{c['name']} ", "label": c["name"],
             "hint": c.get("description", "")}
            for c in children if c["name"].startswith(partial)
        ][:MAX_SUGGESTIONS]
    given = set(re.findall(r"(?:^|\s)([-_\w]+):", body))
    if ":" in partial:
        name, typed = partial.split(":", 1)
        schema = next((o for o in node.get("options", []) if o["name"] == name), None)
        choices = (schema or {}).get("choices") or []
        return [
            {"text": f"{stem}{name}:{quote_value(str(c['name']))} ", "label": str(c["name"]),
             "hint": f"choice of {name}"}
            for c in choices if str(c["name"]).lower().startswith(typed.lower().strip("\"'"))
        ][:MAX_SUGGESTIONS]
    options = sorted(node.get("options", []), key=lambda o: not o.get("required"))
    return [
        {"text": f"{stem}{o['name']}:", "label": f"{o['name']}:",
         "hint": (("required, " if o.get("required") else "")
                  + TYPE_NAMES.get(o["type"], "?") + " - " + o.get("description", ""))}
        for o in options
        if o["name"].startswith(partial) and (o["name"] not in given or o["name"] == partial)
    ][:MAX_SUGGESTIONS]


def autocomplete_target(
    text: str, commands: Sequence[dict[str, Any]]
) -> tuple[str, str, str] | None:
    """(command path, option, what is typed so far) when ``text`` ends inside the value of an
    option the bot completes itself (``autocomplete``), else None."""
    words = text.lstrip().lstrip("/").split()
    if not words or text[-1:].isspace() or ":" not in words[-1]:
        return None
    name, typed = words[-1].split(":", 1)
    node: dict[str, Any] = {"options": commands}
    path: list[str] = []
    for word in words[:-1]:
        child = next((c for c in _children(node) if c["name"] == word), None)
        if child is None:
            break
        node, path = child, [*path, word]
    if not path or _children(node):
        return None
    schema = next((o for o in node.get("options", []) if o["name"] == name), None)
    if schema is None or not schema.get("autocomplete"):
        return None
    return " ".join(path), name, typed.strip("\"'")
