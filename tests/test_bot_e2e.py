"""Whole Frap deals played through the real bot against the fake Telegram (issue 3)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot_harness import RunningBot, action_buttons, bot_messages, control_message, running_bot
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.models import FakeChat

GROUP_ID = -100500
NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace"]


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="frapbot") as server:
        yield server


def make_players(tg: FakeTelegram, n: int, lang: str = "ru") -> tuple[FakeChat, list[FakeUser]]:
    group = tg.group(GROUP_ID, "Friends")
    users = [tg.user(1000 + i, NAMES[i], language_code=lang) for i in range(n)]
    for i, user in enumerate(users):
        group.add(user, creator=i == 0)
    return group, users


async def open_table(bot: RunningBot, group: FakeChat, users: list[FakeUser]) -> None:
    """Everyone starts the bot privately, the first user opens a table, all join, it starts."""
    for user in users:
        await user.start()
    await bot.idle()
    await users[0].send(group, "/newgame")
    await bot.idle()
    lobby = bot_messages(bot.tg, group)[-1]
    for user in users[1:]:
        await user.press(lobby, data=next(d for _, d in lobby.buttons if d and d.startswith("j:")))
        await bot.idle()
    lobby = bot_messages(bot.tg, group)[0]
    await users[0].press(lobby, data=next(d for _, d in lobby.buttons if d and d.startswith("s:")))
    await bot.idle()


async def play_deal(bot: RunningBot, users: list[FakeUser], rng: random.Random) -> int:
    """Press random legal buttons in the players' private chats until the deal ends."""
    presses = 0
    for _ in range(400):
        movers = []
        for user in users:
            message = control_message(bot.tg, user)
            if message is None:
                continue
            buttons = action_buttons(message)
            moves = [b for b in buttons if not b[1].endswith(":L")]
            if moves:
                movers.append((user, message, moves))
            elif buttons and (
                "Откройте карты, чтобы" in message.text or "Look at your cards to" in message.text
            ):
                movers.append(
                    (user, message, buttons)
                )  # F7: the dark declarer looks, then discards
        if not movers:
            return presses
        assert len(movers) == 1, f"more than one player may act: {[m[0] for m in movers]}"
        user, message, buttons = movers[0]
        _, data = rng.choice(buttons)
        await user.press(message, data=data)
        await bot.idle()
        presses += 1
    raise AssertionError("the deal did not end")


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
        balances = await bot.service.storage.balances(GROUP_ID)
        chat = await bot.service.storage.chat(GROUP_ID)
        assert sum(b for _, b in balances) + chat.pot == 0
    assert tg.errors == [], tg.errors
    assert tg.unanswered_callbacks() == []
