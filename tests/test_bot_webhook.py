"""Webhook mode. WEBHOOK_URL switches the bot from long polling to python-telegram-bot's
webhook server, which takes updates only with Telegram's secret-token header."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError

from bot.config import Settings
from tests.bot_harness import (
    GROUP_ID,
    action_buttons,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
    webhook_overrides,
)
from tests.fakebot import FakeTelegram
from tests.fakebot.webhook import SECRET_HEADER


async def test_updates_posted_to_the_webhook_play_a_deal(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    webhook = webhook_overrides(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, **webhook) as bot:
        [set_call] = tg.calls("setWebhook")
        assert set_call.ok and set_call.params["url"] == webhook["webhook_url"]
        assert set_call.params["secret_token"] == webhook["webhook_secret"]
        await open_table(bot, group, users)
        assert await play_deal(bot, users, random.Random(3)) > 0
        assert await bot.service.storage.check() == []
        assert len(await bot.service.storage.money.ledger_rows(GROUP_ID)) > len(
            users
        )  # antes, result
    assert tg.calls("getUpdates") == []  # no polling at all
    assert tg.webhook.deliveries and all(status == 200 for _, status in tg.webhook.deliveries)
    assert tg.updates.unconfirmed == 0


@pytest.mark.parametrize("secret", [None, "", "Secret_token-2"], ids=["none", "empty", "wrong"])
async def test_a_post_without_the_right_secret_is_refused(
    tg: FakeTelegram, tmp_path: Path, secret: str | None
) -> None:
    """A stranger who learns the URL cannot post updates: 403, and nothing happens."""
    group, users = make_players(tg, 2)
    webhook = webhook_overrides(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3", **webhook) as bot:
        await bot.idle()
        calls_before = len(tg.log)
        forged = {
            "update_id": 1,
            "message": {
                "message_id": 1,
                "date": 1_700_000_000,
                "chat": {"id": group.id, "type": "supergroup", "title": group.title},
                "from": users[0].to_api(),
                "text": "/newgame",
                "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
            },
        }
        headers = {} if secret is None else {SECRET_HEADER: secret}
        async with (
            aiohttp.ClientSession() as http,
            http.post(webhook["webhook_url"], json=forged, headers=headers) as response,
        ):
            assert response.status == 403
        await bot.idle()
        assert tg.log[calls_before:] == []  # the bot did not answer or send anything
        assert await bot.service.storage.tables.open_table(group.id) is None
        assert await bot.service.storage.chats.user(users[0].id) is None


async def test_a_restart_in_webhook_mode_keeps_the_table_and_resets_the_webhook(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Updates that come while the bot is down wait at Telegram; the restarted bot sets its
    (new) webhook again, receives them and plays on from the stored state."""
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    first = webhook_overrides(tg)
    async with running_bot(tg, db, seed=5, **first) as bot:
        await open_table(bot, group, users)
        table = await bot.service.storage.tables.open_table(group.id)
        assert table is not None
        before = await bot.service.storage.tables.current_deal(table.table_id)
        assert before is not None
    mover = next(u for u in users if (m := control_message(tg, u)) and action_buttons(m))
    message = control_message(tg, mover)
    assert message is not None
    query = await mover.press(message, data=action_buttons(message)[0][1])  # the bot is down
    await tg.wait_for(lambda: tg.webhook.last_error_message)
    assert tg.webhook.last_error_message == "Connection refused"
    assert tg.webhook.info()["pending_update_count"] == 1
    assert tg.webhook.url == first["webhook_url"]  # stopping keeps the webhook

    second = webhook_overrides(tg)  # another port: the restarted bot must set the webhook again
    async with running_bot(tg, db, seed=5, **second) as bot:
        await bot.idle()
        assert tg.webhook.url == second["webhook_url"] and tg.updates.unconfirmed == 0
        assert tg.callback_answer(query) is not None
        after = await bot.service.storage.tables.current_deal(table.table_id)
        assert after is not None and after.deal_id == before.deal_id
        assert len(after.record["actions"]) == len(before.record["actions"]) + 1
        assert await play_deal(bot, users, random.Random(5)) > 0
        assert await bot.service.storage.check() == []
    assert len(tg.calls("setWebhook")) == 2 and tg.calls("getUpdates") == []


TOKEN = "123456:AAFakeTokenForTests_0123456789abcdefXYZ"


def _settings(**env: str) -> Settings:
    return Settings(_env_file=None, bot_token=TOKEN, **env)  # type: ignore[call-arg, arg-type]


def test_polling_is_the_default_and_an_empty_url_means_polling() -> None:
    assert _settings().webhook_url is None
    assert _settings(webhook_url="").webhook_url is None


def test_the_webhook_path_is_the_url_path() -> None:
    settings = _settings(webhook_url="https://bot.example.com/tg/hook/", webhook_secret="s")
    assert settings.webhook_path == "tg/hook"


@pytest.mark.parametrize(
    ("env", "error"),
    [
        ({"webhook_url": "https://bot.example.com/hook"}, "WEBHOOK_SECRET is required"),
        ({"webhook_url": "bot.example.com/hook", "webhook_secret": "s"}, "must be a URL"),
        ({"webhook_url": "https://b.example.com/", "webhook_secret": "a:b"}, "A-Z, a-z, 0-9"),
    ],
    ids=["no-secret", "no-scheme", "bad-secret"],
)
def test_webhook_settings_are_checked(env: dict[str, str], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        _settings(**env)


def test_a_webhook_without_a_secret_is_one_clear_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=Path(__file__).resolve().parent.parent,
        env={"PATH": "/usr/bin:/bin", "BOT_TOKEN": TOKEN, "WEBHOOK_URL": "https://b.example.com/"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "configuration error: WEBHOOK_SECRET is required with WEBHOOK_URL; "
        "set them in the environment or .env"
    ]
