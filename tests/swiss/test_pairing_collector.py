"""The cyclic garbage collector is paused while a round is paired, and always restored."""

from __future__ import annotations

import gc
import threading

import pytest

from swiss.pairing import PairingConfig
from swiss.pairing.collector import collector_paused
from swiss.pairing.mwm import pair_mwm
from tests.pairing_helpers import new_tournament


def test_the_collector_is_paused_during_a_pairing_and_enabled_after() -> None:
    seen: list[bool] = []

    def pi(a: int, b: int) -> int:  # called while the round is being paired
        seen.append(gc.isenabled())
        return abs(a - b)

    assert gc.isenabled()
    result = pair_mwm(new_tournament(12, 3), PairingConfig(system="burstein"), pi_override=pi)
    assert len(result.games) == 6
    assert seen and not any(seen)
    assert gc.isenabled()


def test_the_collector_is_enabled_again_after_an_error() -> None:
    def pi(a: int, b: int) -> int:
        return -1  # refused: benefits must be non-negative

    with pytest.raises(ValueError, match="non-negative"):
        pair_mwm(new_tournament(6, 3), PairingConfig(system="burstein"), pi_override=pi)
    assert gc.isenabled()


def test_overlapping_pauses_restore_the_collector_once_the_last_one_ends() -> None:
    entered = threading.Barrier(2)
    release = threading.Event()

    def hold() -> None:
        with collector_paused():
            entered.wait()
            release.wait()

    other = threading.Thread(target=hold)
    other.start()
    with collector_paused():
        entered.wait()
    assert not gc.isenabled()  # the other thread still pairs
    release.set()
    other.join()
    assert gc.isenabled()


def test_a_collector_disabled_by_the_caller_stays_disabled() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
