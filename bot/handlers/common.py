"""What every handler shares: replies through the presenter, refusals in words, the admin
check, the group-command wrapper, and answering a press with Telegram's trouble waited out."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import UTC, timedelta, tzinfo
from typing import Any, Protocol

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import BadRequest, ChatMigrated, NetworkError, RetryAfter, TelegramError
from telegram.ext import ContextTypes

from locales import t

from .. import games
from ..service import GameService, Person, Refusal
from ..storage import StorageUnavailable
from ..view.message import Button, Link, Rendered, Rows

log = logging.getLogger("bot.handlers")
Context = ContextTypes.DEFAULT_TYPE
# the other group commands take none
TAKE_ARGUMENTS = ("newgame", "balance", "top", "history", "review", "kick", "stats")
# what a private chat's practice table against computer players answers too
PRACTICE_COMMANDS = (
    "newgame", "startgame", "stopgame", "pot", "balance", "top", "stats", "history", "review",
    "rules",
)  # fmt: skip
ANSWER_TRIES = 4
# a group command's handler before and after `Common._commands` wraps it
GroupRun = Callable[[Update, Context, Message, str], Awaitable[None]]
Command = Callable[[Update, Context], Coroutine[Any, Any, None]]


def person(user: User) -> Person:
    """The service's view of a Telegram user."""
    return Person(user.id, user.full_name or user.first_name, user.username, user.language_code)


@dataclass(frozen=True, slots=True)
class Pressed:
    """A button press as the bot receives it, whatever carried it: who pressed (the host's
    `Person`, as each front end makes it), the chat and message it was pressed on (None: not
    known, e.g. a message too old for Telegram to name), the button's callback data, and the
    buttons that message showed when pressed. A press from another front end (a Mini App page)
    names the chat of its table and no message (0): the presses that edit the message pressed
    on (settings, /pings, /language, a new season) are the chat's messages' own."""

    user: Person
    chat_id: int | None
    data: str | None
    message_id: int = 0
    shown: Rows | None = None


# a member's standing in a chat (Telegram's words for it) that lets him see its deals
IN_CHAT = frozenset({"creator", "administrator", "member", "restricted"})
ADMINS = frozenset({"creator", "administrator"})


class Chats(Protocol):
    """What the press path asks of the chats presses come from, whatever carries them
    (bot/client/chats.py: Telegram's): a user's standing in a chat (None: not known, or not
    in it), and a message pressed on shown anew (False: it could not be)."""

    async def status(self, chat_id: int, user_id: int) -> str | None: ...

    async def edit(
        self, chat_id: int, message_id: int, text: str, rows: Sequence[Sequence[Button]] = ()
    ) -> bool: ...


class Common:
    """What every part of the handlers (bot/handlers/*.py) is over: the game service, the chats'
    front end, the time zone /history's dates are in, and the plumbing they share. `Handlers`
    builds each part on the same three."""

    def __init__(self, service: GameService, chats: Chats, time_zone: tzinfo = UTC) -> None:
        self.service = service
        self.chats = chats  # admins, members, and the pressed message's edit
        self.storage = service.storage
        self.time_zone = time_zone  # /history's dates

    async def _chat_lang(self, chat: Chat) -> str:
        if chat.type == ChatType.PRIVATE:
            return await self.service.user_lang(chat.id)
        return (await self.storage.chats.chat(chat.id, chat.title)).lang

    async def _reply(
        self, message: Message, text: str, rows: Sequence[Sequence[Button]] = ()
    ) -> None:
        """Answer a message (quoting it in groups); Telegram's errors are waited out."""
        private = message.chat.type == ChatType.PRIVATE
        await self.service.presenter.post(
            message.chat_id,
            Rendered(text, rows),
            reply_to=None if private else message.message_id,
        )

    async def _is_admin(self, chat_id: int, user_id: int) -> bool:
        if chat_id > 0:  # a private chat (a practice table) has no admins
            return False
        return await self.chats.status(chat_id, user_id) in ADMINS

    def _noticed(self, chat_id: int, exc: TelegramError) -> None:
        """A call was refused because the group became a supergroup: the chat moves there."""
        if isinstance(exc, ChatMigrated):
            self.service.presenter.migrated(chat_id, exc.new_chat_id)

    async def _refused(self, message: Message, lang: str, refusal: Refusal) -> None:
        rows = [[Link(t(lang, "btn.open_bot"), refusal.url)]] if refusal.url else []
        await self._reply(message, t(lang, refusal.key, **refusal.values), rows)

    def _commands(self, *runs: GroupRun) -> dict[str, Command]:
        """A part's group commands by name (each its method's), wrapped by `_group_command`."""
        return {run.__name__: self._group_command(run) for run in runs}

    def _group_command(self, run: GroupRun) -> Command:
        """Wrap a group-only command: private use is answered with a hint, refusals with text."""

        async def handler(update: Update, context: Context) -> None:
            message, user = update.effective_message, update.effective_user
            if message is None or user is None:
                return
            private = message.chat.type == ChatType.PRIVATE
            if private and run.__name__ not in PRACTICE_COMMANDS:
                lang = await self.service.user_lang(user.id, user.language_code)
                await self._reply(message, t(lang, "cmd.group_only"))
                return
            lang = await self._chat_lang(message.chat)
            if context.args and run.__name__ not in TAKE_ARGUMENTS:
                await self._reply(message, t(lang, "usage.no_arguments", command=run.__name__))
                return  # junk after a command changes nothing
            try:
                await run(update, context, message, lang)
            except Refusal as refusal:
                await self._refused(message, lang, refusal)
            except StorageUnavailable as exc:  # nothing was changed; say so
                log.warning("/%s in %s not saved: %s", run.__name__, message.chat.id, exc)
                await self._reply(message, t(lang, "err.not_saved"))

        return handler

    async def _edit_pressed(
        self, pressed: Pressed, text: str, rows: Sequence[Sequence[Button]] = ()
    ) -> bool:
        """The message pressed on now shows `text` (and the buttons of `rows`); False if it
        could not (the chat's front end logged why)."""
        if pressed.chat_id is None:
            return False
        return await self.chats.edit(pressed.chat_id, pressed.message_id, text, rows)


async def answer(
    query: CallbackQuery, text: str | None, *, alert: bool = False, url: str | None = None
) -> None:
    """Answer a press; a 429 or network trouble is tried again while the press is fresh."""
    for attempt in range(1, ANSWER_TRIES + 1):
        try:
            await query.answer(text=text, show_alert=alert and url is None, url=url)
            return
        except BadRequest as exc:  # e.g. too old: nothing more to do
            log.debug("answerCallbackQuery failed: %s", exc)
            return
        except (NetworkError, RetryAfter) as exc:
            if attempt == ANSWER_TRIES:
                log.info("answerCallbackQuery failed: %s", exc)  # Telegram's trouble: bot.metrics
                return
            wait = exc.retry_after if isinstance(exc, RetryAfter) else None
            pause = wait.total_seconds() if isinstance(wait, timedelta) else wait
            await asyncio.sleep(min(float(pause or 0.5 * attempt), 5.0))
        except TelegramError as exc:
            log.debug("answerCallbackQuery failed: %s", exc)
            return


def help_text(lang: str) -> str:
    """/help: the games the registry holds, and the commands."""
    titles = ", ".join(games.ui(game).title(lang) for game in games.ORDER)
    return t(lang, "help.text", games=titles, choices=games.choices())


def is_id(text: str) -> bool:
    """Whether a command argument is a plain row id (ASCII digits that fit SQLite's integer)."""
    return text.isascii() and text.isdigit() and len(text) <= 18
