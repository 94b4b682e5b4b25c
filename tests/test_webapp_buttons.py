"""The buttons that open the Mini App. The group's table message gets a URL button (a
t.me direct link with the table in startapp), each player's control message a web_app button;
the fake Bot API refuses a web_app button in a group as Telegram does. (Without WEBAPP_URL
nothing changes: tests/test_golden.py's transcripts stay byte-identical.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.error import BadRequest

from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    control_message,
    make_players,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram
from tests.webapp_helpers import webapp_overrides


def _buttons(message: object) -> list[dict[str, object]]:
    markup = getattr(message, "reply_markup", None) or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


@pytest.mark.parametrize("short", [None, "table"], ids=["main-app", "short-name"])
async def test_the_table_and_the_control_messages_open_the_mini_app(
    tg: FakeTelegram, tmp_path: Path, short: str | None
) -> None:
    group, users = make_players(tg, 3)
    web = {**webapp_overrides(), "webapp_short_name": short}
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, **web) as bot:
        await open_table(bot, group, users)
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        name = bot.app.bot.username
        app = f"/{short}" if short else ""
        [table_message] = [m for m in bot_messages(tg, group) if "startapp" in str(m.reply_markup)]
        [opener] = [b for b in _buttons(table_message) if "url" in b and "startapp" in b["url"]]
        assert opener == {
            "text": "🃏 Стол",
            "url": f"https://t.me/{name}{app}?startapp={table.table_id}",
        }
        assert not any("web_app" in b for m in tg.messages(group) for b in _buttons(m))
        for user in users:
            message = control_message(tg, user)
            assert message is not None
            [button] = [b for b in _buttons(message) if "web_app" in b]
            assert button["text"] == "🃏 Стол"
            assert button["web_app"] == {"url": f"{web['webapp_url']}?table={table.table_id}"}


async def test_the_fake_refuses_a_web_app_button_in_a_group(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 1)
    await users[0].start()
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton("🃏", web_app=WebAppInfo("https://example.com/app"))]]
    )
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
            await bot.app.bot.send_message(group.id, "table", reply_markup=markup)
        sent = await bot.app.bot.send_message(users[0].id, "hand", reply_markup=markup)
        plain = await bot.app.bot.send_message(group.id, "table")
        with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
            await plain.edit_reply_markup(markup)
        assert sent.reply_markup is not None
    refused = [c for c in tg.log if not c.ok]
    assert [(c.method, c.status, c.description) for c in refused] == [
        ("sendMessage", 400, "Bad Request: BUTTON_TYPE_INVALID"),
        ("editMessageReplyMarkup", 400, "Bad Request: BUTTON_TYPE_INVALID"),
    ]


async def test_without_webapp_url_no_message_has_an_opener(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3) as bot:
        await open_table(bot, group, users)
        assert "web" not in bot.app.bot_data
    everything = [m for m in tg.messages(group)] + [m for u in users for m in tg.messages(u.dm)]
    assert not any("startapp" in str(b) or "web_app" in b for m in everything for b in _buttons(m))
