"""The operator's commands — `python -m bot check`, `python -m bot backup FILE` while
the bot plays, a corrupted database refused by `python -m bot` — and admins' /export."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import random
import sqlite3
import sys
from collections import Counter
from contextlib import closing
from pathlib import Path

from bot.storage import Storage
from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    make_players,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram
from tests.test_faults_migration import move

ROOT = Path(__file__).resolve().parent.parent


async def run_bot(tg: FakeTelegram, db: Path, *args: str, wait: float = 60) -> tuple[int, str]:
    """`python -m bot ARGS` against the fake server: (exit status, stderr); killed after `wait`
    seconds (a bot that started stops only when told)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BOT_TOKEN": tg.token,
        "BOT_API_URL": tg.base_url,
        "BOT_FILE_API_URL": tg.base_file_url,
        "DB_PATH": str(db),
        "POLL_TIMEOUT": "1",
        "LOG_LEVEL": "WARNING",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    talk = asyncio.ensure_future(proc.communicate())  # not cancelled: it keeps what it read
    done, _ = await asyncio.wait({talk}, timeout=wait)
    if not done:
        proc.terminate()
    _, err = await talk
    assert proc.returncode is not None
    return (proc.returncode if done else -1), err.decode()


async def test_a_corrupted_database_is_refused_and_accepted_with_the_override(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 2)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=1) as bot:
        await open_table(bot, group, users)
    assert await run_bot(tg, db, "check") == (0, "")
    with closing(sqlite3.connect(db)) as sql, sql:  # a balance changed behind the ledger's back
        sql.execute("UPDATE balances SET balance = balance + 3 WHERE user_id = ?", (users[1].id,))
    status, err = await run_bot(tg, db)
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("refusing to start: ")
    assert f"chat {GROUP_ID}: zero-sum check" in err  # names the chat and the check
    status, err = await run_bot(tg, db, "check")
    assert status == 1
    assert f"chat {GROUP_ID}: ledger check: user {users[1].id}: balance" in err
    updates = len(tg.calls("getUpdates"))
    status, err = await run_bot(tg, db, "--force", wait=8)  # starts, polls until stopped
    assert status == -1 and len(tg.calls("getUpdates")) > updates
    assert "storage check failed" in err


async def test_a_backup_taken_during_play_opens_and_passes_the_check(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    db, copy = tmp_path / "db.sqlite3", tmp_path / "backup.sqlite3"
    rng = random.Random(2)
    async with running_bot(tg, db, seed=2) as bot:
        await open_table(bot, group, users)
        await move(bot, users, rng)
        backup = asyncio.create_task(run_bot(tg, db, "backup", str(copy)))
        for _ in range(3):  # the bot plays on while the copy is taken
            await move(bot, users, rng)
        assert await backup == (0, "")
        storage = await Storage.open(str(copy))
        try:
            assert await storage.check() == []
            tables = await storage.tables.open_tables()
            assert [t.chat_id for t in tables] == [GROUP_ID]
            deal = await storage.tables.current_deal(tables[0].table_id)
            assert deal is not None and deal.status == "playing"
            chat = await storage.chats.chat(GROUP_ID)
            balances = sum(b for _, b in await storage.money.balances(GROUP_ID))
            assert chat.pot + balances == 0 and chat.pot > 0
        finally:
            await storage.close()
        assert not Path(f"{copy}.partial").exists()
        await play_deal(bot, users, rng)
    assert await run_bot(tg, copy, "check") == (0, "")


async def test_export_sends_admins_the_ledger_whose_sums_are_the_balances(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3) as bot:
        await open_table(bot, group, users)
        await play_deal(bot, users, rng)
        result = bot_messages(tg, group)[-1]
        await users[0].press(result, data=next(d for _, d in result.buttons if d and "n:" in d))
        await bot.idle()
        await move(bot, users, rng)
        await users[1].send(group, "/export")  # not an admin
        await bot.idle()
        assert tg.documents(group) == []
        assert "администратор" in bot_messages(tg, group)[-1].text
        await users[0].send(group, "/export")  # the group's creator
        await bot.idle()
        (document,) = tg.documents(group)
        assert document.file_name.endswith(".csv")
        rows = list(csv.DictReader(io.StringIO(document.content.decode("utf-8-sig"))))
        storage = bot.service.storage
        assert len(rows) == len(await storage.money.ledger_rows(GROUP_ID))
        sums: Counter[int] = Counter()
        for row in rows:
            sums[int(row["user_id"])] += int(row["amount"])
        balances = {u.user_id: b for u, b in await storage.money.balances(GROUP_ID)}
        assert dict(sums) == balances
        assert sum(sums.values()) == -(await storage.chats.chat(GROUP_ID)).pot
        assert {row["player"] for row in rows} == {u.first_name for u in users}
