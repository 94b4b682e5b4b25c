"""A starting bankroll (F15): with one set in /settings, a player who no longer holds what
the game asks sits the deal out, and the group is told (through the fake Bot API)."""

from __future__ import annotations

import random
from pathlib import Path

from bot import games
from tests.bot_harness import bot_messages, make_players, open_table, play_deal, running_bot
from tests.fakebot import FakeTelegram

BANKROLL = 100


async def test_a_player_short_of_the_bankroll_sits_out_and_the_group_is_told(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)  # users[0] created the group: an admin
    rng = random.Random(21)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=21) as bot:
        storage = bot.service.storage
        # an evening without a bankroll leaves someone far behind
        await open_table(bot, group, users)
        live = bot.service.find(1)
        assert live is not None
        while live.row.deal_no < 2:
            await play_deal(bot, users, rng)
            result = bot_messages(tg, group)[-1]
            nxt = [d for _, d in result.buttons if d and d.startswith("n:")]
            if live.row.deal_no < 2 and nxt:
                await users[0].press(result, data=nxt[0])
                await bot.idle()
        await play_deal(bot, users, rng)
        await users[0].send(group, "/stopgame")
        await bot.idle()
        # an admin sets the bankroll with the /settings buttons
        await users[0].send(group, "/settings")
        await bot.idle()
        menu = bot_messages(tg, group)[-1]
        await users[0].press(menu, data="c:bankroll")
        await bot.idle()
        await users[0].press(menu, data=f"c:bankroll={BANKROLL}")
        await bot.idle()
        chat = await storage.chats.chat(group.id)
        assert chat.rules.get("bankroll") == BANKROLL
        held = {u.user_id: BANKROLL + b for u, b in await storage.money.balances(group.id)}
        short = {uid for uid, chips in held.items() if chips < chat.ante}  # F15: the ante
        assert short and len(users) - len(short) >= 2, held  # what this test needs
        # the next table deals only to those who hold the ante
        await users[0].send(group, "/newgame")
        await bot.idle()
        for user in users[1:]:
            await user.send(group, "/join")
            await bot.idle()
        await users[0].send(group, "/startgame")
        await bot.idle()
        table = bot.service.table_in(group.id)
        assert table is not None and table.row.status == "playing"
        assert set(table.deal_seats) == {u.id for u in users} - short
        shown = bot_messages(tg, group)[-1].text
        names = [u.first_name for u in users if u.id in short]
        assert "не хватает фишек для банкролла" in shown and all(n in shown for n in names)
        before = {u.user_id: b for u, b in await storage.money.balances(group.id)}
        assert all(before[uid] == held[uid] - BANKROLL for uid in short)  # paid no ante
        assert await storage.check() == []
    assert tg.errors == []


def test_what_each_game_asks_a_player_to_hold() -> None:
    """SK13: two banks in reserve, an empty bank counted as re-formed by antes (SK12); the
    other games: the ante."""
    student = games.ui("student_khrap")
    assert student.bankroll_need(ante=10, pot=70, players=3) == 2 * 70
    assert student.bankroll_need(ante=10, pot=0, players=3) == 2 * 10 * 3
    assert games.ui("frap").bankroll_need(ante=10, pot=70, players=3) == 10
