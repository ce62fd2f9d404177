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


def _drop_voice_warnings(record: logging.LogRecord) -> bool:
    return "voice will NOT be supported" not in record.getMessage()
