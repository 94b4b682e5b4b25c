"""Khrap and Student Khrap through the bot: choosing the game, whole deals, rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot import games
from engine.record import replay
from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    control_message,
    make_players,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram


@pytest.mark.parametrize(
    ("command", "game", "title", "seed"),
    [
        ("/newgame khrap", "khrap", "Храп", 21),
        ("/newgame student", "student_khrap", "Студенческий храп", 22),
        ("/newgame студенческий", "student_khrap", "Студенческий храп", 23),
    ],
)
async def test_a_whole_deal_of_each_variant(
    tg: FakeTelegram, tmp_path: Path, command: str, game: str, title: str, seed: int
) -> None:
    async with table_of(tg, tmp_path, 4, command, seed=seed) as (bot, group, users):
        assert title in bot_messages(tg, group)[1].text
        hand = control_message(tg, users[0])
        assert hand is not None and title in hand.text
        for deal_no in (1, 2):  # two deals: the second one's dealer follows the game's rule
            await play_deal(bot, users, random.Random(seed + deal_no))
            result = bot_messages(tg, group)[-1]
            assert "Итог сдачи" in result.text
            if deal_no == 1:
                next_button = next(d for _, d in result.buttons if d and d.startswith("n:"))
                await users[1].press(result, data=next_button)
                await bot.idle()
        storage = bot.service.storage
        assert await storage.check() == []
        deals = await storage.history.recent_deals(GROUP_ID, 5)
        assert deals and all(d.record["game"] == game for d in deals)
        for deal in deals:
            assert replay(deal.record).finished
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


async def test_lobby_game_button_and_player_limits(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        for user in users:
            await user.start()
        await users[0].send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        await users[1].press(lobby, data="j:1")
        await bot.idle()
        query = await users[1].press(lobby, data="g:1")  # not the creator
        await bot.idle()
        assert tg.callback_answer(query)["show_alert"]  # type: ignore[index]
        await users[0].press(lobby, data="g:1")
        await bot.idle()
        assert "Храп" in bot_messages(tg, group)[0].text
        await users[0].press(bot_messages(tg, group)[0], data="g:1")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        assert "Студенческий храп" in lobby.text and "от 3 до 4" in lobby.text
        query = await users[0].press(lobby, data="s:1")  # two players cannot play Student Khrap
        await bot.idle()
        answer = tg.callback_answer(query)
        assert answer is not None and "от 3 до 4" in answer["text"]
        await users[0].send(group, "/rules")
        await bot.idle()
        assert "джокер" in bot_messages(tg, group)[-1].text
        await users[0].send(group, "/newgame poker")
        await bot.idle()
        assert f"/newgame [{games.choices()}]" in bot_messages(tg, group)[-1].text
    assert tg.errors == []
