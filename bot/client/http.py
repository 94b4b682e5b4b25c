"""python-telegram-bot's Bot API requests over aiohttp, for a fraction of its httpx default's CPU.

With PTB's `HTTPXRequest` the bot spent more CPU in the HTTP client than in everything else
(bench/bot_load.py). `AiohttpRequest` mirrors it (timeouts, pool, uploads, errors) with
three differences:

- a request without files is sent as `application/json` (cheaper to build than a urlencoded
  form; the Bot API accepts both), one with files as `multipart/form-data` like HTTPXRequest;
- proxies come from `HTTP_PROXY` / `HTTPS_PROXY` / `ALL_PROXY` / `NO_PROXY` as httpx reads
  them, once per host after `initialize()`: aiohttp's own `trust_env=True` re-reads them (and
  `~/.netrc`) on two worker threads for every request, which costs more CPU than the request;
- no error message, log line or chained exception shows the request URL's token;
- every call's outcome is told to a `bot.metrics.Telegram` if one is given (metrics, and the
  one-line warning of an outage).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import ssl
import time
import urllib.request
from collections.abc import Sequence

import aiohttp
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest, RequestData
from yarl import URL

from ..metrics import Telegram

log = logging.getLogger(__name__)

_DefaultValue = type(BaseRequest.DEFAULT_NONE)  # how PTB marks "not passed: use the default"
_JSON = {"Content-Type": "application/json"}
# A token from @BotFather, also with its colon percent-encoded (as some URL renderings do), and
# the credentials in a URL (a proxy's).
_SECRETS = re.compile(r"\d{3,}(?::|%3[Aa])[A-Za-z0-9_-]{30,}|(?<=//)[^/@\s]+(?=@)")
_REDACTED = "<redacted>"
_POOL_TIMEOUT = (
    "Pool timeout: All connections in the connection pool are occupied. Request was *not* sent "
    "to Telegram. Consider adjusting the connection pool size or the pool timeout."
)


class AiohttpRequest(BaseRequest):
    """`telegram.request.BaseRequest` on an `aiohttp.ClientSession` (see the module docstring).

    The timeouts (seconds, None = no limit) are the defaults for a request that does not pass
    its own; PTB's are kept: 5 s to read, write and connect, 20 s to write a request that
    uploads files, 1 s to wait for a free connection. aiohttp has other timeouts than httpx;
    each request gets an `aiohttp.ClientTimeout` of

    - `sock_connect` = connect: opening the socket (TCP, TLS) to the server or the proxy;
    - `connect` = pool + connect: all of getting a connection, the wait for a free one in the
      pool included (aiohttp counts both as one phase);
    - `sock_read` = read: the longest silence from the server, counted once the request is
      written (PTB's getUpdates adds its long-poll timeout to it);
    - `total` = pool + connect + write + read for a request with files, else none: aiohttp
      has no per-write timeout, so an upload is bounded as a whole; a request without files is
      a few hundred bytes the socket buffer takes at once.

    `trace_configs` are passed to the session (aiohttp's request tracing); `telegram` is told
    of every call's outcome.
    """

    __slots__ = (
        "_connect_timeout",
        "_in_flight",
        "_media_write_timeout",
        "_pool_size",
        "_pool_timeout",
        "_proxies",
        "_read_timeout",
        "_session",
        "_telegram",
        "_trace_configs",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
        trace_configs: Sequence[aiohttp.TraceConfig] = (),
        telegram: Telegram | None = None,
    ) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._trace_configs = list(trace_configs)
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], URL | None] = {}
        self._in_flight = 0
        self._telegram = telegram

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout in seconds (PTB's getUpdates adds its long-poll time)."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (in the running event loop); again after a `shutdown()`."""
        if self._session is not None and not self._session.closed:
            return
        self._proxies.clear()  # the environment is read afresh, as httpx does for a new client
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self._pool_size, ssl=_ssl_context(*_cert_env())),
            headers={"User-Agent": self.USER_AGENT},
            cookie_jar=aiohttp.DummyCookieJar(),  # the Bot API sets no cookies
            trace_configs=self._trace_configs or None,
        )

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        session, self._session = self._session, None
        if session is None or session.closed:
            log.debug("This AiohttpRequest is already shut down")
            return
        await session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Send one request; (HTTP status, body). Failures are TimedOut or NetworkError."""
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data is not None and request_data.contains_files
        timeout = _client_timeout(
            _or(pool_timeout, self._pool_timeout),
            _or(connect_timeout, self._connect_timeout),
            _or(write_timeout, self._media_write_timeout if files else self._write_timeout),
            _or(read_timeout, self._read_timeout),
            files,
        )
        # When every connection is busy this request waits for one: a connect timeout is then
        # most likely the pool's.
        queued = self._in_flight >= self._pool_size
        self._in_flight += 1
        began = time.monotonic()
        try:
            target = URL(url)
            proxy = self._proxy(target)
            data: aiohttp.FormData | bytes | None = None
            headers = None
            if request_data is not None:
                if files:
                    data = _form(request_data)
                else:
                    data, headers = request_data.json_payload, _JSON
            async with session.request(
                method,
                target,
                data=data,
                headers=headers,
                timeout=timeout,
                proxy=proxy,
            ) as response:
                body = await response.read()
        except Exception as err:  # every failure: any of them might show the URL
            failure = _failure(err, url, queued=queued)
        else:
            if self._telegram is not None:
                self._telegram.answered(_method(url), response.status, time.monotonic() - began)
            return response.status, body
        finally:
            self._in_flight -= 1
        if self._telegram is not None:
            self._telegram.failed(_method(url), isinstance(failure, TimedOut), failure.message)
        # Raised outside the except block, so that the original exception is not attached as
        # __context__ when _failure has replaced it (its text showed the token).
        raise failure

    def _proxy(self, url: URL) -> URL | None:
        """The proxy for `url`'s host from the environment (remembered until re-initialized)."""
        key = (url.scheme, url.host or "")
        try:
            return self._proxies[key]
        except KeyError:
            found = self._proxies[key] = _env_proxy(url)
            return found


def _method(url: str) -> str:
    """The Bot API method a URL calls (its last path segment: never the token)."""
    return url.rstrip("/").rpartition("/")[2].partition("?")[0]


def _or(value: ODVInput[float], default: float | None) -> float | None:
    """A timeout PTB passed, or this instance's default where it passed none."""
    return default if isinstance(value, _DefaultValue) else value  # type: ignore[return-value]


@functools.lru_cache(maxsize=64)
def _client_timeout(
    pool: float | None,
    connect: float | None,
    write: float | None,
    read: float | None,
    files: bool,
) -> aiohttp.ClientTimeout:
    """PTB's four timeouts as aiohttp's (the mapping is in AiohttpRequest's docstring)."""
    total = None
    if files and None not in (pool, connect, write, read):
        total = pool + connect + write + read  # type: ignore[operator]
    return aiohttp.ClientTimeout(
        total=total,
        connect=None if pool is None or connect is None else pool + connect,
        sock_connect=connect,
        sock_read=read,
    )


def _form(request_data: RequestData) -> aiohttp.FormData:
    """multipart/form-data as HTTPXRequest sends it: the parameters (JSON-encoded where not
    strings) as fields, then the files."""
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mimetype)
    return form


def _env_proxy(url: URL) -> URL | None:
    """The proxy for `url` from HTTP(S)_PROXY, else ALL_PROXY if it is an HTTP proxy (aiohttp
    speaks no SOCKS), unless NO_PROXY names the host; lower-case names too.

    Credentials in the proxy's URL stay there: aiohttp sends them as Proxy-Authorization."""
    host = url.host
    if host is None or urllib.request.proxy_bypass(host):
        return None
    proxies = urllib.request.getproxies()
    found = proxies.get(url.scheme)
    if not found and proxies.get("all", "").startswith(("http://", "https://")):
        found = proxies["all"]
    return URL(found) if found else None


def _cert_env() -> tuple[str | None, str | None]:
    return os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR")


@functools.lru_cache(maxsize=4)
def _ssl_context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    """Certificates where httpx looks: SSL_CERT_FILE / SSL_CERT_DIR if set, else certifi's
    bundle (a dependency of httpx, so of PTB), else the system's."""
    if cert_file or cert_dir:
        return ssl.create_default_context()  # OpenSSL reads both variables itself
    try:
        import certifi
    except ImportError:  # pragma: no cover - PTB depends on httpx, which depends on certifi
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


# ---- errors without the token ----


def _failure(err: Exception, url: str, *, queued: bool) -> TelegramError:
    """PTB's exception for a failed request, chained to `err` (or, if anything in `err`'s
    chain shows the token, to a stand-in with the same name and the token cut out)."""
    secret = _secret(url)
    if isinstance(err, TimeoutError):  # aiohttp's timeouts are asyncio.TimeoutError
        pool = queued and isinstance(err, aiohttp.ConnectionTimeoutError)
        failure: TelegramError = TimedOut(_POOL_TIMEOUT) if pool else TimedOut()
    else:
        failure = NetworkError(f"{_name(err)}: {_redact(str(err), secret)}")
    failure.__cause__ = err if _is_clean(err, secret) else _stand_in(err, secret)
    failure.__suppress_context__ = True
    return failure


class RedactedError(Exception):
    """Stands in for an HTTP client exception whose text showed the bot token."""


def _stand_in(err: BaseException, secret: str) -> RedactedError:
    stand_in = RedactedError(f"{_name(err)}: {_redact(str(err), secret)}")
    return stand_in.with_traceback(err.__traceback__)


def _secret(url: str) -> str:
    """The part of a Bot API URL that holds the token: its path up to the method or file name
    (`/bot<token>`, `/file/bot<token>/documents`)."""
    path = "/" + url.partition("://")[2].partition("/")[2]  # no parsing: it may not parse
    return path.rpartition("/")[0]


def _redact(text: str, secret: str) -> str:
    if secret:
        text = text.replace(secret, "/" + _REDACTED)
    return _SECRETS.sub(_REDACTED, text)


def _is_clean(err: BaseException, secret: str) -> bool:
    """Whether neither `err` nor anything in its cause/context chain shows the token."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [err]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        for text in (str(current), repr(current)):
            if _redact(text, secret) != text:
                return False
        todo += (current.__cause__, current.__context__)
    return True


def _name(err: BaseException) -> str:
    kind = type(err)
    return f"aiohttp.{kind.__name__}" if kind.__module__.startswith("aiohttp") else kind.__name__
