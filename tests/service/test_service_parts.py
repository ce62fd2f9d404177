"""The service is a facade over parts, each built with the parts it calls
(service.facade).

What must hold: every operation of the facade is one part's, marked ``@operation`` where it
is defined; each part's fields (its constructor) name exactly the parts it calls; no part
reaches into another's private methods; and an operation that uses another one's work retries (and
completes its deferred standings) once, as a whole, never once per inner call.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from service import TournamentService
from service import facade as facade_module
from tests.service_helpers import Clock, member, open_service, organiser

SERVICE = Path(facade_module.__file__).parent


def _operations() -> dict[str, Any]:
    return {name: method for name, method in
            inspect.getmembers(TournamentService, inspect.iscoroutinefunction)
            if not name.startswith("_")}


def test_every_operation_is_marked_where_its_part_defines_it() -> None:
    owners: dict[str, str] = {}
    for name, method in _operations().items():
        marked = method.__wrapped__  # the facade's delegate wraps the part's operation
        assert getattr(marked, "__operation__", False), name
        defined = inspect.unwrap(method)
        assert defined.__module__.startswith("service."), name
        owners[name] = defined.__qualname__.split(".")[0]
    # one part each, and the part is not the facade itself
    assert "TournamentService" not in owners.values()


def _parts() -> dict[str, ast.ClassDef]:
    """The classes the facade builds, by the attribute that holds them."""
    source = ast.parse(Path(facade_module.__file__).read_text(encoding="utf-8"))
    built: dict[str, str] = {}
    for node in ast.walk(source):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr != "ctx":
                    built[target.attr] = node.value.func.id
    classes: dict[str, ast.ClassDef] = {}
    for path in SERVICE.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                classes[node.name] = node
    return {attribute: classes[name] for attribute, name in built.items()}


def _used_attributes(part: ast.ClassDef) -> set[str]:
    return {node.attr for node in ast.walk(part)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self"}


def test_each_part_is_given_exactly_the_parts_it_calls() -> None:
    parts = _parts()
    assert len(parts) >= 20
    getters = {"top_cut": "playoffs"}  # the course asks for the top cut built after it
    for attribute, part in parts.items():
        fields = {node.target.id for node in part.body
                  if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
        assert "ctx" in fields, part.name
        given = {getters.get(name, name) for name in fields} & set(parts)
        called = _used_attributes(part) & set(parts)
        assert given == called - {attribute}, part.name


def test_no_part_calls_another_parts_private_methods() -> None:
    parts = set(_parts())
    reaching = []
    for path in SERVICE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and isinstance(node.value, ast.Attribute)
                    and isinstance(node.value.value, ast.Name)
                    and node.value.value.id == "self" and node.value.attr in parts):
                reaching.append(f"{path.name}: self.{node.value.attr}.{node.attr}")
    assert reaching == []


def _count_retries(service: TournamentService,
                   monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    retrying = service.db.retrying

    async def counted(operation: Callable[[], Awaitable[Any]]) -> Any:
        calls.append(1)
        return await retrying(operation)

    monkeypatch.setattr(service.db, "retrying", counted)
    return calls


async def test_an_operation_built_on_another_retries_once_as_a_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        org = organiser()
        await service.create_tournament(org, "Cup", 3, seed=1, auto_advance_minutes=1)
        for uid in range(1, 5):
            await service.join(member(uid))
        await service.start_tournament(org)
        calls = _count_retries(service, monkeypatch)
        exported = await service.export(org.guild_id, "csv", table="players")
        assert exported.filename.endswith(".csv")
        assert len(calls) == 1  # export reads export_files' work: one retry around both
        calls.clear()
        assert await service.run_auto_advances(clock.now) == []
        assert len(calls) == 1  # and run_auto_advances its due list
        calls.clear()
        assert await service.recover_pairings() == []
        assert len(calls) == 1
