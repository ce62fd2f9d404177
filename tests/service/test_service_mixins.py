"""The service is one class built from feature mixins: a method name defined by two of them
silently shadows one (a decklist deadline once ran the timers' deadline code). Overriding is
allowed only on purpose, by cooperative methods that call ``super()``."""

from __future__ import annotations

import inspect
from collections import defaultdict

from service import TournamentService

# Deliberate overrides: each extends the base behaviour and calls super().
COOPERATIVE = {"_announced", "_outcome"}


def _definitions() -> dict[str, list[type]]:
    owners: dict[str, list[type]] = defaultdict(list)
    for cls in TournamentService.__mro__[1:]:
        if not cls.__module__.startswith("service"):
            continue
        for name, value in vars(cls).items():
            if not name.startswith("__") and callable(value):
                owners[name].append(cls)
    return owners


def test_no_two_service_mixins_define_the_same_method_by_accident() -> None:
    clashes = {name: [c.__name__ for c in classes]
               for name, classes in _definitions().items()
               if len(classes) > 1 and name not in COOPERATIVE}
    assert clashes == {}


def test_cooperative_overrides_call_super() -> None:
    for name in COOPERATIVE:
        overriding = _definitions()[name][:-1]  # all but the base definition
        assert overriding, name
        for cls in overriding:
            assert "super()" in inspect.getsource(vars(cls)[name]), (cls.__name__, name)
