"""Fuzzing ``swissbot pair`` and ``swissbot standings`` with mutated TRF files (issue 11, item 16).

Whatever the file holds, the commands only ever

* exit 0 with a valid result (``pair``: a pairing of distinct players of the file, the
  pairing-allocated bye last; ``standings``: one row per player),
* exit 1 with the reason (``pair`` only: no valid pairing exists), or
* exit 3 with a message naming the line and column,

and never raise (a traceback) or hang. Inputs are small (a few kilobytes) and every case runs
under an alarm, so a hang fails the case instead of the suite.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli.main import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK, main
from swiss.trf import TrfError, decode_trf, parse_trf, write_trf
from tests.paths import FIXTURES
from tests.swiss.test_trf import tournaments
from tests.time_limit import time_limit

FIXTURES = FIXTURES / "trf"
BASES = [path.read_bytes() for path in sorted(FIXTURES.glob("*.trf"))]
CASE_SECONDS = 20  # generous for a 2-core machine shared by many; a hang never ends
MAX_BYTES = 16 * 1024
LOCATION = re.compile(r": line \d+, column \d+: \S")

# Bytes and snippets that broke the reader before: huge exponents, non-ASCII digits, 20-digit
# ids, invalid UTF-8, stray line breaks, codes whose lines carry numbers.
SNIPPETS = [
    b"1e99999999", b"1e400", "²".encode(), "١٢".encode(), b"12345678901234567890", b"\xff",
    b"\xc3", b"\xe2\x82", b"\r", b"\n", b"\r\n", b"\t", b"\x00", b"-", b"+", b".", b"/", b"=",
    b"0000", b"9999", b"    ", b" w ", b" b ", b" - ", b"U", b"H", b"F", b"Z", b"W", b"L", b"D",
]
LINES = [
    b"SBS win=1e99999999", b"SBS win=1e400 draw=1", b"SBS win=1/3 draw=1/7", b"SBS bogus",
    b"BBW 1e9", b"BBD  \xc2\xb2", b"162  W 3.0    D 1.0", b"162  A 1.0", b"162  X 1.0",
    b"XXP 1 12345678901234567890", b"XXP 1 2", b"XXP \xc2\xb2", b"XXR 1", b"XXR 99", b"XXR 0",
    b"XXC rank", b"XXC black1", b"152 W", b"152 Q", b"SBE 99999999999999999999999", b"SBE -1",
    b"SBW 1 1", b"SBW 2 99", b"SBW 1", b"SBN", b"240 H   2    3", b"240 U   1    1",
    b"240 Z 999 9999", b"260   1   9    1    2", b"260   x   9", b"XXA    1  1.0", b"013 team",
    b"299 x", b"001", b"001    1", b"", b"###", b"\xef\xbb\xbf012 bom",
    "042 2024/²/01".encode(), b"042 99999999999999999999/1/1", b"042 2024/08/01",
]


@st.composite
def mutated_trf(draw: st.DrawFn) -> bytes:
    """A fixture or a written random tournament, with one to five byte or line mutations."""
    if draw(st.booleans()):
        data = bytearray(draw(st.sampled_from(BASES)))
    else:
        data = bytearray(write_trf(draw(tournaments())).encode("utf-8"))
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["byte", "insert", "delete", "line", "drop", "copy"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "byte" and data:
            data[at] = draw(st.sampled_from(b"0123456789 .-+=/wbWBLDHFUZ\r\n\xff"))
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(SNIPPETS))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 12))]
        else:
            lines = bytes(data).split(b"\n")
            index = draw(st.integers(0, len(lines) - 1))
            if kind == "line":
                lines.insert(index, draw(st.sampled_from(LINES)))
            elif kind == "drop" and len(lines) > 1:
                del lines[index]
            elif kind == "copy":
                lines.insert(index, lines[index])
            data = bytearray(b"\n".join(lines))
    return bytes(data[:MAX_BYTES])


def run_in_process(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with time_limit(CASE_SECONDS), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def check_pair(data: bytes, code: int, out: str, err: str) -> None:
    if code == EXIT_OK:
        players = {p.id for p in parse_trf(decode_trf(data)).tournament.players}
        lines = out.splitlines()
        assert lines and lines[0] == str(len(lines) - 1), out
        seen: list[int] = []
        for index, line in enumerate(lines[1:], start=1):
            white, black = (int(x) for x in line.split())
            assert white in players, out
            assert black in players or (black == 0 and index == len(lines) - 1), out
            seen += [white, black] if black else [white]
        assert len(seen) == len(set(seen)), out  # nobody twice
        assert err == ""
    elif code == EXIT_NO_PAIRING:
        assert out == "" and err.startswith("swissbot pair: no valid pairing: "), err
        assert len(err.strip()) > len("swissbot pair: no valid pairing: ")
    else:
        assert code == EXIT_INVALID_INPUT, (code, err)
        assert out == "" and LOCATION.search(err), err


def check_standings(data: bytes, code: int, out: str, err: str) -> None:
    if code == EXIT_OK:
        players = parse_trf(decode_trf(data)).tournament.players
        rows = json.loads(out)["rows"]
        assert sorted(row["id"] for row in rows) == sorted(p.id for p in players), out
        assert err == ""
    else:
        assert code == EXIT_INVALID_INPUT, (code, err)
        assert out == "" and LOCATION.search(err), err


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_trf())
def test_mutated_trf_exits_0_1_or_3_with_line_and_column(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.trf"
        path.write_bytes(data)
        pair = run_in_process("pair", str(path))
        standings = run_in_process("standings", "--format", "json", str(path))
        event(f"pair exit {pair[0]}, standings exit {standings[0]}")  # --hypothesis-show-statistics
        check_pair(data, *pair)
        check_standings(data, *standings)
    # The bot's TRF import calls the parser directly: it raises TrfError and nothing else.
    with time_limit(CASE_SECONDS):
        try:
            parse_trf(decode_trf(data))
        except TrfError as exc:
            assert exc.line is not None and exc.column is not None, str(exc)


HOSTILE_FILES = {
    "huge exponent": (FIXTURES / "tiny_r2.trf").read_bytes() + b"SBS win=1e99999999\n",
    "overflow": (FIXTURES / "tiny_r2.trf").read_bytes() + b"BBW 1e400\n",
    "superscript id": (FIXTURES / "tiny_r2.trf").read_bytes() + "XXP 1 ²\n".encode(),
    "latin-1": (FIXTURES / "new8.trf").read_bytes().replace(b"Hugo", b"H\xfcgo"),
    "empty": b"",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_files_through_a_real_process(tmp_path: Path, name: str) -> None:
    path = tmp_path / "hostile.trf"
    path.write_bytes(HOSTILE_FILES[name])
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    for command in ("pair", "standings"):
        done = subprocess.run([sys.executable, "-m", "cli", command, str(path)],
                              capture_output=True, text=True, timeout=120, check=False, env=env)
        assert done.returncode == EXIT_INVALID_INPUT, done.stderr
        assert "Traceback" not in done.stderr
        assert LOCATION.search(done.stderr), done.stderr
