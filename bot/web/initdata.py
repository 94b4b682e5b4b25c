"""Telegram's Mini App `initData` check (core.telegram.org/bots/webapps, "Validating data received
via the Mini App"): the page proves who opened it only with this signed query string.

The key is HMAC-SHA256 of the bot token under the key "WebAppData"; the hash is HMAC-SHA256 of
the data-check string (every field but `hash`, sorted, `key=value` joined by newlines; the
third-party `signature` field included) under that key. Nothing else the page says counts."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from locales import pick_language

CLOCK_SKEW = 60  # seconds Telegram's clock may be ahead of ours


class BadInitData(Exception):
    """initData that is missing, malformed, forged, another bot's or too old (an HTTP 401)."""


class StaleInitData(BadInitData):
    """initData rightly signed but older than the age allowed: the page was opened too long ago."""


@dataclass(frozen=True, slots=True)
class WebUser:
    """Who opened the page, as Telegram signed it."""

    user_id: int
    name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


def secret_key(token: str) -> bytes:
    """The key initData is signed with: HMAC-SHA256 of the bot token under "WebAppData"."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def sign(fields: dict[str, str], token: str) -> str:
    """`fields` with their `hash`: initData as Telegram would make it (tests and the bench)."""
    digest = hmac.new(secret_key(token), _check_string(fields), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def _check_string(fields: dict[str, str]) -> bytes:
    """The data-check string: every field but `hash`, sorted by key, `key=value` per line."""
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items())).encode()


def verify(init_data: str, key: bytes, *, max_age: float, now: float) -> WebUser:
    """The user initData names, if its hash is right under `key` and it is younger than
    `max_age` seconds; BadInitData otherwise (which field is wrong, never the expected hash)."""
    if not init_data:
        raise BadInitData("no initData")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise BadInitData("initData is not a query string") from exc
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise BadInitData("a field of initData is repeated")
    given = fields.pop("hash", "")
    if not given:
        raise BadInitData("initData has no hash")
    expected = hmac.new(key, _check_string(fields), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, given):
        raise BadInitData("initData's hash is wrong")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as exc:
        raise BadInitData("initData lacks auth_date or user") from exc
    if not -CLOCK_SKEW <= now - auth_date <= max_age:
        raise StaleInitData("initData is too old")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    lang = user.get("language_code")
    return WebUser(
        user_id,
        name or str(user.get("username") or user_id),
        lang if isinstance(lang, str) else None,
        fields.get("start_param") or None,
        auth_date,
    )


def claimed_language(init_data: str) -> str:
    """The language of the user initData names, checked or not: only to choose the words of a
    refusal (a forged or stale page is told why in its reader's language; nothing else of it
    counts)."""
    try:
        user = json.loads(dict(parse_qsl(init_data)).get("user") or "{}")
        code = user.get("language_code") if isinstance(user, dict) else None
    except ValueError:
        code = None
    return pick_language(code if isinstance(code, str) else None)
