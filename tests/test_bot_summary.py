"""Issue 16: when a table closes, the group gets the evening's result and the transfers that
settle it (through the fake Bot API)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.format import MINUS
from tests.bot_harness import bot_messages, make_players, open_table, play_deal, running_bot
from tests.fakebot import FakeTelegram

POT = "🏦 банк"


def _number(text: str) -> int:
    return int(text.strip().replace(MINUS, "-"))


async def test_stopgame_posts_the_evening_and_its_transfers_settle_it_exactly(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(21)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=21) as bot:
        await open_table(bot, group, users)
        live = bot.service.find(1)
        assert live is not None
        finished = 0
        while finished < 2:  # two deals played to the end (all-pass rounds redeal: more rows)
            await play_deal(bot, users, rng)
            result = bot_messages(tg, group)[-1]
            nxt = [d for _, d in result.buttons if d and d.startswith("n:")]
            finished = live.row.deal_no
            if finished >= 2 or not nxt:
                break
            await users[0].press(result, data=nxt[0])
            await bot.idle()
        deals, results = await bot.service.storage.session(1)
        assert deals >= 2 and any(results.values())
        await users[0].send(group, "/stopgame")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        assert "Итоги вечера" in text and f"сыграно сдач: {deals}" in text, text
        names = {u.first_name: u.id for u in users}
        shown: dict[str, int] = {}
        left: dict[str, int] = {}
        transfers = 0
        for line in text.splitlines():
            head, _, amount = line.rpartition(": ")
            if " → " in head:
                payer, payee = head.split(" → ")
                left[payer] = left.get(payer, 0) + _number(amount)
                left[payee] = left.get(payee, 0) - _number(amount)
                transfers += 1
            elif head in names:
                shown[head] = _number(amount)
        # each player's line is his chips over the table's deals, as the ledger has them
        assert shown == {n: results.get(uid, 0) for n, uid in names.items()}, text
        # the pot is a party for what the players' results do not add up to
        expected = {n: v for n, v in shown.items() if v}
        if sum(shown.values()):
            expected[POT] = -sum(shown.values())
        # after the transfers everyone, the pot too, is even
        for party, value in expected.items():
            assert value + left.get(party, 0) == 0, (party, text)
        assert transfers <= len(expected) - 1
        assert await bot.service.storage.check() == []
    assert tg.errors == []
