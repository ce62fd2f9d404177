"""The bot's log set-up: discord.py's failed reconnects are one warning line each."""

from __future__ import annotations

import io
import logging


def _logged(logger: str, message: str, error: Exception) -> str:
    """What the bot's log shows of ``logger.exception(message)`` while ``error`` is handled."""
    from bot.logs import configure_logging

    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure_logging("INFO", stream=stream)
        try:
            raise error
        except Exception:
            logging.getLogger(logger).exception(message, 1.5)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return stream.getvalue()


def test_a_failed_reconnect_is_one_warning_line_naming_the_error() -> None:
    error = OSError(111, "Connect call failed ('127.0.0.1', 9): 100% refused")
    # what discord.client does after each failed attempt (discord.shard logs it alike)
    for logger in ("discord.client", "discord.shard"):
        text = _logged(logger, "Attempting a reconnect in %.2fs", error)
        assert text.count("\n") == 1, text
        assert " WARNING " in text and "Traceback" not in text, text
        assert "cannot reach Discord (ConnectionRefusedError: [Errno 111] Connect" in text, text
        assert "100% refused" in text and "Attempting a reconnect in 1.50s" in text, text


def test_other_errors_keep_their_traceback() -> None:
    text = _logged("discord.client", "Ignoring exception in on_ready (%s)", ValueError("bug"))
    assert "Traceback" in text and " ERROR " in text, text
