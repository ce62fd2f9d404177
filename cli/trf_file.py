"""Reading the TRF file named on the command line (``pair``, ``standings``, ``header``), and
writing a command's output to ``--output`` or standard output.

Every problem with the file's contents is a :class:`~swiss.trf.TrfError` with its line and
column, including invalid UTF-8 and a file without player lines (``/dev/null``, an empty file,
a README), which would otherwise print an empty pairing or an empty table and exit 0.
"""

from __future__ import annotations

import os
import sys
import tempfile
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


#: The ``-o`` value that means standard output, as in most Unix tools.
STDOUT = "-"


def write_output(command: str, output: str | None, text: str) -> bool:
    """Write ``text`` to the file ``output`` (standard output when None or ``-``); False, with
    one line on standard error naming the command and the file, when the file cannot be
    written. The file is replaced whole or not at all (a temporary file beside it, renamed
    over it), so a failed write never leaves a half-written tournament."""
    if not output or output == STDOUT:
        sys.stdout.write(text)
        return True
    target = Path(output)
    temporary = None
    try:
        if target.exists() and not target.is_file():  # /dev/stdout, a pipe: written through
            with target.open("w", encoding="utf-8") as stream:
                stream.write(text)
            return True
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=target.parent or ".",
                                         prefix=f".{target.name}.", suffix=".tmp",
                                         delete=False) as handle:
            temporary = Path(handle.name)
            handle.write(text)
        os.chmod(temporary, mode)  # a rewritten file keeps its permissions
        os.replace(temporary, target)
    except OSError as exc:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        print(f"swissbot {command}: cannot write {output}: {exc.strerror or exc}",
              file=sys.stderr)
        return False
    return True


def _umask() -> int:
    """The process's umask (read by setting it, then put back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
