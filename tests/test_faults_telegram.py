"""Telegram's own errors. The fake server answers 429 and 5xx for a while, and messages
get deleted under the bot: nothing is lost, every message ends up showing the latest state, and
"message is not modified" is never provoked."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram, FakeUser


def _stale_slots(bot: RunningBot) -> list[str]:
    """The slots (table, lobby, hands, results) whose message does not show their latest content."""
    stale = []
    for name, slot in bot.service.presenter._slots.items():
        wanted = slot.wanted
        if wanted is None:
            continue
        message = next(
            (m for m in bot.tg.messages(slot.chat_id) if m.message_id == slot.message_id), None
        )
        keyboard = json.loads(wanted.keyboard)["inline_keyboard"] if wanted.keyboard else None
        if (
            message is None
            or message.html != wanted.text
            or (message.reply_markup or {}).get("inline_keyboard") != keyboard
        ):
            stale.append(name)
    return stale


def _mover(tg: FakeTelegram, users: list[FakeUser]) -> tuple[FakeUser, str]:
    for user in users:
        message = control_message(tg, user)
        moves = [d for _, d in action_buttons(message) if not d.endswith(":L")] if message else []
        if moves:
            return user, moves[0]
    raise AssertionError("nobody to move")


async def test_429_and_5xx_bursts_lose_nothing(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7) as bot:
        tg.fail_next("sendMessage", 502, count=2)
        tg.fail_next("editMessageText", 429, count=2, retry_after=1)
        await open_table(bot, group, users)
        rng = random.Random(7)
        tg.fail_next("answerCallbackQuery", 502)
        tg.fail_next("editMessageText", 500, count=3)
        user, data = _mover(tg, users)
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        tg.outage(429, retry_after=1, duration=2.5)  # everything, for a while
        await users[2].send(group, "/pot")
        await bot.idle()
        tg.fail_next("sendMessage", 503, count=2)
        tg.fail_next("editMessageText", 504)
        await play_deal(bot, users, rng)
        assert _stale_slots(bot) == []
        assert any("Итог сдачи" in m.text for m in bot_messages(tg, group))
        assert any(m.text.startswith("💰") for m in bot_messages(tg, group))  # the /pot reply
        assert await bot.service.storage.check() == []
        injected = [c for c in tg.log if c.injected]
        assert len(injected) >= 10
    assert tg.errors == []  # nothing but the injected faults: never "message is not modified"
    assert tg.unanswered_callbacks() == []


async def test_a_long_outage_ends_with_every_message_up_to_date(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with table_of(tg, tmp_path, 3, seed=5) as (bot, group, users):
        tg.outage(502, duration=17)  # longer than any fixed number of quick retries
        began = time.monotonic()
        user, data = _mover(tg, users)
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        await users[1].send(group, "/pot")
        await asyncio.sleep(1)
        live = bot.service.find(1)
        assert live is not None and live.step == 1  # the move is stored; Telegram is down
        assert _stale_slots(bot) != []
        await asyncio.sleep(17 - (time.monotonic() - began))
        await bot.idle()  # every message shows the latest state soon after Telegram is back
        assert _stale_slots(bot) == []
        assert bot_messages(tg, group)[-1].text.startswith("💰")  # the /pot reply was not lost
        user, data = _mover(tg, users)  # and the game goes on
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        await bot.idle()
        assert live.step == 2 and _stale_slots(bot) == []
    assert tg.errors == []


async def test_deleted_messages_are_posted_again(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 3, seed=3) as (bot, group, users):
        table = next(m for m in bot_messages(tg, group) if "сдача №1" in m.text)
        table.deleted = True  # an admin deletes the table message
        hand = control_message(tg, users[2])
        assert hand is not None
        hand.deleted = True  # a player clears the private chat
        user, data = _mover(tg, users)
        await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
        await bot.idle()
        assert _stale_slots(bot) == []
        tables = [m for m in bot_messages(tg, group) if "сдача №1" in m.text]
        assert len(tables) == 1 and tables[0] is not table  # posted again, latest state
        assert control_message(tg, users[2]) is not None
        await play_deal(bot, users, random.Random(3))
        assert _stale_slots(bot) == []
        assert await bot.service.storage.check() == []
        chat = await bot.service.storage.chats.chat(GROUP_ID)
        assert chat.chat_id == GROUP_ID
    gone = [e for e in tg.errors if e.description and "not found" in e.description]
    assert len(gone) == 2 and gone == tg.errors  # one failed edit each; no "not modified"
