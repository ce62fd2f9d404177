"""Settings: environment and .env parsing, defaults, and clear errors for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.settings import DEFAULT_API_BASE, DEFAULT_GATEWAY_URL, Settings
from tests.paths import REPO

ALL_VARS = (
    "DISCORD_TOKEN",
    "SWISSBOT_DATABASE",
    "SWISSBOT_GUILD_IDS",
    "SWISSBOT_LOG_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "SWISSBOT_MAX_PLAYERS",
    "SWISSBOT_MAX_CONCURRENT_PAIRINGS",
    "SWISSBOT_PAIRING_TIME_LIMIT",
    "SWISSBOT_PAIRING_INLINE_BELOW",
    "SWISSBOT_WEB_PORT",
    "SWISSBOT_OUTBOX_LEASE_SECONDS",
    "SWISSBOT_DELIVERY_INTERVAL",
    "SWISSBOT_SHARDS",
    "SWISSBOT_SHARD_IDS",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ALL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env from the developer's checkout


def test_defaults() -> None:
    settings = Settings()
    assert settings.token is None
    assert settings.database == "swissbot.sqlite3"
    assert settings.database_file == Path("swissbot.sqlite3")
    assert settings.guild_ids == ()
    assert settings.log_level == "INFO"
    assert settings.discord_api_base == DEFAULT_API_BASE
    assert settings.discord_gateway_url == DEFAULT_GATEWAY_URL
    assert settings.uses_discord


def test_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "  abc.def  ")
    monkeypatch.setenv("SWISSBOT_DATABASE", "data/club.sqlite3")
    monkeypatch.setenv("SWISSBOT_GUILD_IDS", "123, 456,")
    monkeypatch.setenv("SWISSBOT_LOG_LEVEL", "debug")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:8080/api/v10")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:8080/")
    settings = Settings()
    assert settings.token == "abc.def"
    assert settings.database_file == Path("data/club.sqlite3")
    assert settings.guild_ids == (123, 456)
    assert settings.log_level == "DEBUG"
    assert not settings.uses_discord


def test_dotenv_file_and_environment_precedence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nSWISSBOT_GUILD_IDS=7\n")
    assert Settings().token == "from-file"
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    settings = Settings()
    assert settings.token == "from-env"
    assert settings.guild_ids == (7,)


def test_blank_token_counts_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert Settings().token is None


def test_token_is_not_shown_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "super-secret")
    assert "super-secret" not in repr(Settings())


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SWISSBOT_GUILD_IDS", "123,abc", "comma-separated numeric guild ids"),
        ("SWISSBOT_LOG_LEVEL", "loud", "SWISSBOT_LOG_LEVEL must be one of"),
        ("DISCORD_API_BASE", "localhost", "not a URL"),
    ],
)
def test_bad_values_are_explained(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=message):
        Settings()


def test_env_example_documents_every_setting() -> None:
    example = (REPO / ".env.example").read_text()
    for name in ALL_VARS:
        assert f"\n{name}=" in example, name


@pytest.mark.parametrize(("value", "file"), [
    ("postgresql://bot:secret@db.example:5432/swissbot", None),
    ("postgres://bot@/swissbot?host=/run/postgresql", None),
    ("sqlite:///data/club.sqlite3", Path("data/club.sqlite3")),
    ("sqlite:////srv/club.sqlite3", Path("/srv/club.sqlite3")),
])
def test_database_url_or_file(
    monkeypatch: pytest.MonkeyPatch, value: str, file: Path | None
) -> None:
    """A PostgreSQL URL is kept as written (a Path would fold its "//"); sqlite:/// is a file."""
    monkeypatch.setenv("SWISSBOT_DATABASE", value)
    settings = Settings()
    assert settings.database == value
    assert settings.database_file == file
def test_pairing_limits_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().pairing_limits.max_players == 9_999  # the documented defaults
    assert Settings().pairing_limits.max_concurrent == 2
    monkeypatch.setenv("SWISSBOT_MAX_PLAYERS", "500")
    monkeypatch.setenv("SWISSBOT_MAX_CONCURRENT_PAIRINGS", "3")
    monkeypatch.setenv("SWISSBOT_PAIRING_TIME_LIMIT", "30")
    monkeypatch.setenv("SWISSBOT_PAIRING_INLINE_BELOW", "50")
    limits = Settings().pairing_limits
    assert (limits.max_players, limits.max_concurrent, limits.time_limit,
            limits.inline_below) == (500, 3, 30.0, 50)
    monkeypatch.setenv("SWISSBOT_MAX_CONCURRENT_PAIRINGS", "0")
    with pytest.raises(ValidationError, match="SWISSBOT_MAX_CONCURRENT_PAIRINGS"):
        Settings()


NUMBER_SETTINGS = ("SWISSBOT_MAX_PLAYERS", "SWISSBOT_MAX_CONCURRENT_PAIRINGS",
                   "SWISSBOT_PAIRING_TIME_LIMIT", "SWISSBOT_PAIRING_INLINE_BELOW",
                   "SWISSBOT_WEB_PORT", "SWISSBOT_OUTBOX_LEASE_SECONDS",
                   "SWISSBOT_DELIVERY_INTERVAL")


@pytest.mark.parametrize("name", NUMBER_SETTINGS)
@pytest.mark.parametrize("value", ["١٢", "1_000", "1e3", "inf", "nan", "²", "0x10", "+5",
                                   "9" * 30])
def test_number_settings_are_ascii_digits_in_range(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """pydantic alone reads "١٢" as 12, "1_000" as 1000 and "inf" as a float: every number
    from the environment is read strictly instead, and the error names the variable."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=name):
        Settings()


@given(st.integers(2, 9_999))
def test_ascii_players_round_trip(players: int) -> None:
    import os

    os.environ["SWISSBOT_MAX_PLAYERS"] = str(players)
    try:
        assert Settings().max_players == players
    finally:
        del os.environ["SWISSBOT_MAX_PLAYERS"]


def test_the_largest_event_is_one_a_trf_file_can_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWISSBOT_MAX_PLAYERS", "10000")
    with pytest.raises(ValidationError, match=r"2\.\.9999 \(a TRF file numbers the players "
                                              r"with four digits"):
        Settings()
    monkeypatch.setenv("SWISSBOT_MAX_PLAYERS", "9999")
    monkeypatch.setenv("SWISSBOT_DELIVERY_INTERVAL", "0.05")  # the lowest allowed
    monkeypatch.setenv("SWISSBOT_WEB_PORT", " ")  # blank: no web page
    settings = Settings()
    assert (settings.max_players, settings.delivery_interval, settings.web_port) == \
        (9_999, 0.05, None)


def test_a_check_of_several_settings_says_invalid_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.run import load_settings

    monkeypatch.setenv("SWISSBOT_SHARD_IDS", "1")  # needs SWISSBOT_SHARDS
    assert load_settings() is None
    err = capsys.readouterr().err
    assert err.startswith("swissbot: invalid settings: SWISSBOT_SHARD_IDS needs"), err
    assert "setting settings" not in err
