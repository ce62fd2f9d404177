"""The arguments of every public operation, checked once where the operation is entered.

The service is a public API: the cogs call it, and so may anyone who embeds it. Python does not
enforce annotations, so without this a ``float('inf')`` organiser role, a round number
``"12"`` or a Discord id of ``10**20`` (an OverflowError deep in the database driver) would
get in. :func:`checked` reads each operation's annotations once and refuses, before the
operation opens a transaction, any argument whose type the annotation does not name:

* whole numbers are ``int`` (never ``bool``, ``float``, text) within SQLite's and
  PostgreSQL's 64-bit integers; Discord ids and our ids from 1, round numbers from 0, up to
  2**63 - 1;
* ``float`` parameters take finite numbers only (no ``inf``, no ``nan``);
* text is ``str``, flags are ``bool``, an :class:`Actor` is one (with ids in range), ``None``
  only where the annotation or the default allows it.

What a value *means* (a number of rounds from 1 to 99, a known tiebreak) stays the
operation's own check; this module only keeps values of the wrong kind or size out, each with
an :class:`InvalidArgumentError` that names the parameter.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from service.errors import InvalidArgumentError
from service.views import Actor

#: The largest integer both databases store (and the largest Discord snowflake).
MAX_INTEGER = 2**63 - 1

# Annotation names that stand for several (service.base: TournamentRef, PlayerRef).
_ALIASES = {
    "TournamentRef": ("int", "str", "None"),
    "PlayerRef": ("int", "str"),
}
# Parameters whose whole numbers name something (an id, a player): 1 or more. Round numbers
# are 0 or more (the standings "after round 0" are the starting list).
_POSITIVE = ("tournament", "player", "first", "second")
_NATURAL = ("round_number",)
_SCALARS = {"int", "str", "bool", "float", "None", "datetime", "timedelta", "Actor"}
_TYPES: dict[str, type | tuple[type, ...]] = {
    "str": str, "datetime": datetime, "timedelta": timedelta, "Actor": Actor,
}


def _kinds(annotation: Any) -> frozenset[str]:
    """The type names an annotation allows: ``"int | None"`` -> ``{"int", "None"}``.
    Annotations are text here (``from __future__ import annotations`` in every module)."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    names: set[str] = set()
    for part in text.split("|"):
        name = part.strip()
        names.update(_ALIASES.get(name, (name,)))
    return frozenset(names)


def _label(name: str) -> str:
    return name.replace("_", " ")


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _check_int(name: str, value: int, low: int) -> None:
    if not low <= value <= MAX_INTEGER:
        raise InvalidArgumentError(
            f"The {_label(name)} must be a whole number from {low} to {MAX_INTEGER} "
            f"(got {_shown(value)})."
        )


def _lowest(name: str) -> int:
    """The smallest whole number parameter ``name`` may take (before the operation's own
    checks): 1 for ids, 0 for round numbers, else any 64-bit integer."""
    if name.endswith("_id") or name in _POSITIVE:
        return 1
    return 0 if name in _NATURAL else -MAX_INTEGER


def check_value(name: str, kinds: frozenset[str], value: object, *, optional: bool) -> None:
    """Refuse ``value`` for parameter ``name`` unless it is of one of ``kinds`` (type names)
    and, for numbers, within range. Unknown kinds (dataclasses, mappings) are not judged."""
    if value is None:
        if optional or "None" in kinds:
            return
        raise InvalidArgumentError(f"The {_label(name)} is missing.")
    if not kinds or not kinds <= _SCALARS | {"list[int]"}:
        return  # an annotation this module does not judge (Shards, Mapping, a Literal...)
    if isinstance(value, bool):
        if "bool" in kinds:
            return
    elif isinstance(value, int):
        if "int" in kinds or "float" in kinds:
            _check_int(name, value, _lowest(name))
            return
    elif isinstance(value, float):
        if "float" in kinds:
            if not math.isfinite(value):
                raise InvalidArgumentError(f"The {_label(name)} must be a finite number "
                                           f"(got {_shown(value)}).")
            return
    elif isinstance(value, list | tuple) and "list[int]" in kinds:
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int):
                raise InvalidArgumentError(f"The {_label(name)} must be whole numbers "
                                           f"(got {_shown(item)}).")
            _check_int(name, item, 1)
        return
    elif any(isinstance(value, _TYPES[k]) for k in kinds if k in _TYPES):
        if isinstance(value, Actor):
            _check_actor(value)
        return
    raise InvalidArgumentError(
        f"The {_label(name)} must be {_expected(kinds)} (got {_shown(value)})."
    )


def _expected(kinds: frozenset[str]) -> str:
    words = {"int": "a whole number", "str": "text", "bool": "true or false",
             "float": "a number", "datetime": "a date and time", "timedelta": "a duration",
             "Actor": "the member acting", "list[int]": "a list of ids"}
    return " or ".join(words[k] for k in sorted(kinds) if k in words) or "given"


def _check_actor(actor: Actor) -> None:
    for name in ("user_id", "guild_id"):
        value = getattr(actor, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgumentError(f"The actor's {_label(name)} must be a whole number "
                                       f"(got {_shown(value)}).")
        # user id 0 is the bot itself (the system actor of deliveries, timers and playoffs);
        # Discord never gives a member that id
        _check_int(f"actor's {name}", value, 0 if name == "user_id" else 1)
    if not isinstance(actor.display_name, str):
        raise InvalidArgumentError("The actor's display name must be text.")
    for role in actor.roles:
        if isinstance(role, bool) or not isinstance(role, int):
            raise InvalidArgumentError(f"The actor's role ids must be whole numbers "
                                       f"(got {_shown(role)}).")
        _check_int("actor's role id", role, 1)


def _check_changes(changes: Mapping[str, Any]) -> None:
    """Keyword arguments without an annotation of their own (``edit_tournament(**changes)``):
    numbers of the right kind and size (each setting's meaning is the operation's check)."""
    for name, value in changes.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidArgumentError(f"The {_label(name)} must be a finite number "
                                       f"(got {_shown(value)}).")
        if isinstance(value, int) and not isinstance(value, bool):
            _check_int(name, value, _lowest(name))


def checked(method: Callable[..., Any]) -> Callable[[tuple[Any, ...], dict[str, Any]], None]:
    """A check of ``method``'s arguments (``self`` first) by its annotations, built once.
    Arguments that do not fit the signature at all are left to Python's own TypeError."""
    signature = inspect.signature(method)
    plan = [
        (name, _kinds(param.annotation), param.default is None, param.kind)
        for name, param in signature.parameters.items()
        if name != "self"
    ]

    def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        try:
            bound = signature.bind(None, *args, **kwargs)
        except TypeError:
            return  # the call itself raises it, as it always did
        for name, kinds, optional, kind in plan:
            if name not in bound.arguments:
                continue
            value = bound.arguments[name]
            if kind is inspect.Parameter.VAR_KEYWORD:
                _check_changes(value)
            elif kind is not inspect.Parameter.VAR_POSITIONAL:
                check_value(name, kinds, value, optional=optional)

    return check
