"""The Mini App's server at its edges: what a stranger, a proxy or Telegram itself may send to
PORT — large updates, the same update twice, malformed bodies and requests, table ids no table
has — answered with a 4xx and at most a line of log, never a 500 or a traceback; and a member's
page that follows his membership as the group's updates tell it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
from telegram import Update

from bot.callbacks import parse_id
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
    webhook_overrides,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser
from tests.fakebot.webhook import SECRET_HEADER
from tests.webapp_helpers import PATH, auth, init_data, open_socket, webapp_overrides


def _shared(tg: FakeTelegram) -> dict[str, Any]:
    """Webhook and Mini App on one port."""
    hook = webhook_overrides(tg)
    return {**hook, "webapp_url": f"http://127.0.0.1:{hook['port']}{PATH}"}


@asynccontextmanager
async def served(
    tg: FakeTelegram, tmp_path: Path, group: FakeChat, users: list[FakeUser], **settings: Any
) -> AsyncIterator[tuple[RunningBot, aiohttp.ClientSession, int]]:
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", seed=3, **settings) as bot,
        aiohttp.ClientSession() as http,
    ):
        await open_table(bot, group, users)
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        yield bot, http, table.table_id


def _base(bot: RunningBot) -> str:
    return str(bot.app.bot_data["web"].settings.webapp_url)


async def _status(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> int:
    async with http.get(url, headers=headers) as response:
        await response.read()
        return response.status


# ---- table ids --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1), ("9223372036854775807", 2**63 - 1), ("9223372036854775808", None),
        ("99999999999999999999", None), ("²", None), ("١٢", None), ("", None), ("-1", None),
        ("+1", None), (" 1", None), ("1_000", None),
    ],
)  # fmt: skip
def test_a_table_id_is_ascii_digits_within_sqlites_integers(text: str, value: int | None) -> None:
    assert parse_id(text) == value


async def test_a_table_id_no_table_can_have_is_a_4xx(tg: FakeTelegram, tmp_path: Path) -> None:
    """A signed start_param of 20 digits, a superscript digit, an unsigned ?table= of 25
    digits: 400 or 404, never SQLite's OverflowError as a 500."""
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, **webapp_overrides()) as (bot, http, _):
        view = _base(bot) + "/api/view"
        for start in ("99999999999999999999", "²", "9223372036854775808"):
            headers = {"Authorization": "tma " + init_data(tg.token, users[0], start)}
            assert await _status(http, view, headers) in (400, 404), start
        unsigned = {"Authorization": "tma " + init_data(tg.token, users[0])}
        for table in ("9999999999999999999999999", "²", "1e3"):
            assert await _status(http, f"{view}?table={quote(table)}", unsigned) in (400, 404)
        assert await _status(http, view, auth(tg, users[0], 1)) == 200  # a real one still opens


# ---- Telegram's updates on the page's port ----------------------------------------------------


def _recorded(tg: FakeTelegram) -> list[dict[str, Any]]:
    """Every update the fake sends from now on, as it sends it (to post one again)."""
    sent: list[dict[str, Any]] = []
    push = tg.updates.push

    def recording(kind: str, payload: dict[str, Any]) -> int:
        update_id = push(kind, payload)
        sent.append({"update_id": update_id, kind: payload})
        return update_id

    tg.updates.push = recording  # type: ignore[method-assign]
    return sent


async def _post_update(http: aiohttp.ClientSession, settings: dict[str, Any], body: bytes) -> int:
    headers = {SECRET_HEADER: settings["webhook_secret"], "Content-Type": "application/json"}
    async with http.post(settings["webhook_url"], data=body, headers=headers) as response:
        await response.read()
        return response.status


async def test_an_update_larger_than_a_press_is_taken(tg: FakeTelegram, tmp_path: Path) -> None:
    """~1,400 Cyrillic letters in a group are over 8 KB of JSON as Telegram escapes them: the
    webhook takes it (no 413 for Telegram to retry, the updates behind it waiting), while a
    press of the page keeps its 4 KB limit."""
    group, users = make_players(tg, 3)
    settings = _shared(tg)
    async with served(tg, tmp_path, group, users, **settings) as (bot, http, table_id):
        sent = _recorded(tg)
        await users[1].send(group, "/pot " + "Щ" * 1400)  # a command: privacy mode shows it
        await users[2].send(group, "/pot")
        await bot.idle()
        assert len(json.dumps(sent[0])) > 8000
        assert [status for _, status in tg.webhook.deliveries[-2:]] == [200, 200]
        assert tg.updates.unconfirmed == 0
        assert any(m.text.startswith("💰") for m in tg.messages(group) if m.from_bot)
        press = _base(bot) + "/api/press"
        headers = auth(tg, users[0], table_id)
        for size, status in ((10_000, 413), (3_000, 400), (2_000_000, 413)):
            body = json.dumps({"press": "x" * size}).encode()
            async with http.post(press, data=body, headers=headers) as response:
                assert response.status == status, size


@pytest.mark.parametrize("mode", ["shared", "polling"])
async def test_an_update_sent_twice_is_handled_once(
    tg: FakeTelegram, tmp_path: Path, mode: str
) -> None:
    """Telegram sends an update again when it thinks it was not received: the second is
    skipped (one reply), by the webhook on the page's port as by polling."""
    (alice,) = make_players(tg, 1)[1]
    settings = _shared(tg) if mode == "shared" else {}
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", **settings) as bot,
        aiohttp.ClientSession() as http,
    ):
        sent = _recorded(tg)
        await alice.start()
        await bot.idle()
        replies = len(bot_messages(tg, alice))
        assert replies >= 1 and len(sent) == 1
        if mode == "shared":
            assert await _post_update(http, settings, json.dumps(sent[0]).encode()) == 200
        else:
            await bot.app.update_queue.put(Update.de_json(sent[0], bot.app.bot))
        await bot.idle()
        assert len(bot_messages(tg, alice)) == replies


@pytest.mark.parametrize(
    "body",
    [b"null", b"[1]", b'"x"', b'{"message": "boom"}', b'{"update_id": 7, "message": "boom"}',
     b'{"update_id": "7"}', b"{", b"\xff\xfe", b""],
)  # fmt: skip
async def test_a_malformed_update_is_a_400_and_one_line(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    settings = _shared(tg)
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", **settings) as bot,
        aiohttp.ClientSession() as http,
    ):
        await bot.idle()
        caplog.clear()
        assert await _post_update(http, settings, body) == 400
        await bot.idle()
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) <= 1 and not any(r.exc_info for r in caplog.records), caplog.text


# ---- malformed and slow requests --------------------------------------------------------------

MALFORMED = {
    "long-line": b"GET /app/" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "garbage": b"GET / HTTP/1.1 junk junk\r\nHost: x\r\n\r\n",
    "length-and-chunked": (
        b"POST /app/api/press HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    ),
    "200-headers": b"GET /app HTTP/1.1\r\nHost: x\r\n"
    + b"".join(b"X-H%d: v\r\n" % i for i in range(200))
    + b"\r\n",
    "long-header": b"GET /app HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 20_000 + b"\r\n\r\n",
}


async def _raw(port: int, request: bytes) -> bytes:
    """Send `request` as is on a new connection; the answer (until the server closes)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 5)
    except ConnectionError:
        return b""
    finally:
        writer.close()


async def test_a_malformed_request_is_a_400_and_a_line(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = webapp_overrides()
    async with running_bot(tg, tmp_path / "db.sqlite3", **settings) as bot:
        await bot.idle()
        caplog.clear()
        caplog.set_level(logging.INFO)
        for name, request in MALFORMED.items():
            answer = await _raw(settings["port"], request)
            assert answer == b"" or answer[:10] in (b"HTTP/1.0 4", b"HTTP/1.1 4"), (
                name,
                answer[:80],
            )
        await asyncio.sleep(0.1)
    lines = [r for r in caplog.records if r.name.startswith("aiohttp")]
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert len(lines) <= len(MALFORMED), caplog.text
    assert all(len(r.getMessage().splitlines()) == 1 for r in caplog.records)


async def test_slow_headers_are_cut_off_and_a_socket_is_not(
    tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty connections that send a header line every 0.2 s never finish a request: each is
    closed once HEADER_TIMEOUT (here 1 s) has passed; a page's WebSocket, open longer than
    that, still gets its pushes."""
    monkeypatch.setattr("bot.web.protocol.HEADER_TIMEOUT", 1.0, raising=False)
    group, users = make_players(tg, 3)
    settings = webapp_overrides()
    async with served(tg, tmp_path, group, users, **settings) as (bot, http, table_id):
        socket = await open_socket(http, _base(bot), tg, users[1], table_id)
        assert (await socket.receive_json(timeout=5))["status"] == "playing"

        async def slow() -> float:
            began = time.monotonic()
            reader, writer = await asyncio.open_connection("127.0.0.1", settings["port"])
            try:
                writer.write(b"GET /app HTTP/1.1\r\nHost: x\r\n")
                for i in range(25):  # 5 s at most
                    await asyncio.sleep(0.2)
                    if reader.at_eof():
                        break
                    writer.write(b"X-Slow-%d: v\r\n" % i)
                    await writer.drain()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(reader.read(1), 0.01)
            except ConnectionError:
                pass
            finally:
                writer.close()
            return time.monotonic() - began

        lasted = await asyncio.gather(*(slow() for _ in range(20)))
        assert max(lasted) < 4.0, sorted(lasted)
        mover = next(u for u in users if moves_now(control_message(tg, u)))
        message = control_message(tg, mover)
        assert message is not None
        await mover.press(message, data=moves_now(message)[0])
        await bot.idle()
        assert (await socket.receive_json(timeout=5))["step"] == 1
        await socket.close()


# ---- membership -------------------------------------------------------------------------------


@pytest.mark.parametrize("admin", [False, True], ids=["service-messages", "chat-member"])
async def test_leaving_the_group_ends_the_page_and_joining_grants_it(
    tg: FakeTelegram, tmp_path: Path, admin: bool
) -> None:
    """A member not seated watches the table; he leaves the group: his open socket is closed
    and a new look is refused at once (not when the cached membership expires); he joins again:
    he may look at once."""
    group, users = make_players(tg, 4)
    watcher = users.pop()
    if admin:  # an admin bot is also told by chat_member updates
        group.bot_status = "administrator"
    async with served(tg, tmp_path, group, users, **webapp_overrides()) as (bot, http, table_id):
        view = _base(bot) + "/api/view"
        assert await _status(http, view, auth(tg, watcher, table_id)) == 200
        socket = await open_socket(http, _base(bot), tg, watcher, table_id)
        assert (await socket.receive_json(timeout=5))["seat"] is None
        seated = await open_socket(http, _base(bot), tg, users[1], table_id)
        await seated.receive_json(timeout=5)
        tg.member_leaves(group, watcher)
        await bot.idle()
        closed = await socket.receive(timeout=5)
        assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), closed
        assert await _status(http, view, auth(tg, watcher, table_id)) == 403
        tg.member_joins(group, watcher)
        await bot.idle()
        assert await _status(http, view, auth(tg, watcher, table_id)) == 200
        assert not seated.closed  # the others' pages stay
        await seated.close()
