"""Every button goes through one function, Handlers.handle_press: a press is who
pressed (the host's own `Person`, no front end's user), the chat and message, and the button's
data, whatever carried it; a Telegram press and the same press handed to it directly are
answered alike."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from bot.app import GROUP_COMMANDS
from bot.callbacks import Kind
from bot.handlers import Answer, Handlers, Pressed
from bot.service import Person
from tests.bot_harness import GROUP_ID, bot_messages, make_players, push_callback, running_bot
from tests.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent


async def test_a_press_handed_over_directly_is_handled_and_answered_as_a_telegram_one(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        handlers: Handlers = bot.app.bot_data["handlers"]
        for user in users:
            await user.start()
        await users[0].send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        bob = Person(users[1].id, users[1].first_name, language_code="ru")
        pressed = Pressed(bob, GROUP_ID, "j:1", lobby.message_id)
        assert await handlers.handle_press(pressed) == Answer()
        await bot.idle()
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and users[1].id in live.row.seats
        assert "Bob" in bot_messages(tg, group)[0].text  # the lobby shows him seated
        # the same press again, through Telegram and directly: the same refusal
        query = await users[1].press(bot_messages(tg, group)[0], data="j:1")
        await bot.idle()
        told = tg.callback_answer(query)
        assert told is not None and told["text"]
        again = await handlers.handle_press(pressed)
        assert again == Answer(told["text"], alert=told["show_alert"])
        # forged data, and a chat's button with no chat known: stale
        stale = await handlers.handle_press(Pressed(bob, GROUP_ID, "x:1"))
        forged = push_callback(tg, users[1], bot_messages(tg, group)[0], "x:1")
        await bot.idle()
        assert stale.text == tg.callback_answer(forged)["text"]  # type: ignore[index]
        assert not stale.alert  # a button out of its place: a toast, not a modal
        assert await handlers.handle_press(Pressed(bob, None, "l:1")) == stale
        assert users[1].id in live.row.seats
    assert tg.errors == []


def test_every_kind_of_button_has_one_handler() -> None:
    """Each kind of callback data (callbacks.Kind) is routed, by exactly one of the two tables."""
    handlers = Handlers(_Service(), None)  # type: ignore[arg-type]
    routed = [*handlers.anywhere, *handlers.in_chat]
    assert sorted(routed) == sorted(Kind) and len(routed) == len(set(routed))


def test_every_group_command_has_one_handler() -> None:
    """Each group command of the menu but /help (which answers anywhere) is answered by exactly
    one part of the handlers, and `Handlers.commands` holds them all for bot/app.py."""
    handlers = Handlers(_Service(), None)  # type: ignore[arg-type]
    parts = (handlers.table, handlers.money, handlers.review, handlers.settings)
    named = [name for part in parts for name in part.commands()]
    wanted = [name for name in GROUP_COMMANDS if name != "help"]
    assert sorted(named) == sorted(wanted) == sorted(handlers.commands)


def test_the_press_path_takes_no_front_end_value() -> None:
    """A press, the function every front end hands it to and every handler it is routed to are
    typed in the host's own values: no Telegram bot, message or keyboard among them (the chat's
    front end answers for admins and edits through `Common.chats`)."""
    handlers = Handlers(_Service(), None)  # type: ignore[arg-type]
    path = [Pressed, handlers.handle_press, handlers.presses.handle_press]
    path += [*handlers.anywhere.values(), *handlers.in_chat.values()]
    telegram = [
        f"{getattr(part, '__qualname__', part)}: {name}"
        for part in path
        for name, hint in typing.get_type_hints(part).items()
        if "telegram" in repr(hint)
    ]
    assert telegram == []


class _Service:
    """Enough of a game service to build the handlers."""

    storage = None


def _chain(node: ast.AST) -> str:
    """`self.service.lobby.join` for the callee of such a call."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def test_no_handler_or_page_takes_the_chats_lock() -> None:
    """Every public step of the host takes the chat's lock itself (bot/table/locks.py); a front
    end's own action that must not be overtaken (a chat's settings read, changed and shown; the
    views of one position made for a table's pages) goes through `GameService.in_turn`. A handler
    or viewer that took the lock around a host step would deadlock, one that forgot it would
    race: none takes it."""
    taken = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for folder in ("handlers", "web")
        for path in sorted((ROOT / "bot" / folder).glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and _chain(node.func).endswith(("service.lock", "locks.hold"))
    ]
    assert taken == []
