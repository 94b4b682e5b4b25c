"""A deal's review is posted once per chat by its button: players pressing "Review" at once
get one review message; a later press, after a restart too, is told in a toast that the review
is in the chat already, and nothing is posted. /review still posts it when asked."""

from __future__ import annotations

from pathlib import Path

from bot.handlers import Answer, Handlers, Pressed
from bot.table.live import Person
from tests.bot_harness import GROUP_ID, bot_messages, running_bot
from tests.fakebot import FakeTelegram
from tests.test_bot_review import _preferans, _result, _settled

POSTED = "The review of deal #1 is in the chat already: scroll up to it."


def _reviews(tg: FakeTelegram) -> list[str]:
    return [
        m.text for m in bot_messages(tg, tg.world.chats[GROUP_ID]) if "Review of deal" in m.text
    ]


def _button(tg: FakeTelegram) -> str:
    return next(d for _, d in _result(tg).buttons if d and d[:2] == "r:")


async def test_players_pressing_review_at_once_get_one_review(tmp_path: Path) -> None:
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3") as bot:
        users = await _preferans(bot, "en")
        result, data = _result(tg), _button(tg)
        for user in users:  # all three before the bot handles any
            await user.press(result, data=data)
        await _settled(bot)
        assert len(_reviews(tg)) == 1
        assert bot_messages(tg, tg.world.chats[GROUP_ID])[-1].reply_to is result  # under it
    assert tg.errors == []


async def test_a_later_press_is_told_the_review_is_posted_after_a_restart_too(
    tmp_path: Path,
) -> None:
    tg = FakeTelegram()
    db = tmp_path / "db.sqlite3"
    async with tg:
        async with running_bot(tg, db) as bot:
            users = await _preferans(bot, "en")
            result, data = _result(tg), _button(tg)
            await users[0].press(result, data=data)
            await _settled(bot)
            assert len(_reviews(tg)) == 1
            query = await users[1].press(result, data=data)
            await _settled(bot)
            assert tg.callback_answer(query) == {
                "text": POSTED, "show_alert": False, "url": None, "cache_time": None,
            }  # fmt: skip
            assert len(_reviews(tg)) == 1
            await users[1].send(tg.world.chats[GROUP_ID], "/review 1")  # asked: posted again
            await _settled(bot)
            assert len(_reviews(tg)) == 2
        async with running_bot(tg, db) as bot:  # kept with the deal
            handlers: Handlers = bot.app.bot_data["handlers"]
            carol = Person(users[2].id, "Carol", language_code="en")
            pressed = Pressed(carol, GROUP_ID, data, result.message_id)
            assert await handlers.handle_press(pressed) == Answer(POSTED)
            await _settled(bot)
            assert len(_reviews(tg)) == 2
    assert tg.errors == []
