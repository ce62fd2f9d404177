"""Pairing jobs for the worker-process tests (importable by name from a worker process)."""

from __future__ import annotations

import time
from typing import Any

from service.explain import pair_and_explain
from swiss.model import Tournament
from swiss.pairing import PairingConfig
from swiss.pairing.types import PairingResult


def slow_pairing(
    model: Tournament, config: PairingConfig
) -> tuple[PairingResult, dict[str, Any]]:
    """The real pairing, after 3 s: long enough for a test to act while it runs, even on a
    loaded machine."""
    time.sleep(3)
    return pair_and_explain(model, config)


def endless_pairing(
    model: Tournament, config: PairingConfig
) -> tuple[PairingResult, dict[str, Any]]:
    """A pairing that never ends (killed by the test or by the time limit)."""
    time.sleep(3600)
    return pair_and_explain(model, config)
