"""Issue 4: the ledger under abuse — a deal settled twice changes nothing, the ledger cannot be
rewritten, and a broken invariant is reported at start-up."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import Movement, Storage, TableRow
from tests.bot_harness import (
    GROUP_ID,
    action_buttons,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram


async def test_settling_a_deal_twice_changes_nothing(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        await open_table(bot, group, users)
        await play_deal(bot, users, random.Random(4))
        storage = bot.service.storage
        live = bot.service.find(1)
        assert live is not None and live.deal is not None and live.deal_id is not None
        ledger = await storage.ledger_rows(GROUP_ID)
        chat = await storage.chat(GROUP_ID)
        again = [Movement(users[0].id, 5, "tricks"), Movement(users[1].id, -5, "penalty")]
        moved = replace(live.row, deal_no=live.row.deal_no + 100)
        with pytest.raises(RuntimeError, match="not in play"):
            record = live.deal.to_record()
            await storage.save_step(moved, live.deal_id, record, again, finished=True)
        assert await storage.table(1) == live.row  # the step's first statement rolled back too
        assert await storage.void_deal(live.row, live.deal_id) == []  # a finished deal stays
        assert await storage.ledger_rows(GROUP_ID) == ledger
        storage._chats.clear()  # read the row itself, not the cached one
        assert await storage.chat(GROUP_ID) == chat
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


async def test_a_broken_ledger_is_reported_at_start_up(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    group, users = make_players(tg, 2)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=1) as bot:
        await open_table(bot, group, users)
    with closing(sqlite3.connect(db)) as sql, sql:
        sql.execute("UPDATE chats SET pot = pot + 7")  # seven chips from nowhere
    caplog.set_level(logging.ERROR, logger="bot.app")
    async with running_bot(tg, db, seed=1):
        pass
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.app"]
    assert any(f"chat {GROUP_ID}" in line and "!= 0" in line for line in lines), lines


async def test_a_redeal_starts_from_the_pot_as_stored(tg: FakeTelegram, tmp_path: Path) -> None:
    """F8: the third all-pass round's antes go into the pot before the redeal is dealt."""
    group, users = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=8) as bot:
        await open_table(bot, group, users)
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
        redeal = await storage.current_deal(1)
        assert redeal is not None and redeal.deal_no == 2 and redeal.record.get("redeal")
        chat = await storage.chat(GROUP_ID)
        assert redeal.record["pot"] == chat.pot == 4 * 2 * 10  # antes of F3 and three F8 rounds
        assert await storage.check() == []


Deals = tuple[Storage, list[tuple[TableRow, int]]]


@pytest.fixture
async def two_deals(tmp_path: Path) -> AsyncIterator[Deals]:
    """A database with two chats, each with a deal in play that took one ante from each of two
    players (closed afterwards even if the test fails: aiosqlite's thread would keep pytest
    from exiting)."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    try:
        deals = []
        for chat_id in (-1001, -1002):
            await storage.chat(chat_id, "group")
            for user_id in (1, 2):
                await storage.touch_user(user_id, f"user {user_id}", None, "en")
            table = await storage.create_table(chat_id, "frap", 1)
            assert table is not None
            table = replace(table, status="playing", seats=(1, 2), deal_no=1)
            antes = [Movement(1, -10, "ante"), Movement(2, -10, "ante")]
            deals.append((table, await storage.start_deal(table, {"deal": 1}, antes)))
        yield storage, deals
    finally:
        await storage.close()


async def test_concurrent_writes_of_two_chats_are_each_whole(two_deals: Deals) -> None:
    """Issue 10: steps, voids and deal starts of two chats at once, with reads in between: each
    write is one statement, so a read sees it whole or not at all."""
    storage, deals = two_deals
    antes = [Movement(1, -10, "ante"), Movement(2, -10, "ante")]

    async def play(table: TableRow, deal_id: int) -> None:
        for _ in range(10):
            await storage.save_step(table, deal_id, {"step": 1}, [Movement(1, 15, "tricks")])
            reversal = [Movement(1, -5, "void"), Movement(2, 10, "void")]
            assert await storage.void_deal(table, deal_id) == reversal
            assert await storage.void_deal(table, deal_id) == []  # voided already
            table = replace(table, deal_no=table.deal_no + 1)
            deal_id = await storage.start_deal(table, {"deal": table.deal_no}, antes)

    async def watch(chat_id: int) -> set[int]:
        return {sum(b for _, b in await storage.balances(chat_id)) for _ in range(60)}

    players = [asyncio.create_task(play(*deal)) for deal in deals]
    seen = await watch(-1001)
    await asyncio.gather(*players)
    assert seen <= {-20, -5, 0}  # a deal in play, after the step, voided: nothing in between
    assert await storage.check() == []
    assert sum(r[2] for r in await storage.ledger_rows(-1002)) == -20  # the last deal's antes
    assert (await storage.chat(-1002)).pot == 20


async def test_a_cancelled_deal_start_is_written_whole(two_deals: Deals) -> None:
    """Issue 10: a caller cancelled while its write runs cannot leave half of it (a deal
    without its antes, the table without its deal)."""
    storage, [(table, _), _] = two_deals
    await storage.void_deal(table, 1)
    loop = asyncio.get_running_loop()
    second = replace(table, deal_no=2)
    antes = [Movement(1, -10, "ante"), Movement(2, -10, "ante")]
    start = asyncio.create_task(storage.start_deal(second, {"deal": 2}, antes))

    def cancel_on_insert(sql: str) -> None:  # on the database thread, as the deal is written
        if sql.startswith("INSERT INTO deal_start"):
            loop.call_soon_threadsafe(start.cancel)

    await storage._db.set_trace_callback(cancel_on_insert)
    with pytest.raises(asyncio.CancelledError):
        await start
    await storage._db.set_trace_callback(None)  # type: ignore[arg-type]
    assert await storage.table(table.table_id) == second
    deal = await storage.current_deal(table.table_id)
    assert deal is not None and deal.deal_no == 2
    booked = [(r[0], r[2]) for r in await storage.ledger_rows(-1001)]
    assert booked[-2:] == [(deal.deal_id, -10), (deal.deal_id, -10)]
    assert await storage.check() == []
