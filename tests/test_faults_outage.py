"""Telegram's front fails for 45 s — every call answered 502, or every call held
unanswered until the end — while players press buttons. Afterwards play goes on: no press lost,
money exact, every message current; and the operator's log has one line saying Telegram is
unreachable, one saying it answers again, and no traceback."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.bot_harness import control_message, table_of, webhook_overrides
from tests.fakebot import FakeTelegram
from tests.test_faults_telegram import _mover, _stale_slots

OUTAGE = 45.0  # seconds: the outage the bot is to ride out
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("hang", [False, True], ids=["502", "hang"])
async def test_a_45_s_outage_leaves_one_warning_and_loses_nothing(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture, hang: bool
) -> None:
    caplog.set_level(logging.INFO)
    async with table_of(tg, tmp_path, 3, seed=5) as (bot, group, users):
        live = bot.service.find(1)
        assert live is not None and live.step == 0
        caplog.clear()
        tg.outage(502, duration=OUTAGE, include_get_updates=True, hang=hang)
        began = time.monotonic()
        user, data = _mover(tg, users)
        message = control_message(tg, user)
        assert message is not None
        query = await user.press(message, data=data)  # the poll held before the outage takes it
        await asyncio.sleep(OUTAGE / 2)
        assert _stale_slots(bot) != []  # Telegram is down
        await users[1].send(group, "/pot")  # waits in Telegram until polling is back
        await asyncio.sleep(OUTAGE - (time.monotonic() - began))
        await tg.wait_for(lambda: live.step == 1, timeout=40)
        await bot.idle()
        assert _stale_slots(bot) == []
        user, data = _mover(tg, users)  # and the game goes on
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        await bot.idle()
        assert live.step == 2 and _stale_slots(bot) == []
        assert await bot.service.storage.check() == []  # balances + pot = 0, ledger = balances
    # Only the press made as the outage began may go unanswered (Telegram's answer window is
    # shorter than the outage); it was played all the same.
    assert {c.id for c in tg.unanswered_callbacks()} <= {query}
    # A lost send may land after its retry, or the bot may go on editing there: once Telegram
    # answers again, it looks at the id past the last message of each chat it lost one in
    # (nothing there: this outage posted nothing), once, or once more after its next post.
    ends = [
        c
        for c in tg.errors
        if c.method == "editMessageReplyMarkup"
        and c.description == "Bad Request: message to edit not found"
        and int(c.params["message_id"])
        > max(m.message_id for m in tg.messages(int(c.params["chat_id"]), include_deleted=True))
    ]
    assert all(n <= 2 for n in Counter(c.params["chat_id"] for c in ends).values()), ends
    assert [c for c in tg.errors if c not in ends] == []
    assert any(m.text.startswith("💰") for m in tg.messages(group) if m.from_bot)  # /pot: not lost
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    down = [line for line in lines if "unreachable" in line]
    back = [line for line in lines if "answers again" in line]
    assert len(down) == 1 and len(back) == 1, lines
    assert tg.token not in caplog.text and tg.token.partition(":")[2] not in caplog.text


@pytest.mark.parametrize("mode", ["polling", "webhook", "webhook+webapp"])
async def test_telegram_unreachable_at_start_up_is_waited_for(
    tg: FakeTelegram, tmp_path: Path, mode: str
) -> None:
    """`python -m bot` started while Telegram fails every call: it tries again, a second or
    two apart at first, with a line saying Telegram is unreachable and no traceback, and serves
    as soon as Telegram answers (docs/operating.md: it waits for Telegram, it does not exit)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BOT_TOKEN": tg.token,
        "BOT_API_URL": tg.base_url,
        "BOT_FILE_API_URL": tg.base_file_url,
        "DB_PATH": str(tmp_path / "db.sqlite3"),
        "POLL_TIMEOUT": "1",
    }
    if mode != "polling":
        hook = webhook_overrides(tg)
        env.update(
            WEBHOOK_URL=hook["webhook_url"], WEBHOOK_SECRET=hook["webhook_secret"],
            WEBHOOK_LISTEN="127.0.0.1", PORT=str(hook["port"]),
        )  # fmt: skip
        if mode == "webhook+webapp":
            env["WEBAPP_URL"] = f"http://127.0.0.1:{hook['port']}/app"
    alice = tg.user(1000, "Alice", language_code="en")
    tg.outage(502, include_get_updates=True)  # until it has tried twice (start-up is slow
    # on a loaded machine: a fixed outage could be over before the bot's first call)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    talk = asyncio.ensure_future(proc.communicate())
    try:
        await tg.wait_for(lambda: len([c for c in tg.log if c.injected]) >= 2, timeout=60)
        assert proc.returncode is None  # still waiting for Telegram
        tg.end_outage()
        await alice.start()
        await tg.wait_for(lambda: any(m.from_bot for m in tg.messages(alice.dm)), timeout=30)
    finally:
        if proc.returncode is None:
            proc.terminate()
        _, err = await asyncio.wait_for(talk, 30)
    log = err.decode()
    assert proc.returncode == 0, log
    for bad in ("Traceback", "Aborting", "Unclosed", "ERROR"):
        assert bad not in log, log
    warnings = [line for line in log.splitlines() if " WARNING " in line]
    assert any("unreachable" in line for line in warnings), log
    assert len(warnings) <= 3, log
