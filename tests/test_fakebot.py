"""The fake Bot API server works with the real python-telegram-bot Application."""

from __future__ import annotations

import asyncio
import datetime as dtm
from collections.abc import AsyncIterator
from typing import Any, TypeAlias

import aiohttp
import pytest
from aiohttp import web
from telegram import (
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    NetworkError,
    RetryAfter,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from tests.fakebot import FakeClock, FakeTelegram, FakeUser, HtmlError, parse_html, visible_text
from tests.fakebot.html_check import utf16_len
from tests.fakebot.webhook import SECRET_HEADER

App: TypeAlias = "Application[Any, Any, Any, Any, Any, Any]"
GROUP = -100123
KEYBOARD = InlineKeyboardMarkup(
    [
        [
            InlineKeyboardButton("Yes", callback_data="yes"),
            InlineKeyboardButton("No", callback_data="no"),
        ]
    ]
)


# -- a tiny bot -------------------------------------------------------------------------------


async def _record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    context.bot_data.setdefault("received", []).append(update)


async def _echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text("echo: " + " ".join(context.args or []))


async def _start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    payload = " ".join(context.args or []) or "-"
    await update.effective_message.reply_text(
        f"started <b>{payload}</b>", parse_mode=ParseMode.HTML
    )


async def _buttons(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text("Choose:", reply_markup=KEYBOARD)


async def _pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer(f"got {query.data}")
    await query.edit_message_text(f"chosen {query.data}")


async def _heard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(f"heard: {update.effective_message.text}")


def _build_app(tg: FakeTelegram) -> App:
    app = (
        ApplicationBuilder()
        .token(tg.token)
        .base_url(tg.base_url)
        .base_file_url(tg.base_file_url)
        .build()
    )
    app.add_handler(TypeHandler(Update, _record), group=-1)
    app.add_handler(CommandHandler("echo", _echo))
    app.add_handler(CommandHandler("start", _start))
    app.add_handler(CommandHandler("buttons", _buttons))
    app.add_handler(CallbackQueryHandler(_pressed))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, _heard))
    return app


def _received(app: App) -> list[Update]:
    received: list[Update] = app.bot_data.get("received", [])
    return received


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="frapbot") as server:
        yield server
    await asyncio.sleep(0)
    leftovers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert not leftovers, f"tasks left behind: {leftovers}"


@pytest.fixture
async def app(tg: FakeTelegram) -> AsyncIterator[App]:
    application = _build_app(tg)
    await application.initialize()
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0, timeout=1)
    tg.attach(application)
    yield application
    await application.updater.stop()
    await application.stop()
    await application.shutdown()


@pytest.fixture
def alice(tg: FakeTelegram) -> FakeUser:
    return tg.user(101, "Alice", username="alice")


@pytest.fixture
def bob(tg: FakeTelegram) -> FakeUser:
    return tg.user(102, "Bob")


# -- delivery -----------------------------------------------------------------------------


async def test_commands_with_and_without_suffix_reach_the_bot(
    tg: FakeTelegram, app: App, alice: FakeUser
) -> None:
    group = tg.group(GROUP, members=[alice])
    await alice.send(group, "/echo one")
    await tg.wait_idle()
    assert tg.last(group).text == "echo: one"
    await alice.send(group, "/echo@frapbot two")
    await tg.wait_idle()
    assert tg.last(group).text == "echo: two"
    assert tg.last(group).reply_to is not None  # PTB quotes in groups by default
    await alice.send(group, "/echo@otherbot three")
    await tg.wait_idle()
    assert tg.last(group).text == "echo: two"
    texts = [u.message.text for u in _received(app) if u.message]
    assert texts == ["/echo one", "/echo@frapbot two"]
    assert tg.errors == []


async def test_privacy_mode_hides_plain_group_text(
    tg: FakeTelegram, app: App, alice: FakeUser, bob: FakeUser
) -> None:
    group = tg.group(GROUP, members=[alice, bob])
    await alice.send(group, "hello everyone")
    await tg.wait_idle()
    assert _received(app) == []
    await alice.send(group, "/echo x")
    await tg.wait_idle()
    await bob.reply(tg.last(group), "a reply to the bot")
    await alice.send(group, "hey @frapbot look")
    await tg.wait_idle()
    bot_texts = [m.text for m in tg.messages(group) if m.from_bot]
    assert bot_texts == ["echo: x", "heard: a reply to the bot", "heard: hey @frapbot look"]
    await bob.reply(tg.messages(group)[0], "reply to alice is private")
    await tg.wait_idle()
    assert len(_received(app)) == 3


async def test_private_chat_and_open_group_deliver_everything(
    tg: FakeTelegram, app: App, alice: FakeUser
) -> None:
    await alice.send(alice.dm, "just chatting")
    open_group = tg.group(-100777, "Open", privacy=False, members=[alice])
    await alice.send(open_group, "plain text")
    await tg.wait_idle()
    assert tg.last(alice).text == "heard: just chatting"
    assert tg.last(open_group).text == "heard: plain text"


async def test_deep_link_start_payload(tg: FakeTelegram, app: App, alice: FakeUser) -> None:
    assert not alice.started
    message = await alice.start("game42")
    await tg.wait_idle()
    assert alice.started
    reply = tg.last(alice.dm)
    assert reply.text == "started game42"
    assert reply.html == "started <b>game42</b>"
    assert reply.entities == [{"offset": 8, "length": 6, "type": "bold"}]
    update = _received(app)[0]
    assert update.message is not None and update.message.message_id == message.message_id
    assert update.message.entities[0].type == "bot_command"
    assert update.message.chat.type == "private"


# -- buttons ------------------------------------------------------------------------------


async def test_button_round_trip(tg: FakeTelegram, app: App, alice: FakeUser) -> None:
    group = tg.group(GROUP, members=[alice])
    await alice.send(group, "/buttons")
    await tg.wait_idle()
    menu = tg.last(group)
    assert menu.buttons == [("Yes", "yes"), ("No", "no")]
    query_id = await alice.press(menu, text="Yes")
    await tg.wait_idle()
    assert tg.callback_answer(query_id) == {
        "text": "got yes", "show_alert": False, "url": None, "cache_time": None,
    }  # fmt: skip
    assert menu.text == "chosen yes" and menu.edits == 1 and menu.history == ["Choose:"]
    assert menu.buttons == []  # editMessageText without reply_markup drops the keyboard
    assert tg.unanswered_callbacks() == []
    with pytest.raises(AssertionError, match="no button"):
        await alice.press(menu, data="no")
    assert tg.errors == []


async def test_unanswered_callbacks_are_tracked(tg: FakeTelegram, alice: FakeUser) -> None:
    group = tg.group(GROUP, members=[alice])
    message = tg.world.new_message(group, None, text="menu", reply_markup=KEYBOARD.to_dict())
    query_id = await alice.press(message, data="no")
    assert [r.id for r in tg.unanswered_callbacks()] == [query_id]
    assert tg.callback_answer(query_id) is None


async def test_scripted_users_cannot_cheat(
    tg: FakeTelegram, alice: FakeUser, bob: FakeUser
) -> None:
    group = tg.group(GROUP, members=[alice])
    with pytest.raises(AssertionError, match="not a member"):
        await bob.send(group, "/echo")
    with pytest.raises(AssertionError, match="another user's chat"):
        await bob.send(alice.dm, "hi")
    message = tg.world.new_message(group, None, text="menu", reply_markup=KEYBOARD.to_dict())
    with pytest.raises(AssertionError, match="exactly one"):
        await alice.press(message)
    message.deleted = True
    with pytest.raises(AssertionError, match="deleted"):
        await alice.press(message, text="Yes")


# -- strictness as PTB sees it -------------------------------------------------------------


async def test_forbidden_and_chat_not_found(tg: FakeTelegram, app: App, alice: FakeUser) -> None:
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await app.bot.send_message(alice.id, "hi")
    await alice.start()
    await tg.wait_idle()
    await app.bot.send_message(alice.id, "hi")
    tg.block(alice)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await app.bot.send_message(alice.id, "hi again")
    with pytest.raises(BadRequest, match="Chat not found"):
        await app.bot.send_message(-100999, "nobody here")
    await tg.wait_idle()
    kinds = [u.my_chat_member.new_chat_member.status for u in _received(app) if u.my_chat_member]
    assert kinds == ["kicked"]


async def test_bad_requests(tg: FakeTelegram, app: App, alice: FakeUser) -> None:
    group = tg.group(GROUP, members=[alice])
    send = app.bot.send_message
    with pytest.raises(BadRequest, match="Message is too long"):
        await send(GROUP, "x" * 4097)
    await send(GROUP, "x" * 4096)
    await send(GROUP, "<b>" + "y" * 4096 + "</b>", parse_mode=ParseMode.HTML)  # tags don't count
    with pytest.raises(BadRequest, match="Message is too long"):
        await send(GROUP, "😀" * 2049)  # counted in UTF-16 code units
    with pytest.raises(BadRequest, match="Message text is empty"):
        await send(GROUP, "   ")
    with pytest.raises(BadRequest, match="Message text is empty"):
        await send(GROUP, "<b></b>", parse_mode=ParseMode.HTML)
    long_data = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="é" * 33)]])
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await send(GROUP, "menu", reply_markup=long_data)
    with pytest.raises(BadRequest, match='Can\'t parse entities: unsupported start tag "br"'):
        await send(GROUP, "a<br>b", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_text("new", chat_id=GROUP, message_id=999)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await app.bot.delete_message(GROUP, 999)
    mine = await alice.send(group, "not the bot's")
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await app.bot.edit_message_text("new", chat_id=GROUP, message_id=mine.message_id)
    with pytest.raises(BadRequest, match="Message to be replied not found"):
        await send(GROUP, "re", reply_to_message_id=999)
    assert len(tg.errors) == 10
    assert tg.errors[0].description == "Bad Request: message is too long"
    assert tg.errors[0].status == 400


async def test_callback_answer_errors(tg: FakeTelegram, app: App, alice: FakeUser) -> None:
    group = tg.group(GROUP, members=[alice])
    message = tg.world.new_message(group, None, text="menu", reply_markup=KEYBOARD.to_dict())
    query_id = await alice.press(message, text="No")
    with pytest.raises(BadRequest, match="Message_too_long"):
        await app.bot.answer_callback_query(query_id, text="z" * 201)
    await app.bot.answer_callback_query(query_id, text="z" * 200, show_alert=True)
    assert (tg.callback_answer(query_id) or {}).get("show_alert") is True
    too_old = "Query is too old and response timeout expired or query id is invalid"
    with pytest.raises(BadRequest, match=too_old):
        await app.bot.answer_callback_query(query_id)
    with pytest.raises(BadRequest, match=too_old):
        await app.bot.answer_callback_query("12345")
    await tg.wait_idle()


async def test_not_modified(tg: FakeTelegram, app: App) -> None:
    tg.group(GROUP)
    sent = await app.bot.send_message(
        GROUP, "<b>Table</b>", parse_mode="HTML", reply_markup=KEYBOARD
    )
    edit = app.bot.edit_message_text
    with pytest.raises(BadRequest, match="Message is not modified"):
        await edit("<b>Table</b>", GROUP, sent.message_id, parse_mode="HTML", reply_markup=KEYBOARD)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=KEYBOARD)
    await edit("Table", GROUP, sent.message_id, reply_markup=KEYBOARD)  # bold dropped: modified
    await app.bot.edit_message_reply_markup(GROUP, sent.message_id)  # keyboard removed
    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_reply_markup(GROUP, sent.message_id)
    stored = tg.last(GROUP)
    assert (stored.text, stored.edits, stored.buttons) == ("Table", 2, [])
    assert [e.description for e in tg.errors] == [
        "Bad Request: message is not modified: specified new message content and reply markup"
        " are exactly the same as a current content and reply markup of the message"
    ] * 3


async def test_group_flood_limit_with_fake_clock(
    tg: FakeTelegram, app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # RetryAfter.retry_after as timedelta, no warning
    clock = FakeClock()
    tg.clock = clock
    tg.group(GROUP)
    for i in range(20):
        await app.bot.send_message(GROUP, f"line {i}")
    clock.advance(30)
    with pytest.raises(RetryAfter) as caught:
        await app.bot.send_message(GROUP, "one too many")
    assert caught.value.retry_after == dtm.timedelta(seconds=30)
    first = tg.messages(GROUP)[0]
    await app.bot.edit_message_text("edits are not limited", GROUP, first.message_id)
    other = tg.group(-100555, "Other")
    await app.bot.send_message(other.id, "another group is fine")
    clock.advance(30)
    await app.bot.send_message(GROUP, "a minute later")
    assert tg.errors[-1].description == "Too Many Requests: retry after 30"


async def test_global_flood_limit(
    tg: FakeTelegram, app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    tg.clock = FakeClock()
    users = [tg.user(200 + i, f"U{i}") for i in range(31)]
    for user in users:
        await user.start()
    await tg.wait_idle()  # the bot answered 31 /start: the 31st answer hit the limit
    assert [e.description for e in tg.errors] == ["Too Many Requests: retry after 1"]
    tg.clock.advance(1)
    await app.bot.send_message(users[0].id, "next second")


async def test_send_document_stored_and_downloadable(tg: FakeTelegram, app: App) -> None:
    tg.group(GROUP)
    sent = await app.bot.send_document(
        GROUP, document=b"hand 1: ...", filename="log.txt", caption="<i>Log</i>", parse_mode="HTML"
    )
    [document] = tg.documents(GROUP)
    assert (document.file_name, document.content) == ("log.txt", b"hand 1: ...")
    assert tg.last(GROUP).text == "Log"
    assert sent.document is not None and sent.caption == "Log"
    file = await app.bot.get_file(sent.document.file_id)
    assert await file.download_as_bytearray() == bytearray(b"hand 1: ...")
    again = await app.bot.send_document(GROUP, document=sent.document.file_id)
    assert again.document is not None and again.document.file_name == "log.txt"


async def test_commands_menu_and_chat_info(
    tg: FakeTelegram, app: App, alice: FakeUser, bob: FakeUser
) -> None:
    group = tg.group(GROUP, members=[bob], bot_admin=True).add(alice, creator=True)
    scope_cmds = [("newgame", "Start a game"), ("help", "Help")]
    await app.bot.set_my_commands(scope_cmds, language_code="ru")
    assert [c.command for c in await app.bot.get_my_commands(language_code="ru")] == [
        "newgame", "help",
    ]  # fmt: skip
    assert await app.bot.get_my_commands() == ()
    assert tg.commands(language_code="ru")[0] == {
        "command": "newgame",
        "description": "Start a game",
    }
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await app.bot.set_my_commands([("NewGame", "bad")])
    chat = await app.bot.get_chat(group.id)
    assert (chat.title, chat.type) == ("Friends", "supergroup")
    assert isinstance(await app.bot.get_chat_member(group.id, alice.id), ChatMemberOwner)
    assert isinstance(await app.bot.get_chat_member(group.id, bob.id), ChatMemberMember)
    carol = tg.user(103, "Carol")
    assert isinstance(await app.bot.get_chat_member(group.id, carol.id), ChatMemberLeft)
    with pytest.raises(BadRequest, match="User not found"):
        await app.bot.get_chat_member(group.id, 999_999)
    admins = await app.bot.get_chat_administrators(group.id)
    assert {type(a) for a in admins} == {ChatMemberOwner, ChatMemberAdministrator}
    await app.bot.set_chat_menu_button()
    assert (await app.bot.get_chat_menu_button()).type == "default"


async def test_fault_injection(tg: FakeTelegram, app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    tg.group(GROUP)
    tg.fail_next("sendMessage", 429, retry_after=7)
    with pytest.raises(RetryAfter) as caught:
        await app.bot.send_message(GROUP, "x")
    assert caught.value.retry_after == dtm.timedelta(seconds=7)
    tg.fail_next("sendMessage", 400, "Bad Request: chat not found", count=2)
    for _ in range(2):
        with pytest.raises(BadRequest, match="Chat not found"):
            await app.bot.send_message(GROUP, "x")
    tg.outage(502)
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await app.bot.get_me()
    tg.end_outage()
    await app.bot.send_message(GROUP, "back")
    tg.clock = clock = FakeClock()
    tg.outage(429, retry_after=3, duration=5)
    with pytest.raises(RetryAfter):
        await app.bot.send_message(GROUP, "x")
    await tg.wait_idle()  # getUpdates is spared unless include_get_updates=True
    clock.advance(5)
    await app.bot.send_message(GROUP, "over")
    assert tg.errors == [] and sum(not c.ok for c in tg.log) == 5
    with pytest.raises(EndPointNotFound):
        await app.bot.do_api_request("noSuchMethod")
    assert tg.errors[-1].status == 404


async def test_many_steps_stay_fast_and_in_sync(
    tg: FakeTelegram, app: App, alice: FakeUser
) -> None:
    tg.settle = True  # every user action waits until the bot is idle again
    tg.quiet = 0.02  # the attached app's queue already tells when handlers are done
    tg.clock = FakeClock()  # 100 replies in a second would exceed 30 messages/s...
    tg.human_delay = 2.0  # ...so let each user action take 2 s of fake time
    await alice.start()
    for i in range(100):
        await alice.send(alice.dm, f"/echo {i}")
        assert tg.last(alice).text == f"echo: {i}"
    assert tg.errors == []


# -- raw HTTP ------------------------------------------------------------------------------


async def test_raw_http_json_and_long_polling(tg: FakeTelegram, alice: FakeUser) -> None:
    url = f"{tg.base_url}{tg.token}"
    async with aiohttp.ClientSession() as http:

        async def call(method: str, **params: object) -> tuple[int, dict[str, Any]]:
            async with http.post(f"{url}/{method}", json=params) as response:
                return response.status, await response.json()

        assert (await call("getMe"))[1]["result"]["username"] == "frapbot"
        status, body = await call("noSuchMethod")
        assert (status, body) == (404, {"ok": False, "error_code": 404, "description": "Not Found"})
        async with http.post(f"{tg.base_url}bad-token/getMe") as response:
            assert response.status == 404
        poll = asyncio.create_task(call("getUpdates", timeout=5))
        await tg.wait_for(lambda: tg.updates.waiting_polls == 1)
        await alice.start("x")
        status, body = await poll
        [update] = body["result"]
        assert update["message"]["text"] == "/start x"
        assert update["message"]["entities"] == [{"offset": 0, "length": 6, "type": "bot_command"}]
        status, body = await call("getUpdates", offset=update["update_id"], timeout=0)
        assert len(body["result"]) == 1  # not confirmed yet
        await call("getUpdates", offset=update["update_id"] + 1, timeout=0)
        assert tg.updates.unconfirmed == 0
        await call("getUpdates", allowed_updates=["callback_query"], timeout=0)
        await alice.send(alice.dm, "filtered out")
        status, body = await call("getUpdates", timeout=0)
        assert body["result"] == [] and len(tg.updates.dropped) == 1
        status, body = await call("sendMessage", chat_id=alice.id, text="")
        assert (status, body["description"]) == (400, "Bad Request: message text is empty")


async def test_set_webhook_follows_telegram_rules_and_blocks_polling(tg: FakeTelegram) -> None:
    url = f"{tg.base_url}{tg.token}"
    async with aiohttp.ClientSession() as http:

        async def call(method: str, **params: object) -> tuple[int, dict[str, Any]]:
            async with http.post(f"{url}/{method}", json=params) as response:
                return response.status, await response.json()

        refused = {
            "http://bot.example.com/hook": "An HTTPS URL must be provided for webhook",
            "https://bot.example.com:8080/hook": "only on ports 80, 88, 443 or 8443",
        }
        for hook, why in refused.items():
            status, body = await call("setWebhook", url=hook)
            assert status == 400 and why in body["description"], body
        status, body = await call("setWebhook", url="https://x.example.com", secret_token="a:b")
        assert body["description"] == "Bad Request: secret token contains unallowed characters"
        assert (await call("getWebhookInfo"))[1]["result"]["url"] == ""

        hook = "https://bot.example.com:8443/hook"
        assert (await call("setWebhook", url=hook, secret_token="s-1"))[1]["result"] is True
        assert (await call("getWebhookInfo"))[1]["result"]["url"] == hook
        status, body = await call("getUpdates", timeout=0)
        assert status == 409 and "webhook is active" in body["description"]
        assert (await call("deleteWebhook"))[1]["result"] is True
        assert (await call("getUpdates", timeout=0)) == (200, {"ok": True, "result": []})


async def test_webhook_delivery_with_secret_retries_until_confirmed(
    tg: FakeTelegram, alice: FakeUser
) -> None:
    """Updates are POSTed one by one with the secret header; a non-2xx answer keeps the update
    pending (with last_error_message) and it is sent again."""
    received: list[tuple[str | None, dict[str, Any]]] = []
    answers = [500, 200, 200]

    async def hook(request: web.Request) -> web.Response:
        received.append((request.headers.get(SECRET_HEADER), await request.json()))
        return web.Response(status=answers[min(len(received), len(answers)) - 1])

    server = web.Application()
    server.router.add_post("/hook", hook)
    runner = web.AppRunner(server)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        url = f"http://{host}:{port}/hook"
        async with aiohttp.ClientSession() as http:
            params = {"url": url, "secret_token": "Sec-1"}
            async with http.post(f"{tg.base_url}{tg.token}/setWebhook", json=params) as response:
                assert response.status == 400  # plain HTTP: refused until the test allows it
            tg.webhook.allow_http = True
            async with http.post(f"{tg.base_url}{tg.token}/setWebhook", json=params) as response:
                assert (await response.json())["result"] is True
        await alice.start("one")
        await alice.start("two")
        await tg.wait_for(lambda: len(received) == 3)
        await tg.wait_for(lambda: tg.updates.unconfirmed == 0)
        assert [secret for secret, _ in received] == ["Sec-1"] * 3
        texts = [update["message"]["text"] for _, update in received]
        assert texts == ["/start one", "/start one", "/start two"]  # the refused one again
        assert [status for _, status in tg.webhook.deliveries] == [500, 200, 200]
        info = tg.webhook.info()
        assert info["pending_update_count"] == 0
        assert (
            info["last_error_message"]
            == "Wrong response from the webhook: 500 Internal Server Error"
        )
    finally:
        await runner.cleanup()


# -- html_check unit tests ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("plain", "plain"),
        ("<b>bold</b> <strong>s</strong> <i>i</i><em>e</em><u>u</u><ins>n</ins>", "bold s ieun"),
        ("<s>s</s><strike>t</strike><del>d</del>", "std"),
        ('<span class="tg-spoiler">x</span><tg-spoiler>y</tg-spoiler>', "xy"),
        ('<a href="https://t.me/x">link</a>', "link"),
        ("<code>c</code> <pre>p</pre>", "c p"),
        ('<pre><code class="language-python">print(1)</code></pre>', "print(1)"),
        ("<blockquote>q</blockquote><blockquote expandable>e</blockquote>", "qe"),
        ('<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>', "👍"),
        ("&lt;tag&gt; &amp; &quot;q&quot; &#65;&#x42;", '<tag> & "q" AB'),
        ("a > b", "a > b"),
        ("<B>caps</B>", "caps"),
    ],
)
def test_html_valid(html: str, text: str) -> None:
    assert visible_text(html) == text


@pytest.mark.parametrize(
    ("html", "error"),
    [
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("<br>", 'Unsupported start tag "br" at byte offset 0'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("Tom & Jerry", 'Unescaped "&" at byte offset 4'),
        ("&nbsp;", 'Unsupported HTML entity "&nbsp;" at byte offset 0'),
        ("ё<b", "Unclosed start tag at byte offset 2"),
        ('<a href="x', "Unclosed start tag at byte offset 0"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ('<a href=x">y</a>', "Unexpected end of name token at byte offset 9"),
    ],
)
def test_html_invalid(html: str, error: str) -> None:
    with pytest.raises(HtmlError) as caught:
        parse_html(html)
    assert str(caught.value).startswith(error)


def test_html_entities_use_utf16_offsets() -> None:
    parsed = parse_html('😀 <b>bold</b> <pre><code class="language-py">x</code></pre>')
    assert parsed.text == "😀 bold x"
    assert parsed.entities == [
        {"offset": 3, "length": 4, "type": "bold"},
        {"offset": 8, "length": 1, "type": "pre", "language": "py"},
    ]
    assert utf16_len("😀") == 2


# -- a basic group upgraded to a supergroup; the bot's membership of a group -------


async def test_an_upgraded_group_refuses_its_old_id_with_migrate_to_chat_id(
    tg: FakeTelegram, app: App, alice: FakeUser
) -> None:
    group = tg.basic_group(-4040, "Basic", members=[alice])
    sent = await app.bot.send_message(-4040, "before")
    await tg.wait_idle()
    new = tg.migrate(group, -1_004_040, by=alice)
    await tg.wait_idle()
    service = [u.message for u in _received(app) if u.message]
    assert [
        (m.chat.id, m.chat.type, m.migrate_to_chat_id, m.migrate_from_chat_id) for m in service
    ] == [
        (-4040, "group", -1_004_040, None),
        (-1_004_040, "supergroup", None, -4040),
    ]
    for call in (
        app.bot.send_message(-4040, "after"),
        app.bot.edit_message_text("edited", -4040, sent.message_id),
        app.bot.get_chat_member(-4040, alice.id),
    ):
        with pytest.raises(ChatMigrated) as refused:
            await call
        assert refused.value.new_chat_id == -1_004_040
    assert {c.description for c in tg.errors} == {
        "Bad Request: group chat was upgraded to a supergroup chat"
    }
    assert all(c.status == 400 for c in tg.errors)
    await app.bot.send_message(-1_004_040, "after")
    assert [m.text for m in tg.messages(new)] == ["", "after"]  # the service message, then ours
    with pytest.raises(AssertionError, match="write there"):
        await alice.send(group, "hello?")
    await tg.wait_idle()


async def test_the_bot_removed_from_a_group_or_muted(
    tg: FakeTelegram, app: App, alice: FakeUser
) -> None:
    group = tg.group(GROUP, members=[alice])
    for status, error in (
        ("restricted", "Bad Request: not enough rights to send text messages to the chat"),
        ("kicked", "Forbidden: bot was kicked from the supergroup chat"),
        ("left", "Forbidden: bot is not a member of the supergroup chat"),
    ):
        tg.set_bot_status(group, status, by=alice)
        with pytest.raises(BadRequest if status == "restricted" else Forbidden):
            await app.bot.send_message(GROUP, "hi")
        assert tg.errors[-1].description == error
    await tg.wait_idle()
    changes = [u.my_chat_member for u in _received(app) if u.my_chat_member]
    assert [(c.chat.id, c.new_chat_member.status) for c in changes] == [
        (GROUP, "restricted"), (GROUP, "kicked"), (GROUP, "left"),
    ]  # fmt: skip
    assert changes[0].new_chat_member.can_send_messages is False  # type: ignore[attr-defined]
    tg.set_bot_status(group, "member", by=alice)
    await app.bot.send_message(GROUP, "back")
    await tg.wait_idle()
