"""SIGTERM (what `docker stop` sends) mid-deal. The presses in hand finish and are
stored, the turn timer's deadline is stored, the process exits within 10 s, whatever Telegram
does meanwhile; started again, the bot goes on with the deal. The bot runs as a real process,
as in test_faults_sigkill.py."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.bot_harness import action_buttons, bot_messages, control_message
from tests.fakebot import FakeChat, FakeTelegram, FakeUser
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
            called = len(tg.log)
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
        # the digests of the edits made as it stopped were stored: started again, the bot
        # edits no message to what it shows already
        assert [c.description for c in tg.log[called:] if not c.ok] == []


async def _deal_under_way(tg: FakeTelegram, group: FakeChat, users: list[FakeUser]) -> None:
    """A lobby of three, the deal started and its first move made (Telegram answering)."""
    for user in users:
        await user.start()
    await users[0].send(group, "/newgame")
    await _quiet(tg)
    lobby = bot_messages(tg, group)[-1]
    for user in users[1:]:
        await user.press(lobby, data=next(d for _, d in lobby.buttons if d and d[:2] == "j:"))
        await _quiet(tg)
    lobby = bot_messages(tg, group)[-1]
    await users[0].press(lobby, data=next(d for _, d in lobby.buttons if d and d[:2] == "s:"))
    await _quiet(tg)
    user, data = _mover(tg, users)
    await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
    await _quiet(tg)


def _money(db: Path) -> list[str]:
    """The start-up check's problems (per chat balances plus pots zero, the ledger equal to
    the balances), read with the bot stopped."""

    async def check() -> list[str]:
        storage = await Storage.open(str(db))
        try:
            return [problem.line() for problem in await storage.check()]
        finally:
            await storage.close()

    return asyncio.run(check())


@pytest.mark.parametrize("telegram", ["502", "hang", "slow"])
async def test_sigterm_while_telegram_fails_exits_fast_and_loses_nothing(
    tmp_path: Path, telegram: str
) -> None:
    """SIGTERM with replies queued while Telegram answers every call 502, holds every call
    unanswered ("hang"), or answers but its flood limit of 20 messages a minute per group holds
    back a long queue of replies ("slow"): the process exits within docker stop's 10 s, with
    one line saying what was not sent and no traceback; the press it had taken is stored, and
    the bot started again (Telegram answering) goes on with the deal, money exact."""
    db = tmp_path / "frap.sqlite3"
    async with FakeTelegram(bot_username="frapbot", global_limit=100_000) as tg:
        group = tg.group(-1_002_000, "Term")
        users = [tg.user(200_000 + i, f"T{i}") for i in range(3)]
        for i, user in enumerate(users):
            group.add(user, creator=i == 0)
        bot = BotProcess(tg, db, tmp_path / "bot.log")
        bot.env["TURN_TIMEOUT"] = "60"  # no time-out during the test
        if telegram == "slow":
            del bot.env["GROUP_MESSAGES_PER_MINUTE"]  # Telegram's own limit, as in production
        bot.start()
        try:
            await tg.wait_for(lambda: len(tg.calls("getUpdates")) > 1, timeout=30)
            await _deal_under_way(tg, group, users)
            assert _steps(db)[0] == 1
            if telegram != "slow":  # every call but getUpdates: the updates keep coming
                tg.outage(502, hang=telegram == "hang")
            for _ in range(8):  # replies the bot cannot send (or only 20 a minute)
                for each in users:
                    await each.send(group, "/pot")
            await tg.wait_for(lambda: tg.updates.unconfirmed == 0, timeout=10)  # all taken
            await asyncio.sleep(1)  # the replies are being tried
            user, data = _mover(tg, users)
            await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
            await tg.wait_for(lambda: _steps(db)[0] == 2, timeout=10)  # the press stored
            code, took = await _terminate(bot)
            assert code == 0 and took < 10, (code, took)
            tg.end_outage()
            assert _steps(db)[0] == 2
            assert await asyncio.to_thread(_money, db) == []
            log = (tmp_path / "bot.log").read_text()
            assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
            unsent = [line for line in log.splitlines() if "Telegram unfinished" in line]
            assert len(unsent) == 1 and "sendMessage" in unsent[0], log[-3000:]

            called, polls = len(tg.log), len(tg.calls("getUpdates"))
            bot.start()  # started again, Telegram answering: the deal goes on
            await tg.wait_for(lambda: len(tg.calls("getUpdates")) > polls + 1, timeout=30)
            await _quiet(tg)
            user, data = _mover(tg, users)
            await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
            await _quiet(tg)
            assert _steps(db)[0] == 3
            code, took = await _terminate(bot)
            assert code == 0 and took < 10, (code, took)
        finally:
            if bot.proc is not None and bot.proc.poll() is None:
                bot.kill()
        assert await asyncio.to_thread(_money, db) == []
        # started again, the bot edits no message to what it shows already
        assert [c.description for c in tg.log[called:] if not c.ok] == []
