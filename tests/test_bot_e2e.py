"""Whole Frap deals played through the real bot against the fake Telegram."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    make_players,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram


@pytest.mark.parametrize("n_players", [2, 4, 7])
async def test_full_deal_through_the_bot(tg: FakeTelegram, tmp_path: Path, n_players: int) -> None:
    group, users = make_players(tg, n_players)
    async with running_bot(tg, tmp_path / "bot.sqlite3", seed=n_players) as bot:
        await open_table(bot, group, users)
        presses = await play_deal(bot, users, random.Random(n_players))
        assert presses > 0
        texts = [m.text for m in bot_messages(tg, group)]
        assert any("Итог сдачи" in text for text in texts), texts
        problems = await bot.service.storage.check()
        assert problems == []
        balances = await bot.service.storage.money.balances(GROUP_ID)
        chat = await bot.service.storage.chats.chat(GROUP_ID)
        assert sum(b for _, b in balances) + chat.pot == 0
    assert tg.errors == [], tg.errors
    assert tg.unanswered_callbacks() == []
