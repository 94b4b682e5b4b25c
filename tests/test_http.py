"""bot.client.http.AiohttpRequest: python-telegram-bot's requests over aiohttp, on 127.0.0.1 only.

The fake Bot API serves the PTB-level round trips (JSON calls, an upload, long polling); a small
aiohttp server of this file's own shows what goes over the wire and stalls on purpose.
"""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import traceback
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter
from yarl import URL

from bot.client import http as bot_http
from bot.client.http import AiohttpRequest, _client_timeout, _env_proxy
from tests.fakebot import FakeTelegram

TOKEN = "123456:AAsecretSecretSecretSecretSecret_xyz"  # the shape @BotFather gives
ODD_TOKEN = "not-shaped-like-a-token"  # a local Bot API server may accept anything


# ---- a small server that records requests and can stall ----


@dataclass
class Seen:
    """One request as the recording server received it."""

    method: str
    path: str
    content_type: str
    headers: dict[str, str]
    body: bytes
    form: dict[str, Any] = field(default_factory=dict)


@dataclass
class Recorder:
    """The recording server: `url(method)` for a request to it, `seen` for what arrived."""

    base: str
    seen: list[Seen]
    stall: float = 1.0  # seconds the /stall route waits before answering

    def url(self, method: str, token: str = TOKEN) -> str:
        return f"{self.base}/bot{token}/{method}"


@pytest.fixture
async def server() -> AsyncIterator[Recorder]:
    seen: list[Seen] = []
    recorder = Recorder("", seen)

    async def handle(request: web.Request) -> web.Response:
        entry = Seen(request.method, request.path, request.content_type, dict(request.headers), b"")
        if request.content_type == "multipart/form-data":
            for name, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    entry.form[name] = (value.filename, value.file.read(), value.content_type)
                else:
                    entry.form[name] = value
        else:
            entry.body = await request.read()
        seen.append(entry)
        if request.path.endswith("/stall"):
            await asyncio.sleep(recorder.stall)
        return web.json_response({"ok": True, "result": True})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    recorder.base = f"http://{host}:{port}"
    yield recorder
    await runner.cleanup()


@pytest.fixture
async def request_() -> AsyncIterator[AiohttpRequest]:
    request = AiohttpRequest(connection_pool_size=4)
    async with request:
        yield request


def _data(**values: Any) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in values.items()])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port  # nothing listens there once the socket is closed


def _assert_token_hidden(exc: BaseException, *tokens: str) -> None:
    """Neither the exception nor anything a traceback of it would print shows a token."""
    text = "".join(traceback.format_exception(exc))
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    for token in tokens:
        assert token not in text
        for item in chain:
            assert token not in str(item) and token not in repr(item)
            assert all(token not in str(arg) for arg in item.args)


# ---- round trips through python-telegram-bot ----


async def test_json_calls_round_trip_through_the_fake(tg: FakeTelegram) -> None:
    group = tg.group(-100123, "Table")
    async with Bot(tg.token, base_url=tg.base_url, request=AiohttpRequest()) as bot:
        assert bot.username == "frapbot"  # getMe on initialize
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="j:1")]])
        sent = await bot.send_message(
            group.id, "<b>hi</b> ✓", parse_mode="HTML", reply_markup=keyboard
        )
        await bot.edit_message_text("bye", group.id, sent.message_id, reply_markup=keyboard)
    assert sent.text == "hi ✓" and sent.reply_markup == keyboard
    message = tg.last(group)
    assert (message.text, message.edits) == ("bye", 1)
    assert message.reply_markup == keyboard.to_dict()
    assert tg.errors == []


async def test_json_body_on_the_wire(server: Recorder, request_: AiohttpRequest) -> None:
    data = _data(chat_id=-100, text="ünïcode", disable_notification=True, reply_markup={"a": [1]})
    status, body = await request_.do_request(server.url("sendMessage"), "POST", data)
    assert (status, json.loads(body)) == (200, {"ok": True, "result": True})
    [seen] = server.seen
    assert seen.content_type == "application/json"
    assert seen.headers["User-Agent"] == AiohttpRequest.USER_AGENT
    # PTB's own encoding: non-string values JSON-encoded, as in its urlencoded forms
    assert json.loads(seen.body) == {
        "chat_id": "-100",
        "text": "ünïcode",
        "disable_notification": "true",
        "reply_markup": '{"a": [1]}',
    }


async def test_upload_a_document_through_the_fake(tg: FakeTelegram) -> None:
    group = tg.group(-100123, "Table")
    async with Bot(tg.token, base_url=tg.base_url, request=AiohttpRequest()) as bot:
        sent = await bot.send_document(
            group.id, document=b'{"deal": 1}', filename="deal-1.json", caption="<i>Deal</i>",
            parse_mode="HTML",
        )  # fmt: skip
    [document] = tg.documents(group)
    assert (document.file_name, document.content) == ("deal-1.json", b'{"deal": 1}')
    assert sent.caption == "Deal"
    assert tg.errors == []


async def test_multipart_on_the_wire(server: Recorder, request_: AiohttpRequest) -> None:
    data = _data(chat_id=5, caption="log", document=InputFile(b"\x00\x01data", filename="a.bin"))
    status, _ = await request_.do_request(server.url("sendDocument"), "POST", data)
    assert status == 200
    [seen] = server.seen
    assert seen.content_type == "multipart/form-data"
    assert (seen.form["chat_id"], seen.form["caption"]) == ("5", "log")
    filename, content, mimetype = seen.form["document"]
    assert (filename, content, mimetype) == ("a.bin", b"\x00\x01data", "application/octet-stream")


async def test_long_poll_waits_longer_than_the_read_timeout(tg: FakeTelegram) -> None:
    """PTB adds getUpdates' `timeout` to the request's read timeout: a 1.5 s poll on a 0.5 s
    read timeout is not a TimedOut, and an update arriving meanwhile ends it at once."""
    alice = tg.user(101, "Alice")
    polling = AiohttpRequest(connection_pool_size=1, read_timeout=0.5)
    async with Bot(
        tg.token, base_url=tg.base_url, request=AiohttpRequest(), get_updates_request=polling
    ) as bot:
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await bot.get_updates(timeout=1.5) == ()
        assert loop.time() - started >= 1.4

        async def later() -> None:
            await asyncio.sleep(0.3)
            await alice.send(alice.dm, "/start")

        sender = asyncio.create_task(later())
        started = loop.time()
        updates = await bot.get_updates(timeout=10)
        await sender
        assert loop.time() - started < 5
        assert [u.message.text for u in updates if u.message] == ["/start"]


# ---- failures ----


async def test_read_timeout_is_timed_out(server: Recorder) -> None:
    async with AiohttpRequest(read_timeout=0.2) as request:
        with pytest.raises(TimedOut) as caught:
            await request.do_request(server.url("stall"), "POST", _data(x=1))
        # a timeout passed with the call wins over the default
        server.stall = 0.4
        status, _ = await request.do_request(
            server.url("stall"), "POST", _data(x=1), read_timeout=2
        )
        assert status == 200
    _assert_token_hidden(caught.value, TOKEN)


async def test_refused_connection_is_network_error() -> None:
    url = f"http://127.0.0.1:{_free_port()}/bot{TOKEN}/getMe"
    async with AiohttpRequest() as request:
        with pytest.raises(NetworkError) as caught:
            await request.do_request(url, "POST", _data())
    assert not isinstance(caught.value, TimedOut)
    assert "aiohttp.ClientConnectorError" in str(caught.value)
    assert isinstance(caught.value.__cause__, aiohttp.ClientConnectorError)  # the real one: clean
    _assert_token_hidden(caught.value, TOKEN)


async def test_exhausted_pool_is_timed_out_with_the_pool_message(server: Recorder) -> None:
    async with AiohttpRequest(connection_pool_size=1, pool_timeout=0.2, connect_timeout=0.1) as r:
        first = asyncio.create_task(r.do_request(server.url("stall"), "POST", _data()))
        await asyncio.sleep(0.1)
        with pytest.raises(TimedOut, match="Pool timeout") as caught:
            await r.do_request(server.url("getMe"), "POST", _data())
        assert (await first)[0] == 200
    # aiohttp's own exception names the URL: the chain holds a redacted stand-in instead
    _assert_token_hidden(caught.value, TOKEN)
    assert "<redacted>" in str(caught.value.__cause__)


@pytest.mark.parametrize("token", [TOKEN, ODD_TOKEN])
async def test_the_token_never_shows_in_errors(server: Recorder, token: str) -> None:
    """aiohttp names the URL in some exceptions (a malformed URL, a connect timeout); what
    reaches python-telegram-bot, its chain and its traceback never show the token."""
    raised: list[BaseException] = []
    async with AiohttpRequest(connection_pool_size=1, pool_timeout=0.1, connect_timeout=0.1) as r:
        for url in (
            f"http://127.0.0.1:99999/bot{token}/getMe",  # port out of range: yarl refuses the URL
            f"http://[::1/bot{token}/getMe",  # unparsable
            f"ftp://127.0.0.1/bot{token}/getMe",  # not HTTP
            f"http://127.0.0.1:{_free_port()}/bot{token}/getMe",
        ):
            with pytest.raises(NetworkError) as caught:
                await r.do_request(url, "POST", _data(chat_id=1))
            raised.append(caught.value)
        first = asyncio.create_task(r.do_request(server.url("stall", token), "POST", _data()))
        await asyncio.sleep(0.05)
        with pytest.raises(TimedOut) as caught:
            await r.do_request(server.url("getMe", token), "POST", _data())
        raised.append(caught.value)
        await first
    for exc in raised:
        _assert_token_hidden(exc, token)
    # and as a bot method sees it, through python-telegram-bot's BaseRequest.post
    bot = Bot(token, base_url=f"http://127.0.0.1:{_free_port()}/bot", request=AiohttpRequest())
    with pytest.raises(NetworkError) as caught:
        async with bot:
            pass
    _assert_token_hidden(caught.value, token)


# ---- life cycle, timeouts, proxies ----


async def test_initialize_shutdown_initialize(server: Recorder) -> None:
    request = AiohttpRequest()
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(server.url("getMe"), "POST", _data())
    for _ in range(2):
        await request.initialize()
        await request.initialize()  # a second call keeps the session
        assert (await request.do_request(server.url("getMe"), "POST", _data()))[0] == 200
        await request.shutdown()
        await request.shutdown()  # and a second shutdown is harmless
        with pytest.raises(RuntimeError, match="not initialized"):
            await request.do_request(server.url("getMe"), "POST", None)
    assert len(server.seen) == 2


async def test_bot_initialize_shutdown_initialize(tg: FakeTelegram) -> None:
    """PTB's Bot re-initializes its request objects after a shutdown."""
    bot = Bot(tg.token, base_url=tg.base_url, request=AiohttpRequest())
    for _ in range(2):
        await bot.initialize()
        assert (await bot.get_me()).username == "frapbot"
        await bot.shutdown()


def test_timeouts_map_onto_aiohttp() -> None:
    plain = _client_timeout(1.0, 5.0, 5.0, 5.0, False)
    assert (plain.total, plain.connect, plain.sock_connect, plain.sock_read) == (None, 6, 5, 5)
    upload = _client_timeout(1.0, 5.0, 20.0, 5.0, True)
    assert (upload.total, upload.connect, upload.sock_connect, upload.sock_read) == (31, 6, 5, 5)
    unbounded = _client_timeout(None, 5.0, None, None, True)
    assert (unbounded.total, unbounded.connect, unbounded.sock_read) == (None, None, None)


async def test_uploads_get_the_media_write_timeout(
    server: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[Any, ...]] = []

    def spy(*args: Any) -> aiohttp.ClientTimeout:
        asked.append(args)
        return _client_timeout(*args)

    monkeypatch.setattr(bot_http, "_client_timeout", spy)
    async with AiohttpRequest(write_timeout=3, media_write_timeout=30) as request:
        await request.do_request(server.url("sendMessage"), "POST", _data(text="x"))
        upload = _data(document=InputFile(b"x", filename="x"))
        await request.do_request(server.url("sendDocument"), "POST", upload)
        await request.do_request(server.url("sendDocument"), "POST", upload, write_timeout=7)
    assert [(write, files) for _, _, write, _, files in asked] == [
        (3, False),
        (30, True),
        (7, True),
    ]


def test_proxy_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    api = URL(f"https://api.telegram.org/bot{TOKEN}/getMe")
    assert _env_proxy(api) is None
    monkeypatch.setenv("HTTPS_PROXY", "http://user:pa55@proxy.example:3128")
    assert _env_proxy(api) == URL("http://user:pa55@proxy.example:3128")
    assert _env_proxy(URL("http://api.telegram.org/x")) is None  # only HTTPS_PROXY is set
    monkeypatch.setenv("ALL_PROXY", "socks5://proxy.example:1080")  # not for aiohttp
    assert _env_proxy(URL("http://api.telegram.org/x")) is None
    monkeypatch.setenv("ALL_PROXY", "http://proxy.example:8080")
    assert _env_proxy(URL("http://api.telegram.org/x")) == URL("http://proxy.example:8080")
    monkeypatch.setenv("NO_PROXY", "telegram.org")
    assert _env_proxy(api) is None


async def test_requests_go_through_the_proxy_in_the_environment(
    server: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HTTP_PROXY is honoured: the recording server plays the proxy for a host that does not
    exist (a plain-HTTP proxy gets the absolute URL in the request line)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    proxy = server.base.replace("http://", "http://user:pa55@")
    monkeypatch.setenv("HTTP_PROXY", proxy)
    async with AiohttpRequest() as request:
        url = f"http://api.telegram.invalid/bot{TOKEN}/getMe"
        assert (await request.do_request(url, "POST", _data()))[0] == 200
    [seen] = server.seen
    assert seen.path == f"/bot{TOKEN}/getMe"
    assert seen.headers["Host"] == "api.telegram.invalid"
    assert seen.headers["Proxy-Authorization"] == "Basic " + base64.b64encode(b"user:pa55").decode()


async def test_the_environment_is_read_once_per_host_until_re_initialized(
    server: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked_up: list[str] = []

    def spy(url: URL) -> URL | None:
        looked_up.append(str(url.host))
        return None

    monkeypatch.setattr(bot_http, "_env_proxy", spy)
    request = AiohttpRequest()
    for _ in range(2):
        async with request:
            for method in ("getMe", "sendMessage", "getMe"):
                await request.do_request(server.url(method), "POST", _data())
    assert looked_up == ["127.0.0.1", "127.0.0.1"]
