"""Telegram's Mini App initData check (HMAC-SHA256 under HMAC("WebAppData", token));
the Mini App's settings."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.web.initdata import BadInitData, secret_key, sign, verify

TOKEN = "123456:AAFakeTokenForTests_0123456789abcdefXYZ"
OTHER = "654321:AAAnotherBotsToken_0123456789abcdefXYZ"
NOW = 1_800_000_000
USER = json.dumps({"id": 42, "first_name": "Аня", "last_name": "", "language_code": "en"})


def _fields(**more: str) -> dict[str, str]:
    return {"user": USER, "auth_date": str(NOW - 10), "start_param": "7", **more}


def _check(data: str, token: str = TOKEN, max_age: float = 3600) -> object:
    return verify(data, secret_key(token), max_age=max_age, now=NOW)


def test_valid_initdata_names_the_user_and_the_table() -> None:
    user = _check(sign(_fields(), TOKEN))
    assert user == verify(sign(_fields(), TOKEN), secret_key(TOKEN), max_age=3600, now=NOW)
    assert (user.user_id, user.name, user.language_code, user.start_param) == (42, "Аня", "en", "7")  # type: ignore[attr-defined]


def test_the_signature_field_is_part_of_the_checked_string() -> None:
    """Telegram adds `signature` (for third parties); the bot's hash covers it too."""
    data = sign(_fields(signature="c2lnbmF0dXJl"), TOKEN)
    assert _check(data).user_id == 42  # type: ignore[attr-defined]
    fields = dict(parse_qsl(data))
    fields["signature"] = "Zm9yZ2Vk"
    with pytest.raises(BadInitData, match="hash"):
        _check(urlencode(fields))


def test_a_forged_field_or_hash_is_refused() -> None:
    fields = dict(parse_qsl(sign(_fields(), TOKEN)))
    forged = {**fields, "user": USER.replace("42", "43")}
    with pytest.raises(BadInitData, match="hash"):
        _check(urlencode(forged))
    with pytest.raises(BadInitData, match="hash"):
        _check(urlencode({**fields, "start_param": "8"}))  # another table
    with pytest.raises(BadInitData, match="hash"):
        _check(urlencode({**fields, "hash": "0" * 64}))


def test_another_bots_initdata_is_refused() -> None:
    with pytest.raises(BadInitData, match="hash"):
        _check(sign(_fields(), OTHER))


def test_stale_initdata_is_refused() -> None:
    old = sign(_fields(auth_date=str(NOW - 3601)), TOKEN)
    with pytest.raises(BadInitData, match="too old"):
        _check(old)
    assert _check(old, max_age=4000).user_id == 42  # type: ignore[attr-defined]
    with pytest.raises(BadInitData, match="too old"):  # from the future
        _check(sign(_fields(auth_date=str(NOW + 3600)), TOKEN))


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ("", "no initData"),
        ("user=1&user=2&hash=ab", "repeated"),
        (urlencode(_fields()), "no hash"),
        (sign({"user": USER}, TOKEN), "auth_date or user"),
        (sign({"auth_date": str(NOW)}, TOKEN), "auth_date or user"),
        (sign({"auth_date": str(NOW), "user": "{}"}, TOKEN), "auth_date or user"),
        (sign({"auth_date": "soon", "user": USER}, TOKEN), "auth_date or user"),
        ("%%%", "not a query string"),
    ],
    ids=["empty", "repeated", "no-hash", "no-date", "no-user", "no-id", "bad-date", "garbage"],
)
def test_missing_or_malformed_fields_are_refused(data: str, error: str) -> None:
    with pytest.raises(BadInitData, match=error):
        _check(data)


def _settings(**env: str) -> Settings:
    return Settings(_env_file=None, bot_token=TOKEN, **env)  # type: ignore[call-arg, arg-type]


def test_the_mini_app_settings() -> None:
    assert _settings().webapp_url is None and _settings(webapp_url="").webapp_url is None
    settings = _settings(webapp_url="https://bot.example.com/app/", webapp_short_name="table")
    assert settings.webapp_path == "/app" and settings.webapp_max_age == 86_400
    assert _settings(webapp_url="http://127.0.0.1:8080/app").webapp_path == "/app"
    assert _settings(webapp_url="https://bot.example.com").webapp_path == ""


@pytest.mark.parametrize(
    ("env", "error"),
    [
        ({"webapp_url": "http://bot.example.com/app"}, "must be an https:// URL"),
        ({"webapp_url": "bot.example.com/app"}, "must be an https:// URL"),
        ({"webapp_url": "https://b.example.com/app", "webapp_short_name": "a b"}, "3-30"),
        ({"webapp_url": "https://b.example.com/app", "webapp_max_age": "5"}, "greater than"),
        (
            {
                "webapp_url": "https://b.example.com/app",
                "webhook_url": "https://b.example.com/app/hook",
                "webhook_secret": "s",
            },
            "outside WEBAPP_URL's path",
        ),
    ],
    ids=["plain-http", "no-scheme", "short-name", "max-age", "hook-inside-page"],
)
def test_mini_app_settings_are_checked(env: dict[str, str], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        _settings(**env)
