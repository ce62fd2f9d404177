"""Fixtures shared by the test modules: the PostgreSQL cluster and the backend parameter.

A module that runs on both backends says ``pytestmark = pytest.mark.usefixtures("backend")``;
its tests then run once on SQLite and once on PostgreSQL, and ``service_helpers.open_service``
opens the database of the backend in force.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests import service_helpers
from tests.pg_cluster import Cluster, start_cluster, why_unavailable

# No per-example deadline: speed is measured by the benchmarks, and on a busy machine a
# deadline turns a correct test into a flaky one (a test's own @settings still applies).
settings.register_profile("swissbot", deadline=None)
settings.load_profile("swissbot")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster for the whole session (skips with the reason when the
    server binaries are missing; in CI `make postgresql` installs them, and CI=true makes a
    missing server a failure instead)."""
    reason = why_unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}")
        pytest.skip(reason)
    cluster = start_cluster()
    yield cluster
    cluster.stop()


# SWISSBOT_TEST_BACKENDS=sqlite (make test-fast) runs the both-backend tests on SQLite only.
BACKENDS = os.environ.get("SWISSBOT_TEST_BACKENDS", "sqlite,postgresql").split(",")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """The backend ``open_service`` uses in this test."""
    if request.param == "sqlite":
        yield "sqlite"
        return
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    service_helpers.use_postgresql(cluster)
    try:
        yield "postgresql"
    finally:
        service_helpers.use_sqlite()
