"""The presenter's digests survive a shutdown that interrupts their batch: a restart must not
edit a message with what it already shows (Telegram refuses an identical edit)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.error import NetworkError

from bot import presenter as presenter_module
from bot.client.api import FrapBot, markup
from bot.presenter import Presenter
from bot.storage import Storage, StorageUnavailable
from bot.view.message import Choice, Link, Rendered
from tests.fakebot import FakeTelegram

GROUP = -100778


async def test_a_batch_of_digests_cut_by_shutdown_is_written_by_close(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    write = storage.messages.remember_messages
    slow = asyncio.Event()

    async def slow_first_batch(
        rows: Sequence[tuple[str, int, int, str]],
        *,
        forget: Sequence[str] = (),
        posts: Mapping[int, int] | None = None,
    ) -> None:
        if not slow.is_set() and rows and rows[0][3] == edited.digest:
            slow.set()  # the batch of the edit: a slow disk, still writing at shutdown
            await asyncio.sleep(30)
        await write(rows, forget=forget, posts=posts)

    storage.messages.remember_messages = slow_first_batch  # type: ignore[method-assign]
    edited = Rendered("second")
    async with FakeTelegram(bot_username="frapbot") as tg:
        tg.group(GROUP)
        async with FrapBot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
            presenter = Presenter(bot, storage)
            presenter.show("table:1", GROUP, Rendered("first"))
            await presenter.flush()
            presenter.show("table:1", GROUP, edited)
            await presenter.flush()
            await asyncio.wait_for(slow.wait(), presenter_module._SAVE_EVERY + 5)
            await presenter.close(timeout=1)
    slots = await storage.messages.message_slots()
    await storage.close()
    assert slots["table:1"][2] == edited.digest


async def test_a_renewed_message_is_deleted_only_once_the_new_id_is_stored(tmp_path: Path) -> None:
    """A full disk: the old message of a renewed slot (a turn ping) stays until the new
    one's id is written, so a restart before that edits a message that is still there."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    write = storage.messages.remember_messages
    full = asyncio.Event()  # set: the disk takes no more writes of the renewed message

    async def disk(
        rows: Sequence[tuple[str, int, int, str]],
        *,
        forget: Sequence[str] = (),
        posts: Mapping[int, int] | None = None,
    ) -> None:
        if full.is_set() and rows and rows[0][3] == renewed.digest:
            raise StorageUnavailable("full", sqlite3.OperationalError("database or disk is full"))
        await write(rows, forget=forget, posts=posts)

    storage.messages.remember_messages = disk  # type: ignore[method-assign]
    renewed = Rendered("your move")
    async with FakeTelegram(bot_username="frapbot") as tg:
        group = tg.group(GROUP)
        async with FrapBot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
            presenter = Presenter(bot, storage)
            try:
                presenter.show("ping:1", GROUP, Rendered("waiting"))
                await presenter.flush()
                [first] = tg.messages(group)
                full.set()
                presenter.show("ping:1", GROUP, renewed, renew=True)
                await presenter.flush()
                await asyncio.sleep(0.1)
                assert [m.text for m in tg.messages(group)] == ["waiting", "your move"]
                assert (await storage.messages.message_slots())["ping:1"][1] == first.message_id
                full.clear()
                await presenter.save()
                await tg.wait_for(lambda: len(tg.messages(group)) == 1)
                assert [m.text for m in tg.messages(group)] == ["your move"]
            finally:
                full.clear()  # (a failed check leaves no batch retrying behind it)
                await presenter.close(timeout=1)
    slots = await storage.messages.message_slots()
    await storage.close()
    assert slots["ping:1"][1] == tg.messages(group, include_deleted=True)[-1].message_id


def test_a_messages_buttons_keep_the_digest_python_telegram_bot_gave_them() -> None:
    """Neutral buttons are written as python-telegram-bot wrote its inline keyboard (a digest
    stored before matches the same message now: a restart edits nothing), and the Telegram
    client turns them into the same keyboard."""
    rows = [
        [Choice("Вист ✖️ <b>", "a:1:2:3:W"), Link("Open", "https://t.me/bot?start=hand")],
        [Link("🃏 Стол", "https://example.org/app?table=7", app=True)],
    ]
    keyboard = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Вист ✖️ <b>", callback_data="a:1:2:3:W"),
                InlineKeyboardButton("Open", url="https://t.me/bot?start=hand"),
            ],
            [
                InlineKeyboardButton(
                    "🃏 Стол", web_app=WebAppInfo("https://example.org/app?table=7")
                )
            ],
        ]
    )
    content = Rendered("<b>table</b>", rows)
    assert content.keyboard == keyboard.to_json()
    assert markup(content.rows) == keyboard
    assert Rendered("plain").keyboard == "" and markup(()) is None
    assert content.digest == "e63e332b7a45dc23"  # as the telegram keyboard made it before


async def test_a_message_waiting_out_its_back_off_is_sent_once_telegram_answers(
    tmp_path: Path,
) -> None:
    """Telegram was down long enough for a message's tries to be seconds apart; when it answers
    again the message goes at once, not at the end of its back-off."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    async with FakeTelegram(bot_username="frapbot") as tg:
        tg.group(GROUP)
        async with FrapBot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
            presenter = Presenter(bot, storage)
            tg.outage(502)
            presenter.show("table:1", GROUP, Rendered("first"))
            await tg.wait_for(lambda: len(tg.calls("sendMessage")) >= 4, timeout=10)
            tg.end_outage()  # the next try is 4 s away (0.5, 1, 2, 4)
            loop = asyncio.get_running_loop()
            started = loop.time()
            presenter.wake()  # bot.metrics.Telegram tells when another call has its answer
            await presenter.flush()
            waited = loop.time() - started
            await presenter.close(timeout=1)
    await storage.close()
    assert [m.text for m in tg.messages(GROUP)] == ["first"]
    assert waited < 2


async def test_telegram_answering_while_a_try_is_under_way_spares_that_try_its_back_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telegram answers another call again while a message's try is still waiting for its own
    answer, which then fails: the next try goes at once, the wake not lost for coming early."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    async with FakeTelegram(bot_username="frapbot") as tg:
        tg.group(GROUP)
        async with FrapBot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
            presenter = Presenter(bot, storage)
            post = FrapBot.post_text
            loop = asyncio.get_running_loop()
            failed: list[float] = []

            async def post_text(self: FrapBot, *args: Any, **kwargs: Any) -> int:
                try:
                    return await post(self, *args, **kwargs)
                except NetworkError:
                    if len(failed) == 2:  # the third try: Telegram is back meanwhile
                        tg.end_outage()
                        presenter.wake()
                    failed.append(loop.time())
                    raise

            monkeypatch.setattr(FrapBot, "post_text", post_text)
            tg.outage(502)
            presenter.show("table:1", GROUP, Rendered("first"))
            await tg.wait_for(lambda: len(failed) >= 3, timeout=10)
            await tg.wait_for(lambda: len(tg.messages(GROUP)) == 1, timeout=10)
            sent = loop.time()
            await presenter.close(timeout=1)
    await storage.close()
    assert [m.text for m in tg.messages(GROUP)] == ["first"]
    assert sent - failed[2] < 1  # not the 2 s its back-off would have been
