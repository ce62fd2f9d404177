"""The e2e fixtures live in :mod:`tests.e2e.fixtures` (shared with tests/bot/test_sandbox.py)."""

from tests.e2e.fixtures import (  # noqa: F401  (pytest finds fixtures by name)
    database,
    error_log,
    fake,
    guild,
    start_swissbot,
)
