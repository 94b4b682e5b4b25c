"""Runs the real bot (python-telegram-bot Application) against the fake Bot API for tests."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import ALLOWED_UPDATES, build
from bot.config import Settings
from bot.service import GameService
from bot.updates import set_webhook, webhook_options
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.models import CallbackRecord, FakeChat, StoredMessage


@dataclass
class RunningBot:
    """A started bot and what tests need of it."""

    app: Any
    tg: FakeTelegram

    @property
    def service(self) -> GameService:
        """The game service inside the running bot."""
        service: GameService = self.app.bot_data["service"]
        return service

    async def idle(self) -> None:
        """Wait until the bot has handled everything and every message shows its latest state.
        Updates are handled concurrently and timers fire on their own, so a handler waiting on
        SQLite makes no API call for a while: the fake server's quiet is not enough, no update
        may still be in hand and no chat's lock held."""
        processor = self.app.update_processor
        deadline = asyncio.get_running_loop().time() + 10
        while True:
            await self.tg.wait_idle(timeout=10)
            await self.service.presenter.flush()
            await self.tg.wait_idle(timeout=10)
            if processor.current_concurrent_updates == 0 and not self.service.busy():
                return
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("idle: an update is still being handled after 10 s")
            await asyncio.sleep(0.005)


@asynccontextmanager
async def running_bot(
    tg: FakeTelegram, db_path: Path, *, seed: int = 1, **overrides: Any
) -> AsyncIterator[RunningBot]:
    """Start the bot on the fake server with a seeded deck shuffle; stop it cleanly after."""
    values: dict[str, Any] = {
        "bot_token": tg.token,
        "bot_api_url": tg.base_url,
        "bot_file_api_url": tg.base_file_url,
        "db_path": str(db_path),
        "turn_timeout": 0,
        "group_messages_per_minute": 10_000,
        "poll_timeout": 1,
    }
    values.update(overrides)
    if values.get("webapp_url"):  # the operator gives BotFather WEBAPP_URL as he wrote it
        tg.mini_apps.register(values["webapp_url"], values.get("webapp_short_name"))
    settings = Settings(_env_file=None, **values)  # type: ignore[call-arg]
    app = build(settings, rng=random.Random(seed))
    await app.initialize()
    assert app.post_init is not None
    try:
        await app.post_init(app)
    except BaseException:  # e.g. the start-up check refused: release what initialize() opened
        await app.shutdown()
        raise
    assert app.updater is not None
    # the order of Application.run_polling / run_webhook: the updater, then the application
    if settings.webhook_url and settings.webapp_url:  # the Mini App's server takes the webhook
        await set_webhook(app, settings)
    elif settings.webhook_url:  # as bot.updates.run does with run_webhook
        await app.updater.start_webhook(**webhook_options(settings))
    else:
        await app.updater.start_polling(  # errors go where Application.run_polling sends them
            poll_interval=0,
            timeout=1,
            allowed_updates=list(ALLOWED_UPDATES),
            error_callback=lambda exc: app.create_task(app.process_error(None, exc)),
        )
    await app.start()
    tg.attach(app)
    running = RunningBot(app, tg)
    try:
        yield running
        assert app.bot_data.get("errors", 0) == 0, "a handler raised (see the log)"
    finally:
        if app.updater.running:
            await app.updater.stop()
        await app.stop()
        assert app.post_shutdown is not None
        await app.post_shutdown(app)
        await app.shutdown()


def webhook_overrides(tg: FakeTelegram, secret: str = "Secret_token-1") -> dict[str, Any]:
    """`running_bot` settings for webhook mode on a free port of 127.0.0.1. The fake is told to
    accept a plain-HTTP webhook there (Telegram wants HTTPS: in production a proxy in front of
    the bot, or PTB's own cert/key, provides it)."""
    tg.webhook.allow_http = True
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return {
        "webhook_url": f"http://127.0.0.1:{port}/telegram",
        "webhook_secret": secret,
        "webhook_listen": "127.0.0.1",
        "port": port,
    }


def bot_messages(tg: FakeTelegram, chat: FakeChat | FakeUser) -> list[StoredMessage]:
    """The bot's messages in a chat (for a user: their private chat), oldest first."""
    target = chat.dm if isinstance(chat, FakeUser) else chat
    return [m for m in tg.messages(target) if m.from_bot]


def control_message(tg: FakeTelegram, user: FakeUser) -> StoredMessage | None:
    """The user's latest private control message (the one with the hand)."""
    for message in reversed(bot_messages(tg, user)):
        if "🃏" in message.text:
            return message
    return None


def with_button(messages: list[StoredMessage], *prefixes: str) -> StoredMessage | None:
    """The last of `messages` with a button whose callback data starts with one of `prefixes`."""
    for message in reversed(messages):
        if any(d and d.startswith(prefixes) for _, d in message.buttons):
            return message
    return None


def action_buttons(message: StoredMessage) -> list[tuple[str, str]]:
    """The deal-action buttons (callback data starting with a: or t:) on a message."""
    return [(text, data) for text, data in message.buttons if data and data[:2] in ("a:", "t:")]


LOOK_FIRST = ("Откройте карты, чтобы", "Look at your cards to")  # F7: the dark declarer's hint


def moves_now(message: StoredMessage | None) -> list[str]:
    """The callback data a player may press now on his control message (F7: only looking, for a
    dark declarer who must look before discarding)."""
    if message is None:
        return []
    buttons = [data for _, data in action_buttons(message)]
    moves = [data for data in buttons if not data.endswith(":L")]
    return moves or (buttons if any(words in message.text for words in LOOK_FIRST) else [])


GROUP_ID = -100500
NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi"]


def make_players(tg: FakeTelegram, n: int, lang: str = "ru") -> tuple[FakeChat, list[FakeUser]]:
    group = tg.group(GROUP_ID, "Friends")
    users = [tg.user(1000 + i, NAMES[i], language_code=lang) for i in range(n)]
    for i, user in enumerate(users):
        group.add(user, creator=i == 0)
    return group, users


async def open_table(
    bot: RunningBot, group: FakeChat, users: list[FakeUser], command: str = "/newgame"
) -> None:
    """Everyone starts the bot privately, the first user opens a table, all join, it starts."""
    for user in users:
        await user.start()
    await bot.idle()
    await users[0].send(group, command)
    await bot.idle()
    lobby = bot_messages(bot.tg, group)[-1]
    for user in users[1:]:
        await user.press(lobby, data=next(d for _, d in lobby.buttons if d and d.startswith("j:")))
        await bot.idle()
    lobby = bot_messages(bot.tg, group)[0]
    await users[0].press(lobby, data=next(d for _, d in lobby.buttons if d and d.startswith("s:")))
    await bot.idle()


@asynccontextmanager
async def table_of(
    tg: FakeTelegram, tmp_path: Path, players: int, command: str = "/newgame", **bot: Any
) -> AsyncIterator[tuple[RunningBot, FakeChat, list[FakeUser]]]:
    """The usual opening: `players` friends in the group (`make_players`), the bot running on a
    fresh database (`running_bot`, with `bot`'s seed and settings) and their table started with
    `command` (`open_table`)."""
    group, users = make_players(tg, players)
    async with running_bot(tg, tmp_path / "db.sqlite3", **bot) as running:
        await open_table(running, group, users, command)
        yield running, group, users


async def play_deal(bot: RunningBot, users: list[FakeUser], rng: random.Random) -> int:
    """Press random legal buttons in the players' private chats until the deal ends; returns
    how many were pressed."""
    for presses in range(400):
        movers = []
        for user in users:
            message = control_message(bot.tg, user)
            moves = moves_now(message)
            if message is not None and moves:
                movers.append((user, message, moves))
        if not movers:
            return presses
        assert len(movers) == 1, f"more than one player may act: {[m[0] for m in movers]}"
        user, message, moves = movers[0]
        await user.press(message, data=rng.choice(moves))
        await bot.idle()
    raise AssertionError("the deal did not end")


def push_callback(
    tg: FakeTelegram, user: FakeUser, message: StoredMessage, data: str | None
) -> str:
    """A callback query with any data on any message, as a forged client could send it.

    `user.press` only presses buttons that are on the message; this pushes the raw update and
    registers it (like `World.user_press`) so that the bot's answerCallbackQuery works.
    Returns the query id (`tg.callback_answer(id)` gives the answer).
    """
    record = CallbackRecord(
        id=str(4_100_000_000_000_000 + tg.world.serial()), user=user, message=message, data=data
    )
    tg.world.callbacks[record.id] = record
    payload: dict[str, Any] = {
        "id": record.id,
        "from": user.to_api(),
        "message": message.to_api(tg.world.bot),
        "chat_instance": message.chat.chat_instance,
    }
    if data is not None:
        payload["data"] = data
    tg.updates.push("callback_query", payload)
    return record.id
