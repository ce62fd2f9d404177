"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. The two advanced ones, ``DISCORD_API_BASE``
and ``DISCORD_GATEWAY_URL``, default to Discord's own endpoints; pointing them at
``127.0.0.1`` runs the bot against the sandbox (:mod:`sandbox`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from service.pairing_pool import (
    DEFAULT_INLINE_BELOW,
    DEFAULT_MAX_CONCURRENT,
    DEFAULT_MAX_PLAYERS,
    DEFAULT_TIME_LIMIT,
    PairingLimits,
)
from swiss.numbers import MAX_SEED, NumberError, parse_int

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class Settings(BaseSettings):
    """swissbot's configuration. Build it with ``Settings()`` to read the environment."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "discord_token")
    )
    database: Path = Field(
        default=Path("swissbot.sqlite3"),
        validation_alias=AliasChoices("SWISSBOT_DATABASE", "database"),
    )
    guild_ids: Annotated[tuple[int, ...], NoDecode] = Field(
        default=(), validation_alias=AliasChoices("SWISSBOT_GUILD_IDS", "guild_ids")
    )
    log_level: str = Field(
        default="INFO", validation_alias=AliasChoices("SWISSBOT_LOG_LEVEL", "log_level")
    )
    discord_api_base: str = Field(
        default=DEFAULT_API_BASE,
        validation_alias=AliasChoices("DISCORD_API_BASE", "discord_api_base"),
    )
    discord_gateway_url: str = Field(
        default=DEFAULT_GATEWAY_URL,
        validation_alias=AliasChoices("DISCORD_GATEWAY_URL", "discord_gateway_url"),
    )

    # The live web page (bot/web): off unless a port is set.
    web_port: int | None = Field(
        default=None, ge=0, le=65535,
        validation_alias=AliasChoices("SWISSBOT_WEB_PORT", "web_port"),
    )
    web_host: str = Field(
        default="127.0.0.1", validation_alias=AliasChoices("SWISSBOT_WEB_HOST", "web_host")
    )
    public_url: str | None = Field(
        default=None, validation_alias=AliasChoices("SWISSBOT_PUBLIC_URL", "public_url")
    )

    # Limits that protect every server (issue 13; service.pairing_pool). Bot-wide, not per
    # guild: they share one process's CPU.
    max_players: int = Field(
        default=DEFAULT_MAX_PLAYERS, ge=2, le=100_000,
        validation_alias=AliasChoices("SWISSBOT_MAX_PLAYERS", "max_players"),
    )
    max_concurrent_pairings: int = Field(
        default=DEFAULT_MAX_CONCURRENT, ge=1, le=64,
        validation_alias=AliasChoices("SWISSBOT_MAX_CONCURRENT_PAIRINGS",
                                      "max_concurrent_pairings"),
    )
    pairing_time_limit: float = Field(
        default=DEFAULT_TIME_LIMIT, gt=0, le=3600,
        validation_alias=AliasChoices("SWISSBOT_PAIRING_TIME_LIMIT", "pairing_time_limit"),
    )
    pairing_inline_below: int = Field(
        default=DEFAULT_INLINE_BELOW, ge=0, le=100_000,
        validation_alias=AliasChoices("SWISSBOT_PAIRING_INLINE_BELOW", "pairing_inline_below"),
    )

    @field_validator("web_port", "public_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("public_url", mode="after")
    @classmethod
    def _check_public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or value[-3:] == "://":
            raise ValueError(f"SWISSBOT_PUBLIC_URL must be an http(s) URL: {value!r}")
        return value

    @field_validator("guild_ids", mode="before")
    @classmethod
    def _split_guild_ids(cls, value: Any) -> Any:
        """Accept ``"123, 456"`` (the environment form) as well as a list of ids."""
        if value is None:
            return ()
        if isinstance(value, str):
            items = [item.strip() for item in value.replace(";", ",").split(",")]
            ids = []
            for item in items:
                if not item:
                    continue
                try:  # strictly: "²" passes isdigit(); ids are 64-bit snowflakes
                    ids.append(parse_int(item, "guild id", low=1, high=MAX_SEED))
                except NumberError as exc:
                    raise ValueError(
                        f"SWISSBOT_GUILD_IDS must be comma-separated numeric guild ids: "
                        f"{exc.reason}"
                    ) from None
            return tuple(ids)
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _check_level(cls, value: Any) -> str:
        level = str(value).strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"SWISSBOT_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("discord_api_base", "discord_gateway_url", mode="after")
    @classmethod
    def _check_url(cls, value: str) -> str:
        if "://" not in value:
            raise ValueError(f"not a URL: {value!r}")
        return value

    @property
    def token(self) -> str | None:
        """The bot token as a plain string, or None when it is not set (or blank)."""
        if self.discord_token is None:
            return None
        token = self.discord_token.get_secret_value().strip()
        return token or None

    @property
    def uses_discord(self) -> bool:
        """True when both endpoints are Discord's own (not a sandbox)."""
        return (
            self.discord_api_base == DEFAULT_API_BASE
            and self.discord_gateway_url == DEFAULT_GATEWAY_URL
        )

    @property
    def pairing_limits(self) -> PairingLimits:
        """The limits the service's pairing pool enforces."""
        return PairingLimits(max_players=self.max_players,
                             max_concurrent=self.max_concurrent_pairings,
                             time_limit=self.pairing_time_limit,
                             inline_below=self.pairing_inline_below)

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]
