"""Issue 25: Telegram's front fails for 45 s — every call answered 502, or every call held
unanswered until the end — while players press buttons. Afterwards play goes on: no press lost,
money exact, every message current; and the operator's log has one line saying Telegram is
unreachable, one saying it answers again, and no traceback."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from tests.bot_harness import control_message, table_of
from tests.fakebot import FakeTelegram
from tests.test_faults_telegram import _mover, _stale_slots

OUTAGE = 45.0  # seconds, as measured in the issue


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
    assert tg.errors == []
    assert any(m.text.startswith("💰") for m in tg.messages(group) if m.from_bot)  # /pot: not lost
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    down = [line for line in lines if "unreachable" in line]
    back = [line for line in lines if "answers again" in line]
    assert len(down) == 1 and len(back) == 1, lines
    assert tg.token not in caplog.text and tg.token.partition(":")[2] not in caplog.text
