"""The bot's Telegram client: python-telegram-bot's ExtBot plus the two calls the presenter makes
for every move, without turning Telegram's answer into objects nobody reads; and a message's
neutral buttons (bot/view/message.py) as Telegram's inline keyboard (`markup`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiolimiter import AsyncLimiter
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import BadRequest, NetworkError, TelegramError, TimedOut
from telegram.ext import ExtBot

from ..view.message import Button, Choice, Link, Rows

log = logging.getLogger(__name__)

_NO_PREVIEW = {"is_disabled": True}
_SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument"})
_EDITS = frozenset(
    {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
)
_KNOWN = 200  # the bot's latest message ids remembered per chat
_SETTLE = 1.0  # seconds a sweep waits: a send held by Telegram's front may land after its retry
_WATCH = 120.0  # seconds a chat's lost sends are looked for after the last was lost
_SWEEP_CALLS = 5  # a second, all sweeps together: the moves' own calls go first
_SLACK = 20  # ids looked at per sweep beyond one per lost send (a person's messages among them)


@dataclass
class _Doubt:
    """A chat's sends whose answers were lost: each may have been posted, unknown to the bot."""

    floor: int | None  # the bot's last post there before the first was lost (all are above
    # it); None: none since the start, and an older id may be a message of its from before
    lost: int = 0  # sends lost
    found: int = 0  # duplicates found (and deleted)
    until: float = 0.0  # when the chat is no longer watched (monotonic)
    timed_out: bool = False  # one did: it may land after its retry, above every id known
    posted: bool = False  # a send there has had its answer since: the others lie below it
    edited: bool = False  # an edit there has had its answer since
    looked: set[int] = field(default_factory=set)  # ids looked at: a person's, or gone

    @property
    def above(self) -> bool:
        """Whether one may lie above every id the bot knows."""
        return self.timed_out or not self.posted


class FrapBot(ExtBot[Any]):
    """ExtBot (rate limiter, defaults) with `post_text` and `edit_text`.

    editMessageText and sendMessage answer with the whole message, keyboard included; parsing it
    into a telegram.Message costs more than anything else a move does (about 0.14 ms
    a message, three messages a move), and the presenter needs only the new message's id. Both go
    through `_post`, so the rate limiter, the errors (BadRequest, Forbidden, RetryAfter, …) and
    the request settings are those of every other call.

    A send whose answer was lost (a 5xx or a time-out after Telegram had posted it): the caller
    tries again, and the chat would keep both. So the bot remembers the ids of the messages it
    posted in each chat, and of those it was sent; after sends to a chat were lost, the next one
    that succeeds there (or the first edit there that does: the presenter may edit instead of
    posting again) starts a sweep of the chat: an id above the bot's last post before the loss
    that the bot does not know of, and that it may edit (a person's message it may not), is a
    message it posted without learning of it, and is deleted. A send that timed out may land
    after its retry, so a sweep then looks above the newest id it knows too (up to an id that is
    not there yet), and a chat stays watched for a while: each later post there sweeps again
    what is new. A sweep stops once it found as many as were lost, looks at no more ids than
    that plus a few, and all sweeps together make a few calls a second: the cost is that of what
    was lost, and the moves' own calls go first. The last post's id in each chat is stored
    (`last_posts`, `recall`), so that after a restart a sweep does not take a message of the
    earlier run for a duplicate; in a chat without one it looks only above its first post.

    An edit of a message the bot deleted (or is deleting) is not sent: it fails at once with
    Telegram's own "message to edit not found", which every caller already takes for a message
    that is gone. After an outage an edit queued before the delete would otherwise reach
    Telegram after it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (PTB's objects refuse new public attributes after __init__: these are all "_")
        self._known: dict[int, deque[int]] = {}  # ids the bot posted or was sent, by chat
        self._sending: Counter[int] = Counter()  # sends to a chat not yet answered
        self._last_post: dict[int, int] = {}  # chat → the id of the bot's last post there
        self._doubts: dict[int, _Doubt] = {}  # chats whose sends' answers were lost
        self._sweeps: dict[int, asyncio.Task[None]] = {}  # chat → its sweep under way
        self._again: set[int] = set()  # chats posted in again while their sweep ran
        self._holds: dict[int, asyncio.Future[None]] = {}  # chats whose sends wait for a look
        self._sweep_calls = AsyncLimiter(_SWEEP_CALLS, 1.0)
        self._deleted: dict[int, deque[int]] = {}  # ids the bot deleted, by chat

    async def shutdown_requests(self) -> None:
        """Close the HTTP clients of a bot whose `initialize` never succeeded (Telegram was not
        reached before the bot was stopped): PTB's `shutdown` skips a bot not initialized."""
        await asyncio.gather(*(request.shutdown() for request in self._request))

    @property
    def sweeps(self) -> list[asyncio.Task[None]]:
        """The deletions of duplicates under way (the presenter's flush waits for them)."""
        return list(self._sweeps.values())

    @property
    def last_posts(self) -> Mapping[int, int]:
        """The id of the bot's last message in each chat it posted in (the presenter stores
        them, and gives them back after a restart through `recall`)."""
        return self._last_post

    def recall(self, posts: Mapping[int, int], shown: Iterable[tuple[int, int]]) -> None:
        """After a restart: the last messages the earlier run posted, by chat, and the
        (chat, message) of the messages the presenter shows. A send lost before the bot posts
        anything there is looked for above the first, and none of the second is taken for one."""
        for chat_id, message_id in posts.items():
            self._last_post[chat_id] = max(message_id, self._last_post.get(chat_id, 0))
        for chat_id, message_id in shown:
            self.seen(chat_id, message_id)

    def seen(self, chat_id: int, message_id: int) -> None:
        """A message someone sent in a chat (an update): no duplicate of the bot's."""
        self._known.setdefault(chat_id, deque(maxlen=_KNOWN)).append(message_id)

    async def _do_post(self, endpoint: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        if endpoint in _EDITS or endpoint == "deleteMessage":
            chat, message = data.get("chat_id"), data.get("message_id")
            if isinstance(chat, int) and isinstance(message, int):
                return await self._touch(endpoint, chat, message, data, *args, **kwargs)
        chat = data.get("chat_id") if endpoint in _SENDS else None
        if not isinstance(chat, int):
            return await super()._do_post(endpoint, data, *args, **kwargs)
        while (hold := self._holds.get(chat)) is not None:  # a sweep looks above the ids known
            await hold
        self._sending[chat] += 1
        try:
            result = await super()._do_post(endpoint, data, *args, **kwargs)
        except NetworkError as exc:  # a 5xx or a time-out (RetryAfter and 4xx posted nothing)
            if "*not* sent" in exc.message:  # no free connection: it never left
                raise
            doubt = self._doubts.setdefault(chat, _Doubt(self._last_post.get(chat)))
            doubt.lost += 1
            doubt.until = time.monotonic() + _WATCH
            doubt.timed_out = doubt.timed_out or isinstance(exc, TimedOut)
            doubt.posted = False
            raise
        finally:
            self._sending[chat] -= 1
            if not self._sending[chat]:
                del self._sending[chat]
        if isinstance(result, dict) and isinstance(result.get("message_id"), int):
            posted = result["message_id"]
            self.seen(chat, posted)
            self._last_post[chat] = max(posted, self._last_post.get(chat, 0))
            if chat in self._doubts:
                self._doubts[chat].posted = True
                self._start_sweep(chat)
        return result

    async def _touch(
        self, endpoint: str, chat: int, message: int, data: Any, *args: Any, **kwargs: Any
    ) -> Any:
        """An edit or a deletion of message `message` in `chat`: an edit of a message the bot
        deleted is refused without a call; a deletion is remembered from the moment it is
        sent (an edit sent meanwhile would reach Telegram after it), and forgotten if Telegram
        refused it for a message that is still there (one older than 48 hours). The first edit
        answered in a chat whose sends were lost sweeps it: the bot may not post there again."""
        if endpoint != "deleteMessage":
            if message in self._deleted.get(chat, ()):
                raise BadRequest("Message to edit not found")
            result = await super()._do_post(endpoint, data, *args, **kwargs)
            doubt = self._doubts.get(chat)
            if doubt and not doubt.edited and endpoint != "editMessageReplyMarkup":
                doubt.edited = True  # (a sweep's looks are not the bot's edits)
                self._start_sweep(chat)
            return result
        deleted = self._deleted.setdefault(chat, deque(maxlen=_KNOWN))
        deleted.append(message)
        try:
            return await super()._do_post(endpoint, data, *args, **kwargs)
        except BadRequest as exc:
            if "not found" not in exc.message.lower() and message in deleted:
                deleted.remove(message)
            raise

    def _start_sweep(self, chat_id: int) -> None:
        if chat_id in self._sweeps:  # it runs: it sweeps once more when done
            self._again.add(chat_id)
            return
        task = asyncio.create_task(self._sweep(chat_id), name=f"sweep {chat_id}")
        self._sweeps[chat_id] = task
        task.add_done_callback(lambda _: self._swept(chat_id))

    def _swept(self, chat_id: int) -> None:
        del self._sweeps[chat_id]
        if chat_id in self._again:
            self._again.discard(chat_id)
            if chat_id in self._doubts:
                self._start_sweep(chat_id)

    async def _sweep(self, chat_id: int) -> None:
        """Delete the messages the bot posted in `chat_id` without learning of them (their
        answers lost): once the sends held meanwhile have had time to land and its other sends
        there are answered, the ids it does not know of below the newest it knows, newest
        first, down to its last post before the loss (if it had one since the start); then those
        above, up to the chat's end."""
        await asyncio.sleep(_SETTLE)
        while self._sending.get(chat_id):
            await asyncio.sleep(0.05)
        doubt = self._doubts.get(chat_id)
        if doubt is None:
            return
        last = self._last_post.get(chat_id)
        if last is None:  # nothing of this run's there, nor stored: any id may be one of an
            return  # earlier run's messages
        known = {*self._known.get(chat_id, ()), *self._deleted.get(chat_id, ())}
        top = max({*known, last})  # no message of an earlier run of the bot's is above it
        budget = doubt.lost - doubt.found + _SLACK
        below = () if doubt.floor is None else range(top - 1, doubt.floor, -1)
        for message_id in below:
            if budget <= 0 or doubt.found >= doubt.lost:
                break
            if message_id not in known and message_id not in doubt.looked:
                budget -= 1
                if await self._look(chat_id, message_id, doubt) is None:
                    doubt.looked.add(message_id)  # deleted since
        message_id = top + 1
        while doubt.above and budget > 0 and doubt.found < doubt.lost:  # up to the chat's end
            budget -= 1
            if await self._look(chat_id, message_id, doubt, above=True) is None:
                break
            message_id += 1
        if doubt.found >= doubt.lost or time.monotonic() > doubt.until:
            del self._doubts[chat_id]

    async def _look(
        self, chat_id: int, message_id: int, doubt: _Doubt, *, above: bool = False
    ) -> bool | None:
        """Whether message `message_id` of `chat_id` is one of the bot's it did not know of
        (then deleted); None if there is no such message. `above` the ids the bot knows, no
        send of its may be under way there meanwhile: its message could be that id."""
        async with self._sweep_calls, self._quiet(chat_id, above):
            if message_id in self._known.get(chat_id, ()):  # a send of the bot's since
                return False
            try:  # a person's message "can't be edited"; one not there is "not found"
                await self.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
            except BadRequest as exc:
                text = exc.message.lower()
                if "not found" in text:
                    return None
                if "not modified" not in text:
                    doubt.looked.add(message_id)
                    return False
            except TelegramError as exc:
                log.info("message %s/%s not looked at: %s", chat_id, message_id, exc)
                return False
        doubt.found += 1
        doubt.looked.add(message_id)
        async with self._sweep_calls:
            try:
                await self.delete_message(chat_id, message_id)
                log.info(
                    "deleted message %s/%s: posted twice (an answer lost)", chat_id, message_id
                )
            except TelegramError as exc:
                log.info("duplicate %s/%s not deleted: %s", chat_id, message_id, exc)
        return True

    @asynccontextmanager
    async def _quiet(self, chat_id: int, hold: bool) -> AsyncIterator[None]:
        """If `hold`: once the bot's sends to the chat under way are answered, no other starts
        until the body is done."""
        if not hold:
            yield
            return
        while self._sending.get(chat_id) or chat_id in self._holds:
            await asyncio.sleep(0.05)
        held = self._holds[chat_id] = asyncio.get_running_loop().create_future()
        try:
            yield
        finally:
            del self._holds[chat_id]
            held.set_result(None)

    async def post_text(
        self, chat_id: int, text: str, keyboard: str, *, reply_to: int | None = None
    ) -> int:
        """sendMessage in HTML without link previews; `keyboard`: the inline keyboard as Bot API
        JSON ("" for none); `reply_to`: a message it answers (sent even if that one is gone).
        Returns the new message's id."""
        params = _params(chat_id, text, keyboard)
        if reply_to is not None:
            params["reply_parameters"] = {
                "message_id": reply_to,
                "allow_sending_without_reply": True,
            }
        result = await self._post("sendMessage", params)
        return int(result["message_id"])

    async def edit_text(self, chat_id: int, message_id: int, text: str, keyboard: str) -> None:
        """editMessageText in HTML without link previews; an empty `keyboard` removes the
        buttons."""
        params = _params(chat_id, text, keyboard)
        params["message_id"] = message_id
        await self._post("editMessageText", params)

    async def post_photo(
        self, chat_id: int, photo: bytes, caption: str, rows: Sequence[Sequence[Button]] = ()
    ) -> int:
        """sendPhoto of a PNG with an HTML caption; returns the new message's id (a photo is
        sent once a deal at most, so the parsed answer costs nothing that matters)."""
        message = await self.send_photo(
            chat_id, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup(rows)
        )
        return message.message_id

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        photo: bytes,
        caption: str,
        rows: Sequence[Sequence[Button]] = (),
    ) -> None:
        """editMessageMedia: the photo and its HTML caption replaced in place (no notification,
        no new message: the pulya sheet after each deal)."""
        media = InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML)
        await self.edit_message_media(
            media, chat_id=chat_id, message_id=message_id, reply_markup=markup(rows)
        )


def markup(rows: Sequence[Sequence[Button]]) -> InlineKeyboardMarkup | None:
    """A message's rows of buttons as Telegram's inline keyboard (None for none): a choice sends
    its press as callback data, a link opens its address (a `web_app` button for the Mini App)."""
    if not rows:
        return None
    return InlineKeyboardMarkup([[_button(button) for button in row] for row in rows])


def rows_of(keyboard: InlineKeyboardMarkup | None) -> Rows:
    """Telegram's inline keyboard as a message's neutral rows of buttons, `markup` undone."""
    if keyboard is None:
        return ()
    return tuple(tuple(_neutral(b) for b in row) for row in keyboard.inline_keyboard)


def _neutral(button: InlineKeyboardButton) -> Button:
    if button.web_app is not None:
        return Link(button.text, button.web_app.url, app=True)
    if button.url is not None:
        return Link(button.text, button.url)
    return Choice(button.text, str(button.callback_data or ""))


def _button(button: Button) -> InlineKeyboardButton:
    if isinstance(button, Choice):
        return InlineKeyboardButton(button.label, callback_data=button.press)
    if button.app:
        return InlineKeyboardButton(button.label, web_app=WebAppInfo(button.url))
    return InlineKeyboardButton(button.label, url=button.url)


def _params(chat_id: int, text: str, keyboard: str) -> dict[str, Any]:
    params: dict[str, Any] = {
        "chat_id": chat_id,
        "text": text,
        "parse_mode": ParseMode.HTML,
        "link_preview_options": _NO_PREVIEW,
    }
    if keyboard:
        params["reply_markup"] = keyboard
    return params
