"""The Mini App's server: aiohttp in the bot's own process, on PORT, at WEBAPP_URL's
path; in webhook mode it takes Telegram's updates on the same port (as python-telegram-bot's
custom-webhook examples do: each update put on the application's update queue).

Every API call carries Telegram's initData (`Authorization: tma …`), and the WebSocket its first
message (a browser cannot set a header there, and an address would leave a replayable login in
the logs of every proxy on the way); the seat comes only from its verified user id, the table
from its signed `start_param`. No cookies; a Content-Security-Policy
that runs only the page's own scripts (ES modules from static/, no build step) and Telegram's
telegram-web-app.js.

It listens from the bot's first second, before Telegram first answers (bot/app.py's `prepare`):
until the tables are resumed (`attach`), and again once the bot is stopping, the page and
/healthz are served and everything else is answered 503 (the page says the bot is starting or
restarting, and tries again; Telegram posts an update again later)."""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, web
from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import Application

from locales import pick_language, t

from .. import callbacks
from ..callbacks import Kind
from ..chat import review as chat_review
from ..config import Settings
from ..handlers import Handlers
from ..handlers.common import Pressed
from ..health import STOPPING, Heartbeat, healthz
from ..service import GameService, Person
from ..table.live import Refusal
from . import protocol
from .initdata import BadInitData, StaleInitData, WebUser, claimed_language, secret_key, verify
from .viewers import Viewer, Viewers, review_json, words

log = logging.getLogger(__name__)

STATIC = Path(str(files("bot.web") / "static"))
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
# the page's own files by their type, whatever the host's mime.types says: its scripts are ES
# modules, which a browser runs only when served as JavaScript (nosniff: never guessed)
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
CSP = (
    "default-src 'none'; "
    f"script-src 'self' {TELEGRAM_JS}; "
    "style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
)
# the table's buttons a page shows: a player's moves, and the group's lobby and next deal
TABLE_PRESSES = (
    Kind.ACT, Kind.TOGGLE, Kind.JOIN, Kind.LEAVE, Kind.START, Kind.GAME, Kind.COMPUTER, Kind.NEXT,
)  # fmt: skip
RATE = (20, 10.0)  # a user's calls: 20 in 10 seconds (a page makes one per tap or opening)
MEMBER_CACHE = 300.0  # seconds a group membership looked up holds
MAX_BODY = 4096  # bytes of a press's request (read by `_body`: the page's limit)
# bytes of an update Telegram posts: a message of 4096 characters, its entities and the
# message it replies to, JSON-escaped, stay well within it (the app's client_max_size)
MAX_UPDATE = 1 << 20
_MEMBERS = {
    ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER,
    ChatMemberStatus.RESTRICTED,
}  # fmt: skip
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass(frozen=True, slots=True)
class Opened:
    """A checked call: who, at which table."""

    user: WebUser
    table_id: int
    chat_id: int


class WebServer:
    """The page, its API and WebSocket, and (webhook mode) Telegram's updates, on one port."""

    # the game and its handlers, given by `attach` once the tables are resumed
    service: GameService
    handlers: Handlers
    viewers: Viewers

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        settings: Settings,
        clock: Callable[[], float] = time.time,
        heartbeat: Heartbeat | None = None,
    ) -> None:
        self.app = app
        self.heartbeat = heartbeat
        self.settings = settings
        self.clock = clock
        self.key = secret_key(settings.bot_token.get_secret_value())
        self._attached = False
        self._calls: dict[int, deque[float]] = {}
        self.rate = RATE
        self._members: dict[tuple[int, int], tuple[float, bool]] = {}
        self._runner: web.AppRunner | None = None
        self.web = self._routes()
        # the page, its assets addressed from WEBAPP_URL's path (not relative to the address
        # Telegram opened: `/app` and `/app/` are different bases)
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        self._page = page.replace("{root}", html.escape(settings.webapp_path, quote=True))

    def attach(self, service: GameService, handlers: Handlers) -> None:
        """The tables are resumed: the API, the pages' sockets and the webhook are served."""
        self.service, self.handlers = service, handlers
        self.viewers = Viewers(service, self.clock)
        handlers.membership.append(self.membership)  # a member left or joined: at once
        self._attached = True

    def _stage(self) -> str | None:
        """Why the bot takes no call now ("starting", "stopping"), or None."""
        if self.heartbeat is not None and self.heartbeat.stage == STOPPING:
            return STOPPING
        return None if self._attached else "starting"

    @web.middleware
    async def _ready(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Everything but the page, its assets and /healthz answered 503 while the bot is not
        ready, in the language initData names."""
        stage = self._stage()
        info = request.match_info
        if stage is None or info.http_exception is not None or info.handler in self._always:
            return await handler(request)
        header = request.headers.get("Authorization", "")
        lang = claimed_language(header[4:] if header.startswith("tma ") else "")
        raise _refused(web.HTTPServiceUnavailable, stage, lang)

    def _routes(self) -> web.Application:
        root = self.settings.webapp_path
        self._always = (self._index, self._static, self._healthz)  # served while not ready
        http = web.Application(middlewares=[_headers, self._ready], client_max_size=MAX_UPDATE)
        # the page at WEBAPP_URL as BotFather has it, with or without its slash: its assets and
        # API are addressed from the configured path, so either form finds them
        http.router.add_get(root or "/", self._index)
        if root:
            http.router.add_get(root + "/", self._index)
        http.router.add_get(root + "/static/{name}", self._static)
        http.router.add_get(root + "/api/view", self._view)
        http.router.add_post(root + "/api/press", self._press)
        http.router.add_get(root + "/api/sheet", self._sheet)
        http.router.add_get(root + "/api/review", self._review)
        http.router.add_get(root + "/api/ws", self._socket)
        if self.settings.webhook_url:
            http.router.add_post("/" + self.settings.webhook_path, self._update)
        if self.heartbeat is not None:  # the health check where a host looks for it
            http.router.add_get("/healthz", self._healthz)
        return http

    async def start(self) -> None:
        """Listen on PORT."""
        self._runner = protocol.runner(self.web)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.webhook_listen, self.settings.port)
        await site.start()
        log.info("Mini App served on port %s at %s", self.settings.port, self.settings.webapp_url)

    async def stop(self) -> None:
        """Close every page and stop listening."""
        if self._attached:
            await self.viewers.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- checks ---------------------------------------------------------------------------------

    def _user(self, request: web.Request, init: str | None = None) -> WebUser:
        """The verified user of a call (401 for missing, forged, stale or another bot's), within
        his rate (429), by the call's `Authorization` header or the given `init`. A refusal is
        in the language initData names (its words only: nothing else of unverified data
        counts)."""
        if init is None:
            header = request.headers.get("Authorization", "")
            init = header[4:] if header.startswith("tma ") else ""
        try:
            user = verify(init, self.key, max_age=self.settings.webapp_max_age, now=self.clock())
        except StaleInitData:
            raise _refused(web.HTTPUnauthorized, "too_old", claimed_language(init)) from None
        except BadInitData:
            raise _refused(web.HTTPUnauthorized, "bad_init", claimed_language(init)) from None
        if not self._within_rate(user.user_id):
            raise _refused(web.HTTPTooManyRequests, "rate", pick_language(user.language_code))
        return user

    def _within_rate(self, user_id: int) -> bool:
        """A user's calls in the last `rate[1]` seconds are fewer than `rate[0]` (then counted)."""
        now, (most, window) = self.clock(), self.rate
        calls = self._calls.setdefault(user_id, deque())
        while calls and now - calls[0] >= window:
            calls.popleft()
        if len(calls) >= most:
            return False
        calls.append(now)
        if len(self._calls) > 10_000:  # forget the idle
            self._calls = {uid: c for uid, c in self._calls.items() if c and now - c[-1] < window}
        return True

    async def _opened(self, request: web.Request, init: str | None = None) -> Opened:
        """The user and the table his page is at: the page's `table` (a web_app button's, or
        the table a page followed to), else the signed start_param (the group's t.me link).
        A seated player (or a practice table's owner) may see his table; anyone else only a
        table of the group whose signed link opened the page, while he is its member."""
        user = self._user(request, init)
        lang = pick_language(user.language_code)
        signed = user.start_param
        table_id = callbacks.parse_id(request.query.get("table") or signed or "")
        if table_id is None:
            raise _refused(web.HTTPBadRequest, "no_table", lang)
        found = await self._seats(table_id)
        if found is None:
            raise _refused(web.HTTPNotFound, "gone", lang)
        chat_id, seats = found
        if user.user_id in seats or user.user_id == chat_id:
            return Opened(user, table_id, chat_id)
        link = callbacks.parse_id(signed or "")
        if link is None or chat_id > 0:  # no signed link, or another's practice table
            raise _refused(web.HTTPForbidden, "not_seated", lang)
        if link != table_id and (await self._seats(link) or (0, ()))[0] != chat_id:
            raise _refused(web.HTTPForbidden, "not_seated", lang)
        if not await self._member(chat_id, user.user_id):
            chat = await self.service.storage.chats.chat(chat_id)
            raise _refused(web.HTTPForbidden, "not_member", lang, chat=chat.title or "")
        return Opened(user, table_id, chat_id)

    async def _seats(self, table_id: int) -> tuple[int, tuple[int, ...]] | None:
        """A table's chat and seats (an open table's, or a closed one's as stored); None for
        none."""
        live = self.service.find(table_id)
        if live is not None:
            return live.row.chat_id, tuple(live.row.seats)
        row = await self.service.storage.tables.table(table_id)
        return None if row is None else (row.chat_id, tuple(row.seats))

    async def _member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is a member of the table's group (asked of Telegram, kept a while)."""
        now = self.clock()
        known = self._members.get((chat_id, user_id))
        if known is not None and now - known[0] < MEMBER_CACHE:
            return known[1]
        try:
            member = await self.app.bot.get_chat_member(chat_id, user_id)
            yes = member.status in _MEMBERS
        except TelegramError:
            yes = False
        self._members[(chat_id, user_id)] = (now, yes)
        return yes

    async def membership(self, chat_id: int, user_id: int, member: bool) -> None:
        """The group's updates say the user left it or joined it: the membership cached is that,
        from now; leaving closes his pages of the group's tables, but those of a table he is
        still seated at (he stands up at the end of his deal)."""
        self._members[(chat_id, user_id)] = (self.clock(), member)
        if not member:
            self.viewers.close_where(
                lambda page: (
                    page.chat_id == chat_id
                    and page.user.user_id == user_id
                    and not self._seated(page.table_id, user_id)
                )
            )

    def _seated(self, table_id: int, user_id: int) -> bool:
        live = self.service.find(table_id)
        return live is not None and user_id in live.row.seats

    # ---- the page -------------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self._page, content_type="text/html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or name.startswith(".") or not path.is_file():
            raise web.HTTPNotFound()
        kind = STATIC_TYPES.get(path.suffix)
        return web.FileResponse(path, headers={"Content-Type": kind} if kind else None)

    # ---- the API --------------------------------------------------------------------------------

    async def _view(self, request: web.Request) -> web.Response:
        opened = await self._opened(request)
        view = await self.viewers.stamped(opened.user, opened.table_id)
        return web.json_response({**view, **words(view["lang"])})

    async def _press(self, request: web.Request) -> web.Response:
        """A button of the page: the same press, by the same path and with the same refusals,
        as the chat button's (a move, the lobby's buttons, the next deal)."""
        opened = await self._opened(request)
        lang = pick_language(opened.user.language_code)
        raw = await _body(request, MAX_BODY)
        try:
            body = json.loads(raw)
            data = body["press"]
            press = callbacks.decode(data if isinstance(data, str) else None)
        except (ValueError, KeyError, TypeError, callbacks.BadCallback):
            raise _refused(web.HTTPBadRequest, "bad_press", lang) from None
        if press.kind not in TABLE_PRESSES or press.table_id != opened.table_id:
            raise _refused(web.HTTPBadRequest, "bad_press", lang)
        user = opened.user
        live = self.service.find(opened.table_id)
        if live is None:
            raise _refused(web.HTTPConflict, "closed", lang)
        who = Person(user.user_id, user.name, language_code=user.language_code)
        answer = await self.handlers.handle_press(Pressed(who, live.row.chat_id, data))
        if answer.text is not None:  # stale, not his move, not seated: the chat button's alert
            refusal = {"error": "refused", "text": answer.text, "url": answer.url, "lang": lang}
            raise web.HTTPConflict(text=json.dumps(refusal), content_type="application/json")
        return web.json_response(await self.viewers.stamped(user, opened.table_id))

    async def _sheet(self, request: web.Request) -> web.Response:
        """The pulya sheet's picture, as the group's photo shows it (a Preferans table)."""
        opened = await self._opened(request)
        live = self.service.find(opened.table_id)
        lang = pick_language(opened.user.language_code)
        png = None if live is None else await self.service.game(live).sheet_picture(live, lang)
        if png is None:
            raise _refused(web.HTTPNotFound, "gone", lang)
        return web.Response(body=png, content_type="image/png")

    async def _review(self, request: web.Request) -> web.Response:
        """A finished deal's review (`?deal=` its id, as the result names it), with the same
        refusals as the chat's button: only the players of the deal and the members of its chat
        see it."""
        user = self._user(request)
        lang = pick_language(user.language_code)
        deal_id = callbacks.parse_id(request.query.get("deal") or "")
        if deal_id is None:
            raise _refused(web.HTTPBadRequest, "no_deal", lang)
        deal = await self.service.storage.history.finished_deal(deal_id)
        if deal is None:
            raise _refused(web.HTTPNotFound, "no_deal", lang)
        seen = user.user_id in deal.seats or user.user_id == deal.chat_id
        if not seen and not (deal.chat_id < 0 and await self._member(deal.chat_id, user.user_id)):
            raise _refused(web.HTTPForbidden, "review", lang)
        try:
            worked = await chat_review.review_of(self.service.storage, self.service.computers, deal)
        except Refusal:
            raise _refused(web.HTTPNotFound, "no_review", lang) from None
        return web.json_response(review_json(worked, lang))

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        """The page's live view: the current one at once, then after every change."""
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_BODY)
        await socket.prepare(request)
        try:  # the page's first message: {"init": its initData}, within BODY_TIMEOUT
            async with asyncio.timeout(protocol.BODY_TIMEOUT):
                first = await socket.receive()
            init = json.loads(first.data)["init"] if first.type == WSMsgType.TEXT else None
            if not isinstance(init, str):
                raise ValueError("no initData")
            opened = await self._opened(request, init)
        except (TimeoutError, ValueError, KeyError, TypeError):
            await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"bad_init")
            return socket
        except web.HTTPException as refused:  # the reason's code (the page asks for its words)
            why = json.loads(refused.text or "{}").get("error", "refused")
            await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=why.encode())
            return socket
        page = Viewer(opened.user, opened.table_id, socket, chat_id=opened.chat_id)
        try:
            await self.viewers.greet(page)
            # presses are calls of their own; the page only asks "ping" and is answered "pong",
            # so a server that hangs with the socket open is told from one that is quiet
            async for message in socket:
                if message.type == WSMsgType.TEXT and message.data == "ping":
                    await socket.send_str("pong")
        finally:
            self.viewers.remove(page)
        return socket

    async def _healthz(self, request: web.Request) -> web.Response:
        assert self.heartbeat is not None
        return healthz(self.heartbeat)

    # ---- Telegram's updates (webhook mode) ------------------------------------------------------

    async def _update(self, request: web.Request) -> web.Response:
        """An update from Telegram: only with the webhook's secret (403 otherwise, as
        python-telegram-bot's own server answers), then handed to the application."""
        secret = self.settings.webhook_secret
        given = request.headers.get(SECRET_HEADER, "")
        if secret is None or not hmac.compare_digest(given, secret.get_secret_value()):
            raise web.HTTPForbidden()
        try:
            payload = json.loads(await _body(request, MAX_UPDATE))
            if not isinstance(payload, dict) or type(payload.get("update_id")) is not int:
                raise ValueError("not an update: no update_id")
            update = Update.de_json(payload, self.app.bot)
        except web.HTTPException:
            raise  # larger than MAX_UPDATE (413), or too slow (408)
        except Exception as exc:  # anything Telegram would not send: one line, no traceback
            log.warning("webhook: malformed update refused (%s: %s)", type(exc).__name__, exc)
            raise web.HTTPBadRequest() from None
        await self.app.update_queue.put(update)  # one handled already is skipped there
        return web.Response()


def _refused(
    kind: type[web.HTTPException], why: str, lang: str, **values: str
) -> web.HTTPException:
    """A 4xx the page shows as a page of its own: `error` says why (a code), `title` and `text`
    what happened and what to do, in the user's language."""
    title = t(lang, "web.closed" if why == "closed" else f"web.refused.{why}.title")
    text = t(lang, f"web.refused.{why}.text", **values)
    body = {"error": why, "title": title, "text": text, "lang": lang}
    return kind(text=json.dumps(body, ensure_ascii=False), content_type="application/json")


async def _body(request: web.Request, limit: int) -> bytes:
    """The request's body, if at most `limit` bytes (413 otherwise, before reading more)."""
    too_large = web.HTTPRequestEntityTooLarge(
        limit, request.content_length or limit + 1,
        text=json.dumps({"error": "request too large"}), content_type="application/json",
    )  # fmt: skip
    if request.content_length is not None and request.content_length > limit:
        raise too_large
    data = bytearray()
    try:
        async with asyncio.timeout(protocol.BODY_TIMEOUT):
            while chunk := await request.content.read(limit + 1 - len(data)):
                data += chunk
                if len(data) > limit:
                    raise too_large
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    return bytes(data)


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = exc
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    if isinstance(response, web.HTTPException):
        raise response
    return response
