"""/stats after played deals, and names told apart in /balance, /top and /stats
(through the fake Bot API)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.format import signed
from bot.games.family.table import deal as deal_of
from engine.record import replay
from engine.views import table_view
from tests.bot_harness import GROUP_ID, bot_messages, open_table, play_deal, running_bot
from tests.fakebot import FakeTelegram


async def test_stats_after_deals_agree_with_the_ledger_and_records_and_names_differ(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group = tg.group(GROUP_ID, "Friends")
    users = [
        tg.user(1000, "Лена", username="lena_k"),
        tg.user(1001, "Лена"),
        tg.user(1002, "Оля"),
    ]
    for i, user in enumerate(users):
        group.add(user, creator=i == 0)
    rng = random.Random(31)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=31) as bot:
        storage = bot.service.storage
        await open_table(bot, group, users)
        live = bot.service.find(1)
        assert live is not None
        for _ in range(3):
            await play_deal(bot, users, rng)
            if (
                deal_of(live) is not None
                and deal_of(live).finished
                and not deal_of(live).needs_redeal
            ):
                result = bot_messages(tg, group)[-1]
                data = next(d for _, d in result.buttons if d and d.startswith("n:"))
                await users[2].press(result, data=data)
                await bot.idle()
        await users[0].send(group, "/stopgame")
        await bot.idle()
        # what /stats must say of Оля, worked out here from the stored deals and ledger
        sums: dict[int, int] = {}
        for deal_id, uid, amount, _ in await storage.money.ledger_rows(group.id):
            if uid == users[2].id and deal_id is not None:
                sums[deal_id] = sums.get(deal_id, 0) + amount
        finished = [d for d in await storage.history.recent_deals(group.id, 100)]
        mine = [d for d in finished if users[2].id in d.seats]
        declared = made = 0
        for deal in mine:
            view = table_view(replay(deal.record))
            seat = view.declarer
            if seat is not None and not view.needs_redeal and deal.seats[seat] == users[2].id:
                declared += 1
                uncontested = view.tricks_played == 0  # F6: the pot his with no play
                made += uncontested or view.seats[seat].tricks >= view.declarer_needs
        results = [sums.get(d.deal_id, 0) for d in mine]
        await users[2].send(group, "/stats")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        assert f"Сыграно сдач: {len(mine)}" in text, text
        assert f"Заявлено контрактов: {declared}, из них выполнено: {made}" in text, text
        assert f"Лучшая сдача: {signed(max(results))}, худшая: {signed(min(results))}" in text
        assert "Рекорды чата" in text
        (league,) = [
            s for s in await storage.league.standings(group.id, "frap") if s.user_id == users[2].id
        ]
        mark = "?" if league.now.provisional else ""
        assert f"🏆 Рейтинг, Фрап: {league.now.shown}{mark}\n" in text, text  # one table: no change
        # two players called Лена: told apart everywhere
        for command in ("/balance", "/top", "/stats Лена (@lena_k)", "/stats Лена (1)"):
            await users[2].send(group, command)
            await bot.idle()
            shown = bot_messages(tg, group)[-1].text
            if command in ("/balance", "/top"):
                assert "Лена (@lena_k)" in shown and "Лена (1)" in shown, (command, shown)
            else:
                assert shown.startswith("📊 " + command.removeprefix("/stats ")), shown
    assert tg.errors == []
