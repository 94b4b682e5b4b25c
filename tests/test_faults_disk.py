"""The host's own trouble. The database fills up mid-deal (SQLite's max_page_count), or
another process holds its write lock longer than the busy timeout: the step whose write fails
is neither applied nor shown, the player is told to try again, the bot keeps running, and play
resumes once the database takes writes again; nothing half-written."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.games.family.table import deal as deal_of
from bot.table import timers as timers_module
from tests.bot_harness import (
    RunningBot,
    action_buttons,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram, FakeUser

NOT_SAVED = "Не удалось сохранить ход, попробуйте ещё раз."


def _mover(bot: RunningBot, users: list[FakeUser]) -> tuple[FakeUser, str]:
    """Who is to move and the move he makes (a card is marked for discarding once, F9)."""
    for user in users:
        message = control_message(bot.tg, user)
        moves = [d for _, d in action_buttons(message) if not d.endswith(":L")] if message else []
        if moves:
            return user, next((d for d in moves if d.startswith("a:")), moves[0])
    raise AssertionError("nobody to move")


def _stored_steps(db: Path) -> int:
    with closing(sqlite3.connect(db)) as sql:
        (record,) = sql.execute("SELECT record FROM deals WHERE status = 'playing'").fetchone()
    return len(json.loads(record)["actions"])


async def _refused_press(bot: RunningBot, users: list[FakeUser], db: Path, tries: int = 1) -> int:
    """Press moves until one is refused (within `tries`): it is answered with the alert, and
    nothing changes, in memory, on disk or on screen. Returns the deal's step then."""
    live = bot.service.find(1)
    assert live is not None
    for _ in range(tries):
        step, stored = live.step, _stored_steps(db)
        assert stored == step
        screens = {u.id: control_message(bot.tg, u).html for u in users}  # type: ignore[union-attr]
        user, data = _mover(bot, users)
        query = await user.press(control_message(bot.tg, user), data=data)  # type: ignore[arg-type]
        await bot.idle()
        answer = bot.tg.callback_answer(query)
        assert answer is not None
        if answer.get("text") != NOT_SAVED:  # saved (or a card marked to discard: F9)
            assert live.step in (step, step + 1)
            continue
        assert answer.get("show_alert")
        assert live.step == step and _stored_steps(db) == stored  # not applied, not half-written
        assert {u.id: control_message(bot.tg, u).html for u in users} == screens  # type: ignore[union-attr]
        assert _mover(bot, users) == (user, data)  # the same move is still to make
        return step
    raise AssertionError(f"no press refused in {tries}")


async def test_a_full_disk_mid_deal_loses_nothing_and_play_resumes(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    with closing(sqlite3.connect(db)) as sql:  # small pages: a growing record soon needs one more
        sql.execute("PRAGMA page_size=512")
        sql.execute("VACUUM")
    async with running_bot(tg, db, seed=6) as bot:
        await open_table(bot, group, users)
        connection = (
            bot.service.storage.jobs.connection
        )  # the bot's: max_page_count is per connection
        (pages,) = await (await connection.execute("PRAGMA page_count")).fetchone()  # type: ignore[misc]
        await connection.execute(f"PRAGMA max_page_count={pages + 2}")
        await connection.execute("CREATE TABLE filler (junk BLOB)")  # the disk fills up
        try:
            while True:
                await connection.execute("INSERT INTO filler VALUES (randomblob(200))")
        except sqlite3.OperationalError as full:
            assert "full" in str(full)
        saved = await _refused_press(bot, users, db, tries=30)  # some fit in the last pages
        await _refused_press(bot, users, db)  # and again: the bot keeps running
        live = bot.service.find(1)
        assert live is not None and deal_of(live) is not None and not deal_of(live).finished
        await connection.execute(f"PRAGMA max_page_count={pages * 100}")  # space returns
        user, data = _mover(bot, users)
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        await bot.idle()
        assert live.step == saved + 1 and _stored_steps(db) == saved + 1
        await play_deal(bot, users, random.Random(6))
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_a_write_lock_held_past_the_busy_timeout(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=6, db_busy_timeout=0.3) as bot:
        await open_table(bot, group, users)
        with closing(sqlite3.connect(db, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another process's write transaction
            await _refused_press(bot, users, db)
            other.execute("ROLLBACK")
        user, data = _mover(bot, users)
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        await bot.idle()
        live = bot.service.find(1)
        assert live is not None and live.step == 1 and _stored_steps(db) == 1
        await play_deal(bot, users, random.Random(6))
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_a_time_out_the_database_refuses_is_made_once_it_takes_writes(
    tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody waits for a turn timer: while the database is locked its time-out is tried
    again (no traceback, nothing half-written), and made once the lock is gone."""
    monkeypatch.setattr(timers_module, "RETRY_AFTER", 0.3)
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=6, db_busy_timeout=0.1, turn_timeout=1) as bot:
        await open_table(bot, group, users)
        live = bot.service.find(1)
        assert live is not None and live.step == 0
        with closing(sqlite3.connect(db, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            await asyncio.sleep(2)  # the time-out is due, and refused (more than once)
            assert live.step == 0 and _stored_steps(db) == 0
            other.execute("ROLLBACK")
        await bot.tg.wait_for(lambda: live.step >= 1, timeout=5)  # made now
        await bot.idle()
        assert _stored_steps(db) >= 1 and await bot.service.storage.check() == []
