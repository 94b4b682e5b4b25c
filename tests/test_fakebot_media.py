"""The fake Bot API's sendPhoto and editMessageMedia are as strict as Telegram's (limits from the
Bot API documentation: 10 MB, width + height <= 10000, ratio <= 20, captions <= 1024)."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.error import BadRequest, RetryAfter

from tests.fakebot import FakeTelegram
from tests.fakebot.media import MAX_PHOTO_BYTES

GROUP = -100123
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Next", callback_data="next")]])


def png(width: int, height: int, mode: str = "RGB") -> bytes:
    """A blank PNG of this size (mode "1" keeps huge ones small and fast)."""
    out = io.BytesIO()
    Image.new(mode, (width, height)).save(out, format="PNG")
    return out.getvalue()


def refused(error: str) -> AbstractContextManager[Any]:
    """Expect a 400 with this description (python-telegram-bot changes its first letter's case)."""
    return pytest.raises(BadRequest, match=re.compile(re.escape(error), re.IGNORECASE))


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="frapbot") as server:
        server.group(GROUP)
        yield server
    await asyncio.sleep(0)


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as client:
        yield client


# -- sendPhoto --------------------------------------------------------------------------------


async def test_uploaded_photo_has_telegram_sizes_and_downloads(tg: FakeTelegram, bot: Bot) -> None:
    content = png(1024, 1120)
    sent = await bot.send_photo(GROUP, content, caption="<b>Pulya</b> to 10", parse_mode="HTML")
    assert sent.caption == "Pulya to 10"
    assert [(size.width, size.height) for size in sent.photo] == [
        (82, 90), (293, 320), (731, 800), (1024, 1120)
    ]  # fmt: skip
    [stored] = tg.photos(GROUP)
    assert (stored.width, stored.height, stored.content) == (1024, 1120, content)
    file = await bot.get_file(sent.photo[-1].file_id)
    assert await file.download_as_bytearray() == bytearray(content)


async def test_a_big_photo_is_stored_at_most_1280_on_its_longer_side(bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, png(2000, 1000, "1"))
    assert (sent.photo[-1].width, sent.photo[-1].height) == (1280, 640)


async def test_any_size_file_id_resends_the_same_photo(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, png(400, 300))
    again = await bot.send_photo(GROUP, sent.photo[0].file_id)
    assert [size.file_id for size in again.photo] == [size.file_id for size in sent.photo]
    first, second = tg.photos(GROUP)
    assert first is second


async def test_a_document_file_id_is_not_a_photo(bot: Bot) -> None:
    document = await bot.send_document(GROUP, b"log", filename="log.txt")
    assert document.document is not None
    with refused("type of file mismatch"):
        await bot.send_photo(GROUP, document.document.file_id)
    with refused("wrong file identifier"):
        await bot.send_photo(GROUP, "AgACAgIAAxkBAAInowhere")


@pytest.mark.parametrize(
    ("width", "height", "accepted"),
    [
        (5000, 5000, True),  # width + height = 10000: the limit itself
        (5001, 5000, False),
        (2000, 100, True),  # ratio 20
        (2001, 100, False),
        (100, 2001, False),
    ],
)
async def test_photo_dimensions(bot: Bot, width: int, height: int, accepted: bool) -> None:
    content = png(width, height, "1")
    if accepted:
        sent = await bot.send_photo(GROUP, content)
        assert sent.photo
    else:
        with refused("PHOTO_INVALID_DIMENSIONS"):
            await bot.send_photo(GROUP, content)


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"not an image at all", "IMAGE_PROCESS_FAILED"),
        (png(10, 10)[:40], "IMAGE_PROCESS_FAILED"),  # a cut-off PNG
        (b"\x89PNG" + bytes(MAX_PHOTO_BYTES), "PHOTO_SAVE_FILE_INVALID"),  # over 10 MB
    ],
)
async def test_bad_photo_files_are_refused(
    tg: FakeTelegram, bot: Bot, content: bytes, error: str
) -> None:
    with refused(error):
        await bot.send_photo(GROUP, content)
    assert tg.messages(GROUP) == []


async def test_photo_caption_is_limited_after_entity_parsing(bot: Bot) -> None:
    fits = "<b>" + "x" * 1000 + "</b>" + "y" * 24  # 1024 visible characters
    sent = await bot.send_photo(GROUP, png(10, 10), caption=fits, parse_mode="HTML")
    assert sent.caption is not None and len(sent.caption) == 1024
    with refused("message caption is too long"):
        await bot.send_photo(GROUP, png(10, 10), caption=fits + "z", parse_mode="HTML")
    with refused("can't parse entities"):
        await bot.send_photo(GROUP, png(10, 10), caption="<b>open", parse_mode="HTML")


async def test_send_photo_counts_against_the_group_limit(tg: FakeTelegram, bot: Bot) -> None:
    tg.group_limit = 2
    sent = await bot.send_photo(GROUP, png(10, 10))
    await bot.send_photo(GROUP, png(10, 10))
    with pytest.raises(RetryAfter):
        await bot.send_photo(GROUP, png(10, 10))
    media = InputMediaPhoto(png(20, 20))  # an edit is not a new message
    await bot.edit_message_media(media, GROUP, sent.message_id)


# -- editMessageMedia -------------------------------------------------------------------------


async def test_edit_media_replaces_photo_caption_and_keyboard(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, png(300, 200), caption="deal 1", reply_markup=KEYBOARD)
    new = png(300, 201)
    media = InputMediaPhoto(new, caption="<i>deal 2</i>", parse_mode="HTML")
    edited = await bot.edit_message_media(media, GROUP, sent.message_id, reply_markup=KEYBOARD)
    assert not isinstance(edited, bool)
    assert edited.caption == "deal 2" and edited.reply_markup == KEYBOARD
    message = tg.last(GROUP)
    assert message.photo is not None and message.photo.content == new
    assert (message.edits, message.history) == (1, ["deal 1"])
    assert len(tg.messages(GROUP)) == 1


async def test_edit_media_drops_what_is_not_sent_again(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, png(30, 20), caption="deal 1", reply_markup=KEYBOARD)
    await bot.edit_message_media(InputMediaPhoto(sent.photo[-1].file_id), GROUP, sent.message_id)
    message = tg.last(GROUP)
    assert (message.text, message.buttons) == ("", [])  # no caption, no keyboard: both removed


async def test_identical_media_edit_is_not_modified(bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, png(30, 20), caption="sheet", reply_markup=KEYBOARD)
    same = InputMediaPhoto(sent.photo[-1].file_id, caption="sheet")
    with refused("message is not modified"):
        await bot.edit_message_media(same, GROUP, sent.message_id, reply_markup=KEYBOARD)
    other_size = InputMediaPhoto(sent.photo[0].file_id, caption="sheet")  # the same photo
    with refused("message is not modified"):
        await bot.edit_message_media(other_size, GROUP, sent.message_id, reply_markup=KEYBOARD)
    # The same picture uploaded again is a new file, as in Telegram.
    upload = InputMediaPhoto(png(30, 20), caption="sheet")
    await bot.edit_message_media(upload, GROUP, sent.message_id, reply_markup=KEYBOARD)


async def test_a_text_message_has_no_media_to_edit(tg: FakeTelegram, bot: Bot) -> None:
    text = await bot.send_message(GROUP, "table")
    with refused("there is no media in the message to edit"):
        await bot.edit_message_media(InputMediaPhoto(png(10, 10)), GROUP, text.message_id)
    photo = await bot.send_photo(GROUP, png(10, 10), caption="sheet")
    with refused("there is no text in the message to edit"):
        await bot.edit_message_text("table", GROUP, photo.message_id)
    assert tg.messages(GROUP)[0].photo is None


async def test_a_document_can_become_a_photo(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_document(GROUP, b"log", filename="log.txt")
    await bot.edit_message_media(InputMediaPhoto(png(10, 10)), GROUP, sent.message_id)
    message = tg.last(GROUP)
    assert message.document is None and message.photo is not None


async def test_a_refused_media_edit_changes_nothing(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, png(30, 20), caption="sheet")
    before = tg.last(GROUP).photo
    bad_edits = [
        (InputMediaPhoto(b"garbage"), "IMAGE_PROCESS_FAILED"),
        (InputMediaPhoto(png(2100, 100, "1")), "PHOTO_INVALID_DIMENSIONS"),
        (InputMediaPhoto(png(10, 10), caption="x" * 1025), "message caption is too long"),
        (InputMediaPhoto(png(10, 10), caption="<i>x", parse_mode="HTML"), "can't parse"),
    ]
    for media, error in bad_edits:
        with refused(error):
            await bot.edit_message_media(media, GROUP, sent.message_id)
    with refused("message to edit not found"):
        await bot.edit_message_media(InputMediaPhoto(png(10, 10)), GROUP, sent.message_id + 9)
    message = tg.last(GROUP)
    assert (message.photo, message.text, message.edits) == (before, "sheet", 0)
