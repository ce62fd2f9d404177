"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. The two advanced ones, ``DISCORD_API_BASE``
and ``DISCORD_GATEWAY_URL``, default to Discord's own endpoints; pointing them at
``127.0.0.1`` runs the bot against the sandbox (:mod:`sandbox`).
"""

from __future__ import annotations

import logging
import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from service.pairing_pool import (
    DEFAULT_INLINE_BELOW,
    DEFAULT_MAX_CONCURRENT,
    DEFAULT_MAX_PLAYERS,
    DEFAULT_TIME_LIMIT,
    MAX_EVENT_PLAYERS,
    PairingLimits,
)
from swiss.numbers import MAX_SEED, NumberError, parse_fraction, parse_int

if TYPE_CHECKING:  # the service (and its database driver) loads only when the bot needs it
    from service import Shards

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
#: More shards than any bot needs (Discord asks for one per 1,000-2,500 guilds); a bound
#: keeps "0-999999999" from building a billion-element list.
MAX_SHARDS = 16_384


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2"``, ``"0-1, 4, 6-7"`` -> the sorted shard ids. Raises ValueError
    naming the bad part: not a number, a backwards range, a repeated id, an id too large."""
    ids: list[int] = []
    for part in text.replace(";", ",").split(","):
        item = part.strip()
        if not item:
            raise ValueError(f"empty item in {text.strip()!r} (write e.g. 0-3 or 0,2,5)")
        low_text, dash, high_text = item.partition("-")
        try:
            low = parse_int(low_text.strip(), "shard id", low=0, high=MAX_SHARDS - 1)
            high = (parse_int(high_text.strip(), "shard id", low=0, high=MAX_SHARDS - 1)
                    if dash else low)
        except NumberError as exc:
            raise ValueError(f"{item!r}: {exc.reason}") from None
        if high < low:
            raise ValueError(f"{item!r} is a backwards range (write {high}-{low})")
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"shard {repeated[0]} is listed twice")
    return tuple(sorted(ids))


#: The numeric settings: read strictly (:meth:`Settings._strict_number`) within their Field's
#: bounds; the reasons behind a bound that is not obvious.
_NUMBER_SETTINGS = ("web_port", "metrics_port", "outbox_stuck_seconds", "outbox_lease_seconds",
                    "delivery_interval", "max_players", "max_concurrent_pairings",
                    "pairing_time_limit", "pairing_inline_below")
_NUMBER_REASONS = {
    "max_players": " (a TRF file numbers the players with four digits: a bigger event could "
                   "not be exported)",
}


def _environment_name(field_name: str) -> str:
    """The environment variable of a setting (its first alias)."""
    alias = Settings.model_fields[field_name].validation_alias
    choices = getattr(alias, "choices", None)
    return str(choices[0]) if choices else field_name.upper()


def _bounds(metadata: list[Any]) -> tuple[Fraction, Fraction, bool]:
    """``(low, high, low excluded)`` of a Field's ``ge``/``gt``/``le`` constraints."""
    low, high, low_open = Fraction(0), Fraction(MAX_SEED), False
    for item in metadata:
        if getattr(item, "ge", None) is not None:
            low = Fraction(str(item.ge))
        if getattr(item, "gt", None) is not None:
            low, low_open = Fraction(str(item.gt)), True
        if getattr(item, "le", None) is not None:
            high = Fraction(str(item.le))
    return low, high, low_open


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
    # A SQLite file (path or sqlite:///path) or a postgresql:// URL (docs/database.md); text,
    # not a Path, which would fold the URL's "//".
    database: str = Field(
        default="swissbot.sqlite3",
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

    # Monitoring (bot/metrics.py, bot/health.py): Prometheus metrics on their own port, off
    # unless a port is set; on the loopback interface unless told otherwise (the metrics are
    # for the operator's scraper, not for the world).
    metrics_port: int | None = Field(
        default=None, ge=0, le=65535,
        validation_alias=AliasChoices("SWISSBOT_METRICS_PORT", "metrics_port"),
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        validation_alias=AliasChoices("SWISSBOT_METRICS_HOST", "metrics_host"),
    )
    # /readyz fails when an announcement has been due for longer than this: the delivery is
    # stuck (a failing one is retried later, which moves its due time on).
    outbox_stuck_seconds: float = Field(
        default=600.0, ge=10.0, le=86_400.0,
        validation_alias=AliasChoices("SWISSBOT_OUTBOX_STUCK_SECONDS", "outbox_stuck_seconds"),
    )
    log_format: Literal["text", "json"] = Field(
        default="text", validation_alias=AliasChoices("SWISSBOT_LOG_FORMAT", "log_format")
    )

    # Lichess (bot/lichess, docs/lichess.md): where its API is, and the key that encrypts the
    # OAuth tokens kept in the database (unset: no token is kept).
    lichess_url: str = Field(
        default="https://lichess.org",
        validation_alias=AliasChoices("SWISSBOT_LICHESS_URL", "lichess_url"),
    )
    secret_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("SWISSBOT_SECRET_KEY", "secret_key")
    )

    # Discord sharding (issue 17): unset = one connection, as always; "auto" = as many shards
    # as Discord recommends, all in this process; N = N shards, of which this process runs
    # SWISSBOT_SHARD_IDS (default: all of them).
    shard_count: Literal["auto"] | int | None = Field(
        default=None, validation_alias=AliasChoices("SWISSBOT_SHARDS", "shard_count")
    )
    shard_ids: Annotated[tuple[int, ...], NoDecode] = Field(
        default=(), validation_alias=AliasChoices("SWISSBOT_SHARD_IDS", "shard_ids")
    )
    # The outbox lease: how long a claimed announcement is left to the process that claimed
    # it before another one may post it. The process renews it every third of that while it
    # runs, so it bounds how long the posts of a process that died wait for another process.
    outbox_lease_seconds: float = Field(
        default=10.0, ge=1.0, le=3600.0,
        validation_alias=AliasChoices("SWISSBOT_OUTBOX_LEASE_SECONDS", "outbox_lease_seconds"),
    )
    # How often the background pass looks for due announcements, timers and rounds.
    delivery_interval: float = Field(
        default=2.0, ge=0.05, le=300.0,
        validation_alias=AliasChoices("SWISSBOT_DELIVERY_INTERVAL", "delivery_interval"),
    )

    # The wait before a failed post (Discord refused it or was unreachable) is tried again;
    # each further failure doubles it, up to 5 minutes, for 10 attempts in all.
    delivery_retry_seconds: float = Field(
        default=2.0, ge=0.05, le=300.0,
        validation_alias=AliasChoices("SWISSBOT_DELIVERY_RETRY_SECONDS",
                                      "delivery_retry_seconds"),
    )

    @field_validator("shard_count", mode="before")
    @classmethod
    def _parse_shards(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, str):
            text = value.strip().lower()
            if text == "auto":
                return "auto"
            try:
                return parse_int(text, "shard count", low=1, high=MAX_SHARDS)
            except NumberError as exc:
                raise ValueError(
                    f"SWISSBOT_SHARDS must be auto or a number of shards: {exc.reason}"
                ) from None
        return value

    @field_validator("shard_count", mode="after")
    @classmethod
    def _check_shards(cls, value: Any) -> Any:
        if isinstance(value, int) and not 1 <= value <= MAX_SHARDS:
            raise ValueError(f"SWISSBOT_SHARDS must be between 1 and {MAX_SHARDS}")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and not value.strip()):
            return ()
        if isinstance(value, str):
            try:
                return parse_shard_ids(value)
            except ValueError as exc:
                raise ValueError(f"SWISSBOT_SHARD_IDS: {exc}") from None
        return value

    @model_validator(mode="after")
    def _ports_differ(self) -> Settings:
        if self.metrics_port and self.metrics_port == self.web_port:
            raise ValueError("SWISSBOT_METRICS_PORT must differ from SWISSBOT_WEB_PORT (the "
                             "live pages answer /healthz and /readyz on their own port)")
        return self

    @model_validator(mode="after")
    def _shard_ids_need_a_count(self) -> Settings:
        if not self.shard_ids:
            return self
        if not isinstance(self.shard_count, int):
            raise ValueError(
                "SWISSBOT_SHARD_IDS needs SWISSBOT_SHARDS set to the total number of shards "
                "(every process must agree on it, so it cannot be auto)"
            )
        too_big = [i for i in self.shard_ids if i >= self.shard_count]
        if too_big:
            raise ValueError(
                f"SWISSBOT_SHARD_IDS: shard {too_big[0]} does not exist with "
                f"SWISSBOT_SHARDS={self.shard_count} (ids go from 0 to {self.shard_count - 1})"
            )
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SWISSBOT_SHARD_IDS lists a shard twice")
        return self

    @property
    def database_file(self) -> Path | None:
        """The SQLite file ``database`` names, or None for a PostgreSQL URL."""
        text = str(self.database).strip()
        if text.startswith(("postgresql://", "postgres://")):
            return None
        if text.startswith("sqlite://"):
            text = text.removeprefix("sqlite://").removeprefix("/")
        return Path(text)

    @field_validator("database", mode="before")
    @classmethod
    def _path_is_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, Path) else value

    # Limits that protect every server (issue 13; service.pairing_pool). Bot-wide, not per
    # guild: they share one process's CPU.
    max_players: int = Field(
        default=DEFAULT_MAX_PLAYERS, ge=2, le=MAX_EVENT_PLAYERS,
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

    @field_validator(*_NUMBER_SETTINGS, mode="before")
    @classmethod
    def _strict_number(cls, value: Any, info: ValidationInfo) -> Any:
        """Numbers from the environment are read by :mod:`swiss.numbers` (ASCII digits, the
        field's range), never by pydantic's own parsing, which takes "١٢", "1_000", "1e3" and
        "inf"; a blank optional number is unset."""
        assert info.field_name is not None
        field = cls.model_fields[info.field_name]
        name = _environment_name(info.field_name)
        if isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
            raise ValueError(f"{name} must be a finite number")
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text and field.default is None:
            return None
        low, high, low_open = _bounds(field.metadata)
        try:
            if int in (field.annotation, *getattr(field.annotation, "__args__", ())):
                return parse_int(text, name, low=int(low), high=int(high))
            return float(parse_fraction(text, name, low=low, high=high, low_open=low_open,
                                        decimals=3))
        except NumberError as exc:
            raise ValueError(exc.reason + _NUMBER_REASONS.get(info.field_name, "")) from None

    @field_validator("log_format", mode="before")
    @classmethod
    def _check_log_format(cls, value: Any) -> Any:
        text = str(value).strip().lower()
        if text not in ("text", "json"):
            raise ValueError("SWISSBOT_LOG_FORMAT must be text or json")
        return text

    @field_validator("public_url", mode="before")
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
    def sharded(self) -> bool:
        """True when the bot connects with Discord's sharding (SWISSBOT_SHARDS is set)."""
        return self.shard_count is not None

    @property
    def shards(self) -> Shards:
        """The guilds whose background work (outbox, timers, auto-advance) this process does:
        every guild unless it runs only some of the shards."""
        from service import ALL_SHARDS, Shards

        if isinstance(self.shard_count, int) and self.shard_ids:
            return Shards(self.shard_count, frozenset(self.shard_ids))
        return ALL_SHARDS

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
