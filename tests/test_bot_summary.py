"""When a table closes, the group gets the evening's result and the transfers that
settle it (through the fake Bot API)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.format import MINUS, signed
from tests.bot_harness import (
    bot_messages,
    make_players,
    open_table,
    play_deal,
    push_callback,
    running_bot,
)
from tests.fakebot import FakeTelegram

POT = {"frap": "🏦 банк", "napoleon": "💰 клад"}  # each game's words: Napoleon's treasure


def _number(text: str) -> int:
    return int(text.strip().replace(MINUS, "-"))


@pytest.mark.parametrize("game", ["frap", "napoleon"])
async def test_stopgame_posts_the_evening_and_its_transfers_settle_it_exactly(
    tg: FakeTelegram, tmp_path: Path, game: str
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(21)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=21) as bot:
        await open_table(bot, group, users, f"/newgame {game}")
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
        deals, results = await bot.service.storage.money.session(1)
        assert deals >= 2 and any(results.values())
        await users[0].send(group, "/stopgame")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        assert "Итоги вечера" in text and f"сыграно сдач: {deals}" in text, text
        names = {u.first_name: u.id for u in users}
        shown: dict[str, int] = {}
        left: dict[str, int] = {}
        transfers = 0
        summary, _, league = text.partition("🏆")  # the result, then the league after it
        rated = await bot.service.storage.league.standings(group.id, game)
        assert {s.user_id for s in rated} == set(names.values())
        for s in rated:
            name = next(n for n, uid in names.items() if uid == s.user_id)
            assert f"{name}: {s.now.shown}" in league, league
        for line in summary.splitlines():
            head, _, amount = line.rpartition(": ")
            if " → " in head:
                payer, payee = head.split(" → ")
                left[payer] = left.get(payer, 0) + _number(amount)
                left[payee] = left.get(payee, 0) - _number(amount)
                transfers += 1
            elif head in names:  # "−50 (из них 40 — в банке)": the result, then its part in the pot
                shown[head] = _number(amount.split(" (")[0])
        # each player's line is his chips over the table's deals, as the ledger has them
        assert shown == {n: results.get(uid, 0) for n, uid in names.items()}, text
        # the pot is a party for what the players' results do not add up to
        expected = {n: v for n, v in shown.items() if v}
        if sum(shown.values()):
            expected[POT[game]] = -sum(shown.values())
        # after the transfers every winner is paid exactly; what went into the pot stays there,
        # nobody is told to pay it; one the pot paid out is told as paid by it
        for party, value in expected.items():
            after = value + left.get(party, 0)
            if party == POT[game]:
                assert after == (value if value > 0 else 0), (party, text)
            elif value > 0:
                assert after == 0, (party, text)
            else:
                assert value <= after <= 0, (party, text)
        assert f"→ {POT[game]}" not in text
        if expected.get(POT[game], 0) > 0:
            assert "никому не нужно" in text
        assert transfers <= len(expected) - 1
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_newseason_archives_the_balances_once_an_admin_confirms(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)  # users[0] created the group: an admin
    rng = random.Random(22)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=22) as bot:
        storage = bot.service.storage
        await open_table(bot, group, users)
        await users[0].send(group, "/newseason")  # not while a table is open
        await bot.idle()
        assert "Открыт стол" in bot_messages(tg, group)[-1].text
        await play_deal(bot, users, rng)
        await users[0].send(group, "/stopgame")
        await bot.idle()
        before = {u.user_id: b for u, b in await storage.money.balances(group.id)}
        rows = len(await storage.money.ledger_rows(group.id))
        assert any(before.values())
        await users[1].send(group, "/newseason")  # not an admin
        await bot.idle()
        assert not any(b for _, b in bot_messages(tg, group)[-1].buttons)
        await users[0].send(group, "/newseason")
        await bot.idle()
        ask = bot_messages(tg, group)[-1]
        data = next(d for _, d in ask.buttons if d and d.startswith("z:"))
        refused = await users[1].press(ask, data=data)  # only an admin confirms
        await bot.idle()
        assert {u.user_id: b for u, b in await storage.money.balances(group.id)} == before
        answer = tg.callback_answer(refused)
        assert answer is not None and answer.get("show_alert")
        await users[0].press(ask, data=data)
        await bot.idle()
        assert "Сезон 1 закрыт" in bot_messages(tg, group)[-1].text
        assert all(b == 0 for _, b in await storage.money.balances(group.id))
        assert (await storage.chats.chat(group.id)).pot == 0
        ledger = await storage.money.ledger_rows(group.id)
        assert len(ledger) == rows + sum(1 for v in before.values() if v)  # history kept
        assert {u: -a for _, u, a, r in ledger[rows:] if r == "season"} == {
            u: v for u, v in before.items() if v
        }
        assert await storage.money.seasons(group.id) == 1
        assert await storage.check() == []
        await users[2].send(group, "/top")  # the league starts anew too
        await bot.idle()
        assert "пока ни у кого нет рейтинга" in bot_messages(tg, group)[-1].text
        assert {season for _, season, _, _, _, _ in await storage.league.ratings()} == {
            0
        }  # archived
        await users[2].send(group, "/top 1")  # the closed season's table stays readable
        await bot.idle()
        past = bot_messages(tg, group)[-1].text
        assert "сезон 1" in past
        rows = {line.split()[-1]: line for line in past.splitlines()}  # by name
        assert all(signed(before.get(u.id, 0)) in rows[u.first_name] for u in users)
        await users[2].send(group, "/top фрап 2")  # the season in play: its empty league
        await bot.idle()
        assert "пока ни у кого нет рейтинга" in bot_messages(tg, group)[-1].text
        await users[2].send(group, "/top 3")  # no such season
        await bot.idle()
        assert "с 1 по 2" in bot_messages(tg, group)[-1].text
        assert not ask.buttons  # the question became the answer
        again = push_callback(tg, users[0], ask, data)  # a second press of it, from a client
        await bot.idle()
        answer = tg.callback_answer(again)
        assert answer is not None and answer["text"] and not answer["show_alert"]  # a toast
        assert await storage.money.seasons(group.id) == 1
    assert tg.errors == []
