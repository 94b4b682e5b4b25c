"""Turns through the fake Bot API: the turn ping (a new message that notifies) and its switch,
the turn timer and the move made for a player, the chat's language, /history's numbers."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot import games
from bot.games.family.table import deal as deal_of
from bot.storage import MIGRATIONS, Storage
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage
from tests.fakebot.models import FakeChat


def _mover(tg: FakeTelegram, users: list[FakeUser]) -> FakeUser | None:
    movers = [user for user in users if moves_now(control_message(tg, user))]
    assert len(movers) <= 1, movers
    return movers[0] if movers else None


def _deal_no(bot: RunningBot) -> int:
    live = bot.service.find(1)
    assert live is not None
    return live.row.deal_no


def _posted(tg: FakeTelegram, user: FakeUser) -> int:
    """How many messages the bot has posted in the user's private chat (deleted ones too)."""
    return len([m for m in tg.messages(user.dm, include_deleted=True) if m.from_bot])


def _hands(tg: FakeTelegram, user: FakeUser) -> list[StoredMessage]:
    """The user's live control messages."""
    return [m for m in bot_messages(tg, user) if "🃏" in m.text]


async def _until(done: Callable[[], object], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


# ---- the turn ping ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", games.ORDER)
async def test_the_move_passing_to_a_player_reposts_his_cards_as_a_notifying_message(
    tg: FakeTelegram, tmp_path: Path, game: str
) -> None:
    """Every registered game: the ping lives in the shared service, not in a game's module."""
    group, users = make_players(tg, max(3, games.ui(game).players[0]))
    rng = random.Random(2)
    # the tests press far faster than people: a budget for pings that a table never exhausts
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=2, messages_per_second=1000) as bot:
        await open_table(bot, group, users, f"/newgame {games.ui(game).aliases[0]}")
        previous: FakeUser | None = None
        pings = 0
        first_ping: dict[int, int] = {}  # by user: the message id of his first ping
        # one deal (a match deals its next one at once: the move passes to its first mover)
        while (mover := _mover(tg, users)) is not None and _deal_no(bot) == 1:
            message = control_message(tg, mover)
            assert message is not None
            # his cards are the newest message of his private chat, and it notified him
            assert bot_messages(tg, mover)[-1] is message and message.notified
            assert all(len(_hands(tg, user)) == 1 for user in users)  # the old one deleted
            # His first ping, and only it, says how to turn pings off
            first = first_ping.setdefault(mover.id, message.message_id) == message.message_id
            posted_as = (*message.history, message.text)[0]
            assert ("/pings" in posted_as) == first, (first, posted_as)
            before = {user.id: _posted(tg, user) for user in users}
            await mover.press(message, data=rng.choice(moves_now(message)))
            await bot.idle()
            previous, now, dealt = mover, _mover(tg, users), _deal_no(bot) > 1
            for user in users:
                posted = _posted(tg, user) - before[user.id]
                expected = 1 if user is now and (now is not previous or dealt) else 0
                assert posted == expected, (user, posted, now, previous)
                pings += posted
        assert pings >= 3  # the move passed several times (a Napoleon deal may stop early, N4)
        live = bot.service.find(1)
        assert live is not None
        assert live.row.deal_no > 1 or (deal_of(live) is not None and deal_of(live).finished)
    assert tg.errors == []


async def test_a_player_who_turned_pings_off_keeps_one_silent_message(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    quiet = users[1]
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, messages_per_second=1000) as bot:
        await quiet.start()
        await bot.idle()
        await quiet.send(quiet.dm, "/pings")
        await bot.idle()
        menu = bot_messages(tg, quiet)[-1]
        assert "включены" in menu.text
        await quiet.press(menu, text="🔕 Выключить")
        await bot.idle()
        assert "выключены" in menu.text and menu.buttons[0][0] == "🔔 Включить"
        stored = await bot.service.storage.chats.user(quiet.id)
        assert stored is not None and not stored.pings
        await open_table(bot, group, users)
        (hand,) = _hands(tg, quiet)
        moved = False
        rng = random.Random(3)
        while (mover := _mover(tg, users)) is not None:
            moved |= mover is quiet
            message = control_message(tg, mover)
            assert message is not None
            await mover.press(message, data=rng.choice(moves_now(message)))
            await bot.idle()
            assert _hands(tg, quiet) == [hand]  # edited in place, never posted anew
        assert moved and hand.edits > 0
        others = [len([m for m in tg.messages(u.dm, include_deleted=True) if "🃏" in m.text])
                  for u in (users[0], users[2])]  # fmt: skip
        assert all(n > 1 for n in others)  # the others were pinged
        await quiet.send(quiet.dm, "/pings on")
        await bot.idle()
        assert "включены" in bot_messages(tg, quiet)[-1].text
        assert (await bot.service.storage.chats.user(quiet.id)).pings  # type: ignore[union-attr]
    assert tg.errors == []


async def test_a_bot_short_of_telegrams_budget_edits_instead_of_pinging(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A ping is a new message that could as well be an edit: when the 30-a-second budget is
    spent (here: set to 1), the cards are edited in place at once rather than queued."""
    group, users = make_players(tg, 3)
    rng = random.Random(6)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=6, messages_per_second=1) as bot:
        await open_table(bot, group, users)
        posted = {user.id: _posted(tg, user) for user in users}
        for _ in range(4):
            mover = _mover(tg, users)
            assert mover is not None
            message = control_message(tg, mover)
            await mover.press(message, data=rng.choice(moves_now(message)))  # type: ignore[arg-type]
            await bot.idle()
        assert {user.id: _posted(tg, user) for user in users} == posted
        assert bot.service.presenter.renewals_skipped >= 3
    assert tg.errors == []


async def test_start_hand_moves_the_cards_down_and_leaves_no_live_copy(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with table_of(tg, tmp_path, 3, seed=4) as (bot, _group, users):
        waiting = next(u for u in users if u is not _mover(tg, users))
        old = control_message(tg, waiting)
        assert old is not None
        await waiting.send(waiting.dm, "hello")  # the cards are no longer at the bottom
        await waiting.start("hand")
        await bot.idle()
        new = control_message(tg, waiting)
        assert new is not None and new is not old and new.text == old.text
        assert tg.messages(waiting.dm)[-1] is new and old.deleted
    assert tg.errors == []


# ---- the turn timer and the move made for a player ----------------------------------------------


async def test_the_mover_sees_his_time_and_is_told_privately_what_the_bot_played(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with table_of(tg, tmp_path, 3, seed=5, turn_timeout=2) as (bot, group, users):
        mover = _mover(tg, users)
        assert mover is not None
        message = control_message(tg, mover)
        assert message is not None and message.text.endswith("⏳ На ход осталось: 0:02")
        waiting = [u for u in users if u is not mover]
        assert all("На ход осталось" not in control_message(tg, u).text for u in waiting)  # type: ignore[union-attr]
        told = "Время на ход в «Friends» вышло — бот сходил за вас: пас."

        def timed_out() -> bool:
            return any(told in m.text for m in bot_messages(tg, mover))

        await _until(timed_out, 10)
        await users[0].send(group, "/stopgame")  # before the others' timers run out too
        await bot.idle()
        line = next(m for m in bot_messages(tg, mover) if told in m.text)
        assert line.notified
        # his control message said so too, until the game stopped
        texts = [t for m in _hands(tg, mover) for t in (*m.history, m.text)]
        assert any(t.startswith("🤖 Бот сходил за вас: пас") for t in texts), texts
        assert not any("за вас: Пас" in t for t in texts)  # a button's capital, not a sentence's
    assert tg.errors == []


# ---- the chat's language -----------------------------------------------------------------------


async def test_a_group_speaks_the_language_of_whoever_opens_its_first_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3, lang="en-GB")
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:  # the default is Russian
        await users[0].send(group, "/help")
        await bot.idle()
        assert "Фрап" in bot_messages(tg, group)[-1].text  # before any table: the default
        for user in users:
            await user.start()
        await bot.idle()
        await users[0].send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[-1]
        assert "Take a seat" in str(lobby.buttons)
        for user in users[1:]:
            await user.press(lobby, text="🪑 Take a seat")
            await bot.idle()
        await users[0].press(lobby, text="▶️ Start the game")
        await bot.idle()
        assert "Trump" in bot_messages(tg, group)[-1].text
        await users[0].send(group, "/stopgame")
        await bot.idle()
        chat = await bot.service.storage.chats.chat(GROUP_ID)
        assert chat.lang == "en" and chat.lang_chosen
    assert tg.errors == []


async def test_a_language_chosen_before_the_first_table_stays(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 2, lang="ru")
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        await users[0].send(group, "/language en")  # users[0] created the group: an admin
        await bot.idle()
        assert bot_messages(tg, group)[-1].text == "🌐 This chat now speaks English."
        await users[0].start()
        await bot.idle()
        await users[0].send(group, "/newgame")
        await bot.idle()
        assert "Take a seat" in str(bot_messages(tg, group)[-1].buttons)
    assert tg.errors == []


async def test_language_without_an_argument_offers_buttons_and_changes_nothing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, (alice, bob) = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        storage = bot.service.storage
        await bob.start()
        await bot.idle()
        await bob.send(bob.dm, "/language")
        await bot.idle()
        menu = bot_messages(tg, bob)[-1]
        assert [text for text, _ in menu.buttons] == ["✓ Русский", "English"]
        assert (await storage.chats.user(bob.id)).lang == "ru"  # type: ignore[union-attr]
        await bob.press(menu, text="English")
        await bot.idle()
        assert menu.text == "Private messages are now in English." and not menu.buttons
        assert (await storage.chats.user(bob.id)).lang == "en"  # type: ignore[union-attr]
        # in the group: the chat's language, which only an admin may choose
        await bob.send(group, "/language")
        await bot.idle()
        menu = bot_messages(tg, group)[-1]
        assert (await storage.chats.chat(GROUP_ID)).lang == "ru"
        query = await bob.press(menu, text="English")
        await bot.idle()
        answer = tg.callback_answer(query)
        assert answer is not None and answer["show_alert"]
        assert (await storage.chats.chat(GROUP_ID)).lang == "ru"
        await alice.press(menu, text="English")
        await bot.idle()
        assert (await storage.chats.chat(GROUP_ID)).lang == "en"
        assert menu.text == "🌐 This chat now speaks English."
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


# ---- /history ----------------------------------------------------------------------------------


async def _play_one(bot: RunningBot, group: FakeChat, users: list[FakeUser]) -> None:
    await open_table(bot, group, users)
    await play_deal(bot, users, random.Random(group.id))
    await users[0].send(group, "/stopgame")
    await bot.idle()


async def test_history_numbers_deals_per_chat_with_dates(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    elsewhere = tg.group(-100700, "Elsewhere")
    for i, user in enumerate(users):
        elsewhere.add(user, creator=i == 0)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7) as bot:
        await _play_one(bot, elsewhere, users)  # another chat's deals come first
        await _play_one(bot, group, users)
        storage = bot.service.storage
        ((number, deal),) = await storage.history.numbered_deals(GROUP_ID, limit=5)
        assert number == 1 and deal.deal_id > 1
        await users[1].send(group, "/history")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        today = time.strftime("%d.%m", time.gmtime(deal.finished_at))
        assert f"№1 {today} " in text and "№2" not in text and f"#{deal.deal_id}" not in text
        assert "::" not in text and ". :" not in text
        await users[1].send(group, "/history 1")
        await bot.idle()
        title, played, *_ = bot_messages(tg, group)[-2].text.split("\n")
        assert "сдача №1" in title and played.startswith(f"🗓 Сыграна {today} ")
        document = tg.documents(group)[-1]
        assert document.file_name == "deal-1.json"
        assert json.loads(document.content) == deal.record
        await users[1].send(group, "/history 2")
        await bot.idle()
        assert "Такой сдачи" in bot_messages(tg, group)[-1].text
    assert tg.errors == []


async def test_chats_that_had_tables_keep_their_language_after_the_upgrade(tmp_path: Path) -> None:
    """Migration 5: a chat that played before keeps its language; one that never opened a table
    takes its first opener's."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        for number, script in enumerate(MIGRATIONS[:3], start=1):
            db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        db.executemany(
            "INSERT INTO chats (chat_id, lang, ante, turn_timeout) VALUES (?, 'ru', 10, 90)",
            [(-1,), (-2,)],
        )
        db.execute(
            "INSERT INTO tables (chat_id, game, status, creator_id, created_at) "
            "VALUES (-1, 'frap', 'closed', 7, 0)"
        )
        db.execute("INSERT INTO users (user_id, name) VALUES (7, 'Old')")
        db.commit()
    storage = await Storage.open(str(path))
    try:
        assert (await storage.chats.chat(-1)).lang_chosen
        assert not (await storage.chats.chat(-2)).lang_chosen
        user = await storage.chats.user(7)
        assert user is not None and user.pings
    finally:
        await storage.close()
