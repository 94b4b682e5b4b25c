"""The presenter's digests survive a shutdown that interrupts their batch: a restart must not
edit a message with what it already shows (Telegram refuses an identical edit)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from bot import presenter as presenter_module
from bot.api import FrapBot
from bot.presenter import Presenter
from bot.storage import Storage
from bot.view.message import Rendered
from tests.fakebot import FakeTelegram

GROUP = -100778


async def test_a_batch_of_digests_cut_by_shutdown_is_written_by_close(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    write = storage.remember_messages
    slow = asyncio.Event()

    async def slow_first_batch(
        rows: Sequence[tuple[str, int, int, str]], *, forget: Sequence[str] = ()
    ) -> None:
        if not slow.is_set() and rows and rows[0][3] == edited.digest:
            slow.set()  # the batch of the edit: a slow disk, still writing at shutdown
            await asyncio.sleep(30)
        await write(rows, forget=forget)

    storage.remember_messages = slow_first_batch  # type: ignore[method-assign]
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
    slots = await storage.message_slots()
    await storage.close()
    assert slots["table:1"][2] == edited.digest
