"""Settings from environment variables and `.env` (pydantic-settings); the token is never shown."""

from __future__ import annotations

import re
from datetime import UTC, tzinfo
from importlib.util import find_spec
from typing import Annotated
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from locales import LANGUAGES

_TOKEN = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{30,}$")
_WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")  # what Telegram allows in secret_token
_SHORT_NAME = re.compile(r"^[A-Za-z0-9_]{3,30}$")  # what BotFather takes for a Mini App's name
SECRET_LENGTH = 32  # COMPUTER_SECRET's least length: as many bytes as the HMAC's key is worth


def _has_catalog(lang: str) -> str:
    if lang not in LANGUAGES:  # a language is a catalog in locales/, so no list to keep here
        raise ValueError(f"no translations for {lang!r}; there are {', '.join(LANGUAGES)}")
    return lang


class DatabaseSettings(BaseSettings):
    """Where the database is: all `python -m bot check` and `backup` need (no token)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    db_path: str = "./frap.sqlite3"
    db_busy_timeout: float = Field(
        default=5.0, gt=0, description="seconds a write waits for another process's lock"
    )
    # The running bot writes a heartbeat to the database; `python -m bot health` and
    # /healthz fail when it is older than HEALTH_MAX_BEAT_AGE (the event loop stuck, or the
    # database refusing writes) or Telegram has not answered for HEALTH_MAX_SILENCE
    heartbeat_every: float = Field(default=15.0, gt=0, description="seconds between heartbeats")
    health_max_beat_age: float = Field(default=60.0, gt=0, description="seconds")
    health_max_silence: float = Field(default=180.0, gt=0, description="seconds")


class WorkerSettings(BaseSettings):
    """All `python -m bot worker` needs: the broker it takes the computer players' calls from."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # Unset: the searches run in the bot's own worker processes (COMPUTER_WORKERS). Set (e.g.
    # redis://broker:6379/0): they are sent there, to `python -m bot worker` on any machine
    computer_broker: str | None = Field(default=None, description="a redis:// URL; unset = local")
    computer_deadline: float = Field(
        default=5.0, gt=0, description="seconds a call waits; then the rules level moves"
    )
    # With a broker: the key every task and result is signed with (HMAC-SHA256), the same for
    # the bot and its workers; whoever can write to Redis without it can make calls fail, never
    # run anything or choose a move
    computer_secret: SecretStr | None = Field(
        default=None, description="at least 32 characters; required with COMPUTER_BROKER"
    )
    # Calls waiting for a worker (not yet taken) past which a call is not sent: the rules level
    # moves at once instead of after the deadline (docs/operating.md says how to size it)
    computer_queue_max: int = Field(default=64, ge=0, description="calls")

    @field_validator("computer_broker")
    @classmethod
    def _broker_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        if urlsplit(value).scheme not in ("redis", "rediss", "unix"):
            raise ValueError("COMPUTER_BROKER must be a URL like redis://broker:6379/0")
        if find_spec("taskiq_redis") is None:
            raise ValueError("COMPUTER_BROKER needs taskiq: pip install 'frapbot[remote]'")
        return value

    @field_validator("computer_secret")
    @classmethod
    def _secret_length(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < SECRET_LENGTH:
            raise ValueError(
                f"COMPUTER_SECRET must be at least {SECRET_LENGTH} characters "
                "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return value

    @model_validator(mode="after")
    def _broker_has_secret(self) -> WorkerSettings:
        # Without it whoever can write to the broker would be trusted by the bot and the workers.
        if self.computer_broker and self.computer_secret is None:
            raise ValueError("COMPUTER_SECRET is required with COMPUTER_BROKER")
        return self


class Settings(WorkerSettings, DatabaseSettings):
    """Everything an operator can set; docs/operating.md lists the variables."""

    bot_token: SecretStr
    bot_api_url: str = "https://api.telegram.org/bot"
    bot_file_api_url: str | None = None
    default_language: Annotated[str, AfterValidator(_has_catalog)] = "ru"
    turn_timeout: int = Field(default=90, ge=0, description="seconds; 0 = no turn timer")
    lobby_timeout: int = Field(
        default=1800, ge=0, description="seconds an idle lobby or finished deal waits; 0 = forever"
    )
    away_delay: float = Field(default=2.0, ge=0, description="seconds before an away player's move")
    default_ante: int = Field(default=10, ge=0)
    # A computer player moves after a pause drawn from this range (its thinking
    # included), like a person; its searches run in at most COMPUTER_WORKERS processes
    computer_pause_min: float = Field(default=1.0, ge=0, description="seconds")
    computer_pause_max: float = Field(default=2.0, ge=0, description="seconds")
    computer_workers: int = Field(default=0, ge=0, description="processes; 0 = one per core")
    log_level: str = "INFO"
    group_messages_per_minute: int = Field(default=20, ge=1)
    messages_per_second: int = Field(default=30, ge=1, description="the limiter's overall budget")
    poll_timeout: int = Field(default=30, ge=0)
    time_zone: str = Field(default="UTC", description="an IANA zone for /history's dates")
    force_start: bool = Field(
        default=False, description="start even if the start-up check finds a problem"
    )
    # Webhook mode (bot/updates.py): set WEBHOOK_URL, and Telegram posts updates there instead of
    # the bot polling for them.
    webhook_url: str | None = Field(
        default=None, description="the public HTTPS URL; unset = polling"
    )
    webhook_secret: SecretStr | None = Field(default=None, description="Telegram sends it back")
    webhook_listen: str = Field(default="0.0.0.0", description="the address the server binds")
    port: int = Field(default=8080, ge=1, le=65535, description="the port the server listens on")
    # /metrics (Prometheus) and /healthz, served on this port when it is set
    metrics_port: int | None = Field(default=None, ge=1, le=65535, description="unset = none")
    metrics_listen: str = Field(default="0.0.0.0", description="the address it binds")
    # The table as a Telegram Mini App, served by the bot on PORT at WEBAPP_URL's path
    # (the page's public HTTPS address, the one BotFather is given); unset = the chat table only
    webapp_url: str | None = Field(default=None, description="unset = no Mini App")
    webapp_short_name: str | None = Field(
        default=None, description="the Mini App's short name (BotFather /newapp); unset = main"
    )
    webapp_max_age: int = Field(
        default=86_400, ge=60, description="seconds a page's initData stays valid (a pulya is long)"
    )

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN.match(value.get_secret_value()):
            raise ValueError("BOT_TOKEN does not look like a token from @BotFather (digits:secret)")
        return value

    @field_validator("time_zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if value != "UTC":
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ValueError(f"unknown time zone {value!r} (e.g. Europe/Moscow)") from exc
        return value

    @property
    def zone(self) -> tzinfo:
        """The time zone for dates shown to players (UTC needs no zone database)."""
        return UTC if self.time_zone == "UTC" else ZoneInfo(self.time_zone)

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url_shape(cls, value: str | None) -> str | None:
        if not value:
            return None  # WEBHOOK_URL= (empty) is polling, like no variable at all
        parts = urlsplit(value)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError("WEBHOOK_URL must be a URL like https://bot.example.com/telegram")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url_shape(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        local = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost")
        if not (parts.scheme == "https" or local) or not parts.hostname:
            raise ValueError(
                "WEBAPP_URL must be an https:// URL like https://bot.example.com/app "
                "(http:// only on 127.0.0.1 or localhost, for testing)"
            )
        return value.rstrip("/")

    @field_validator("webapp_short_name")
    @classmethod
    def _short_name_shape(cls, value: str | None) -> str | None:
        if value and not _SHORT_NAME.match(value):
            raise ValueError("WEBAPP_SHORT_NAME must be 3-30 characters: A-Z, a-z, 0-9 and _")
        return value or None

    @field_validator("webhook_secret")
    @classmethod
    def _webhook_secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _WEBHOOK_SECRET.match(value.get_secret_value()):
            raise ValueError("WEBHOOK_SECRET must be 1-256 characters: A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _pause_range(self) -> Settings:
        if self.computer_pause_max < self.computer_pause_min:
            raise ValueError("COMPUTER_PAUSE_MAX must not be below COMPUTER_PAUSE_MIN")
        return self

    @model_validator(mode="after")
    def _webhook_has_secret(self) -> Settings:
        # Without it anyone who learns the URL could post updates as any player.
        if self.webhook_url and self.webhook_secret is None:
            raise ValueError("WEBHOOK_SECRET is required with WEBHOOK_URL")
        return self

    @property
    def webhook_path(self) -> str:
        """The path the webhook server answers on: WEBHOOK_URL's (a proxy forwards it as is)."""
        return urlsplit(self.webhook_url or "").path.strip("/")

    @property
    def webapp_path(self) -> str:
        """The path the Mini App is served at: WEBAPP_URL's, '' for the root."""
        return urlsplit(self.webapp_url or "").path.rstrip("/")

    @model_validator(mode="after")
    def _webapp_beside_webhook(self) -> Settings:
        # one port serves both: the webhook's path must not be inside the page's
        if self.webapp_url and self.webhook_url:
            hook = "/" + self.webhook_path
            page = self.webapp_path
            if page and (hook == page or hook.startswith(page + "/")):
                raise ValueError("WEBHOOK_URL's path must lie outside WEBAPP_URL's path")
        return self

    @property
    def file_api_url(self) -> str:
        """The base URL for file downloads (derived from the API URL unless set)."""
        if self.bot_file_api_url:
            return self.bot_file_api_url
        return self.bot_api_url.replace("/bot", "/file/bot", 1)
