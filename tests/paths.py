"""Where the tests find their data, whatever folder a test module sits in."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"
REPO = TESTS.parent
