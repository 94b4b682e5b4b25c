"""Money and information: /pot, /balance, /top, /stats, /history, /export (built by bot/answers.py)
and /newseason with its confirming button."""

from __future__ import annotations

import io

from telegram import (
    Message,
    ReplyParameters,
    Update,
)
from telegram.error import TelegramError

from locales import t

from .. import answers, callbacks
from ..callbacks import Press
from ..service import Refusal
from ..view.message import Choice
from .common import Command, Common, Context, Pressed, is_id, log


class MoneyCommands(Common):
    """The chat's money and information commands."""

    def commands(self) -> dict[str, Command]:
        """Its group commands by name."""
        return self._commands(
            self.pot, self.balance, self.top, self.stats, self.history, self.export, self.newseason
        )

    async def pot(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/pot: each game's pot that holds chips (one pot per game)."""
        await self._reply(message, await answers.pot(self.storage, message.chat_id, lang))

    async def balance(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/balance [name] (or as a reply): players' chips in this chat."""
        wanted: int | None = None
        if message.reply_to_message and message.reply_to_message.from_user:
            wanted = message.reply_to_message.from_user.id
        query = " ".join(context.args or []).lstrip("@").lower()
        text = await answers.balance(self.service, message.chat_id, lang, wanted, query)
        await self._reply(message, text)

    async def top(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/top [game] [season]: the chat's league for a game, now or as a season ended."""
        args = context.args or ()
        await self._reply(message, await answers.top(self.service, message.chat_id, lang, args))

    async def stats(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/stats (yours), as a reply (that player's) or /stats name: deals, contracts, best and
        worst deal, biggest pot, streak; and the chat's records."""
        user = update.effective_user
        assert user is not None
        replied = message.reply_to_message
        replied_to = replied.from_user.id if replied and replied.from_user else None
        query = " ".join(context.args).lstrip("@").casefold() if context.args else None
        asker = (user.id, user.full_name)
        text = await answers.player_stats(
            self.storage, message.chat_id, lang, asker, replied_to, query
        )
        await self._reply(message, text)

    async def history(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/history: the chat's last deals by their numbers here; /history <number>: that deal
        in full, with its hand record as a file (for disputes)."""
        args = context.args or []
        if not args:
            text = await answers.history(self.storage, message.chat_id, lang, self.time_zone)
            await self._reply(message, text)
            return
        if len(args) > 1 or not is_id(args[0]):
            await self._reply(message, t(lang, "usage.history"))
            return
        page = await answers.deal(self.storage, message.chat_id, lang, int(args[0]), self.time_zone)
        if page is None:
            await self._reply(message, t(lang, "history.no_such"))
            return
        await self._reply(message, page.text)
        try:
            await message.reply_document(
                io.BytesIO(page.record),
                filename=f"deal-{page.number}.json",
                caption=t(lang, "history.record_caption", number=page.number),
            )
        except TelegramError as exc:
            log.warning("record of deal %s not sent: %s", page.deal_id, exc)
            self._noticed(message.chat_id, exc)

    async def export(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/export: admins get the chat's ledger as a CSV file."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(message.chat_id, user.id):
            await self._reply(message, t(lang, "err.admins_only"))
            return
        ledger = await answers.ledger(self.storage, message.chat_id)
        if ledger is None:
            await self._reply(message, t(lang, "balance.empty"))
            return
        try:
            await context.bot.send_document(
                ledger.chat_id,
                io.BytesIO(ledger.data),
                filename=ledger.filename,
                caption=t(lang, "export.caption"),
                reply_parameters=ReplyParameters(
                    message.message_id, allow_sending_without_reply=True
                ),
            )
        except TelegramError as exc:
            log.warning("ledger of chat %s not sent: %s", ledger.chat_id, exc)
            self._noticed(ledger.chat_id, exc)

    async def newseason(
        self, update: Update, context: Context, message: Message, lang: str
    ) -> None:
        """/newseason: admins archive the chat's balances and start from zero, once they
        confirm with the button."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(message.chat_id, user.id):
            raise Refusal("err.admins_only")
        if self.service.table_in(message.chat_id) is not None:
            raise Refusal("season.table_open")
        closed = await self.storage.money.seasons(
            self.storage.chats.moves.get(message.chat_id, message.chat_id)
        )
        button = Choice(t(lang, "season.btn_confirm"), callbacks.encode("z", closed))
        await self._reply(message, t(lang, "season.confirm"), [[button]])

    async def season_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """z: a new season confirmed; `press.table_id` holds the seasons closed when asked."""
        closed = press.table_id
        if not await self._is_admin(chat_id, pressed.user.user_id):
            raise Refusal("err.admins_only")
        archived = await self.service.new_season(chat_id, closed)
        chat = await self.storage.chats.chat(chat_id)
        text = t(chat.lang, "season.started", n=closed + 1, players=len(archived))
        await self._edit_pressed(pressed, text)  # the question becomes the answer: no button
