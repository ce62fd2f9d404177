"""Every file-reading sub-command, fed random bytes or a TRF cut short anywhere: it exits with
a code and a message on stderr (naming the file's line and column for a TRF), never a
traceback (an exception out of ``main``) and never a hang.

``tests/cli/test_trf_fuzz.py`` mutates TRFs for ``pair`` and ``standings``; this one adds raw
bytes and truncations, and the other readers: ``pair --system fide-dutch`` and ``--explain``,
``standings --format csv``, ``header`` (show and ``--set``), ``db check`` and ``db copy``.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK, main
from tests.paths import FIXTURES
from tests.time_limit import time_limit

FIXTURES = FIXTURES / "trf"
BASES = [path.read_bytes() for path in sorted(FIXTURES.glob("*.trf"))]
LOCATION = re.compile(r": line \d+, column \d+: \S")
CASE_SECONDS = 30


@st.composite
def hostile_file(draw: st.DrawFn) -> bytes:
    """Random bytes, or a fixture cut at a random byte (mid-line, mid-character)."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=2048))
    base = draw(st.sampled_from(BASES))
    return base[: draw(st.integers(0, len(base)))]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with time_limit(CASE_SECONDS), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        code = main(list(argv))  # an exception here is the traceback a user would see
    return code, out.getvalue(), err.getvalue()


def check_trf_command(command: str, code: int, err: str) -> None:
    assert code in (EXIT_OK, EXIT_NO_PAIRING, EXIT_INVALID_INPUT), (command, code, err)
    if code == EXIT_INVALID_INPUT:
        assert err.startswith(f"swissbot {command.split()[0]}: "), err
        assert LOCATION.search(err), (command, err)  # a file's fault: where in it
    elif code == EXIT_NO_PAIRING:
        assert err.strip(), command


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hostile_file())
def test_trf_readers_exit_with_a_located_message(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hostile.trf"
        path.write_bytes(data)
        for argv in (
            ["pair", str(path)],
            ["pair", "--system", "fide-dutch", "--explain", str(path)],
            ["standings", "--format", "csv", str(path)],
            ["header", str(path)],
            ["header", str(path), "--set", "city=Oslo", "-o", str(Path(tmp) / "out.trf")],
        ):
            code, _, err = run(*argv)
            check_trf_command(" ".join(argv[:1]), code, err)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=4096),
                 st.binary(max_size=512).map(lambda tail: b"SQLite format 3\x00" + tail)))
def test_db_commands_refuse_a_file_that_is_not_a_database(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hostile.sqlite3"
        path.write_bytes(data)
        for argv in (["db", "check", str(path)],
                     ["db", "copy", str(path), str(Path(tmp) / "copy.sqlite3")]):
            code, _, err = run(*argv)
            if not data:
                continue  # an empty file is an empty SQLite database: nothing wrong with it
            assert code == 1, (argv, code, err)
            assert err.startswith(f"swissbot db {argv[1]}: ") and str(path) in err, err


def test_python_dash_m_cli_on_a_truncated_file_has_no_traceback(tmp_path: Path) -> None:
    """The real entry point (``python -m cli``, guarded by ``__main__``) as a process."""
    path = tmp_path / "cut.trf"
    path.write_bytes(BASES[0][: len(BASES[0]) // 2 + 1] + b"\xff\x00")
    for command in ("pair", "standings", "header"):
        done = subprocess.run([sys.executable, "-m", "cli", command, str(path)],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == EXIT_INVALID_INPUT, (command, done.stderr)
        assert "Traceback" not in done.stderr and LOCATION.search(done.stderr), done.stderr


def test_importing_cli_main_module_runs_nothing() -> None:
    """``cli/__main__.py`` only runs the command line as the main module."""
    done = subprocess.run([sys.executable, "-c", "import cli.__main__; print('imported')"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "imported", done
