"""The bot's Telegram client: python-telegram-bot's ExtBot plus the two calls the presenter makes
for every move, without turning Telegram's answer into objects nobody reads."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.ext import ExtBot

_NO_PREVIEW = {"is_disabled": True}


class FrapBot(ExtBot[Any]):
    """ExtBot (rate limiter, defaults) with `post_text` and `edit_text`.

    editMessageText and sendMessage answer with the whole message, keyboard included; parsing it
    into a telegram.Message costs more than anything else a move does (issue 6: about 0.14 ms
    a message, three messages a move), and the presenter needs only the new message's id. Both go
    through `_post`, so the rate limiter, the errors (BadRequest, Forbidden, RetryAfter, …) and
    the request settings are those of every other call."""

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
        self, chat_id: int, photo: bytes, caption: str, markup: InlineKeyboardMarkup | None
    ) -> int:
        """sendPhoto of a PNG with an HTML caption; returns the new message's id (a photo is
        sent once a deal at most, so the parsed answer costs nothing that matters)."""
        message = await self.send_photo(
            chat_id, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup
        )
        return message.message_id

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        photo: bytes,
        caption: str,
        markup: InlineKeyboardMarkup | None,
    ) -> None:
        """editMessageMedia: the photo and its HTML caption replaced in place (no notification,
        no new message: the pulya sheet after each deal)."""
        media = InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML)
        await self.edit_message_media(
            media, chat_id=chat_id, message_id=message_id, reply_markup=markup
        )


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
