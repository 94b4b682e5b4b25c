"""FakeTelegram: an in-process Bot API server (aiohttp) plus a scripted Telegram world.

Point python-telegram-bot at it with ``ApplicationBuilder().token(tg.token)
.base_url(tg.base_url).base_file_url(tg.base_file_url)``; drive it with ``tg.user(...)`` /
``tg.group(...)`` and the users' coroutines; inspect with ``tg.messages(...)``, ``tg.log`` and
``tg.errors``. Listens on 127.0.0.1 on a random free port.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from tests.fakebot.clock import FakeClock
from tests.fakebot.limits import HOLD, Faults, FloodControl, default_description
from tests.fakebot.media import MediaApi
from tests.fakebot.methods import BotApi, scope_key
from tests.fakebot.miniapp import MiniApps
from tests.fakebot.models import (
    GROUP,
    SUPERGROUP,
    ApiCall,
    ApiError,
    BotIdentity,
    CallbackRecord,
    FakeChat,
    FakeUser,
    Json,
    StoredDocument,
    StoredMessage,
    StoredPhoto,
)
from tests.fakebot.params import Params
from tests.fakebot.updates import UpdateQueue
from tests.fakebot.webhook import Webhook
from tests.fakebot.world import ChatRef, World

T = TypeVar("T")

_API_PATH = re.compile(r"^/bot(?P<token>[^/]+)/(?P<method>[A-Za-z0-9_]+)/?$")
_FILE_PATH = re.compile(r"^/file/bot(?P<token>[^/]+)/(?P<path>.+)$")
_TOKEN = re.compile(r"^\d+:[A-Za-z0-9_-]{30,}$")
_NOT_FOUND = ApiError(404, "Not Found")
_POLL_STEP = 0.005
_HOLD_STEP = 0.02


class FakeTelegram:
    """Fake Bot API server and world; use as ``async with FakeTelegram() as tg``."""

    def __init__(
        self,
        bot_username: str = "frapbot",
        *,
        bot_id: int = 7_000_000_001,
        bot_name: str = "Frap",
        group_limit: int = 20,
        global_limit: int = 30,
        clock: Callable[[], float] | None = None,
        quiet: float = 0.05,
        settle: bool = False,
        human_delay: float = 0.0,
        port: int = 0,
    ) -> None:
        self.bot = BotIdentity(bot_id, bot_username, bot_name)
        self.port = port  # 0: a free one
        self.token = f"{bot_id}:AAFakeTokenForTests_0123456789abcdefXYZ"
        self.clock: Callable[[], float] = clock or time.monotonic
        self.quiet = quiet  # seconds without API calls that wait_idle() requires
        self.settle = settle  # user actions await wait_idle() before returning
        self.human_delay = human_delay  # a FakeClock advances this much per user action
        self.updates = UpdateQueue()
        self.flood = FloodControl(group_limit, global_limit)
        self.faults = Faults()
        self.world = World(self.bot, self.updates)
        self.webhook = Webhook(self.updates)  # set by the bot's setWebhook; delivers by POST
        self.api = BotApi(self.world, self.flood, now=lambda: self.clock(), webhook=self.webhook)
        MediaApi(self.api)  # sendPhoto, editMessageMedia
        self.mini_apps = MiniApps(self.token, bot_username)  # BotFather's Mini Apps, opened
        self.log: list[ApiCall] = []
        self.base_url = ""
        self.base_file_url = ""
        self._runner: web.AppRunner | None = None
        self._app_queue: asyncio.Queue[Any] | None = None
        self._in_flight = 0
        self._last_activity = 0.0

    # -- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Listen on 127.0.0.1 on ``port`` (0: a free one); set ``base_url``/``base_file_url``."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}/bot"
        self.base_file_url = f"http://{host}:{port}/file/bot"
        self.webhook.start()
        self._touch()

    async def stop(self) -> None:
        """Release held getUpdates requests, stop webhook deliveries and close the server."""
        self.updates.close()
        await self.webhook.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- building the world ---------------------------------------------------------------

    @property
    def group_limit(self) -> int:
        """New messages allowed per group per rolling minute."""
        return self.flood.group_limit

    @group_limit.setter
    def group_limit(self, value: int) -> None:
        """Change the per-group limit (takes effect for the next message)."""
        self.flood.group_limit = value

    def user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
        last_name: str | None = None,
    ) -> FakeUser:
        """Create a scripted user."""
        user = FakeUser(self, user_id, first_name, username, language_code, last_name)
        return self.world.add_user(user)

    def group(
        self,
        chat_id: int = -100123,
        title: str = "Friends",
        privacy: bool = True,
        *,
        members: tuple[FakeUser, ...] | list[FakeUser] = (),
        bot_admin: bool = False,
    ) -> FakeChat:
        """Create a supergroup the bot is in (privacy mode on by default)."""
        chat = FakeChat(chat_id, SUPERGROUP, title=title, privacy=privacy)
        chat.bot_status = "administrator" if bot_admin else "member"
        for member in members:
            chat.add(member)
        return self.world.add_group(chat)

    def basic_group(
        self,
        chat_id: int = -4_123,
        title: str = "Friends",
        *,
        members: tuple[FakeUser, ...] | list[FakeUser] = (),
    ) -> FakeChat:
        """Create a basic group (the kind Telegram later upgrades to a supergroup) the bot is in."""
        chat = FakeChat(chat_id, GROUP, title=title)
        for member in members:
            chat.add(member)
        return self.world.add_group(chat)

    def migrate(
        self, group: FakeChat, new_id: int, *, by: FakeUser, announce: bool = True
    ) -> FakeChat:
        """Upgrade basic group ``group`` to supergroup ``new_id``; unless ``announce`` is False
        the bot gets the two service messages at once (else: ``announce_migration`` later)."""
        chat = self.world.migrate(group, new_id)
        if announce:
            self.world.announce_migration(group, by)
        return chat

    def announce_migration(self, group: FakeChat, *, by: FakeUser) -> None:
        """Deliver an upgrade's two service messages (again)."""
        self.world.announce_migration(group, by)

    def set_bot_status(self, group: FakeChat, status: str, *, by: FakeUser) -> None:
        """``by`` kicks the bot ("kicked"), it leaves ("left"), loses the right to write
        ("restricted") or comes back ("member"); the bot gets my_chat_member."""
        self.world.set_bot_status(group, status, by)

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The private chat of ``user`` with the bot (same as ``user.dm``)."""
        return self.world.private_chat(user)

    def member_leaves(self, group: FakeChat, user: FakeUser, *, by: FakeUser | None = None) -> None:
        """``user`` leaves ``group`` (removed by ``by``): left_chat_member, and chat_member for
        an admin bot."""
        self.world.member_leaves(group, user, by)

    def member_joins(self, group: FakeChat, user: FakeUser) -> None:
        """``user`` joins ``group``: new_chat_members, and chat_member for an admin bot."""
        self.world.member_joins(group, user)

    def block(self, user: FakeUser) -> None:
        """``user`` blocks the bot: sends to them fail with 403; bot gets my_chat_member."""
        self.world.set_blocked(user, blocked=True)

    def unblock(self, user: FakeUser) -> None:
        """``user`` unblocks the bot."""
        self.world.set_blocked(user, blocked=False)

    # -- fault injection ------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        error_code: int,
        description: str | None = None,
        count: int = 1,
        retry_after: int | None = None,
    ) -> None:
        """Answer the next ``count`` calls of ``method`` with this error (before validation)."""
        if error_code == 429 and retry_after is None:
            retry_after = 1
        text = description or default_description(error_code, retry_after)
        self.faults.fail_next(method, ApiError(error_code, text, retry_after), count)

    def outage(
        self,
        error_code: int = 502,
        description: str | None = None,
        *,
        retry_after: int | None = None,
        duration: float | None = None,
        include_get_updates: bool = False,
        hang: bool = False,
        carry_out: bool = False,
    ) -> None:
        """Fail every method (getUpdates only if asked) for ``duration`` clock seconds; with
        ``hang`` every call is held unanswered until the outage ends instead (then carried out,
        if the bot still waits for it: one it gave up on meanwhile is not, unless ``carry_out``:
        then it is carried out all the same, its answer lost, as when Telegram's front held
        the answers of calls its servers had already taken)."""
        if error_code == 429 and retry_after is None:
            retry_after = 1
        text = description or default_description(error_code, retry_after)
        until = None if duration is None else self.clock() + duration
        error = None if hang else ApiError(error_code, text, retry_after)
        self.faults.start_outage(error, until, include_get_updates, carry_out and hang)

    def lose_answers(self, method: str, count: int = 1) -> None:
        """Carry out the next ``count`` calls of ``method`` and answer them 502, as when
        Telegram posted a message and its answer was lost (a time-out at the proxy)."""
        self.faults.lose_answers(method, count)

    def end_outage(self) -> None:
        """Stop an outage started with ``outage()``."""
        self.faults.end_outage()

    # -- inspection -----------------------------------------------------------------------

    def chat(self, ref: ChatRef) -> FakeChat:
        """Resolve a chat id, chat or user (their private chat)."""
        return self.world.chat(ref)

    def messages(self, chat: ChatRef, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Messages of ``chat`` in order (users' and the bot's), without deleted ones."""
        found = self.world.chat(chat).messages
        return [m for m in found if include_deleted or not m.deleted]

    def last(self, chat: ChatRef, *, from_bot: bool = True) -> StoredMessage:
        """The newest live message in ``chat`` sent by the bot (or by anyone)."""
        for message in reversed(self.messages(chat)):
            if message.from_bot or not from_bot:
                return message
        raise AssertionError(f"no {'bot ' if from_bot else ''}message in {self.world.chat(chat)}")

    def documents(self, chat: ChatRef) -> list[StoredDocument]:
        """Documents the bot sent to ``chat``, oldest first."""
        return [m.document for m in self.messages(chat, include_deleted=True) if m.document]

    def photos(self, chat: ChatRef) -> list[StoredPhoto]:
        """Photos the bot's live messages in ``chat`` show now, oldest message first."""
        return [m.photo for m in self.messages(chat) if m.photo]

    @property
    def errors(self) -> list[ApiCall]:
        """Error responses the bot provoked (injected faults excluded)."""
        return [call for call in self.log if not call.ok and not call.injected]

    def calls(self, method: str) -> list[ApiCall]:
        """Logged calls of ``method`` (case-insensitive)."""
        return [call for call in self.log if call.method.lower() == method.lower()]

    def callback_answer(self, query_id: str) -> Json | None:
        """The bot's answerCallbackQuery for ``query_id`` (text, show_alert, ...) or None."""
        return self.world.callbacks[query_id].answer

    def unanswered_callbacks(self) -> list[CallbackRecord]:
        """Callback queries the bot has not answered (yet)."""
        return [record for record in self.world.callbacks.values() if not record.answered]

    def commands(self, scope: Json | None = None, language_code: str = "") -> list[Json]:
        """Commands stored with setMyCommands for ``scope`` (default scope) and language."""
        return self.api.commands.get(scope_key(scope, language_code), [])

    # -- synchronisation ------------------------------------------------------------------

    def attach(self, app: Any) -> None:
        """Let wait_idle() also wait until ``app`` (a PTB Application) processed its updates."""
        self._app_queue = app.update_queue

    async def wait_idle(self, timeout: float = 5.0, *, quiet: float | None = None) -> None:
        """Wait until updates are confirmed, getUpdates is held, the app is drained and quiet."""
        quiet = self.quiet if quiet is None else quiet
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._is_idle(loop.time(), quiet):
            if loop.time() > deadline:
                raise AssertionError(f"wait_idle timed out after {timeout}s: {self._state()}")
            await asyncio.sleep(_POLL_STEP)

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Poll ``predicate`` until it returns something truthy, and return that."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (value := predicate()):
            if loop.time() > deadline:
                raise AssertionError(f"wait_for timed out after {timeout}s: {self._state()}")
            await asyncio.sleep(_POLL_STEP)
        return value

    def _is_idle(self, now: float, quiet: float) -> bool:
        queue = self._app_queue
        app_busy = queue is not None and getattr(queue, "_unfinished_tasks", queue.qsize()) > 0
        return (
            self.updates.unconfirmed == 0
            and self.updates.waiting_polls > 0
            and self._in_flight == 0
            and now - self._last_activity >= quiet
            and not app_busy
        )

    def _state(self) -> str:
        queue = self._app_queue
        return (
            f"unconfirmed updates={self.updates.unconfirmed}, "
            f"waiting getUpdates={self.updates.waiting_polls}, in-flight calls={self._in_flight}, "
            f"app queue unfinished={getattr(queue, '_unfinished_tasks', None)}, "
            f"last calls={[c.method for c in self.log if c.method != 'getUpdates'][-5:]}"
        )

    def _touch(self) -> None:
        try:
            self._last_activity = asyncio.get_running_loop().time()
        except RuntimeError:  # called outside the loop (world building before start)
            self._last_activity = 0.0

    # -- user side (called by FakeUser) ----------------------------------------------------

    async def user_sends(
        self, user: FakeUser, chat: FakeChat, text: str, reply_to: StoredMessage | None = None
    ) -> StoredMessage:
        """``user`` types ``text`` into ``chat`` (see FakeUser.send)."""
        self._human_pause()
        message = self.world.user_message(user, chat, text, reply_to)
        await self._after_user_action()
        return message

    async def user_presses(
        self, user: FakeUser, message: StoredMessage, *, text: str | None, data: str | None
    ) -> str:
        """``user`` presses a button on ``message`` (see FakeUser.press)."""
        self._human_pause()
        record = self.world.user_press(user, message, text, data)
        await self._after_user_action()
        return record.id

    def _human_pause(self) -> None:
        if self.human_delay and isinstance(self.clock, FakeClock):
            self.clock.advance(self.human_delay)

    async def _after_user_action(self) -> None:
        self._touch()
        if self.settle:
            await self.wait_idle()

    # -- HTTP -----------------------------------------------------------------------------

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        api = _API_PATH.match(request.path)
        if api and _TOKEN.match(api["token"]):
            return await self._api_call(api["method"], request)
        download = _FILE_PATH.match(request.path)
        if download and _TOKEN.match(download["token"]):
            return self._download(download["path"])
        return web.json_response(_NOT_FOUND.body(), status=404)

    async def _api_call(self, method: str, request: web.Request) -> web.Response:
        polling = method.lower() == "getupdates"
        if not polling:
            self._in_flight += 1
            self._touch()
        call = ApiCall(method=method, params={}, ok=False, status=500)
        try:
            call.result = await self._run_method(method, request, call)
            call.ok, call.status = True, 200
            if not polling or call.result:
                self._touch()
            body: Json = {"ok": True, "result": call.result}
        except ApiError as err:
            call.status, call.description = err.error_code, err.description
            body = err.body()
        except Exception as exc:  # a bug in the fake itself: make it visible in tg.errors
            bug = ApiError(500, f"Internal Server Error: fakebot bug: {exc!r}")
            call.status, call.description = bug.error_code, bug.description
            body = bug.body()
        finally:
            if not polling:
                self._in_flight -= 1
                self._touch()
        self.log.append(call)
        return web.json_response(body, status=call.status)

    async def _run_method(self, method: str, request: web.Request, call: ApiCall) -> Any:
        handler = self.api.handler(method)
        if handler is None:
            raise _NOT_FOUND
        params = await Params.from_request(request)
        call.params = params.loggable()
        injected = self.faults.take(method, self.clock())
        if injected is HOLD and self.faults.carrying_out:
            return await self._carried_out(handler, params, call)
        if injected is HOLD:
            while self.faults.holding(self.clock()):  # the bot's client may give up meanwhile:
                await asyncio.sleep(_HOLD_STEP)  # then aiohttp cancels this handler
        elif injected is not None:
            call.injected = True
            raise injected
        result = await handler(params)
        if self.faults.take_lost(method):
            call.injected = True
            raise ApiError(502, default_description(502, None))
        return result

    async def _carried_out(self, handler: Any, params: Params, call: ApiCall) -> Any:
        """A held call carried out when the outage ends, whether the bot still waits for its
        answer or not (then it is logged as injected: an answer lost)."""

        async def held() -> Any:
            self._in_flight += 1
            try:
                while self.faults.holding(self.clock()):
                    await asyncio.sleep(_HOLD_STEP)
                return await handler(params)
            finally:
                self._in_flight -= 1
                self._touch()

        task = asyncio.ensure_future(held())
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:  # the bot gave up: the call goes on, its answer lost
            call.injected = True
            task.add_done_callback(lambda done: self._lost(call, done))
            raise

    def _lost(self, call: ApiCall, done: asyncio.Future[Any]) -> None:
        if not done.cancelled() and done.exception() is None:
            call.result, call.ok, call.status = done.result(), True, 200
        elif not done.cancelled():
            exc = done.exception()
            if isinstance(exc, ApiError):
                call.status, call.description = exc.error_code, exc.description
        self.log.append(call)

    def _download(self, path: str) -> web.Response:
        if path.startswith("photos/"):
            photo = self.world.photos.get(path.removeprefix("photos/"))
            content = None if photo is None else photo.content
        else:
            document = self.world.files.get(path.removeprefix("documents/"))
            content = None if document is None else document.content
        if content is None:
            return web.json_response(_NOT_FOUND.body(), status=404)
        return web.Response(body=content, content_type="application/octet-stream")
