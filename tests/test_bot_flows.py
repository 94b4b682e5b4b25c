"""The bot's flows through the fake Telegram: joining by deep link, rights, stale presses,
languages, commands, settings (a restart mid-deal, for every game: tests/test_every_game.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bot.format import signed
from bot.games.family.table import deal as deal_of
from tests.bot_harness import (
    GROUP_ID,
    action_buttons,
    bot_messages,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram


def _joins(message) -> bool:  # type: ignore[no-untyped-def]
    """Whether a message is a lobby (it has a Join button)."""
    return any(d and d.startswith("j:") for _, d in message.buttons)


def _data(message, prefix: str) -> str:  # type: ignore[no-untyped-def]
    return next(d for _, d in message.buttons if d and d.startswith(prefix))


async def test_join_needs_the_private_chat_and_a_deep_link_completes_it(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, (alice, bob) = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        await alice.start()
        await alice.send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        assert "Alice" in lobby.text
        query = await bob.press(lobby, data=_data(lobby, "j:"))
        await bot.idle()
        answer = tg.callback_answer(query)
        assert answer is not None and answer["url"] == "https://t.me/frapbot?start=j1"
        assert "Bob" not in bot_messages(tg, group)[0].text
        await bob.start("j1")  # the deep link opens the private chat with /start j1
        await bot.idle()
        assert "Bob" in bot_messages(tg, group)[0].text
        assert "Friends" in bot_messages(tg, bob)[-1].text
    assert tg.errors == []


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_plain_start_after_a_refused_seat_seats_him_where_he_asked(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    """He pressed "Take a seat" before opening the bot's chat (told so in a toast that
    vanishes), then opened the chat some other way and sent a bare /start: he is seated where
    he asked and told where; a second /start seats nobody again."""
    group, (alice, bob, carol) = make_players(tg, 3, lang)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        await alice.start()
        await alice.send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        await bob.press(lobby, data=_data(lobby, "j:"))
        await bot.idle()
        assert "Bob" not in bot_messages(tg, group)[0].text
        await bob.start()
        await carol.start()  # asked for nothing: welcomed only
        await bot.idle()
        assert "Bob" in bot_messages(tg, group)[0].text
        said = {"ru": "Вы сели за стол в «Friends»", "en": "You took a seat in “Friends”"}[lang]
        assert said in bot_messages(tg, bob)[-1].text
        assert all("Friends" not in m.text for m in bot_messages(tg, carol))
        assert "Carol" not in bot_messages(tg, group)[0].text
    assert tg.errors == []


async def test_a_plain_start_says_why_the_seat_he_asked_for_is_not_his(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """P14: he asked for a seat in a Preferans lobby before opening the bot's chat, and the
    pulya began without him: his /start says which table and why he is not at it."""
    group, (alice, bob, carol, dave) = make_players(tg, 4)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        for user in (alice, carol, dave):
            await user.start()
        await alice.send(group, "/newgame preferans")
        await bot.idle()
        lobby = bot_messages(tg, group)[-1]
        for user in (carol, dave, bob):  # Bob's press is refused: the bot cannot write to him
            await user.press(lobby, data=_data(lobby, "j:"))
            await bot.idle()
        lobby = bot_messages(tg, group)[-1]
        await alice.press(lobby, data=_data(lobby, "s:"))
        await bot.idle()
        await bob.start()
        await bot.idle()
        told = bot_messages(tg, bob)[-1].text
        assert "Вы просили место за столом в «Friends», но сейчас сесть туда нельзя:" in told
        assert "Bob" not in bot_messages(tg, group)[0].text
    assert tg.errors == []


async def test_a_creator_who_never_opened_the_bot_is_named_in_his_lobby_and_joins_by_link(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Not «0 игроков: пока никого» and a creator «?»: the lobby names him, says nobody sits
    yet, and his deep link seats him; a restart keeps his name."""
    group, (alice,) = make_players(tg, 1)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db) as bot:
        await alice.send(group, "/newgame")
        await bot.idle()
        [lobby] = [m for m in bot_messages(tg, group) if _joins(m)]
        assert "Стол собирает Alice" in lobby.text and "За столом пока никого." in lobby.text
        assert "0 игроков" not in lobby.text and "?" not in lobby.text, lobby.text
    async with running_bot(tg, db) as bot:
        await bot.idle()
        await alice.start("j1")
        await bot.idle()
        assert "Стол собирает Alice" in lobby.text and "За столом 1 игрок: Alice" in lobby.text
    assert tg.errors == []


async def test_only_creator_or_admin_starts_and_strangers_cannot_press_moves(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    stranger = tg.user(2000, "Mallory")
    group.add(stranger)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        for user in [*users, stranger]:
            await user.start()
        await users[0].send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        await users[1].press(lobby, data=_data(lobby, "j:"))
        await bot.idle()
        query = await users[1].press(lobby, data=_data(lobby, "s:"))
        await bot.idle()
        answer = tg.callback_answer(query)
        assert answer is not None and answer["show_alert"] and "создатель" in answer["text"]
        await users[0].send(group, "/startgame@frapbot")
        await bot.idle()
        assert "Игра началась" in bot_messages(tg, group)[0].text
        # the mover's button pressed twice before the bot answers: applied once
        mover, message = next(
            (u, m) for u in users[:2] if (m := control_message(tg, u)) and "Ваше слово" in m.text
        )
        pass_button = next(d for _, d in action_buttons(message) if d.endswith(":P"))
        first = await mover.press(message, data=pass_button)
        second = await mover.press(message, data=pass_button)
        await bot.idle()
        answers = [tg.callback_answer(first), tg.callback_answer(second)]
        assert [bool(a and a["show_alert"]) for a in answers] == [False, False]  # a toast
        assert not answers[0]["text"] and answers[1]["text"] == "Эта кнопка устарела."  # type: ignore[index]
        deal = deal_of(bot.service.find(1))  # type: ignore[arg-type]
        assert deal is not None and len([a for a in deal.actions if a.do == "pass"]) == 1
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


async def test_english_chat_and_english_players(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 4, lang="en")
    async with running_bot(tg, tmp_path / "db.sqlite3", default_language="en") as bot:
        await open_table(bot, group, users)
        assert "Trump" in bot_messages(tg, group)[1].text
        message = control_message(tg, users[0])
        assert message is not None and "Your cards" in message.text
        await play_deal(bot, users, random.Random(5))
        result = bot_messages(tg, group)[-1]
        assert "result" in result.text and "Pot:" in result.text
        await users[0].send(group, "/pot")
        await users[0].send(group, "/rules")
        await bot.idle()
        assert "The pot holds" in bot_messages(tg, group)[-2].text
        assert "This chat's rules" in bot_messages(tg, group)[-1].text
    assert tg.errors == []


async def test_settings_menu_changes_house_rules_for_admins_only(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, (alice, bob) = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        await bob.send(group, "/settings")
        await bot.idle()
        assert "администратор" in bot_messages(tg, group)[-1].text
        await alice.send(group, "/settings")
        await bot.idle()
        menu = bot_messages(tg, group)[-1]
        await alice.press(menu, data="c:p:frap")  # Frap's page: only Frap's rules
        await bot.idle()
        await alice.press(bot_messages(tg, group)[-1], data="c:o:frap:pen")
        await bot.idle()
        query = await bob.press(bot_messages(tg, group)[-1], data="c:b:frap")
        await bot.idle()
        assert tg.callback_answer(query)["show_alert"]  # type: ignore[index]
        chat = await bot.service.storage.chats.chat(GROUP_ID)
        assert chat.rules == {"preset": "classic", "frap": {"penalties": "flat"}}
        assert chat.lang == "ru"
        await alice.press(bot_messages(tg, group)[-1], data="c:b:frap")
        await bot.idle()
        await alice.press(bot_messages(tg, group)[-1], data="c:ante")
        await bot.idle()
        await alice.press(bot_messages(tg, group)[-1], data="c:ante=20")  # picked from a list
        await bot.idle()
        await alice.press(bot_messages(tg, group)[-1], data="c:lang")
        await bot.idle()
        assert "Settings" in bot_messages(tg, group)[-1].text
        assert (await bot.service.storage.chats.chat(GROUP_ID)).ante == 20
    assert tg.errors == []


async def test_pot_balance_history_and_hand_record(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 4, seed=3) as (bot, group, users):
        await play_deal(bot, users, random.Random(3))
        storage = bot.service.storage
        chat = await storage.chats.chat(GROUP_ID)
        ledger = await storage.money.ledger_rows(GROUP_ID)
        assert sum(amount for _, _, amount, _ in ledger) + chat.pot == 0
        await users[1].send(group, "/pot")
        await bot.idle()
        assert chat.pot == chat.pot_of("frap")  # the pot of the game played
        assert f"Фрап: {chat.pot}" in bot_messages(tg, group)[-1].text
        await users[1].send(group, "/balance")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        balances = await storage.money.balances(GROUP_ID)
        assert any(balance < 0 for _, balance in balances)
        for user, balance in balances:
            assert f"{user.name}: {signed(balance)}" in text  # "−10" with the minus sign
        await users[1].send(group, "/top")
        await bot.idle()
        top = bot_messages(tg, group)[-1].text
        rows = {line.split()[-1]: line for line in top.splitlines()}  # the league's rows by name
        assert all(signed(balance) in rows[user.name] for user, balance in balances)
        assert not re.search(r"-\d", text + top)  # never the hyphen
        await users[2].reply(bot_messages(tg, group)[-1], "/balance")
        await users[2].send(group, "/balance Dave")
        await bot.idle()
        assert (
            bot_messages(tg, group)[-1].text.startswith("💼")
            and "Dave" in bot_messages(tg, group)[-1].text
        )
        await users[1].send(group, "/history")
        await bot.idle()
        assert "№1 " in bot_messages(tg, group)[-1].text
        await users[1].send(group, "/history 1")
        await bot.idle()
        assert "Сдача №1" in bot_messages(tg, group)[-1].text
        document = tg.documents(group)[-1]
        record = json.loads(document.content)
        assert record["format"] == "frap-hand/1" and record["players"] == [
            "Alice",
            "Bob",
            "Carol",
            "Dave",
        ]
        await users[1].send(group, "/history abc")
        await bot.idle()
        assert "/history" in bot_messages(tg, group)[-1].text
    assert tg.errors == []


async def test_next_deal_button_and_stop_voids_the_deal(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 3, seed=8) as (bot, group, users):
        await play_deal(bot, users, random.Random(8))
        storage = bot.service.storage
        pot_after_first = (await storage.chats.chat(GROUP_ID)).pot
        balances_after_first = dict(
            (u.user_id, b) for u, b in await storage.money.balances(GROUP_ID)
        )
        latecomer = tg.user(3000, "Zoe")
        group.add(latecomer)
        await latecomer.start()
        await bot.idle()  # updates are handled concurrently: /start first, as a person would
        await latecomer.send(group, "/join")
        await bot.idle()
        assert "со следующей сдачи" in bot_messages(tg, group)[-1].text
        result = bot_messages(tg, group)[-2]
        await users[2].press(result, data=_data(result, "n:"))
        await bot.idle()
        assert "сдача №2" in bot_messages(tg, group)[-1].text
        assert "Zoe" in bot_messages(tg, group)[-1].text
        assert control_message(tg, latecomer) is not None
        await users[0].send(group, "/stopgame")
        await bot.idle()
        assert "отменена" in bot_messages(tg, group)[-1].text
        assert (await storage.chats.chat(GROUP_ID)).pot == pot_after_first
        after_stop = {u.user_id: b for u, b in await storage.money.balances(GROUP_ID)}
        assert after_stop == {**balances_after_first, latecomer.id: 0}  # her ante came back
        assert await storage.check() == []
        assert all(not action_buttons(control_message(tg, u)) for u in users)  # type: ignore[arg-type]
    assert tg.errors == []
