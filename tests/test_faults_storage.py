"""The ledger under abuse — a deal settled twice changes nothing, the ledger cannot be
rewritten, and a broken invariant is reported at start-up."""

from __future__ import annotations

import logging
import random
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import StartRefused
from bot.games.family.table import deal as deal_of
from bot.storage import Movement, Storage
from tests.bot_harness import (
    GROUP_ID,
    action_buttons,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram


async def test_settling_a_deal_twice_changes_nothing(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 3, seed=4) as (bot, _group, users):
        await play_deal(bot, users, random.Random(4))
        storage = bot.service.storage
        live = bot.service.find(1)
        assert live is not None and deal_of(live) is not None and live.deal_id is not None
        ledger = await storage.money.ledger_rows(GROUP_ID)
        chat = await storage.chats.chat(GROUP_ID)
        again = [Movement(users[0].id, 5, "tricks"), Movement(users[1].id, -5, "penalty")]
        moved = replace(live.row, deal_no=live.row.deal_no + 100)
        with pytest.raises(RuntimeError, match="not in play"):
            record = deal_of(live).to_record()
            await storage.tables.save_step(moved, live.deal_id, record, again, finished=True)
        assert (
            await storage.tables.table(1) == live.row
        )  # the step's first statement rolled back too
        assert await storage.tables.void_deal(live.row, live.deal_id) == []  # a finished deal stays
        assert await storage.money.ledger_rows(GROUP_ID) == ledger
        storage.jobs.forget_chats()  # read the row itself, not the cached one
        assert await storage.chats.chat(GROUP_ID) == chat
        assert await storage.check() == []


async def test_the_ledger_is_append_only(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    await storage.close()
    with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as db:
        db.execute(
            "INSERT INTO ledger (chat_id, deal_id, user_id, amount, reason, created_at) "
            "VALUES (1, NULL, 2, 3, 'ante', 0)"
        )
        for sql in ("UPDATE ledger SET amount = 0", "DELETE FROM ledger"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                db.execute(sql)


async def test_a_broken_ledger_is_refused_at_start_up_unless_forced(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The start-up check refuses a broken ledger in one line naming the chat and the
    check; with the override the bot starts (and logs it)."""
    group, users = make_players(tg, 2)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=1) as bot:
        await open_table(bot, group, users)
    with closing(sqlite3.connect(db)) as sql, sql:
        sql.execute("UPDATE chats SET pot = pot + 7")  # seven chips from nowhere
    with pytest.raises(StartRefused) as refused:
        async with running_bot(tg, db, seed=1):
            raise AssertionError("the bot started on a broken ledger")
    line = str(refused.value)
    assert "\n" not in line and f"chat {GROUP_ID}: zero-sum check" in line, line
    caplog.set_level(logging.ERROR, logger="bot.app")
    async with running_bot(tg, db, seed=1, force_start=True) as bot:
        assert bot.service.table_in(GROUP_ID) is not None  # the table resumed
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.app"]
    assert any(f"chat {GROUP_ID}" in line and "!= 0" in line for line in lines), lines


async def test_a_redeal_starts_from_the_pot_as_stored(tg: FakeTelegram, tmp_path: Path) -> None:
    """F8: the third all-pass round's antes go into the pot before the redeal is dealt."""
    async with table_of(tg, tmp_path, 2, seed=8) as (bot, _group, users):
        for _ in range(6):  # three rounds, everyone passes
            mover, data = next(
                (u, d)
                for u in users
                if (m := control_message(tg, u))
                for _, d in action_buttons(m)
                if d.endswith(":P")
            )
            await mover.press(control_message(tg, mover), data=data)  # type: ignore[arg-type]
            await bot.idle()
        storage = bot.service.storage
        redeal = await storage.tables.current_deal(1)
        assert redeal is not None and redeal.deal_no == 2 and redeal.record.get("redeal")
        chat = await storage.chats.chat(GROUP_ID)
        assert redeal.record["pot"] == chat.pot == 4 * 2 * 10  # antes of F3 and three F8 rounds
        assert await storage.check() == []


async def test_a_ledger_row_changes_chat_only_along_a_recorded_move(tmp_path: Path) -> None:
    """migrate_chat moves ledger rows to the supergroup; any other change of a ledger
    row, its chat included, is still refused; a chat row the supergroup got first is merged."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    await storage.chats.touch_user(2, "Bob", None, "ru")
    await storage.chats.chat(-40, "Old")
    table = await storage.tables.create_table(-40, "frap", 2)
    assert table is not None
    playing = replace(table, status="playing", deal_no=1)
    await storage.tables.start_deal(playing, {}, [Movement(2, -10, "ante")])
    await storage.chats.chat(-1000040, "New")  # someone typed in the supergroup before the move
    assert await storage.chats.migrate_chat(-40, -1000040, "New") is True
    assert await storage.chats.migrate_chat(-40, -1000040, "New") is False  # done already
    assert await storage.money.ledger_rows(-1000040) == [(1, 2, -10, "ante")]
    assert (await storage.chats.chat(-40)).chat_id == -1000040  # the old id leads to the new row
    assert (await storage.chats.chat(-1000040)).pot == 10
    assert await storage.check() == []
    await storage.close()
    with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as db:
        for sql in ("UPDATE ledger SET chat_id = -7", "UPDATE ledger SET chat_id = -40"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                db.execute(sql)


async def test_a_deal_left_in_play_at_a_closed_table_is_half_settled(tmp_path: Path) -> None:
    """The start-up check names a deal whose chips are booked but which no table plays."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    await storage.chats.chat(-40, "Old")
    table = await storage.tables.create_table(-40, "frap", 2)
    assert table is not None
    playing = replace(table, status="playing", deal_no=1)
    await storage.tables.start_deal(playing, {}, [Movement(2, -10, "ante")])
    assert await storage.check() == []
    await storage.tables.save_table(
        replace(playing, status="closed")
    )  # closed, the deal not voided
    (problem,) = await storage.check()
    assert problem.line() == "chat -40: half-settled check: deal 1 in play at no table"
    await storage.close()
