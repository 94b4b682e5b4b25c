"""The private chat: /start (a deep link's join, the hand shown again, the welcome) and /help."""

from __future__ import annotations

from telegram import Message, Update, User
from telegram.constants import ChatType

from locales import pick_language, t

from .. import callbacks
from ..format import name
from ..service import OpenTable, Refusal
from .common import Common, Context, help_text, person


class PrivateChat(Common):
    """/start and /help."""

    async def start(self, update: Update, context: Context) -> None:
        """/start [payload] in private: `j<id>` completes a join, `hand` re-shows the cards."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        if message.chat.type != ChatType.PRIVATE:
            await self.help(update, context)
            return
        stored = await self.service.touch(person(user), started=True)
        lang = pick_language(stored.lang)
        payload = context.args[0] if context.args else ""
        table_id = callbacks.parse_id(payload[1:]) if payload.startswith("j") else None
        wanted = self.service.lobby.wanted_seats(user.id)
        if table_id is not None:
            live = self.service.find(table_id)
            if live is None:
                await self._reply(message, t(lang, "err.stale"))
                return
            await self._sit_down(message, lang, user, live)
            return
        if payload == "hand" and await self.service.reshow_hand(user.id):
            return
        if wanted:  # he asked for a seat in a group, then opened this chat without its link
            await self._reply(message, t(lang, "start.welcome"))
            for live in wanted:
                await self._sit_down(message, lang, user, live)
            return
        await self._reply(message, t(lang, "start.welcome") + "\n\n" + help_text(lang))

    async def _sit_down(self, message: Message, lang: str, user: User, live: OpenTable) -> None:
        """Seat the user at the table he asked for from a group, and say where (or why not)."""
        try:
            await self.service.lobby.join(live.row.chat_id, person(user), live.row.table_id)
        except Refusal as refusal:
            chat = await self.storage.chats.chat(live.row.chat_id)
            said = t(lang, "start.not_joined", title=name(chat.title))
            await self._reply(message, said + "\n" + t(lang, refusal.key, **refusal.values))
            return
        chat = await self.storage.chats.chat(live.row.chat_id)
        await self._reply(message, t(lang, "start.joined", title=name(chat.title)))

    async def help(self, update: Update, context: Context) -> None:
        """/help: what the bot does and its commands."""
        message = update.effective_message
        if message is None:
            return
        lang = await self._chat_lang(message.chat)
        await self._reply(message, help_text(lang))
