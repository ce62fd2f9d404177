"""Every public operation refuses arguments of the wrong kind or size where it is entered
(service.boundary): 10**20 ids, inf, nan, 1.5, "12", "١٢", True and None where a whole number
belongs, each with an InvalidArgumentError naming the parameter, and nothing written."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service import Actor, InvalidArgumentError, ServiceError, TournamentService
from service.boundary import MAX_INTEGER, _kinds
from service.permissions import OPERATIONS
from storage.moving import table_sums
from tests.service_helpers import manager, member, open_service

BOSS = manager()
POSITIVE = ("tournament", "player", "first", "second")


def _parameters(operation: str) -> list[inspect.Parameter]:
    method = getattr(TournamentService, operation)
    return [p for p in inspect.signature(method).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def _plain(parameter: inspect.Parameter) -> Any:
    """A value of the right kind (what the other arguments get while one is hostile)."""
    kinds = _kinds(parameter.annotation)
    if parameter.default is not inspect.Parameter.empty:
        return parameter.default
    if "Actor" in kinds:
        return BOSS
    if "int" in kinds:
        return 101
    if "str" in kinds:
        return "Cup"
    if "bool" in kinds:
        return False
    if "Mapping[str, str]" in kinds or "dict[str, Any]" in kinds:
        return {}
    if "list[int]" in kinds:  # a lineup: user ids in board order
        return [101]
    raise AssertionError(f"no plain value for {parameter}")


def _hostile(parameter: inspect.Parameter) -> Iterator[Any]:
    """Values the parameter's annotation does not allow (or out of 64-bit range)."""
    kinds = _kinds(parameter.annotation)
    optional = "None" in kinds or parameter.default is None
    if not optional:
        yield None
    if "Actor" in kinds:
        yield Actor(10**20, 1000, "Huge")
        yield Actor(1, float("inf"), "Inf")  # type: ignore[arg-type]
        yield Actor(1, 1000, "Role", roles=frozenset({-1}))
        yield "Orla"
        return
    if not kinds <= {"int", "str", "bool", "float", "None", "datetime", "list[int] | None",
                     "list[int]"}:
        return  # an annotation the boundary does not judge
    if "int" in kinds:
        yield from (10**20, -(10**20), MAX_INTEGER + 1)
        if parameter.name.endswith("_id") or parameter.name in POSITIVE:
            yield from (0, -1)
        if parameter.name == "round_number":  # round 0: the standings before round 1
            yield -1
    if "float" not in kinds:
        yield from (float("inf"), float("nan"), 1.5)
    if "bool" not in kinds:
        yield True
    if "str" not in kinds:
        yield from ("12", "١٢")
    if "int" not in kinds and "float" not in kinds:
        yield 12


CASES = [
    (operation, parameter.name, value)
    for operation in sorted(OPERATIONS)
    for parameter in _parameters(operation)
    for value in _hostile(parameter)
]


def _call(service: Any, operation: str, name: str, value: Any) -> Any:
    """``service.operation(...)`` with ``value`` for parameter ``name``. ``service`` may be a
    bare object: an operation that got past the boundary would then fail on ``self.db``,
    not with the refusal."""
    arguments = {p.name: (value if p.name == name else _plain(p)) for p in _parameters(operation)}
    positional = [arguments.pop(p.name) for p in _parameters(operation)
                  if p.kind is p.POSITIONAL_OR_KEYWORD]
    return getattr(TournamentService, operation)(service, *positional, **arguments)


def test_every_operation_has_hostile_cases() -> None:
    assert {operation for operation, _name, _value in CASES} == set(OPERATIONS)


WHOLE_ONLY = sorted({
    (operation, parameter.name)
    for operation in OPERATIONS for parameter in _parameters(operation)
    if _kinds(parameter.annotation) in ({"int"}, {"int", "None"})
})
# Beyond 64 bits, and digits of other scripts as text ("١٢" is 12 to int()).
BEYOND = st.integers(min_value=2**63) | st.integers(max_value=-(2**63))
FOREIGN_DIGITS = st.text(st.characters(categories=["Nd"], exclude_characters="0123456789"),
                         min_size=1, max_size=8)
HOSTILE = st.sampled_from(CASES) | st.builds(
    lambda where, value: (*where, value), st.sampled_from(WHOLE_ONLY), BEYOND | FOREIGN_DIGITS
    | st.floats(allow_nan=True, allow_infinity=True))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(HOSTILE)
def test_hostile_arguments_are_refused_before_anything_runs(case: tuple[str, str, Any]) -> None:
    operation, name, value = case
    with pytest.raises(InvalidArgumentError) as refused:
        asyncio.run(_call(object(), operation, name, value))
    assert refused.value.code == "invalid_argument"
    message = str(refused.value)
    assert name.replace("_", " ") in message or "actor" in message, (operation, name, message)


def test_values_of_the_right_kind_pass_the_boundary() -> None:
    from service.boundary import check_value

    check_value("role_id", frozenset({"int", "None"}), MAX_INTEGER, optional=False)
    check_value("role_id", frozenset({"int", "None"}), None, optional=False)
    check_value("seed", frozenset({"int", "None"}), 0, optional=True)
    check_value("lease_seconds", frozenset({"float"}), 30, optional=False)
    check_value("tournament", frozenset({"int", "str", "None"}), "١٢ Cup", optional=True)


@pytest.mark.usefixtures("backend")
async def test_refusals_write_nothing_on_either_database(tmp_path: Path) -> None:
    """The same cases through the real service: a refusal each, and every table's rows and
    checksum unchanged (the refusal comes before any transaction)."""
    async with open_service(tmp_path / "boundary.sqlite3") as service:
        await service.create_tournament(BOSS, "Cup", 3, seed=1)
        for uid in range(101, 105):
            await service.join(member(uid), rating=2000 - uid)
        await service.start_tournament(BOSS, "Cup")
        async with service.db.transaction(readonly=True) as conn:
            before = await table_sums(conn)
        for operation, name, value in CASES:
            with pytest.raises(ServiceError) as refused:
                await _call(service, operation, name, value)
            assert refused.value.code == "invalid_argument", (operation, name, value)
        async with service.db.transaction(readonly=True) as conn:
            assert await table_sums(conn) == before
