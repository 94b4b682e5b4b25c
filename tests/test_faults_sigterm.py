"""SIGTERM (what `docker stop` sends) mid-deal. The presses in hand finish and are
stored, the turn timer's deadline is stored, the process exits within 10 s; started again, the
bot goes on with the deal. The bot runs as a real process, as in test_faults_sigkill.py."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.bot_harness import action_buttons, bot_messages, control_message
from tests.fakebot import FakeTelegram, FakeUser
from tests.test_faults_sigkill import BotProcess


async def _quiet(tg: FakeTelegram) -> None:
    await tg.wait_idle(timeout=20, quiet=0.5)


async def _terminate(bot: BotProcess) -> tuple[int | None, float]:
    """SIGTERM, then wait for the exit (without blocking: the fake Telegram runs in this loop);
    the exit code and the seconds it took."""
    assert bot.proc is not None
    began = time.monotonic()
    bot.proc.send_signal(signal.SIGTERM)
    while bot.proc.poll() is None and time.monotonic() - began < 15:
        await asyncio.sleep(0.05)
    return bot.proc.poll(), time.monotonic() - began


def _mover(tg: FakeTelegram, users: list[FakeUser]) -> tuple[FakeUser, str]:
    for user in users:
        message = control_message(tg, user)
        moves = [d for _, d in action_buttons(message) if d[:2] == "a:" and not d.endswith(":L")]
        if message is not None and moves:
            return user, moves[0]
    raise AssertionError("nobody to move")


def _steps(db: Path) -> tuple[int, float | None]:
    """The deal in play's stored actions, and the table's stored deadline."""
    with closing(sqlite3.connect(db)) as sql:
        (record,) = sql.execute("SELECT record FROM deals WHERE status = 'playing'").fetchone()
        (deadline,) = sql.execute("SELECT deadline FROM tables WHERE status = 'playing'").fetchone()
    return len(json.loads(record)["actions"]), deadline


async def test_sigterm_mid_deal_stores_everything_and_exits_fast(tmp_path: Path) -> None:
    db = tmp_path / "frap.sqlite3"
    async with FakeTelegram(bot_username="frapbot", global_limit=100_000) as tg:
        group = tg.group(-1_002_000, "Term")
        users = [tg.user(200_000 + i, f"T{i}") for i in range(3)]
        for i, user in enumerate(users):
            group.add(user, creator=i == 0)
        bot = BotProcess(tg, db, tmp_path / "bot.log")
        bot.env["TURN_TIMEOUT"] = "60"  # no time-out during the test: the deadline is checked
        bot.start()
        try:
            await tg.wait_for(lambda: len(tg.calls("getUpdates")) > 1, timeout=30)
            for user in users:
                await user.start()
            await users[0].send(group, "/newgame")
            await _quiet(tg)
            lobby = bot_messages(tg, group)[-1]
            for user in users[1:]:
                await user.press(
                    lobby, data=next(d for _, d in lobby.buttons if d and d[:2] == "j:")
                )
                await _quiet(tg)
            lobby = bot_messages(tg, group)[-1]
            await users[0].press(
                lobby, data=next(d for _, d in lobby.buttons if d and d[:2] == "s:")
            )
            await _quiet(tg)
            user, data = _mover(tg, users)
            await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
            await _quiet(tg)
            assert _steps(db)[0] == 1
            user, data = _mover(tg, users)
            await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
            await tg.wait_for(lambda: tg.updates.unconfirmed == 0, timeout=10)  # taken, in hand
            code, took = await _terminate(bot)
            assert code == 0 and took < 10, (code, took)
            steps, deadline = _steps(db)
            assert steps == 2 and deadline is not None and deadline > time.time()  # the press
            # in hand was stored, and the turn timer with it
            bot.start()  # started again: the deal goes on
            await tg.wait_for(lambda: len(tg.calls("getUpdates")) > 3, timeout=30)
            await _quiet(tg)
            user, data = _mover(tg, users)
            await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
            await _quiet(tg)
            assert _steps(db)[0] == 3
            assert await _terminate(bot) == (0, pytest.approx(0, abs=10))
        finally:
            if bot.proc is not None and bot.proc.poll() is None:
                bot.kill()
        log = (tmp_path / "bot.log").read_text()
        assert "Traceback" not in log, log[-3000:]
