"""Logging set-up for the bot: one stream handler, quiet library internals, no secrets.

``SWISSBOT_LOG_FORMAT=text`` (the default) writes one readable line per record;
``json`` writes one JSON object per line (``time``, ``level``, ``logger``, ``message`` and,
when there is one, ``exception``) for a log collector. Either way the bot token, and anything
shaped like a Discord token, is replaced by ``[redacted]`` before the line is written: a
library that logs a request's headers or an exception that quotes its arguments cannot leak it.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime

REDACTED = "[redacted]"
#: A Discord bot token: the base64 user id, a timestamp and an HMAC, dot-separated.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{25,}")


class _Redacting(logging.Formatter):
    """Formats with ``inner``, then removes the secrets from the whole text (the message, its
    arguments and the traceback alike)."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str]) -> None:
        super().__init__()
        self.inner = inner
        # the longest first: a secret that contains another is removed whole
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(self.inner.format(record))

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return _TOKEN_SHAPE.sub(REDACTED, text)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (newlines in messages are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: str = "INFO", *, stream: object = None, fmt: str = "text",
                      secrets: Iterable[str] = ()) -> None:
    """Log ``level`` and above to stderr, as text or JSON (``fmt``), with ``secrets`` (the
    token) redacted. discord.py's HTTP and gateway chatter stays at WARNING unless DEBUG is
    asked for; the voice warnings (no PyNaCl) are irrelevant to this bot."""
    handler = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
    inner = JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    handler.setFormatter(_Redacting(inner, secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    if level != "DEBUG":
        for noisy in ("discord.http", "discord.gateway", "discord.state", "discord.webhook"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger("discord.client").addFilter(_drop_voice_warnings)
    for client in ("discord.client", "discord.shard"):
        logging.getLogger(client).addFilter(one_line_reconnects)


def _drop_voice_warnings(record: logging.LogRecord) -> bool:
    return "voice will NOT be supported" not in record.getMessage()


def one_line_reconnects(record: logging.LogRecord) -> bool:
    """discord.py logs each failed reconnect to the gateway as an error with the whole
    traceback (a dozen lines a minute while Discord or the network is down). An unreachable
    gateway is an expected, retried condition: one warning line naming the error."""
    if not str(record.msg).startswith("Attempting a reconnect"):
        return True
    error = record.exc_info[1] if record.exc_info else None
    if error is not None:
        said = f"{type(error).__name__}: {error}".replace("%", "%%")  # msg is %-formatted
        record.msg = f"cannot reach Discord ({said}); {record.msg}"
    record.exc_info = None
    record.exc_text = None
    record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
    return True
