"""The limits of the bot's HTTP servers (the Mini App's PORT, METRICS_PORT) against clients
that misbehave: a request's headers must arrive within HEADER_TIMEOUT of the connection (or of
the previous answer on a kept-alive one), and a malformed request (an over-long line, a garbage
request line, Content-Length with chunked, too many headers) is answered 400 with one log line
for the operator, not a traceback per stranger.

aiohttp's own bound is its keep-alive time-out: it counts from the connection's opening and
from each answer, and closes a connection whose request has not fully arrived by then (a
request being handled, a WebSocket, is never cut). A reverse proxy in front must keep its idle
upstream connections for less than HEADER_TIMEOUT (docs/operating.md says what else it should
bound)."""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any, cast

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

HEADER_TIMEOUT = 15.0  # seconds for a request's line and headers; the idle keep-alive too
MAX_LINE = 8190  # bytes of the request line and of a header
MAX_HEADERS = 64  # a browser, Telegram and a proxy or two send a few dozen at most
BODY_TIMEOUT = 10.0  # seconds for a request's body (a press's, an update's) once it began


class _RequestLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's server logger: a request it could not parse is one line (at INFO), with no
    traceback; anything else (a handler's bug: a 500) is logged as aiohttp logs it."""

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            remote = args[0] if args else "?"
            reason = (exc_info.message or type(exc_info).__name__).splitlines()[0][:200]
            self.logger.info("malformed HTTP request from %s refused: %s", remote, reason)
            return
        self.logger.exception(msg, *args, exc_info=exc_info, **kwargs)

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, Any]:
        return msg, kwargs


def runner(app: web.Application) -> web.AppRunner:
    """An AppRunner for `app` with these limits (and no access log)."""
    return web.AppRunner(
        app,
        access_log=None,
        keepalive_timeout=HEADER_TIMEOUT,
        max_line_size=MAX_LINE,
        max_field_size=MAX_LINE,
        max_headers=MAX_HEADERS,
        logger=cast(logging.Logger, _RequestLog(logging.getLogger("aiohttp.server"))),
    )
