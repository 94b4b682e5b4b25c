"""The chats a press came from, as the press path asks of them (`handlers.common.Chats`): a
member's standing in a chat and a pressed message shown anew. Telegram's answers and errors stay
here: a chat that became a supergroup is followed to its new id."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, TelegramError

from ..view.message import Button
from .api import markup

log = logging.getLogger(__name__)


class TelegramChats:
    """`Chats` through the Bot API; `migrated(old, new)` is told a group's new id (the presenter
    moves the chat there) and answers the id to use."""

    def __init__(self, bot: Bot, migrated: Callable[[int, int], int]) -> None:
        self.bot = bot
        self.migrated = migrated

    async def status(self, chat_id: int, user_id: int) -> str | None:
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except ChatMigrated as exc:  # the group became a supergroup: its members are there
            return await self.status(self.migrated(chat_id, exc.new_chat_id), user_id)
        except TelegramError:
            return None
        return str(member.status)

    async def edit(
        self, chat_id: int, message_id: int, text: str, rows: Sequence[Sequence[Button]] = ()
    ) -> bool:
        try:
            await self.bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(rows),
            )
        except ChatMigrated as exc:
            log.warning("message in %s not edited: %s", chat_id, exc)
            self.migrated(chat_id, exc.new_chat_id)
            return False
        except BadRequest as exc:  # pressed twice: the message already says so; or gone
            log.info("message in %s not edited: %s", chat_id, exc)
            return False
        except TelegramError as exc:
            log.warning("message in %s not edited: %s", chat_id, exc)
            return False
        return True
