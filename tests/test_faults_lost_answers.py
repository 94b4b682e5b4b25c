"""Telegram posted the message but its answer was lost on the way (a 502 after the
post). The bot sends again, and the chat must not keep both: no duplicated table, hand or turn
ping message stays."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from telegram.error import BadRequest, TimedOut

from bot.client.api import FrapBot
from bot.client.http import AiohttpRequest
from tests.bot_harness import (
    RunningBot,
    bot_messages,
    make_players,
    open_table,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser
from tests.test_faults_telegram import _mover, _stale_slots


def _hands(bot: RunningBot, user: FakeUser) -> int:
    return sum("🃏" in m.text for m in bot_messages(bot.tg, user))


async def test_a_lost_answer_leaves_no_duplicate(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5) as bot:
        for user in users:
            await user.start()
        await bot.idle()
        tg.lose_answers("sendMessage", count=4)  # the lobby, the table, hands: posted, 502
        await open_table(bot, group, users)
        lost = [c for c in tg.calls("sendMessage") if c.injected]
        assert len(lost) == 4
        tables = [m for m in bot_messages(tg, group) if "сдача №1" in m.text]
        assert len(tables) == 1
        assert [_hands(bot, u) for u in users] == [1, 1, 1]
        lobbies = [m for m in bot_messages(tg, group) if "За столом" in m.text]
        assert len(lobbies) <= 1
        for _ in range(4):  # every turn ping (the mover's hand posted anew) loses its answer
            tg.lose_answers("sendMessage", count=1)
            user, data = _mover(tg, users)
            await user.press(tg.last(user.dm), data=data)
            await bot.idle()
            assert [_hands(bot, u) for u in users] == [1, 1, 1]
            assert _stale_slots(bot) == []
        await play_deal(bot, users, random.Random(5))
        assert await bot.service.storage.check() == []
        assert len([m for m in bot_messages(tg, group) if "сдача №1" in m.text]) == 1
    deleted = [c for c in tg.calls("deleteMessage") if c.ok]
    assert len(deleted) >= 8  # the duplicates (and the pings' old messages)
    for chat in (group, *(u.dm for u in users)):  # nobody's own message was touched
        assert not [
            m for m in tg.messages(chat, include_deleted=True) if not m.from_bot and m.deleted
        ]
    refused = {c.description for c in tg.errors}  # looking at a person's message is refused
    assert refused <= {
        "Bad Request: message can't be edited",
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a current content and reply markup of the message",
    }, refused


async def test_no_edit_reaches_a_message_the_bot_deleted(tg: FakeTelegram, tmp_path: Path) -> None:
    """A turn ping posts the mover's hand anew and deletes the old message. An edit of the old
    one queued before (a sweep's look, a delete's fallback, an edit held by an outage) must not
    be sent: Telegram would answer "message to edit not found"."""
    async with table_of(tg, tmp_path, 3, seed=5) as (bot, _, users):
        tg.outage(502, hang=True)  # Telegram holds every call: play goes on meanwhile
        user, data = _mover(tg, users)
        await user.press(tg.last(user.dm), data=data)
        await tg.wait_for(lambda: bot.service.find(1).step == 1)  # type: ignore[union-attr]
        tg.end_outage()
        await bot.idle()
        gone = [
            (u, m.message_id)
            for u in users
            for m in tg.messages(u.dm, include_deleted=True)
            if m.from_bot and m.deleted
        ]
        assert gone  # the mover's old hand message
        for u, message_id in gone:
            with pytest.raises(BadRequest, match="Message to edit not found"):
                await bot.app.bot.edit_message_reply_markup(u.id, message_id, reply_markup=None)
        assert _stale_slots(bot) == []
        assert await bot.service.storage.check() == []
    assert [c.description for c in tg.errors] == []


async def test_sends_held_past_their_retry_leave_no_duplicate(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Telegram's front holds every call, the bot gives up on its sends and tries again, and
    the held ones are carried out when the hang ends, after the retry had its answer: the
    duplicates land above the message the bot knows. They are found and deleted, with a
    look and a deletion each and one look at the chat's end at most."""
    async with table_of(tg, tmp_path, 4, seed=5) as (bot, group, users):
        before = len(tg.log)
        tg.outage(502, hang=True, carry_out=True)
        user, data = _mover(tg, users)
        await user.press(tg.last(user.dm), data=data)  # the next mover's hand is posted anew
        await asyncio.sleep(6)  # one send given up on (5 s), its retry held too
        tg.end_outage()
        await bot.idle()
        calls = [c for c in tg.log[before:] if c.method != "getUpdates"]
        lost = [c for c in calls if c.method == "sendMessage" and c.injected and c.ok]
        assert lost  # carried out, the bot never told
        for chat in (group, *(u.dm for u in users)):
            hands = [m for m in tg.messages(chat) if m.from_bot and "сдача №1" in m.text]
            assert len(hands) == 1, chat
        assert _stale_slots(bot) == []
        looks = [c for c in calls if c.method == "editMessageReplyMarkup"]
        assert len(looks) <= len(lost) + 1
        assert await bot.service.storage.check() == []


async def test_after_a_restart_a_lost_send_is_found_above_the_last_post(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The bot restarts; its first send to a player is carried out but answered 502, and the
    retry posts it again. The duplicate lies below the retry and above every message of the
    earlier run, which the stored last posts tell: it is deleted, and none of those is looked at."""
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=5) as bot:
        await open_table(bot, group, users)
    earlier = {(m.chat.id, m.message_id) for u in users for m in bot_messages(tg, u)}
    async with running_bot(tg, db, seed=5) as bot:
        await bot.idle()
        tg.lose_answers("sendMessage", count=1)
        user, data = _mover(tg, users)
        await user.press(tg.last(user.dm), data=data)  # the next mover's hand is posted anew
        await bot.idle()
        assert [c for c in tg.calls("sendMessage") if c.injected]
        assert [_hands(bot, u) for u in users] == [1, 1, 1]
        assert _stale_slots(bot) == []
    looked = {
        (int(c.params["chat_id"]), int(c.params["message_id"]))
        for c in tg.calls("editMessageReplyMarkup")
    }
    assert looked and not looked & earlier


def _started(tg: FakeTelegram, user_id: int, name: str) -> FakeChat:
    """The private chat of a user who has started the bot (it may write to him)."""
    user = tg.user(user_id, name)
    user.started = True
    return user.dm


def _impatient(tg: FakeTelegram) -> FrapBot:
    """The bot's client, giving up on an answer after half a second."""
    return FrapBot(tg.token, base_url=tg.base_url, request=AiohttpRequest(read_timeout=0.5))


async def _a_send_lost_in_a_hang(tg: FakeTelegram, bot: FrapBot, chat_id: int) -> None:
    """Telegram's front holds the bot's send until the bot gives up on it (a time-out), then
    the hang ends and the send is carried out all the same."""
    tg.outage(502, hang=True, carry_out=True)
    with pytest.raises(TimedOut):
        await bot.post_text(chat_id, "your move", "")
    tg.end_outage()


async def test_a_lost_send_followed_only_by_edits_is_found(tg: FakeTelegram) -> None:
    """A busy bot edits its turn ping instead of posting it again once the send timed out:
    no later send starts the sweep, so the first edit answered there does, and the send
    carried out after the hang is found above every id the bot knows."""
    chat = _started(tg, 4242, "Dora")
    async with _impatient(tg) as bot:
        shown = await bot.post_text(chat.id, "your cards", "")
        await _a_send_lost_in_a_hang(tg, bot, chat.id)
        await tg.wait_for(lambda: len(tg.messages(chat)) == 2)  # posted all the same
        await bot.edit_text(chat.id, shown, "your move", "")
        await asyncio.gather(*bot.sweeps)
    assert [m.message_id for m in tg.messages(chat)] == [shown]


async def test_no_message_of_an_earlier_run_is_taken_for_a_duplicate(tg: FakeTelegram) -> None:
    """Started without a stored last post (a database from before they were kept), the bot
    loses a send and then edits its hand message: the result the earlier run posted below the
    lost send is left alone, whatever lands above it."""
    chat = _started(tg, 4343, "Egor")
    async with FrapBot(tg.token, base_url=tg.base_url) as earlier:
        shown = await earlier.post_text(chat.id, "your cards", "")
        result = await earlier.post_text(chat.id, "the deal's result", "")
    async with _impatient(tg) as bot:
        bot.recall({}, [(chat.id, shown)])  # the presenter's slot, no last post stored
        await _a_send_lost_in_a_hang(tg, bot, chat.id)
        await tg.wait_for(lambda: len(tg.messages(chat)) == 3)
        await bot.edit_text(chat.id, shown, "your move", "")
        await asyncio.gather(*bot.sweeps)
    assert result in [m.message_id for m in tg.messages(chat)]
    assert not tg.calls("editMessageReplyMarkup")
