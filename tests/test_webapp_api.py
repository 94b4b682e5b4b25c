"""The Mini App's API and WebSocket, through aiohttp's client against the running bot:
initData on every call, the seat only from the verified user, the chat control message's
buttons with the same refusals, bad input a clear 4xx that changes nothing, the headers."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.web.server import STATIC
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    play_deal,
    running_bot,
    webhook_overrides,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser
from tests.webapp_helpers import PATH, auth, init_data, open_socket, page_buttons, webapp_overrides

# the page's ES modules, by area (no build step): the entry and what it imports
MODULES = (
    "app.js", "shared.js", "telegram.js", "cards.js", "table.js", "hand.js", "bidding.js",
    "lobby.js", "result.js", "review.js", "sheet.js", "connection.js",
)  # fmt: skip
OTHER_TOKEN = "654321:AAAnotherBotsToken_0123456789abcdefXYZ"


async def _table_id(bot: RunningBot) -> int:
    table = await bot.service.storage.tables.open_table(GROUP_ID)
    assert table is not None
    return table.table_id


def _base(bot: RunningBot) -> str:
    return bot.app.bot_data["web"].settings.webapp_url


@asynccontextmanager
async def served(
    tg: FakeTelegram, tmp_path: Path, group: FakeChat, users: list[FakeUser], *, seed: int
) -> AsyncIterator[tuple[RunningBot, aiohttp.ClientSession, int]]:
    """A bot serving the Mini App, its table opened and started by `users`, and an HTTP client."""
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", seed=seed, **webapp_overrides()) as bot,
        aiohttp.ClientSession() as http,
    ):
        await open_table(bot, group, users)
        yield bot, http, await _table_id(bot)


async def _get(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> tuple[int, Any]:
    async with http.get(url, headers=headers) as response:
        return response.status, await response.json()


async def _press(
    http: aiohttp.ClientSession, bot: RunningBot, headers: dict[str, str], body: Any
) -> tuple[int, Any]:
    async with http.post(_base(bot) + "/api/press", headers=headers, json=body) as response:
        return response.status, await response.json()


async def test_the_page_and_its_headers(tg: FakeTelegram, tmp_path: Path) -> None:
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot,
        aiohttp.ClientSession() as http,
    ):
        for url in (_base(bot), _base(bot) + "/"):
            async with http.get(url) as response:
                assert response.status == 200
                page = await response.text()
                csp = response.headers["Content-Security-Policy"]
                assert "Set-Cookie" not in response.headers
        # the entry module from WEBAPP_URL's path; it imports the others beside it
        assert f'<script src="{PATH}/static/app.js" type="module">' in page
        assert "script-src 'self' https://telegram.org/js/telegram-web-app.js;" in csp
        assert "default-src 'none'" in csp and "unsafe" not in csp
        assert sorted(p.name for p in STATIC.glob("*.js")) == sorted(MODULES)
        for name in MODULES:
            async with http.get(_base(bot) + "/static/" + name) as response:
                assert response.status == 200, name
                # a module runs only if served as JavaScript (the page sends nosniff)
                assert response.content_type == "text/javascript", name
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                text = await response.text()
                assert "innerHTML" not in text and "insertAdjacentHTML" not in text  # as text
                imported = re.findall(r'from "\./([a-z]+\.js)"', text)
                assert set(imported) <= set(MODULES), (name, imported)
        async with http.get(_base(bot) + "/static/shared.js") as response:
            assert "textContent" in await response.text()  # el(): every text goes in as text
        async with http.get(_base(bot) + "/static/app.css") as response:
            assert response.status == 200 and response.content_type == "text/css"
        for name in ("..%2Fserver.py", ".hidden", "nothing.js"):
            async with http.get(_base(bot) + "/static/" + name) as response:
                assert response.status == 404


async def test_the_page_served_at_a_domains_root(tg: FakeTelegram, tmp_path: Path) -> None:
    """WEBAPP_URL with no path (`https://table.example.com`): the page at `/`, its script and
    API under `/`."""
    web = webapp_overrides()
    web["webapp_url"] = web["webapp_url"].removesuffix(PATH)
    group, users = make_players(tg, 2)
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", **web) as bot,
        aiohttp.ClientSession() as http,
    ):
        root = web["webapp_url"]
        async with http.get(root + "/") as response:
            assert response.status == 200
            assert '<script src="/static/app.js" type="module">' in await response.text()
        async with http.get(root + "/static/app.js") as response:
            assert response.status == 200
        await users[0].send(group, "/newgame frap")
        await bot.idle()
        table_id = await _table_id(bot)
        status, view = await _get(http, root + "/api/view", auth(tg, users[0], table_id))
        assert status == 200 and view["table"] == table_id


async def test_a_seat_sees_its_own_hand_and_presses_its_buttons(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        url = _base(bot) + "/api/view"
        mover = next(u for u in users if moves_now(control_message(tg, u)))
        message = control_message(tg, mover)
        assert message is not None
        status, view = await _get(http, url, auth(tg, mover, table_id))
        assert status == 200 and view["seat"] is not None and view["status"] == "playing"
        deal = view["deal"]
        assert sorted(page_buttons(deal)) == sorted(action_buttons(message))  # label and data
        # a player who is not to move: his buttons are his chat message's (none to act)
        waiting = next(u for u in users if u is not mover)
        status, other = await _get(http, url, auth(tg, waiting, table_id))
        assert status == 200 and other["seat"] != view["seat"]
        # his press of the mover's button is refused as in the chat: not his move
        data = moves_now(message)[0]
        before = await bot.service.storage.tables.current_deal(table_id)
        status, body = await _press(http, bot, auth(tg, waiting, table_id), {"press": data})
        assert status == 409 and body["error"]
        # the mover's press goes through the service: the deal moves one step
        status, body = await _press(http, bot, auth(tg, mover, table_id), {"press": data})
        assert status == 200, body
        await bot.idle()
        after = await bot.service.storage.tables.current_deal(table_id)
        assert before is not None and after is not None
        assert len(after.record["actions"]) > len(before.record["actions"])
        # the same button again is stale, as a chat button pressed twice
        status, body = await _press(http, bot, auth(tg, mover, table_id), {"press": data})
        assert status == 409 and body["error"]


@pytest.mark.parametrize(
    "make",
    [
        lambda tg, u, t: {},
        lambda tg, u, t: {"Authorization": "tma "},
        lambda tg, u, t: {"Authorization": "tma " + init_data(OTHER_TOKEN, u, str(t))},
        lambda tg, u, t: auth(tg, u, t, auth_date=time.time() - 2 * 86_400),
        lambda tg, u, t: {"Authorization": "tma " + init_data(tg.token, u, str(t))[:-2] + "00"},
    ],
    ids=["missing", "empty", "other-bot", "stale", "forged"],
)
async def test_bad_initdata_is_401_and_changes_nothing(
    tg: FakeTelegram, tmp_path: Path, make: Any
) -> None:
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        mover = next(u for u in users if moves_now(control_message(tg, u)))
        data = moves_now(control_message(tg, mover))[0]
        headers = make(tg, mover, table_id)
        before = await bot.service.storage.tables.current_deal(table_id)
        status, body = await _get(http, _base(bot) + "/api/view", headers)
        assert status == 401 and body["error"]
        status, body = await _press(http, bot, headers, {"press": data})
        assert status == 401 and body["error"]
        async with http.get(_base(bot) + "/api/sheet", headers=headers) as response:
            assert response.status == 401
        socket = await http.ws_connect(_base(bot) + "/api/ws")
        await socket.send_json({"init": headers.get("Authorization", "tma ")[4:]})
        closed = await socket.receive(timeout=5)  # refused: nothing pushed, a reason
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 1008, closed
        assert closed.extra in ("bad_init", "too_old")
        await bot.idle()
        after = await bot.service.storage.tables.current_deal(table_id)
        assert before is not None and after is not None and after.record == before.record


async def test_bad_input_is_a_clear_4xx_and_changes_nothing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    stranger = tg.user(77, "Mallory", language_code="en")  # not in the group
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        mover = next(u for u in users if moves_now(control_message(tg, u)))
        before = await bot.service.storage.tables.current_deal(table_id)
        headers = auth(tg, mover, table_id)
        other_lobby = f"j:{table_id + 1}"  # another table's button
        for body in ({}, {"press": 5}, {"press": "garbage"}, {"press": other_lobby}, "[]"):
            status, answer = await _press(http, bot, headers, body)
            assert status == 400 and answer["error"], body
        other_table = f"a:{table_id + 1}:1:0:P"
        status, answer = await _press(http, bot, headers, {"press": other_table})
        assert status == 400 and answer["error"] == "bad_press" and answer["text"]
        async with http.post(
            _base(bot) + "/api/press", headers=headers, data=b"{" + b"x" * 10_000
        ) as response:
            assert response.status in (400, 413)
        # no table named, an unknown one, a stranger's look at the group's table
        no_table = {"Authorization": "tma " + init_data(tg.token, mover)}
        assert (await _get(http, _base(bot) + "/api/view", no_table))[0] == 400
        assert (await _get(http, _base(bot) + "/api/view", auth(tg, mover, 999)))[0] == 404
        status, answer = await _get(http, _base(bot) + "/api/view", auth(tg, stranger, table_id))
        assert status == 403 and answer["error"] == "not_member"
        assert answer["lang"] == "en" and "«Friends»" in answer["text"]  # what to do, his words
        # an unsigned ?table= counts only where the user is seated
        url = _base(bot) + f"/api/view?table={table_id}"
        assert (await _get(http, url, no_table))[0] == 200
        stranger_unsigned = {"Authorization": "tma " + init_data(tg.token, stranger)}
        assert (await _get(http, url, stranger_unsigned))[0] == 403
        await bot.idle()
        after = await bot.service.storage.tables.current_deal(table_id)
        assert before is not None and after is not None and after.record == before.record


async def test_a_group_member_not_seated_sees_the_public_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 4)
    watcher = users.pop()  # in the group, not at the table
    async with served(tg, tmp_path, group, users, seed=4) as (bot, http, table_id):
        status, view = await _get(http, _base(bot) + "/api/view", auth(tg, watcher, table_id))
        assert status == 200 and view["seat"] is None
        assert view["deal"]["hand"] is None and view["deal"]["choices"] == []
        assert view["deal"]["question"] is None
        status, body = await _press(
            http, bot, auth(tg, watcher, table_id), {"press": f"a:{table_id}:1:0:P"}
        )
        assert status == 409 and body["error"]  # not a player: the chat's refusal


async def test_a_user_over_the_rate_limit_gets_429(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        url = _base(bot) + "/api/view"
        statuses = [(await _get(http, url, auth(tg, users[0], table_id)))[0] for _ in range(25)]
        assert statuses[:20] == [200] * 20 and set(statuses[20:]) == {429}
        assert (await _get(http, url, auth(tg, users[1], table_id)))[0] == 200  # per user


async def test_the_socket_pushes_each_change_and_the_view_on_reconnect(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        sockets = [await open_socket(http, _base(bot), tg, u, table_id) for u in users]
        first = [await ws.receive_json(timeout=5) for ws in sockets]
        assert all(v["status"] == "playing" for v in first)
        rng = random.Random(3)
        mover = next(u for u in users if moves_now(control_message(tg, u)))
        message = control_message(tg, mover)
        assert message is not None
        await mover.press(message, data=rng.choice(moves_now(message)))  # a chat button
        await bot.idle()
        pushed = [await ws.receive_json(timeout=5) for ws in sockets]
        assert all(p != f for p, f in zip(pushed, first, strict=True))
        assert all("words" in f and "words" not in p for f, p in zip(first, pushed, strict=True))
        await sockets[0].close()
        again = await open_socket(http, _base(bot), tg, users[0], table_id)
        reopened = await again.receive_json(timeout=5)  # the view as pushed, the words again
        assert reopened.pop("words") == first[0]["words"]
        assert reopened.pop("made") > pushed[0].pop("made") and reopened == pushed[0]  # newer
        await again.close()
        for ws in sockets[1:]:
            await ws.close()


async def test_a_page_ends_on_the_latest_view_when_pushes_overlap(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Two moves in a row, the first's push to one page slow to leave (a large view compressed
    off the event loop, a full socket buffer): the second's push overtakes it, and the page must
    still end on the later view, not be left on the older one."""
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        socket = await open_socket(http, _base(bot), tg, users[0], table_id)
        await socket.receive_json(timeout=5)
        (page,) = bot.app.bot_data["web"].viewers._open[table_id]
        write, held, slow = page.socket.send_str, asyncio.Event(), asyncio.Event()

        async def send_str(text: str, compress: int | None = None) -> None:
            if not held.is_set():  # the first push's message, until let go
                held.set()
                await slow.wait()
            await write(text, compress)

        page.socket.send_str = send_str  # type: ignore[method-assign]
        rng = random.Random(3)
        for _ in range(2):
            mover = next(u for u in users if moves_now(control_message(tg, u)))
            message = control_message(tg, mover)
            assert message is not None
            await mover.press(message, data=rng.choice(moves_now(message)))
            await bot.idle()
            await asyncio.wait_for(held.wait(), 5)
        await asyncio.sleep(0.2)  # the second push made and on its way
        slow.set()
        views = [await socket.receive_json(timeout=5)]
        with contextlib.suppress(TimeoutError):
            while True:
                views.append(await socket.receive_json(timeout=1))
        live = bot.service.find(table_id)
        assert live is not None and live.step == 2
        assert [v["step"] for v in views][-1] == live.step
        await socket.close()


async def test_the_webhook_and_the_page_share_one_port(tg: FakeTelegram, tmp_path: Path) -> None:
    """Webhook mode with the Mini App: Telegram's updates and the page on the one PORT; a post
    without the webhook's secret is refused as python-telegram-bot's own server does."""
    group, users = make_players(tg, 3)
    hook = webhook_overrides(tg)
    port = hook["port"]
    overrides = {**hook, "webapp_url": f"http://127.0.0.1:{port}{PATH}"}
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", seed=3, **overrides) as bot,
        aiohttp.ClientSession() as http,
    ):
        [set_call] = tg.calls("setWebhook")
        assert set_call.ok and set_call.params["url"] == hook["webhook_url"]
        await open_table(bot, group, users)  # every update came by the webhook
        assert await play_deal(bot, users, random.Random(3)) > 0
        async with http.get(_base(bot)) as response:
            assert response.status == 200
        async with http.post(hook["webhook_url"], json={"update_id": 1}) as response:
            assert response.status == 403
    assert tg.calls("getUpdates") == []
    assert tg.webhook.deliveries and all(status == 200 for _, status in tg.webhook.deliveries)


async def test_a_time_out_and_a_computers_move_reach_the_page(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A practice table in private (its player's page: user id = the chat's): the computer
    players' moves are pushed like anyone's; the player's own time-out too."""
    _, (alice,) = make_players(tg, 1)
    quick = {"computer_pause_min": 0.0, "computer_pause_max": 0.01, "computer_workers": 1}
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", seed=5, **quick, **webapp_overrides()) as bot,
        aiohttp.ClientSession() as http,
    ):
        await alice.start()
        await alice.send(alice.dm, "/newgame frap")
        await bot.idle()
        lobby = next(m for m in reversed(tg.messages(alice.dm)) if m.from_bot and m.buttons)
        await bot.service.storage.chats.set_chat(alice.id, turn_timeout=1)  # her turn: one second
        await alice.press(lobby, data=next(d for _, d in lobby.buttons if d and d[:2] == "s:"))
        await bot.idle()
        live = bot.service.table_in(alice.id)
        assert live is not None
        socket = await open_socket(http, _base(bot), tg, alice, live.row.table_id)

        def mover(view: dict[str, Any]) -> str | None:
            mover = (view["deal"] or {}).get("mover")
            return None if mover is None else "you" if mover == view["seat"] else "computer"

        moved: dict[str, int] = {"you": 0, "computer": 0}
        before = await socket.receive_json(timeout=10)
        for _ in range(60):  # she never presses: the computers play, her time runs out
            view = await socket.receive_json(timeout=10)
            who = mover(before)
            if who is not None and view["step"] > before["step"]:
                moved[who] += 1
            before = view
            if min(moved.values()) >= 2:
                break
        assert min(moved.values()) >= 2, moved  # pushed after her time-outs and their moves
        await socket.close()
        assert live.row.strikes or live.row.away  # her moves were made for her (time-outs)


async def test_a_stopped_table_shows_closed_on_its_pages(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, seed=3) as (bot, http, table_id):
        socket = await open_socket(http, _base(bot), tg, users[1], table_id)
        assert (await socket.receive_json(timeout=5))["status"] == "playing"
        await users[0].send(group, "/stopgame")  # the creator closes the table
        await bot.idle()
        assert (await socket.receive_json(timeout=5))["status"] == "closed"
        status, view = await _get(http, _base(bot) + "/api/view", auth(tg, users[1], table_id))
        assert status == 200 and view["status"] == "closed"  # a seat of it may still look
        status, body = await _press(
            http, bot, auth(tg, users[1], table_id), {"press": f"a:{table_id}:1:0:P"}
        )
        assert status == 409 and body["error"]
        await socket.close()


async def test_p8_the_review_on_the_page_and_its_refusals(tg: FakeTelegram, tmp_path: Path) -> None:
    """A finished deal's review through the page's API: the players of the deal and the members
    of its chat get it (the defender's costly A♥ marked with its cost and the best card); bad
    input and a stranger a clear 4xx that works out and keeps nothing. Beside the result, the
    page is told the deal's id and every hand as dealt with the discard (only once it is over)."""
    from tests.test_bot_review import _preferans

    async with (
        running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot,
        aiohttp.ClientSession() as http,
    ):
        users = await _preferans(bot, "en")
        table_id = await _table_id(bot)
        deal = await bot.service.storage.history.last_finished(table_id)
        assert deal is not None
        stranger = tg.user(77, "Mallory", language_code="en")  # not in the group
        url = _base(bot) + "/api/review"
        headers = auth(tg, users[1], table_id)
        for query in ("", "?deal=", "?deal=abc", "?deal=-1", "?deal=1e3", "?deal=" + "9" * 30):
            status, answer = await _get(http, url + query, headers)
            assert status == 400 and answer["error"] == "no_deal" and answer["text"], query
        assert (await _get(http, url + f"?deal={deal.deal_id + 50}", headers))[0] == 404
        status, answer = await _get(http, url + f"?deal={deal.deal_id}", auth(tg, stranger, 1))
        assert status == 403 and answer["error"] == "review" and answer["lang"] == "en"
        unsigned = {"Authorization": "tma garbage"}
        assert (await _get(http, url + f"?deal={deal.deal_id}", unsigned))[0] == 401
        assert (
            await bot.service.storage.history.deal_review(deal.deal_id) is None
        )  # nothing worked out
        # a member of the group who did not play sees it
        member = tg.user(78, "Dora", language_code="en")
        tg.world.chats[GROUP_ID].add(member)
        for who in (users[1], member):
            status, answer = await _get(http, url + f"?deal={deal.deal_id}", auth(tg, who, 1))
            assert status == 200, answer
        costly = next(s for s in answer["steps"] if s["card"] == "AH")
        assert costly["cost"] == 1 and costly["trick"] == 1 and costly["best"]
        assert "AH" not in costly["best"]
        assert answer["words"]["cost"] == "tricks given away: {n}"
        assert [len(s["cards"]) for s in answer["hands"]["seats"]] == [10, 10, 10]
        assert len(answer["hands"]["talon"]) == 2
        # beside the result: the deal's id and the hands as dealt, the discard among them
        status, view = await _get(http, _base(bot) + "/api/view", headers)
        assert view["deal"]["review"] == deal.deal_id
        assert [c["code"] for c in view["deal"]["hands"]["discard"]] == ["8C", "TC"]
        # the chat turns the hands off: the result no longer shows them, the review stays
        group = tg.world.chats[GROUP_ID]
        await users[0].send(group, "/settings")
        await bot.idle()
        menu = bot_messages(tg, group)[-1]
        await users[0].press(menu, data=next(d for _, d in menu.buttons if d == "c:hands"))
        await bot.idle()
        status, view = await _get(http, _base(bot) + "/api/view", headers)
        assert view["deal"]["review"] == deal.deal_id and "hands" not in view["deal"]
        assert view["deal"]["result"] is not None
