"""Logging set-up for the bot: one stream handler, quiet library internals."""

from __future__ import annotations

import logging
import sys


def configure_logging(level: str = "INFO", *, stream: object = None) -> None:
    """Log ``level`` and above to stderr. discord.py's HTTP and gateway chatter stays at WARNING
    unless DEBUG is asked for; the voice warnings (no PyNaCl) are irrelevant to this bot."""
    handler = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
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
