"""Bot API request parameters from query string, JSON, urlencoded or multipart bodies.

python-telegram-bot 22 (httpx) sends every method as a POST with an urlencoded form, or
multipart/form-data when a file is uploaded; non-string values (ints, bools, keyboards) are
JSON-encoded strings in the form. Other clients send ``application/json``; both are accepted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.fakebot.models import ApiError, bad_request


@dataclass
class Upload:
    """A file part of a multipart request."""

    filename: str
    content: bytes
    content_type: str | None


class Params:
    """Typed access to one request's parameters, with Telegram-like errors."""

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    @classmethod
    async def from_request(cls, request: web.Request) -> Params:
        """Collect parameters from the query string and the body."""
        values: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json":
            values.update(await _json_body(request))
        elif request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    values[key] = Upload(value.filename, value.file.read(), value.content_type)
                else:
                    values[key] = value
        return cls(values)

    def has(self, name: str) -> bool:
        """True if ``name`` was sent with a non-empty value."""
        return self._values.get(name) not in (None, "")

    def text(self, name: str, default: str | None = None) -> str | None:
        """String parameter."""
        value = self._values.get(name)
        if value is None:
            return default
        if isinstance(value, Upload):
            raise bad_request(f"{name} must be a string")
        return value if isinstance(value, str) else json.dumps(value)

    def required_text(self, name: str, error: ApiError | None = None) -> str:
        """Non-empty string parameter, else ``error`` (default ``<name> is empty``)."""
        value = self.text(name)
        if not value:
            raise error or bad_request(f"{name} is empty")
        return value

    def integer(self, name: str, error: ApiError | None = None) -> int:
        """Required integer parameter."""
        value = self._values.get(name)
        if value in (None, ""):
            raise error or bad_request(f"{name} is empty")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise error or bad_request(f"{name} is invalid") from None

    def number(self, name: str, default: float = 0.0) -> float:
        """Numeric parameter (int or float), ``default`` when absent."""
        if not self.has(name):
            return default
        try:
            return float(self._values[name])
        except (TypeError, ValueError):
            raise bad_request(f"{name} is invalid") from None

    def optional_integer(self, name: str) -> int | None:
        """Integer parameter or None when absent."""
        return self.integer(name) if self.has(name) else None

    def flag(self, name: str) -> bool:
        """Boolean parameter (absent means False)."""
        value = self._values.get(name)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)

    def obj(self, name: str, what: str | None = None) -> Any:
        """JSON parameter (decoded if it came as a string), or None when absent."""
        value = self._values.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {what or name} JSON object") from None

    def upload(self, name: str) -> Upload | None:
        """The uploaded file sent as part ``name``, if any."""
        value = self._values.get(name)
        return value if isinstance(value, Upload) else None

    def loggable(self) -> dict[str, Any]:
        """Parameters for the call log: JSON strings decoded, uploads summarised."""
        result: dict[str, Any] = {}
        for key, value in self._values.items():
            if isinstance(value, Upload):
                result[key] = f"<upload {value.filename!r}, {len(value.content)} bytes>"
            elif isinstance(value, str) and value[:1] in ("{", "["):
                try:
                    result[key] = json.loads(value)
                except ValueError:
                    result[key] = value
            else:
                result[key] = value
        return result


async def _json_body(request: web.Request) -> dict[str, Any]:
    raw = await request.read()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise bad_request("can't parse JSON body") from None
    if not isinstance(body, dict):
        raise bad_request("JSON body must be an object")
    return body
