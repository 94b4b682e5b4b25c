"""The table's commands and buttons: open a lobby, sit down and stand up, computer players, an
admin standing a player up, start, stop, the next deal, a move."""

from __future__ import annotations

from telegram import Message, Update
from telegram.constants import ChatType

from locales import t

from .. import callbacks, computer, games
from ..callbacks import Press
from ..format import name as shown_name
from ..service import Refusal
from ..view.message import Choice, deep_link
from .common import Command, Common, Context, Pressed, person


class TableCommands(Common):
    """The commands and buttons of the chat's table."""

    def commands(self) -> dict[str, Command]:
        """Its group commands by name."""
        return self._commands(
            self.newgame, self.join, self.leave, self.kick, self.startgame, self.stopgame,
            self.pulya,
        )  # fmt: skip

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
        if message.chat.type == ChatType.PRIVATE:  # a practice table; he writes here
            await self.service.touch(person(user), started=True)
            title = t(lang, "practice.title")
        live = await self.service.lobby.new_table(message.chat_id, title, person(user), game)
        if user.id not in live.row.seats:
            lang = (await self.storage.chats.chat(message.chat_id)).lang  # the first table chose it
            link = deep_link(self.service.bot_username, f"j{live.row.table_id}")
            await self._refused(message, lang, Refusal("err.start_bot_first", url=link))

    async def join(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/join: take a seat at the chat's table."""
        user = update.effective_user
        assert user is not None
        table = self.service.table_in(message.chat_id)
        back = table is not None and user.id in table.row.away
        live = await self.service.lobby.join(message.chat_id, person(user))
        if back:  # a player sitting out is dealt in again
            await self._reply(message, t(lang, "seat.back", name=shown_name(user.full_name)))
        elif live.row.status == "playing":  # the lobby message is gone: say it in words
            await self._reply(message, t(lang, "joined_next_deal", name=shown_name(user.full_name)))

    async def leave(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/leave: stand up from the chat's table."""
        user = update.effective_user
        assert user is not None
        await self.service.lobby.leave(message.chat_id, person(user))
        await self._reply(message, t(lang, "left", name=shown_name(user.full_name)))

    async def kick(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/kick as a reply (or with a name): an admin stands a player up."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(message.chat_id, user.id):
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
                    Choice(
                        live.users[uid].name,  # a button shows plain text
                        callbacks.encode("k", live.row.table_id, code=str(uid)),
                    )
                ]
                for uid in live.row.seats
                if uid in live.users
                and uid not in live.row.leaving
                and not computer.is_computer(uid)  # it never holds a table up
            ]
            await self._reply(message, t(lang, "seat.kick_pick"), rows)
            return
        if target is None:
            raise Refusal("seat.kick_usage")
        if not await self.service.lobby.stand_up(message.chat_id, target, kicked=True):
            raise Refusal("seat.not_seated")

    async def startgame(
        self, update: Update, context: Context, message: Message, lang: str
    ) -> None:
        """/startgame: deal the first hand."""
        user = update.effective_user
        assert user is not None
        admin = await self._is_admin(message.chat_id, user.id)
        await self.service.start(message.chat_id, person(user), admin)

    async def stopgame(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/stopgame: close the table; a deal in play is voided."""
        user = update.effective_user
        assert user is not None
        admin = await self._is_admin(message.chat_id, user.id)
        await self.service.stop(message.chat_id, person(user), admin)

    async def pulya(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/pulya: the sheet of the Preferans pulya in play posted again at the bottom."""
        await self.service.repost(message.chat_id)

    # ---- buttons (bot/handlers/presses.py routes them here) -------------------------------------

    async def act_press(self, user_id: int, press: Press) -> None:
        """a: a move in the deal, from the presser's control message."""
        await self.service.act(user_id, press)

    async def toggle_press(self, user_id: int, press: Press) -> None:
        """t: a card picked or put back while a discard is being chosen."""
        await self.service.toggle(user_id, press)

    async def next_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """n: the next deal."""
        await self.service.next_deal(chat_id, pressed.user.user_id, press)

    async def computer_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """m: the lobby seats a computer player or stands one up."""
        user = pressed.user
        level = None if press.code == "-" else computer.ORDER[int(press.code)]
        admin = await self._is_admin(chat_id, user.user_id)
        await self.service.lobby.seat_computer(chat_id, user, admin, press.table_id, level)

    async def kick_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """k: an admin stands player `code` up."""
        if not await self._is_admin(chat_id, pressed.user.user_id):
            raise Refusal("err.admins_only")
        live = self.service.find(press.table_id)
        if live is None or live.row.chat_id != self.storage.chats.moves.get(chat_id, chat_id):
            raise Refusal("err.stale")
        if not await self.service.lobby.stand_up(chat_id, int(press.code), kicked=True):
            raise Refusal("seat.not_seated")

    async def join_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """j: a seat at the lobby's table."""
        await self.service.lobby.join(chat_id, pressed.user, press.table_id)

    async def leave_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """l: stand up from the lobby's table."""
        await self.service.lobby.leave(chat_id, pressed.user, press.table_id)

    async def start_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """s: deal the first hand."""
        admin = await self._is_admin(chat_id, pressed.user.user_id)
        await self.service.start(chat_id, pressed.user, admin, press.table_id)

    async def game_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """g: the lobby switches to the next game."""
        admin = await self._is_admin(chat_id, pressed.user.user_id)
        await self.service.lobby.switch_game(chat_id, pressed.user, admin, press.table_id)
