"""``swissbot run`` whose pairings never end, for the tests that stop or kill a bot mid-pairing.

``python -m tests.e2e.hung_bot`` runs the real entry point with every pairing job replaced by
:func:`tests.pairing_jobs.endless_pairing`: a small event's pairing then hangs in the event
loop itself (as a bot that is killed while it pairs inline), a big one's in a worker process
(``SWISSBOT_PAIRING_INLINE_BELOW=0`` makes every event big).
"""

from __future__ import annotations

import sys

import service.pairing_runs
from cli.main import main
from tests.pairing_jobs import endless_pairing

if __name__ == "__main__":
    service.pairing_runs.pair_and_explain = endless_pairing  # type: ignore[assignment]
    sys.exit(main(["run"]))
