"""Every press is answered within a second, whatever its handling waits on: a "Review" pressed
while the group's budget of new messages is spent (about 20 a minute) is answered at once and
the review posted when the budget allows; the handling goes on after the answer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.view.message import Rendered
from tests.bot_harness import GROUP_ID, bot_messages, running_bot
from tests.fakebot import ApiCall, FakeTelegram
from tests.test_bot_review import _preferans, _result, _settled


def answer_of(tg: FakeTelegram, query_id: str) -> ApiCall | None:
    """The bot's answerCallbackQuery call for a press, once made."""
    calls = tg.calls("answerCallbackQuery")
    return next((c for c in calls if c.params.get("callback_query_id") == query_id), None)


async def test_a_review_press_is_answered_within_a_second_while_the_budget_is_spent(
    tmp_path: Path,
) -> None:
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3", group_messages_per_minute=20) as bot:
        users = await _preferans(bot, "en")
        group = tg.world.chats[GROUP_ID]
        # the group's budget spent: the deal's messages, and two more
        fillers = [
            asyncio.create_task(bot.service.presenter.post(GROUP_ID, Rendered(f"news {n}")))
            for n in range(2)
        ]
        await asyncio.sleep(0)
        data = next(d for _, d in _result(tg).buttons if d and d[:2] == "r:")
        query = await users[2].press(_result(tg), data=data)
        pressed = tg.world.callbacks[query]
        answered = await tg.wait_for(lambda: answer_of(tg, query), timeout=30)
        assert answered.at - pressed.at < 1.0
        assert tg.callback_answer(query) == {
            "text": None, "show_alert": False, "url": None, "cache_time": None,
        }  # fmt: skip
        await asyncio.gather(*fillers)
        await _settled(bot)
        posts = [c for c in tg.calls("sendMessage") if "Review of deal #1" in c.params["text"]]
        assert len(posts) == 1 and posts[0].at - pressed.at > 1.0  # it waited for the budget
        assert "Review of deal #1" in bot_messages(tg, group)[-1].text
    assert tg.errors == []
