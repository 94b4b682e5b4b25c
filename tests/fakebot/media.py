"""sendPhoto and editMessageMedia, with the Bot API's limits and errors.

Telegram's documentation: a photo is at most 10 MB, its width and height must not exceed 10000
in total, and its width/height ratio must be at most 20; a caption is 0-1024 characters after
entity parsing. A photo is re-sent by any of its sizes' file_ids; a document's file_id is not a
photo ("type of file mismatch"). editMessageMedia replaces the media of a media message only (a
text message has none), takes the new caption from the InputMedia (absent: no caption) and, like
every edit, drops the inline keyboard unless it is sent again; an edit that changes nothing is
"message is not modified".
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, UnidentifiedImageError

from tests.fakebot.html_check import ParsedText
from tests.fakebot.methods import NOT_MODIFIED, BotApi, _keyboard
from tests.fakebot.models import Json, StoredMessage, StoredPhoto, bad_request
from tests.fakebot.params import Params, Upload

MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000  # width + height
MAX_PHOTO_RATIO = 20
MAX_CAPTION = 1024
_ATTACH = "attach://"
_NOT_A_PHOTO = "type of file mismatch"
_UNKNOWN_FILE = "wrong file identifier/HTTP URL specified"


class MediaApi:
    """The photo methods of a BotApi (it registers them under their Bot API names)."""

    def __init__(self, api: BotApi) -> None:
        self.api = api
        self.world = api.world
        api.register("sendPhoto", self.send_photo)
        api.register("editMessageMedia", self.edit_message_media)

    async def send_photo(self, p: Params) -> Json:
        """sendPhoto: a multipart upload or a photo's file_id."""
        chat = self.api._writable_chat(p)
        upload = p.upload("photo")
        photo = self._photo(upload, None if upload else p.text("photo"))
        caption = self._caption(p)
        markup = self.api._reply_markup(p, inline_only=False, chat=chat)
        reply_to = self.api._reply_target(chat, p)
        self.api._count_new_message(chat)
        message = self.world.new_message(
            chat, None, text=caption.text, html=p.text("caption") or "",
            entities=caption.entities, parse_mode=p.text("parse_mode"), reply_markup=markup,
            reply_to=reply_to, photo=photo,
        )  # fmt: skip
        return message.to_api(self.world.bot)

    async def edit_message_media(self, p: Params) -> Json:
        """editMessageMedia with an InputMediaPhoto (uploaded as attach://<part> or a file_id)."""
        message = self.api._own_message(p, "edit")
        media = p.obj("media", "InputMedia")
        if not isinstance(media, dict):
            raise bad_request("can't parse InputMedia JSON object")
        kind = media.get("type")
        if kind != "photo":
            raise bad_request(f"fakebot does not implement InputMedia of type {kind!r}")
        reference = media.get("media")
        if not isinstance(reference, str) or not reference:
            raise bad_request("can't parse InputMedia: Media is not specified")
        if message.photo is None and message.document is None:
            raise bad_request("there is no media in the message to edit")
        if reference.startswith(_ATTACH):
            upload = p.upload(reference.removeprefix(_ATTACH))
            if upload is None:
                raise bad_request("can't find the attached file")
            photo = self._photo(upload, None)
        else:
            photo = self._photo(None, reference)
        caption = self._caption(Params(_caption_fields(media)))
        markup = self.api._reply_markup(p, inline_only=True, chat=message.chat)
        if _unchanged(message, photo, caption, markup):
            raise bad_request(NOT_MODIFIED)
        message.history.append(message.text)
        message.photo, message.document = photo, None
        message.text, message.entities = caption.text, caption.entities
        message.html, message.parse_mode = media.get("caption") or "", media.get("parse_mode")
        self.api._apply_edit(message, markup)
        return message.to_api(self.world.bot)

    def _caption(self, p: Params) -> ParsedText:
        return self.api._content(
            p, "caption", MAX_CAPTION, "message caption is too long", required=False
        )

    def _photo(self, upload: Upload | None, reference: str | None) -> StoredPhoto:
        """The photo an upload or a file_id names, checked as Telegram checks it."""
        if upload is not None:
            return self._stored(upload.content)
        if not reference:
            raise bad_request("there is no photo in the request")
        if reference.startswith(("http://", "https://")):
            raise bad_request("fakebot does not fetch photos by URL")
        known = self.world.photos.get(reference)
        if known is not None:
            return known
        if reference in self.world.files:
            raise bad_request(_NOT_A_PHOTO)
        raise bad_request(_UNKNOWN_FILE)

    def _stored(self, content: bytes) -> StoredPhoto:
        if not content:
            raise bad_request("file must be non-empty")
        if len(content) > MAX_PHOTO_BYTES:
            raise bad_request("PHOTO_SAVE_FILE_INVALID")
        try:
            with Image.open(io.BytesIO(content)) as image:
                image.verify()
                width, height = image.size
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
            raise bad_request("IMAGE_PROCESS_FAILED") from None
        ratio = max(width, height) / max(1, min(width, height))
        if width + height > MAX_PHOTO_SIDES or ratio > MAX_PHOTO_RATIO:
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        photo = StoredPhoto(content, width, height, self.world.serial())
        for file_id in photo.file_ids:
            self.world.photos[file_id] = photo
        return photo


def _caption_fields(media: dict[str, Any]) -> dict[str, Any]:
    fields = ("caption", "parse_mode", "caption_entities")
    return {key: media[key] for key in fields if key in media}


def _unchanged(
    message: StoredMessage, photo: StoredPhoto, caption: ParsedText, markup: Json | None
) -> bool:
    same_keyboard = _keyboard(markup) == _keyboard(message.reply_markup)
    same_caption = (caption.text, caption.entities) == (message.text, message.entities)
    return message.photo is photo and same_caption and same_keyboard
