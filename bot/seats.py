"""The lobby and the seats of the host's tables (F15): opening a table, sitting
down and standing up (a computer player too), the game button, the lobby shown (its message:
`chat/lobby.py`). An object of the table host (`bot.service.GameService`), which it reaches only
through a small port (`LobbyPort`); each public step that names a chat takes the chat's lock
itself (`chat_locked`), the others run under it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from locales import pick_language, t

from . import computer, games
from .chat import lobby
from .format import name as shown_name
from .games.base import GameKind
from .presenter import Presenter
from .storage import ChatRow, Storage, UserRow
from .table import seating
from .table.live import OpenTable, Person, Refusal
from .table.locks import ChatLocks, chat_locked
from .view import slots
from .view.message import Rendered, deep_link


@dataclass(frozen=True)
class LobbyPort:
    """What the lobby asks of its host: the tables (by id) and a few of the host's steps."""

    storage: Storage
    presenter: Presenter
    bot_username: str
    tables: dict[int, OpenTable]  # the host's open tables, by id: the lobby adds new ones
    touch: Callable[[Person], Awaitable[UserRow]]  # a person's row, made or refreshed
    idle_deadline: Callable[[], float | None]  # when a lobby nobody starts closes
    game: Callable[[OpenTable], GameKind]
    arm_timer: Callable[[OpenTable], None]  # the table's timer for what is due now
    changed: Callable[[OpenTable], None]  # the pages follow a change
    close: Callable[[OpenTable, ChatRow, str], Awaitable[None]]  # close, saying why
    show_table: Callable[..., None]  # one of the table's messages shown (the host's buttons)
    table_in: Callable[[int], OpenTable | None]  # the chat's open table
    locks: ChatLocks  # the chats' locks


class Lobby:
    """The lobby and the seats of the host's tables; each public step that names a chat takes
    its lock."""

    def __init__(self, port: LobbyPort) -> None:
        self.port = port
        self.storage = port.storage
        self.presenter = port.presenter
        self.locks = port.locks
        self._wanted: dict[int, list[int]] = {}  # by user id: tables he could not sit at yet

    @chat_locked
    async def new_table(
        self, chat_id: int, title: str, person: Person, game: str | None = None
    ) -> OpenTable:
        """Open a lobby in the chat (`open_table`)."""
        return await self.open_table(chat_id, title, person, game)

    async def open_table(
        self, chat_id: int, title: str, person: Person, game: str | None = None,
        computers: tuple[str, int] | None = None,
    ) -> OpenTable:  # fmt: skip
        """Open a lobby in the chat (its caller holds the chat's lock); the creator sits down if
        they have started the bot. A practice table seats its computer players at once:
        `computers` (a level and how many), else as many of the practice level as its game's UI
        says."""
        user = await self.port.touch(person)
        chat = await self.storage.chats.chat(chat_id, title)
        row = await self.storage.tables.create_table(chat_id, game or chat.game, person.user_id)
        if row is None:
            raise await self._table_exists(chat_id, chat.lang)
        # a group speaks the language of its first table's opener; a practice table speaks
        # the language of its player
        lang = pick_language(user.lang)
        if not chat.lang_chosen or (seating.practice(chat_id) and chat.lang != lang):
            await self.storage.chats.set_chat(chat_id, lang=lang)
            chat = await self.storage.chats.chat(chat_id)
        live = OpenTable(row, {user.user_id: user})  # the lobby names its creator, seated or not
        self.port.tables[row.table_id] = live
        live.row = replace(row, deadline=self.port.idle_deadline())  # lobbies expire
        if user.started:
            await self._seat(live, user)  # saves the row
        else:
            self._want_seat(user.user_id, row.table_id)
            await self.storage.tables.save_table(live.row)
        if seating.practice(chat_id) and computer.plays(live.row.game):  # ready to start
            ui = games.ui(live.row.game)
            most = min(ui.practice_players, ui.players[1])
            level, count = computers or (computer.PRACTICE_LEVEL, most - len(live.row.seats))
            for _ in range(count):
                await self._seat_computer(live, chat, level)
        self.show(live, chat)
        self.port.arm_timer(live)
        return live

    @chat_locked
    async def join(self, chat_id: int, person: Person, table_id: int | None = None) -> OpenTable:
        """Sit down at the chat's table (in the lobby or between deals)."""
        user = await self.port.touch(person)
        live = self.table(chat_id, table_id)
        if seating.practice(live.row.chat_id) and person.user_id != live.row.chat_id:
            raise Refusal("practice.private")  # a practice table is its player's
        if person.user_id in live.row.seats:
            if person.user_id in live.row.away:  # /join brings a sitting-out player back
                seating.back(live, person.user_id)
                await self.storage.tables.save_table(live.row)
                self.port.arm_timer(live)
                return live
            raise Refusal("err.already_joined")
        if live.play is not None and self.port.game(live).keeps_players:  # P14: a pulya's own
            raise Refusal("err.match_seated")
        most = games.ui(live.row.game).players[1]
        if len(live.row.seats) >= most:
            raise Refusal("err.table_full", n=most)
        if not user.started or user.blocked:
            self._want_seat(user.user_id, live.row.table_id)
            raise Refusal(
                "err.start_bot_first",
                url=deep_link(self.port.bot_username, f"j{live.row.table_id}"),
            )
        await self._seat(live, user)
        chat = await self.storage.chats.chat(chat_id)
        if live.row.status == "lobby":
            self.show(live, chat)
        else:
            self.port.changed(live)  # the pages draw him at his seat, sitting the deal out
        return live

    def _want_seat(self, user_id: int, table_id: int) -> None:
        """Remember that the user asked for a seat the bot could not give him yet: it cannot
        write to him until he opens its private chat."""
        wanted = self._wanted.setdefault(user_id, [])
        if table_id not in wanted:
            wanted.append(table_id)

    def wanted_seats(self, user_id: int) -> list[OpenTable]:
        """The open tables the user asked for a seat at before he opened the bot's private
        chat (forgotten once asked): his /start there seats him, as the refusal's link would
        have, though he opened the chat some other way."""
        wanted = self._wanted.pop(user_id, [])
        tables = self.port.tables
        return [tables[table_id] for table_id in wanted if table_id in tables]

    @chat_locked
    async def seat_computer(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int, level: str | None
    ) -> OpenTable:
        """The lobby's buttons: the table's creator (or an admin) seats a computer player of
        `level`, or (None) stands the last one seated up."""
        live = self.table(chat_id, table_id)
        if live.row.status != "lobby":
            raise Refusal("err.already_started")
        if not seating.may_run(live, person.user_id, is_admin):
            raise Refusal("computer.only_creator")
        chat = await self.storage.chats.chat(chat_id)
        if level is None:
            seated = [uid for uid in live.row.seats if computer.is_computer(uid)]
            if not seated:
                raise Refusal("computer.none_seated")
            self._unseat(live, seated[-1])
            await self.storage.tables.save_table(live.row)
        else:
            if level not in computer.ORDER or not computer.plays(live.row.game):
                raise Refusal("err.stale")
            most = games.ui(live.row.game).players[1]
            if len(live.row.seats) >= most:
                raise Refusal("err.table_full", n=most)
            await self._seat_computer(live, chat, level)
        self.show(live, chat)
        return live

    async def _seat_computer(self, live: OpenTable, chat: ChatRow, level: str) -> None:
        uid = computer.next_seat(level, live.row.seats)
        name = computer.name(chat.lang, uid)  # in the chat's language, as it sits down here
        await self._seat(live, await self.storage.chats.touch_user(uid, name, None, None))

    async def _seat(self, live: OpenTable, user: UserRow) -> None:
        live.users[user.user_id] = user
        live.row = replace(live.row, seats=(*live.row.seats, user.user_id))
        await self.storage.tables.save_table(live.row)

    @chat_locked
    async def leave(self, chat_id: int, person: Person, table_id: int | None = None) -> OpenTable:
        """Stand up: in the lobby, or between deals (a deal in play must be finished or stopped)."""
        live = self.table(chat_id, table_id)
        uid = person.user_id
        if uid not in live.row.seats:
            raise Refusal("err.not_seated")
        if live.in_deal and uid in live.deal_seats:  # a pulya (P14): not before its end
            raise Refusal(games.ui(live.row.game).key("err.leave_mid_deal"))
        chat = await self.storage.chats.chat(chat_id)
        self._unseat(live, uid)
        if await self._too_few(live, chat):
            return live
        await self.storage.tables.save_table(live.row)
        if live.row.status == "lobby":
            self.show(live, chat)
        else:
            self.port.changed(live)  # his seat goes from the pages
        return live

    def _unseat(self, live: OpenTable, uid: int) -> None:
        """Take a player off the seats (the dealer's place moves with them); his control
        message is let go."""
        seating.unseat(live, uid)
        self.presenter.retire(slots.hand(live.row.table_id, uid))

    async def _too_few(self, live: OpenTable, chat: ChatRow) -> bool:
        """A table in play that has fewer seats than its game takes, or only computer players
        left, closes (True if it did)."""
        if live.row.status != "playing":
            return False
        seats = live.row.seats
        if seats and not computer.people(seats):
            await self.port.close(live, chat, "computer.closed_no_people")
            return True
        if len(seats) < games.ui(live.row.game).players[0]:
            await self.port.close(live, chat, "table.closed_too_few")
            return True
        return False

    @chat_locked
    async def stand_up(self, chat_id: int, user_id: int, *, kicked: bool) -> bool:
        """A player left the group (or an admin stood him up, `kicked`): off the seats now, or
        at the end of the deal he is playing, his moves made for him till then.
        False if he was not seated (or is already leaving)."""
        live = self.port.table_in(chat_id)
        if live is None or user_id not in live.row.seats or user_id in live.row.leaving:
            return False
        chat = await self.storage.chats.chat(live.row.chat_id)
        user = live.users.get(user_id) or await self.storage.chats.user(user_id)
        name = shown_name(user.name if user else "?")
        if live.in_deal and user_id in live.deal_seats:
            live.row = replace(live.row, leaving=(*live.row.leaving, user_id))
            await self.storage.tables.save_table(live.row)
            self.port.arm_timer(live)  # if it is his move, the bot makes it
            key = "seat.kicked_after_deal" if kicked else "seat.left_after_deal"
            text = games.ui(live.row.game).text(chat.lang, key, name=name)  # a match: its end
            await self.presenter.post(chat.chat_id, Rendered(text))
            self._last_word(live, chat, user_id, kicked=kicked)
            return True
        self._unseat(live, user_id)
        key = "seat.kicked" if kicked else "seat.left_group"
        await self.presenter.post(chat.chat_id, Rendered(t(chat.lang, key, name=name)))
        if await self._too_few(live, chat):
            return True
        await self.storage.tables.save_table(live.row)
        if live.row.status == "lobby":
            self.show(live, chat)
        return True

    def _last_word(self, live: OpenTable, chat: ChatRow, user_id: int, *, kicked: bool) -> None:
        """A leaving player's control message says why it stops, then is never edited again
        (`deliver_hand` skips the players leaving)."""
        user = live.users.get(user_id)
        slot = slots.hand(live.row.table_id, user_id)
        if user is not None and not user.blocked and not computer.is_computer(user_id):
            key = "seat.kicked_you" if kicked else "seat.left_you"
            text = games.ui(live.row.game).text(
                pick_language(user.lang), key, group=shown_name(chat.title)
            )
            self.presenter.show(slot, user_id, Rendered(text))
        self.presenter.retire(slot)

    async def stand_up_leavers(self, live: OpenTable, chat: ChatRow) -> bool:
        """At a deal's end: players leaving stand up now (True if the table closed for it)."""
        if not live.row.leaving:
            return False
        for uid in live.row.leaving:
            if uid in live.row.seats:
                self._unseat(live, uid)
        live.row = replace(live.row, leaving=())
        if await self._too_few(live, chat):
            return True
        await self.storage.tables.save_table(live.row)
        return False

    async def _table_exists(self, chat_id: int, lang: str) -> Refusal:
        """/newgame while a table is open: who can stop it, and where it is."""
        live = self.port.table_in(chat_id)
        if live is None:
            return Refusal("err.table_exists")
        runner = seating.runner(live)
        user = live.users.get(runner) if runner is not None else None
        if user is None and runner is not None:  # a creator who never started the bot
            user = await self.storage.chats.user(runner)
        return Refusal(
            "seat.table_open",
            game=games.ui(live.row.game).title(lang),
            name=shown_name(user.name if user else "?"),
        )

    @chat_locked
    async def switch_game(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int | None = None
    ) -> None:
        """The lobby's game button: the creator (or an admin) moves to the next game."""
        live = self.table(chat_id, table_id)
        if live.row.status != "lobby":
            raise Refusal("err.already_started")
        if not seating.may_run(live, person.user_id, is_admin):
            raise Refusal("err.only_creator_game")
        live.row = replace(live.row, game=games.next_game(live.row.game))
        await self.storage.tables.save_table(live.row)
        self.show(live, await self.storage.chats.chat(chat_id))

    def table(self, chat_id: int, table_id: int | None) -> OpenTable:
        """The table a press or a command names (`table_id`, else the chat's open one); a
        Refusal if it is not open there."""
        chat_id = self.storage.chats.moves.get(chat_id, chat_id)  # a press in the old group
        live = self.port.tables.get(table_id) if table_id is not None else None
        if live is None and table_id is None:
            live = self.port.table_in(chat_id)
        if live is None or live.row.chat_id != chat_id:
            raise Refusal("err.no_table" if table_id is None else "err.stale")
        return live

    def show(self, live: OpenTable, chat: ChatRow, closed: str | None = None) -> None:
        """The lobby's message (`closed`: the key of why it no longer takes players)."""
        names = [live.users[uid].name for uid in live.row.seats if uid in live.users]
        creator = live.users.get(live.row.creator_id)
        content = lobby.lobby(
            chat.lang,
            live.row.table_id,
            live.row.game,
            names,
            creator.name if creator else "?",
            chat.ante,
            self.port.bot_username,
            players_range=games.ui(live.row.game).players,
            closed=closed,
            rules=chat.rules,
            computers=computer.plays(live.row.game),
            private=seating.practice(chat.chat_id),
        )
        self.port.show_table(
            live, chat, slots.lobby(live.row.table_id), content, current=closed is None
        )
        self.port.changed(live)  # the lobby's pages follow it
