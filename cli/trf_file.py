"""Reading the TRF file named on the command line (``pair``, ``standings``, ``header``), and
writing a command's output to ``--output`` or standard output.

Every problem with the file's contents is a :class:`~swiss.trf.TrfError` with its line and
column, including invalid UTF-8 and a file without player lines (``/dev/null``, an empty file,
a README), which would otherwise print an empty pairing or an empty table and exit 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

from swiss.trf import TrfError, TrfTournament, decode_trf, parse_trf

MAX_FILE_BYTES = 64 * 1024 * 1024  # far above any real tournament; refuses /dev/zero and such


class UnreadableFile(Exception):
    """The file cannot be read at all (missing, a directory, no permission, too large)."""


def read_trf_file(path: str) -> TrfTournament:
    """Read, decode and parse ``path``; raise :class:`UnreadableFile` or :class:`TrfError`."""
    text, data = _read_text(path)
    parsed = parse_trf(text)
    if not parsed.tournament.players:
        what = "the file is empty" if not data.strip() else "is this a TRF file?"
        raise TrfError(f"no player lines ('001'): {what}", 1, 1)
    return parsed


def read_trf_text(path: str) -> str:
    """The decoded text of ``path`` (for the team systems, which parse it themselves)."""
    return _read_text(path)[0]


def _read_text(path: str) -> tuple[str, bytes]:
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; "
                             "is this a TRF file?")
    return decode_trf(data), data


def write_output(command: str, output: str | None, text: str) -> bool:
    """Write ``text`` to the file ``output`` (standard output when None); False, with one line
    on standard error naming the command and the file, when the file cannot be written."""
    if not output:
        sys.stdout.write(text)
        return True
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"swissbot {command}: cannot write {output}: {exc.strerror or exc}",
              file=sys.stderr)
        return False
    return True
