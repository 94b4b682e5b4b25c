"""The bot's Telegram client: python-telegram-bot's ExtBot plus the two calls the presenter makes
for every move, without turning Telegram's answer into objects nobody reads; and a message's
neutral buttons (bot/view/message.py) as Telegram's inline keyboard (`markup`)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import BadRequest, NetworkError, TelegramError
from telegram.ext import ExtBot

from ..view.message import Button, Choice

log = logging.getLogger(__name__)

_NO_PREVIEW = {"is_disabled": True}
_SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument"})
_EDITS = frozenset(
    {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
)
_KNOWN = 200  # the bot's latest message ids remembered per chat
_LOOK_BACK = 20  # at most this many ids before a re-sent message are looked at for a duplicate


class FrapBot(ExtBot[Any]):
    """ExtBot (rate limiter, defaults) with `post_text` and `edit_text`.

    editMessageText and sendMessage answer with the whole message, keyboard included; parsing it
    into a telegram.Message costs more than anything else a move does (about 0.14 ms
    a message, three messages a move), and the presenter needs only the new message's id. Both go
    through `_post`, so the rate limiter, the errors (BadRequest, Forbidden, RetryAfter, …) and
    the request settings are those of every other call.

    A send whose answer was lost (a 5xx or a time-out after Telegram had posted it):
    the caller tries again, and the chat would keep both. So the bot remembers the ids of the
    messages it posted in each chat, and of those it was sent; after a send failed that way,
    the next one that succeeds in that chat (id N) looks at the ids between the bot's last post
    there before the failure and N: all were posted since, so one the bot does not know of and
    may edit (a person's message it may not) is a message it posted without learning of it, and
    is deleted. (A chat it has posted nothing in since the start is left as it is.)

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
        self._doubtful: dict[int, int | None] = {}  # chat → that id before a lost send
        self._sweeps: set[asyncio.Task[None]] = set()
        self._deleted: dict[int, deque[int]] = {}  # ids the bot deleted, by chat

    async def shutdown_requests(self) -> None:
        """Close the HTTP clients of a bot whose `initialize` never succeeded (Telegram was not
        reached before the bot was stopped): PTB's `shutdown` skips a bot not initialized."""
        await asyncio.gather(*(request.shutdown() for request in self._request))

    @property
    def sweeps(self) -> set[asyncio.Task[None]]:
        """The deletions of duplicates under way (the presenter's flush waits for them)."""
        return self._sweeps

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
        self._sending[chat] += 1
        try:
            result = await super()._do_post(endpoint, data, *args, **kwargs)
        except NetworkError:  # a 5xx or a time-out (RetryAfter and 4xx posted nothing)
            self._doubtful.setdefault(chat, self._last_post.get(chat))
            raise
        finally:
            self._sending[chat] -= 1
            if not self._sending[chat]:
                del self._sending[chat]
        if isinstance(result, dict) and isinstance(result.get("message_id"), int):
            posted = result["message_id"]
            self.seen(chat, posted)
            self._last_post[chat] = max(posted, self._last_post.get(chat, 0))
            if chat in self._doubtful:
                task = asyncio.create_task(
                    self._sweep(chat, self._doubtful.pop(chat), posted), name=f"sweep {chat}"
                )
                self._sweeps.add(task)
                task.add_done_callback(self._sweeps.discard)
        return result

    async def _touch(
        self, endpoint: str, chat: int, message: int, data: Any, *args: Any, **kwargs: Any
    ) -> Any:
        """An edit or a deletion of message `message` in `chat`: an edit of a message the bot
        deleted is refused without a call; a deletion is remembered from the moment it is
        sent (an edit sent meanwhile would reach Telegram after it), and forgotten if Telegram
        refused it for a message that is still there (one older than 48 hours)."""
        if endpoint != "deleteMessage":
            if message in self._deleted.get(chat, ()):
                raise BadRequest("Message to edit not found")
            return await super()._do_post(endpoint, data, *args, **kwargs)
        deleted = self._deleted.setdefault(chat, deque(maxlen=_KNOWN))
        deleted.append(message)
        try:
            return await super()._do_post(endpoint, data, *args, **kwargs)
        except BadRequest as exc:
            if "not found" not in exc.message.lower() and message in deleted:
                deleted.remove(message)
            raise

    async def _sweep(self, chat_id: int, floor: int | None, posted: int) -> None:
        """Delete the messages the bot posted in `chat_id` before `posted` without learning of
        them (their answers lost); first waiting for its other sends there to be answered."""
        if floor is None:  # nothing posted there since the start: an older id may be a
            return  # message of ours from before it, not a duplicate
        while self._sending.get(chat_id):
            await asyncio.sleep(0.05)
        known = {*self._known.get(chat_id, ()), *self._deleted.get(chat_id, ())}
        start = max(posted - _LOOK_BACK, floor) + 1
        for message_id in range(start, posted):
            if message_id in known:
                continue
            try:  # a person's message "can't be edited"; a gone one is "not found"
                await self.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
            except BadRequest as exc:
                if "not modified" not in exc.message.lower():
                    continue
            except TelegramError as exc:
                log.info("message %s/%s not looked at: %s", chat_id, message_id, exc)
                continue
            try:
                await self.delete_message(chat_id, message_id)
                log.info(
                    "deleted message %s/%s: posted twice (an answer lost)", chat_id, message_id
                )
            except TelegramError as exc:
                log.info("duplicate %s/%s not deleted: %s", chat_id, message_id, exc)

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
