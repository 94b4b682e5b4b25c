"""Telegram handlers: decode the update, call the game service, answer through locales/."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from telegram import (
    CallbackQuery,
    Chat,
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, ChatMigrated, NetworkError, RetryAfter, TelegramError
from telegram.ext import ContextTypes

from locales import LANGUAGES, pick_language, t

from . import callbacks, computer, export, games, names, stats
from .chat import lines as render
from .chat import settings_menu, stats_view
from .service import GameService, Person, Refusal
from .storage import DealRow, StorageUnavailable

log = logging.getLogger(__name__)
Context = ContextTypes.DEFAULT_TYPE
HISTORY_SHOWN = 5
# the other group commands take none
TAKE_ARGUMENTS = ("newgame", "balance", "history", "kick", "stats")
# what a private chat's practice table against computer players answers too (issue 17)
PRACTICE_COMMANDS = (
    "newgame", "startgame", "stopgame", "pot", "balance", "top", "stats", "history", "rules",
)  # fmt: skip
ANSWER_TRIES = 4


def person(user: User) -> Person:
    """The service's view of a Telegram user."""
    return Person(user.id, user.full_name or user.first_name, user.username, user.language_code)


class Handlers:
    """Every command and button of the bot, bound to one game service."""

    def __init__(self, service: GameService, time_zone: tzinfo = UTC) -> None:
        self.service = service
        self.storage = service.storage
        self.time_zone = time_zone  # /history's dates
        # the page each settings message was last edited to: a second press on a page already
        # left is stale even when it changed nothing (a navigation button)
        self._menu_pages: dict[tuple[int, int], str] = {}

    # ---- helpers --------------------------------------------------------------------------------

    async def _chat_lang(self, chat: Chat) -> str:
        if chat.type == ChatType.PRIVATE:
            return await self.service.user_lang(chat.id)
        return (await self.storage.chat(chat.id, chat.title)).lang

    async def _reply(
        self, message: Message, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> None:
        """Answer a message (quoting it in groups); Telegram's errors are waited out."""
        private = message.chat.type == ChatType.PRIVATE
        await self.service.presenter.post(
            message.chat_id,
            render.Rendered(text, markup),
            reply_to=None if private else message.message_id,
        )

    async def _is_admin(self, context: Context, chat_id: int, user_id: int) -> bool:
        if chat_id > 0:  # a private chat (a practice table, issue 17) has no admins
            return False
        try:
            member = await context.bot.get_chat_member(chat_id, user_id)
        except ChatMigrated as exc:  # the group became a supergroup: its admins are there
            self.service.presenter.migrated(chat_id, exc.new_chat_id)
            return await self._is_admin(context, exc.new_chat_id, user_id)
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    def _noticed(self, chat_id: int, exc: TelegramError) -> None:
        """A call was refused because the group became a supergroup: the chat moves there."""
        if isinstance(exc, ChatMigrated):
            self.service.presenter.migrated(chat_id, exc.new_chat_id)

    async def _refused(self, message: Message, lang: str, refusal: Refusal) -> None:
        markup = None
        if refusal.url:
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(t(lang, "btn.open_bot"), url=refusal.url)]]
            )
        await self._reply(message, t(lang, refusal.key, **refusal.values), markup)

    def group_command(
        self, run: Callable[[Update, Context, Message, str], Awaitable[None]]
    ) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
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
                return  # junk after a command changes nothing (issue 4)
            try:
                await run(update, context, message, lang)
            except Refusal as refusal:
                await self._refused(message, lang, refusal)
            except StorageUnavailable as exc:  # issue 25: nothing was changed; say so
                log.warning("/%s in %s not saved: %s", run.__name__, message.chat.id, exc)
                await self._reply(message, t(lang, "err.not_saved"))

        return handler

    # ---- private chat ---------------------------------------------------------------------------

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
        if payload.startswith("j") and payload[1:].isdigit():
            table_id = int(payload[1:])
            live = self.service.find(table_id)
            if live is None:
                await self._reply(message, t(lang, "err.stale"))
                return
            try:
                async with self.service.lock(live.row.chat_id):
                    await self.service.join(live.row.chat_id, person(user), table_id)
            except Refusal as refusal:
                await self._refused(message, lang, refusal)
                return
            chat = await self.storage.chat(live.row.chat_id)
            await self._reply(message, t(lang, "start.joined", title=render.name(chat.title)))
            return
        if payload == "hand" and await self.service.reshow_hand(user.id):
            return
        await self._reply(message, t(lang, "start.welcome") + "\n\n" + _help(lang))

    async def help(self, update: Update, context: Context) -> None:
        """/help: what the bot does and its commands."""
        message = update.effective_message
        if message is None:
            return
        lang = await self._chat_lang(message.chat)
        await self._reply(message, _help(lang))

    async def language(self, update: Update, context: Context) -> None:
        """/language: buttons, one per language (in private: of your messages; in a group: of
        the chat, chosen by admins); /language <code> chooses at once."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self.service.touch(person(user))
        lang = await self._chat_lang(message.chat)
        args = [arg.lower() for arg in context.args or []]
        if len(args) > 1 or (args and args[0] not in LANGUAGES):
            await self._reply(message, t(lang, "usage.language", languages=", ".join(LANGUAGES)))
            return
        private = message.chat.type == ChatType.PRIVATE
        if not args:  # never a silent flip: the choice is the user's (issue 12)
            key, kind = ("lang.choose", "l") if private else ("lang.choose_chat", "g")
            await self._reply(message, t(lang, key), _language_buttons(kind, lang))
            return
        try:
            text = await self._choose_language(context, message.chat.id, user, args[0], private)
        except Refusal as refusal:
            await self._refused(message, lang, refusal)
            return
        await self._reply(message, text)

    async def _choose_language(
        self, context: Context, chat_id: int, user: User, lang: str, private: bool
    ) -> str:
        """Set the user's language (private) or the chat's (admins only); the confirmation."""
        if private:
            await self.storage.set_user(user.id, lang=lang)
            await self.service.touch(person(user))
            return t(lang, "language.set")
        if not await self._is_admin(context, chat_id, user.id):
            raise Refusal("err.admins_only")
        async with self.service.lock(chat_id):
            await self.storage.set_chat(chat_id, lang=lang)
        return t(lang, "lang.chat_set")

    async def pings(self, update: Update, context: Context) -> None:
        """/pings in private: whether your turn comes as a new message that notifies you, with
        a button to switch; /pings on|off switches at once."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        stored = await self.service.touch(person(user))
        lang = pick_language(stored.lang)
        if message.chat.type != ChatType.PRIVATE:
            await self._reply(message, t(await self._chat_lang(message.chat), "cmd.private_only"))
            return
        args = [arg.lower() for arg in context.args or []]
        if len(args) > 1 or (args and args[0] not in ("on", "off")):
            await self._reply(message, t(lang, "ping.usage"))
            return
        on = stored.pings if not args else args[0] == "on"
        if on != stored.pings:
            await self._set_pings(user, on)
        text, markup = _pings_menu(lang, on)
        await self._reply(message, text, markup)

    async def _set_pings(self, user: User, on: bool) -> None:
        await self.storage.set_user(user.id, pings=int(on))
        await self.service.touch(person(user))  # the tables he sits at see it at once

    async def my_member(self, update: Update, context: Context) -> None:
        """A user blocked (or unblocked) the bot in their private chat; in a group, the bot was
        removed or may no longer write (issue 11)."""
        change = update.my_chat_member
        if change is None:
            return
        if change.chat.type != ChatType.PRIVATE:
            member = change.new_chat_member
            gone = member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
            muted = member.status == ChatMemberStatus.RESTRICTED and not getattr(
                member, "can_send_messages", True
            )
            if gone or muted:
                if change.chat.type == ChatType.GROUP and await self._upgraded(context, change):
                    return  # a basic group that became a supergroup: the bot was not removed
                await self.service.removed(change.chat.id)
            return
        status = change.new_chat_member.status
        if status == ChatMemberStatus.BANNED:
            await self.service.dm_forbidden(change.from_user.id)
        elif status == ChatMemberStatus.MEMBER:
            await self.service.touch(person(change.from_user), started=True)

    async def _upgraded(self, context: Context, change: ChatMemberUpdated) -> bool:
        """Whether Telegram refuses calls on this basic group because it is a supergroup now
        (then the chat moves there instead of its table being closed)."""
        try:
            await context.bot.get_chat(change.chat.id)
        except ChatMigrated as exc:
            await self.service.migrate(change.chat.id, exc.new_chat_id)
            return True
        except TelegramError:
            pass
        return False

    async def migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup: the service messages in the old chat (migrate_to) and in
        the new one (migrate_from); whichever comes first moves the chat (issue 11)."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.service.migrate(message.chat_id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.service.migrate(
                message.migrate_from_chat_id, message.chat_id, message.chat.title
            )

    # ---- the table ------------------------------------------------------------------------------

    async def newgame(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/newgame: open a lobby in this chat."""
        user = update.effective_user
        assert user is not None
        args = context.args or []
        game = games.parse(args[0]) if len(args) == 1 else None
        if len(args) > 1 or (args and game is None):
            await self._reply(message, t(lang, "usage.newgame_games", games=games.choices()))
            return
        title = message.chat.title or ""
        if message.chat.type == ChatType.PRIVATE:  # issue 17: a practice table; he writes here
            await self.service.touch(person(user), started=True)
            title = t(lang, "practice.title")
        async with self.service.lock(message.chat_id):
            live = await self.service.new_table(message.chat_id, title, person(user), game)
        if user.id not in live.row.seats:
            lang = (await self.storage.chat(message.chat_id)).lang  # the first table chose it
            link = render.deep_link(self.service.bot_username, f"j{live.row.table_id}")
            await self._refused(message, lang, Refusal("err.start_bot_first", url=link))

    async def join(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/join: take a seat at the chat's table."""
        user = update.effective_user
        assert user is not None
        async with self.service.lock(message.chat_id):
            table = self.service.table_in(message.chat_id)
            back = table is not None and user.id in table.row.away
            live = await self.service.join(message.chat_id, person(user))
        if back:  # issue 16: a player sitting out is dealt in again
            await self._reply(message, t(lang, "seat.back", name=render.name(user.full_name)))
        elif live.row.status == "playing":  # the lobby message is gone: say it in words
            await self._reply(
                message, t(lang, "joined_next_deal", name=render.name(user.full_name))
            )

    async def leave(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/leave: stand up from the chat's table."""
        user = update.effective_user
        assert user is not None
        async with self.service.lock(message.chat_id):
            await self.service.leave(message.chat_id, person(user))
        await self._reply(message, t(lang, "left", name=render.name(user.full_name)))

    async def kick(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/kick as a reply (or with a name): an admin stands a player up (issue 16)."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(context, message.chat_id, user.id):
            raise Refusal("err.admins_only")
        live = self.service.table_in(message.chat_id)
        if live is None:
            raise Refusal("err.no_table")
        target: int | None = None
        replied = message.reply_to_message
        if replied is not None and replied.from_user is not None:
            target = replied.from_user.id
        elif context.args:
            query = " ".join(context.args).lstrip("@").lower()
            found = [
                uid
                for uid, u in live.users.items()
                if uid in live.row.seats and query in (u.name.lower(), (u.username or "").lower())
            ]
            target = found[0] if len(found) == 1 else None
        if target is None and not context.args:  # a button per seated player
            rows = [
                [
                    InlineKeyboardButton(
                        live.users[uid].name,  # a button shows plain text
                        callback_data=callbacks.encode("k", live.row.table_id, code=str(uid)),
                    )
                ]
                for uid in live.row.seats
                if uid in live.users
                and uid not in live.row.leaving
                and not computer.is_computer(uid)  # issue 17: it never holds a table up
            ]
            await self._reply(message, t(lang, "seat.kick_pick"), InlineKeyboardMarkup(rows))
            return
        if target is None:
            raise Refusal("seat.kick_usage")
        async with self.service.lock(message.chat_id):
            if not await self.service.stand_up(message.chat_id, target, kicked=True):
                raise Refusal("seat.not_seated")

    async def member_left(self, update: Update, context: Context) -> None:
        """A member left the group or was removed (a left_chat_member service message, which
        a bot gets whatever its privacy mode, or a chat_member update, which an admin bot gets):
        he stands up from the table at the end of his deal (issue 16)."""
        chat_id: int | None = None
        gone: User | None = None
        change = update.chat_member
        if change is not None:
            if change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
                chat_id, gone = change.chat.id, change.new_chat_member.user
        elif update.effective_message is not None:
            chat_id = update.effective_message.chat_id
            gone = update.effective_message.left_chat_member
        if chat_id is None or gone is None or gone.is_bot:
            return
        async with self.service.lock(chat_id):
            await self.service.stand_up(chat_id, gone.id, kicked=False)

    async def startgame(
        self, update: Update, context: Context, message: Message, lang: str
    ) -> None:
        """/startgame: deal the first hand."""
        user = update.effective_user
        assert user is not None
        admin = await self._is_admin(context, message.chat_id, user.id)
        async with self.service.lock(message.chat_id):
            await self.service.start(message.chat_id, person(user), admin)

    async def stopgame(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/stopgame: close the table; a deal in play is voided."""
        user = update.effective_user
        assert user is not None
        admin = await self._is_admin(context, message.chat_id, user.id)
        async with self.service.lock(message.chat_id):
            await self.service.stop(message.chat_id, person(user), admin)

    async def pulya(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/pulya: the sheet of the Preferans pulya in play posted again at the bottom."""
        async with self.service.lock(message.chat_id):
            await self.service.repost(message.chat_id)

    # ---- money and information ------------------------------------------------------------------

    async def pot(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/pot: each game's pot that holds chips (issue 13: one pot per game)."""
        chat = await self.storage.chat(message.chat_id)
        await self._reply(message, render.pots(lang, chat))

    async def balance(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/balance [name] (or as a reply): players' chips in this chat."""
        rows = await self.storage.balances(message.chat_id)
        wanted: int | None = None
        if message.reply_to_message and message.reply_to_message.from_user:
            wanted = message.reply_to_message.from_user.id
        query = " ".join(context.args or []).lstrip("@").lower()
        if wanted is not None or query:
            rows = [
                (u, b)
                for u, b in rows
                if u.user_id == wanted
                or (query and (query in u.name.lower() or query == (u.username or "").lower()))
            ]
            if not rows:
                await self._reply(message, t(lang, "balance.nobody"))
                return
        standing = self.service.match_standing(message.chat_id, lang)
        if not rows:
            await self._reply(message, standing or t(lang, "balance.empty"))
            return
        chat = await self.storage.chat(message.chat_id)
        labels = names.distinct(u for u, _ in await self.storage.balances(message.chat_id))
        lines = [t(lang, "balance.title")]
        lines += [
            f"{render.name(labels[u.user_id])}: <b>{render.signed(b)}</b>" for u, b in rows[:50]
        ]
        if not query and wanted is None:
            lines.append(render.pots(lang, chat))
            lines += [] if standing is None else ["", standing]
        await self._reply(message, "\n".join(lines))

    async def top(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/top: the ten richest players of this chat."""
        everyone = await self.storage.balances(message.chat_id)
        rows = everyone[:10]
        standing = self.service.match_standing(message.chat_id, lang)
        if not rows:
            await self._reply(message, standing or t(lang, "balance.empty"))
            return
        labels = names.distinct(u for u, _ in everyone)
        medals = ["🥇", "🥈", "🥉"]
        lines = [t(lang, "top.title")]
        for i, (user, bal) in enumerate(rows):
            mark = medals[i] if i < len(medals) else f"{i + 1}."
            lines.append(f"{mark} {render.name(labels[user.user_id])}: <b>{render.signed(bal)}</b>")
        lines += [] if standing is None else ["", standing]
        await self._reply(message, "\n".join(lines))

    async def stats(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/stats (yours), as a reply (that player's) or /stats name: deals, contracts, best and
        worst deal, biggest pot, streak; and the chat's records (issue 16)."""
        user = update.effective_user
        assert user is not None
        players = [u for u, _ in await self.storage.balances(message.chat_id)]
        labels = names.distinct(players)
        wanted = user.id
        if message.reply_to_message and message.reply_to_message.from_user:
            wanted = message.reply_to_message.from_user.id
        elif context.args:
            query = " ".join(context.args).lstrip("@").casefold()
            found = [
                u.user_id
                for u in players
                if query in (u.name.casefold(), (u.username or "").casefold())
                or query == labels[u.user_id].casefold()
            ]
            if len(found) != 1:
                await self._reply(message, t(lang, "balance.nobody"))
                return
            wanted = found[0]
        deals = await stats_view.gather(self.storage, message.chat_id)
        if wanted not in labels:
            stored = await self.storage.user(wanted)
            labels[wanted] = stored.name if stored else user.full_name
        text = stats_view.player_text(lang, labels[wanted], stats.player_stats(wanted, deals))
        records = stats_view.records_text(lang, stats.chat_records(deals), labels)
        await self._reply(message, text + ("\n\n" + records if records else ""))

    async def history(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/history: the chat's last deals by their numbers here; /history <number>: that deal
        in full, with its hand record as a file (for disputes)."""
        args = context.args or []
        if args:
            if len(args) > 1 or not _is_id(args[0]):
                await self._reply(message, t(lang, "usage.history"))
                return
            found = await self.storage.numbered_deals(message.chat_id, number=int(args[0]))
            if not found:
                await self._reply(message, t(lang, "history.no_such"))
                return
            ((number, deal),) = found
            date = self._date(deal)
            earlier = await self._match_deals(deal, {})
            told = render.deal_account(lang, deal, number, earlier)  # bids, tricks, the money
            if told is None:  # a record that no longer replays: its line at least
                text = render.history_line(lang, deal, number, date, earlier)
            else:
                title, _, rest = told.partition("\n")
                text = "\n".join((title, t(lang, "history.played", date=date), rest))
            await self._reply(message, text)
            data = json.dumps(deal.record, ensure_ascii=False, indent=1).encode()
            try:
                await message.reply_document(
                    io.BytesIO(data),
                    filename=f"deal-{number}.json",
                    caption=t(lang, "history.record_caption", number=number),
                )
            except TelegramError as exc:
                log.warning("record of deal %s not sent: %s", deal.deal_id, exc)
                self._noticed(message.chat_id, exc)
            return
        deals = await self.storage.numbered_deals(message.chat_id, limit=HISTORY_SHOWN)
        if not deals:
            await self._reply(message, t(lang, "history.empty"))
            return
        lines = [t(lang, "history.title")]
        tables: dict[int, list[DealRow]] = {}  # a match's deals, read once for all its lines
        for number, deal in reversed(deals):  # oldest first, as they were played
            earlier = await self._match_deals(deal, tables)
            lines.append(render.history_line(lang, deal, number, self._date(deal), earlier))
        lines.append(t(lang, "history.hint"))
        await self._reply(message, "\n".join(lines))

    async def _match_deals(self, deal: DealRow, tables: dict[int, list[DealRow]]) -> list[DealRow]:
        """The deals of `deal`'s match played before it, for a game whose table is a match (a
        Preferans pulya: P15's overflow depends on the sheet); none for a game played deal by
        deal. `tables` keeps each table's deals once read."""
        ui = render.own_ui(deal)
        if ui is None or not ui.match:
            return []
        if deal.table_id not in tables:
            tables[deal.table_id] = await self.storage.table_deals(deal.table_id)
        return render.match_deals(deal, tables[deal.table_id])

    def _date(self, deal: DealRow) -> str:
        """When a deal ended, in the bot's time zone (day.month hours:minutes)."""
        if deal.finished_at is None:
            return "?"
        return datetime.fromtimestamp(deal.finished_at, self.time_zone).strftime("%d.%m %H:%M")

    async def export(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/export: admins get the chat's ledger as a CSV file."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(context, message.chat_id, user.id):
            await self._reply(message, t(lang, "err.admins_only"))
            return
        chat = await self.storage.chat(message.chat_id)
        entries = await self.storage.ledger_entries(chat.chat_id)
        if not entries:
            await self._reply(message, t(lang, "balance.empty"))
            return
        try:
            await context.bot.send_document(
                chat.chat_id,
                io.BytesIO(export.ledger_csv(entries)),
                filename=f"ledger-{abs(chat.chat_id)}.csv",
                caption=t(lang, "export.caption"),
                reply_parameters=ReplyParameters(
                    message.message_id, allow_sending_without_reply=True
                ),
            )
        except TelegramError as exc:
            log.warning("ledger of chat %s not sent: %s", chat.chat_id, exc)
            self._noticed(chat.chat_id, exc)

    async def rules(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/rules: the house rules in force (the table's game, or the chat's default), briefly."""
        chat = await self.storage.chat(message.chat_id)
        table = self.service.table_in(message.chat_id)
        summary = settings_menu.rules_summary(chat, table.row.game if table else None)
        await self._reply(message, t(lang, "rules.title") + "\n" + summary)

    async def settings(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/settings: admins change house rules, ante, timer and language with buttons."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(context, message.chat_id, user.id):
            await self._reply(message, t(lang, "err.admins_only"))
            return
        chat = await self.storage.chat(message.chat_id)
        content = settings_menu.menu(chat)
        await self._reply(message, content.text, content.markup)

    async def newseason(
        self, update: Update, context: Context, message: Message, lang: str
    ) -> None:
        """/newseason: admins archive the chat's balances and start from zero, once they
        confirm with the button (issue 16)."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(context, message.chat_id, user.id):
            raise Refusal("err.admins_only")
        if self.service.table_in(message.chat_id) is not None:
            raise Refusal("season.table_open")
        closed = await self.storage.seasons(
            self.storage.moves.get(message.chat_id, message.chat_id)
        )
        button = InlineKeyboardButton(
            t(lang, "season.btn_confirm"), callback_data=callbacks.encode("z", closed)
        )
        await self._reply(message, t(lang, "season.confirm"), InlineKeyboardMarkup([[button]]))

    async def _season_press(
        self, context: Context, query: CallbackQuery, chat_id: int, closed: int
    ) -> None:
        if not await self._is_admin(context, chat_id, query.from_user.id):
            raise Refusal("err.admins_only")
        async with self.service.lock(chat_id):
            archived = await self.service.new_season(chat_id, closed)
            chat = await self.storage.chat(chat_id)
        text = t(chat.lang, "season.started", n=closed + 1, players=len(archived))
        try:  # the question becomes the answer: its button goes
            await query.edit_message_text(text, parse_mode=ParseMode.HTML)
        except TelegramError as exc:
            log.warning("season message in %s not updated: %s", chat_id, exc)
            self._noticed(chat_id, exc)

    # ---- buttons --------------------------------------------------------------------------------

    async def button(self, update: Update, context: Context) -> None:
        """Every inline button: check who may press it, act, and always answer the press."""
        query = update.callback_query
        if query is None:
            return
        user = query.from_user
        lang = await self.service.user_lang(user.id, user.language_code)
        try:
            press = callbacks.decode(query.data)
            await self._press(update, context, press)
        except callbacks.BadCallback:
            log.debug("bad callback data from %s: %r", user.id, query.data)
            await _answer(query, t(lang, "err.stale"), alert=True)
        except Refusal as refusal:
            await _answer(
                query,
                t(lang, refusal.key, **refusal.values),
                alert=refusal.url is None,
                url=refusal.url,
            )
        except StorageUnavailable as exc:  # issue 25: the step was not applied; say so
            log.warning("press of %s not saved: %s", user.id, exc)
            await _answer(query, t(lang, "err.not_saved"), alert=True)
        else:
            await _answer(query, None)

    async def _press(self, update: Update, context: Context, press: callbacks.Press) -> None:
        query = update.callback_query
        assert query is not None
        user = query.from_user
        chat = query.message.chat if query.message else None
        if press.kind in ("a", "t"):
            if press.kind == "a":
                await self.service.act(user.id, press)
            else:
                await self.service.toggle(user.id, press)
            return
        if chat is None:
            raise Refusal("err.stale")
        if press.kind == "n":
            await self.service.next_deal(chat.id, user.id, press)
            return
        if press.kind == "c":
            await self._settings_press(context, query, chat.id, press.code)
            return
        if press.kind == "u":
            await self._choice_press(context, query, chat.id, press.code)
            return
        if press.kind == "z":
            await self._season_press(context, query, chat.id, press.table_id)
            return
        if press.kind == "m":  # issue 17: the lobby seats a computer player or stands one up
            level = None if press.code == "-" else computer.ORDER[int(press.code)]
            admin = await self._is_admin(context, chat.id, user.id)
            async with self.service.lock(chat.id):
                await self.service.seat_computer(
                    chat.id, person(user), admin, press.table_id, level
                )
            return
        if press.kind == "k":
            if not await self._is_admin(context, chat.id, user.id):
                raise Refusal("err.admins_only")
            async with self.service.lock(chat.id):
                live = self.service.find(press.table_id)
                if live is None or live.row.chat_id != self.storage.moves.get(chat.id, chat.id):
                    raise Refusal("err.stale")
                if not await self.service.stand_up(chat.id, int(press.code), kicked=True):
                    raise Refusal("seat.not_seated")
            return
        async with self.service.lock(chat.id):
            if press.kind == "j":
                await self.service.join(chat.id, person(user), press.table_id)
            elif press.kind == "l":
                await self.service.leave(chat.id, person(user), press.table_id)
            elif press.kind == "s":
                admin = await self._is_admin(context, chat.id, user.id)
                await self.service.start(chat.id, person(user), admin, press.table_id)
            elif press.kind == "g":
                admin = await self._is_admin(context, chat.id, user.id)
                await self.service.switch_game(chat.id, person(user), admin, press.table_id)

    async def _settings_press(
        self, context: Context, query: CallbackQuery, chat_id: int, code: str
    ) -> None:
        if not await self._is_admin(context, chat_id, query.from_user.id):
            raise Refusal("err.admins_only")
        async with self.service.lock(chat_id):
            chat = await self.storage.chat(chat_id)
            try:
                shown = settings_menu.menu(chat, settings_menu.origin(code))
                changes, page = settings_menu.apply_press(chat, code)
            except ValueError as exc:
                raise Refusal("err.stale") from exc
            where = (chat_id, query.message.message_id if query.message else 0)
            left = self._menu_pages.get(where, settings_menu.origin(code))
            if getattr(query.message, "reply_markup", None) != shown.markup or left != (
                settings_menu.origin(code)
            ):
                # pressed on a menu that no longer shows the settings (a double press, another
                # admin): applying it would step a setting twice (issue 4)
                raise Refusal("err.stale")
            if changes:
                await self.storage.set_chat(chat_id, **changes)
                chat = await self.storage.chat(chat_id)
            content = settings_menu.menu(chat, page)  # a press changes a value or the page:
            try:  # never "not modified"; edited under the lock, so never overtaken
                await query.edit_message_text(
                    content.text, parse_mode=ParseMode.HTML, reply_markup=content.markup
                )
                if len(self._menu_pages) > 1000:
                    self._menu_pages.clear()  # only a guard against double presses: forgettable
                self._menu_pages[where] = page
            except TelegramError as exc:
                log.warning("settings menu in %s not updated: %s", chat_id, exc)
                self._noticed(chat_id, exc)

    async def _choice_press(
        self, context: Context, query: CallbackQuery, chat_id: int, code: str
    ) -> None:
        """A button of /pings or /language: apply the choice, then show it on the message."""
        user, kind, value = query.from_user, code[:1], code[1:]
        markup: InlineKeyboardMarkup | None = None
        if kind == "p" and value in ("0", "1"):
            await self._set_pings(user, value == "1")
            text, markup = _pings_menu(await self.service.user_lang(user.id), value == "1")
        elif kind in ("l", "g") and value in LANGUAGES:
            text = await self._choose_language(context, chat_id, user, value, kind == "l")
        else:
            raise Refusal("err.stale")
        try:
            await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
        except BadRequest as exc:  # pressed twice: the message already says so
            log.debug("choice message in %s not updated: %s", chat_id, exc)
        except TelegramError as exc:
            log.warning("choice message in %s not updated: %s", chat_id, exc)


def _language_buttons(kind: str, current: str) -> InlineKeyboardMarkup:
    """One button per language with a catalog, each named in its own language."""
    buttons = [
        InlineKeyboardButton(
            ("✓ " if code == current else "") + t(code, "lang.name"),
            callback_data=callbacks.encode("u", code=f"{kind}{code}"),
        )
        for code in LANGUAGES
    ]
    return InlineKeyboardMarkup([buttons[i : i + 3] for i in range(0, len(buttons), 3)])


def _pings_menu(lang: str, on: bool) -> tuple[str, InlineKeyboardMarkup]:
    """What /pings shows: the state, and the button that switches it."""
    label, code = ("ping.btn_off", "p0") if on else ("ping.btn_on", "p1")
    button = InlineKeyboardButton(t(lang, label), callback_data=callbacks.encode("u", code=code))
    return t(lang, "ping.on" if on else "ping.off"), InlineKeyboardMarkup([[button]])


def _is_id(text: str) -> bool:
    """Whether a command argument is a plain row id (ASCII digits that fit SQLite's integer)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


async def _answer(
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


def _help(lang: str) -> str:
    """/help: the games the registry holds, and the commands."""
    titles = ", ".join(games.ui(game).title(lang) for game in games.ORDER)
    return t(lang, "help.text", games=titles, choices=games.choices())
