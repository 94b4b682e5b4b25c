"""The bot removed from a group mid-deal (kicked, left, no right to write, or only a
403 on its next edit): the deal is voided with its chips returned, the table closed, the
balances kept for when it comes back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.format import signed
from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram
from tests.test_faults_migration import move


@pytest.mark.parametrize("how", ["kicked", "left", "restricted", "403 only"])
async def test_the_bot_removed_mid_deal_voids_it(
    tg: FakeTelegram, tmp_path: Path, how: str
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(9)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=9) as bot:
        storage = bot.service.storage
        await open_table(bot, group, users)
        await play_deal(bot, users, rng)  # one deal settled: balances to keep
        result = bot_messages(tg, group)[-1]
        await users[0].press(result, data=next(d for _, d in result.buttons if d and "n:" in d))
        await bot.idle()
        await move(bot, users, rng)
        settled = {u.user_id: b for u, b in await storage.money.balances(GROUP_ID)}
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and live.in_deal and live.deal_id is not None
        ledger = await storage.money.ledger_rows(GROUP_ID)
        in_deal = [r for r in ledger if r[0] == live.deal_id]
        assert in_deal  # the antes (F3) at least
        pot_before_deal = (await storage.chats.chat(GROUP_ID)).pot + sum(r[2] for r in in_deal)
        if how == "403 only":  # the my_chat_member update never came: the next edit tells
            group.bot_status = "kicked"
            await move(bot, users, rng)
        else:
            tg.set_bot_status(group, how, by=users[0])
            await bot.idle()
        assert bot.service.table_in(GROUP_ID) is None
        assert (await storage.tables.table(live.row.table_id)).status == "closed"  # type: ignore[union-attr]
        deal = await storage.tables.deal(live.deal_id)
        assert deal is not None and deal.status == "voided"
        deal_balances = {uid: 0 for uid in settled}
        for _, uid, amount, _ in in_deal:
            deal_balances[uid] += amount
        assert {u.user_id: b for u, b in await storage.money.balances(GROUP_ID)} == {
            uid: b - deal_balances[uid] for uid, b in settled.items()
        }  # every chip of the voided deal returned, the settled deal's kept
        assert (await storage.chats.chat(GROUP_ID)).pot == pot_before_deal
        assert await storage.check() == []
        for user in users:  # the private control messages show the deal stopped, no buttons
            message = control_message(tg, user)
            assert message is not None and not message.buttons
        tg.set_bot_status(group, "member", by=users[0])  # back in the group
        await bot.idle()
        await users[1].send(group, "/balance")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        for user, balance in await storage.money.balances(GROUP_ID):
            assert f"{user.name}: {signed(balance)}" in text  # the minus sign
