"""The table host: every chat's table, one action at a time per chat (its lock), through one
path whatever the kind of game: the lobby and the seats, the start, a press, a toggle, a
time-out, a computer player's move, a stop and a restart. The host owns each table's seating;
the game played at it is its kind's `GameKind` (`bot/games/base.py`), which says what each step
stores (the host writes it and its chips in one transaction) and what it shows, which the host
passes to every front end registered (`fronts`: the chat's, the Mini App's); the host acts on
where the step left the table (`Moved`) and announces it (`changed`)."""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TypeVar

from engine.cards import parse_cards
from locales import pick_language

from . import callbacks, computer, games
from .chat import settings_menu
from .chat.front import ChatFront
from .format import name as shown_name
from .games.base import Front, GameKind, Moved, Shown
from .presenter import Presenter
from .seats import Lobby, LobbyPort
from .storage import ChatRow, DealRow, Storage, UserRow
from .table import seating, steps
from .table.live import OpenTable, Person, Refusal, SameCards
from .table.locks import ChatLocks, chat_locked
from .table.seating import AWAY_AFTER
from .table.steps import Stored
from .table.timers import Timers
from .view import slots

# re-exported: the handlers name a press's person and a refusal through the service
__all__ = ["AWAY_AFTER", "GameService", "OpenTable", "Person", "Refusal"]

log = logging.getLogger(__name__)
R = TypeVar("R")


class GameService:
    """Every chat's table, hosted. Each public step that names a chat takes the chat's lock
    itself (`chat_locked`), so a chat's actions happen one at a time whoever calls them."""

    def __init__(
        self,
        storage: Storage,
        presenter: Presenter,
        bot_username: str,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        *,
        lobby_timeout: float = 1800,
        away_delay: float = 2.0,
        computer_pause: tuple[float, float] = (1.0, 2.0),
        computer_workers: int = 0,
        computer_broker: str | None = None,
        computer_deadline: float = 5.0,
        computer_secret: str = "",
        computer_queue_max: int = 64,
    ) -> None:
        self.storage = storage
        self.presenter = presenter
        self.bot_username = bot_username
        self.rng = rng or random.SystemRandom()
        self.clock = clock
        self.lobby_timeout = lobby_timeout
        self.away_delay = away_delay
        self.locks = ChatLocks(lambda chat_id: storage.chats.moves.get(chat_id, chat_id))
        self._live: dict[int, OpenTable] = {}  # by table id
        self._langs: dict[int, str] = {}  # by user id
        self.timers = Timers(self._time_out)
        self.computers = computer.Computers(
            self._computer_moved,
            pause=computer_pause,
            workers=computer_workers,
            rng=self.rng,
            broker=computer_broker,
            deadline=computer_deadline,
            secret=computer_secret,
            queue_max=computer_queue_max,
        )
        presenter.on_forbidden = self.dm_forbidden
        presenter.on_migrated = self.migrate
        presenter.on_removed = self.removed
        # the table's messages in the chat, with the ways into its other front ends: the first
        # front end, told what each step shows (a front end beside it registers in `fronts`)
        self.chat = ChatFront(presenter, storage, clock, self.game, bot_username)
        self.fronts: list[Front] = [self.chat]
        # each game's tables, played by its kind (the registry's)
        self._games: dict[str, GameKind] = {game: games.tables(game, self) for game in games.ORDER}
        self.lobby = Lobby(
            LobbyPort(
                storage, presenter, bot_username, self._live, self.touch, self.idle_deadline,
                self.game, self._arm_timer, self.changed, self._close, self.chat.show_table,
                self.table_in, self.locks,
            )
        )  # fmt: skip

    def find(self, table_id: int) -> OpenTable | None:
        """An open table by id."""
        return self._live.get(table_id)

    def table_in(self, chat_id: int) -> OpenTable | None:
        """The chat's open table, if any (a group's, by its old id too)."""
        chat_id = self.storage.chats.moves.get(chat_id, chat_id)
        return next((live for live in self._live.values() if live.row.chat_id == chat_id), None)

    def busy(self) -> bool:
        """Whether some chat's action is being handled now (its lock is held): a press, a
        timer's move or a table closing."""
        return self.locks.busy()

    def open_games(self) -> list[str]:
        """The game of each table open now (the open-tables gauge, bot/metrics.py)."""
        return [live.row.game for live in self._live.values() if live.row.status != "closed"]

    @chat_locked
    async def in_turn(self, chat_id: int, step: Callable[[], Awaitable[R]]) -> R:
        """`step` run as one of the chat's actions, under its lock: one a front end makes of its
        own (a chat's settings read, changed and its menu edited; the views of one position
        made together for a table's pages)."""
        return await step()

    def game(self, live: OpenTable) -> GameKind:
        """The kind of table `live` is played at (its game's, from the registry)."""
        game = self._games.get(live.row.game)
        if game is None:  # a game registered after the host was made (a test's)
            game = self._games[live.row.game] = games.tables(live.row.game, self)
        return game

    # ---- start-up -------------------------------------------------------------------------------

    async def resume(self) -> int:
        """Load every open table after a restart, re-show its messages, re-arm its timer."""
        await self.presenter.load()
        rows = await self.storage.tables.open_tables()
        for row in rows:
            live = OpenTable(row, await self.storage.chats.users((*row.seats, row.creator_id)))
            if row.status == "playing":
                try:
                    await self.game(live).resume(live)
                except ValueError:
                    log.exception("table %s: its game cannot be rebuilt", row.table_id)
                    continue
                live.mover = live.to_act  # pinged before the restart (one rule, every game's)
            self._live[row.table_id] = live
            async with self.locks.hold(row.chat_id):
                await self._refresh(live)
        return len(rows)

    # ---- users ----------------------------------------------------------------------------------

    async def touch(self, person: Person, *, started: bool = False) -> UserRow:
        """Record a user; `started` marks that they opened the private chat."""
        user = await self.storage.chats.touch_user(
            person.user_id, person.name, person.username, pick_language(person.language_code)
        )
        if (started and not user.started) or (user.blocked and started):
            await self.storage.chats.set_user(person.user_id, started=1, blocked=0)
            user = replace(user, started=True, blocked=False)
        self._langs[user.user_id] = pick_language(user.lang)
        for live in self._live.values():
            if person.user_id in live.users:
                unblocked = live.users[person.user_id].blocked and not user.blocked
                live.users[person.user_id] = user
                if unblocked:
                    self._arm_timer(live)  # his move waits for him again
        return user

    async def user_lang(self, user_id: int, fallback: str | None = None) -> str:
        """The language for a user's private messages and alerts (cached: asked on every press;
        every change of it goes through `touch`)."""
        lang = self._langs.get(user_id)
        if lang is None:
            user = await self.storage.chats.user(user_id)
            if user is None:
                return pick_language(fallback)
            lang = self._langs[user_id] = pick_language(user.lang)
        return lang

    # ---- start and stop (the lobby and the seats: seats.py) ---------------------------------

    @chat_locked
    async def start(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int | None = None
    ) -> None:
        """Start play: only the table's creator or a chat admin, with as many players as the
        game takes (F1, K1, SK1, P1)."""
        await self._start(chat_id, person, is_admin, table_id)

    async def _start(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int | None
    ) -> None:
        live = self.lobby.table(chat_id, table_id)
        if live.row.status != "lobby":
            raise Refusal("err.already_started")
        if not seating.may_run(live, person.user_id, is_admin):
            raise Refusal("err.only_creator")
        (low, high), n = games.ui(live.row.game).players, len(live.row.seats)
        if not low <= n <= high:
            raise Refusal("err.wrong_players", low=low, high=high)
        chat = await self.storage.chats.chat(chat_id)
        game = self.game(live)
        game.check_start(live, chat)
        await self._check_dealt_in(live, chat)
        live.row = replace(live.row, status="playing")
        moved = await game.start(live, chat)
        self._arm_timer(live)
        # Messages show only what is stored: a bot killed in between restarts from the lobby.
        self.lobby.show(live, chat, closed="lobby.started")
        self.presenter.retire(slots.lobby(live.row.table_id))
        await self._after(live, chat, moved, armed=True)

    async def replay(self, person: Person, deal: DealRow, level: str, title: str) -> None:
        """A finished deal played again as a practice table in the player's private chat: the
        same cards from his seat (the talon too), computer players of `level` in the others.
        He sits first, so the dealer moves round with him and every seat is dealt its own
        cards again; its chips are his practice chips."""
        seat = deal.seats.index(person.user_id)
        n = len(deal.seats)
        chat_id = person.user_id
        async with self.locks.hold(chat_id):
            live = await self.lobby.open_table(
                chat_id, title, person, deal.record["game"], (level, n - 1)
            )
            deck = parse_cards(deal.record["deck"])
            live.chance = SameCards(deck, (deal.record["dealer"] - seat) % n)
            await self._start(chat_id, person, False, live.row.table_id)

    @chat_locked
    async def stop(self, chat_id: int, person: Person, is_admin: bool) -> None:
        """Stop the chat's table: a deal in play is voided and every chip of it returned."""
        live = self.lobby.table(chat_id, None)
        if not seating.may_run(live, person.user_id, is_admin) and not seating.stuck(
            live, person.user_id
        ):
            raise Refusal("err.only_creator_stop")
        chat = await self.storage.chats.chat(chat_id)
        await self._close(live, chat, "table.stopped")

    async def _close(
        self, live: OpenTable, chat: ChatRow, reason: str, *, announce: bool = True
    ) -> None:
        self.timers.cancel(live.row.table_id)
        self.computers.cancel(live.row.table_id)
        live.row = replace(live.row, status="closed", deadline=None)
        voided = False
        if live.play is None:  # a lobby (or a table the bot died starting: shown as a lobby)
            await self.storage.tables.save_table(live.row)
            self.lobby.show(live, chat, closed=reason if not announce else "lobby.closed")
        else:  # its deal in play voided, a match settled as it stands; shown for the last time
            voided = await self.game(live).stop(live, chat)
        del self._live[live.row.table_id]
        self.changed(live)
        table_id = live.row.table_id
        self.presenter.retire(*slots.of_table(table_id))
        if announce:
            await self.chat.tell_closed(live, chat, reason, voided=voided)

    @chat_locked
    async def repost(self, chat_id: int) -> None:
        """/pulya: the score sheet of the chat's table (a Preferans pulya's) posted again at the
        bottom of the group; with none in play, the final score of the last one closed here."""
        chat_id = self.storage.chats.moves.get(chat_id, chat_id)  # (a migrated group)
        live = self.table_in(chat_id)
        if live is not None and live.play is not None and await self.game(live).repost(live):
            return
        sheets = [game for game, kind in self._games.items() if kind.sheet]
        closed = await self.storage.tables.last_closed_table(chat_id, sheets)
        final = await self._games[closed.game].final_sheet(closed) if closed else None
        if closed is None or final is None:
            raise Refusal("err.no_table" if live is None else "err.no_match")
        await self.chat.post_final_sheet(closed, final)

    def match_standing(self, chat_id: int, lang: str) -> str | None:
        """For /balance and /top: where the players of the chat's match in play stand (a pulya's
        settlement were it closed now), None if no match is in play."""
        live = self.table_in(chat_id)
        if live is None or live.play is None:
            return None
        return self.chat.standing(live, lang)

    async def dealt_in(
        self, live: OpenTable, chat: ChatRow
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seated players the next deal deals to, and those it leaves out for want of chips:
        with a starting bankroll (F15) a player must hold what the game asks (SK13: two banks).
        The seated players' rows are read again (their names as the deal shows them)."""
        live.users.update(await self.storage.chats.users(live.row.seats))
        seats = tuple(uid for uid in live.row.seats if not seating.sits_out(live, uid))
        start = settings_menu.bankroll(chat)
        if not start:
            return seats, ()
        need = games.ui(live.row.game).bankroll_need(
            chat.ante, chat.pot_of(live.row.game), len(seats)
        )
        held = {user.user_id: bal for user, bal in await self.storage.money.balances(chat.chat_id)}
        short = tuple(uid for uid in seats if start + held.get(uid, 0) < need)
        return tuple(uid for uid in seats if uid not in short), short

    async def _check_dealt_in(self, live: OpenTable, chat: ChatRow) -> None:
        """Refuse a deal that too few of the seated players could be dealt into (a match keeps
        its players to its end: every seated one)."""
        keeps = self.game(live).keeps_players
        fewest = len(live.row.seats) if keeps else games.ui(live.row.game).players[0]
        seats, short = await self.dealt_in(live, chat)
        if seats and not computer.people(seats):  # computers play people, not alone
            raise Refusal("computer.no_people")
        if len(seats) < fewest:
            if short:
                names = ", ".join(shown_name(live.users[uid].name) for uid in short)
                raise Refusal("bankroll.too_few", low=fewest, names=names)
            raise Refusal("seat.too_few_dealt", low=fewest)

    # ---- presses and moves ----------------------------------------------------------------------

    async def act(self, user_id: int, press: callbacks.Press) -> None:
        """A player pressed an action button in the private chat."""
        async with self._pressed(user_id, press) as live:
            chat = await self.storage.chats.chat(live.row.chat_id)  # (as it was before the step)
            await self._after(live, chat, await self.game(live).act(live, user_id, press))

    async def toggle(self, user_id: int, press: callbacks.Press) -> None:
        """F9, P5: a player marks cards to discard before confirming (nothing is applied yet)."""
        async with self._pressed(user_id, press) as live:
            await self.game(live).toggle(live, user_id, press)
            self._arm_timer(live)
            self.changed(live)

    @asynccontextmanager
    async def _pressed(self, user_id: int, press: callbacks.Press) -> AsyncIterator[OpenTable]:
        """Under the table's lock: the live table a press is at (Refusal for a closed one), the
        presser back from away."""
        live = self._live.get(press.table_id)
        if live is None:
            raise Refusal("err.stale")
        async with self.locks.hold(live.row.chat_id):
            if self._live.get(press.table_id) is not live or live.play is None:
                raise Refusal("err.stale")
            await self._returns(live, user_id)
            yield live

    async def next_deal(self, chat_id: int, user_id: int, press: callbacks.Press) -> None:
        """Deal the next hand (the next dealer, F2) when a player at the table asks."""
        async with self.locks.hold(chat_id):
            live = self.lobby.table(chat_id, press.table_id)
            game = self.game(live)
            if not game.between_deals(live) or press.deal_no != live.row.deal_no:
                raise Refusal("err.stale")
            if user_id not in live.row.seats:
                raise Refusal("err.not_player")
            seating.back(live, user_id)  # pressing anything brings him back
            chat = await self.storage.chats.chat(chat_id)
            await self._check_dealt_in(live, chat)
            await self._after(live, chat, await game.next_deal(live, chat))

    async def _after(
        self, live: OpenTable, chat: ChatRow, moved: Moved, *, armed: bool = False
    ) -> None:
        """Where a step left the table, acted on: the next move's timer, a deal's end (the
        leavers stand up, then the result offers the next deal), a match's end; then every
        observer is told (`changed`)."""
        if moved is Moved.DEAL_OVER:
            if await self.lobby.stand_up_leavers(live, chat):  # at the end of the deal
                return
            await self.game(live).offer_next(live, chat)
        elif moved is not Moved.IN_PLAY:
            reason = "table.match_over" if moved is Moved.MATCH_OVER else "table.closed_away"
            await self._close(live, chat, reason)
            return
        if not armed:
            self._arm_timer(live)
        self.changed(live)

    async def store(self, live: OpenTable, what: Stored) -> None:
        """A kind's step and the seating it changes, stored (`table/steps.py`)."""
        await steps.store(self.storage, live, what)

    async def resumed(self, live: OpenTable, deal_id: int, seats: tuple[int, ...]) -> None:
        """After a restart: the deal in play and who it was dealt to (`table/steps.py`)."""
        await steps.resumed(self.storage, live, deal_id, seats)

    async def show(self, live: OpenTable, chat: ChatRow, what: Shown) -> None:
        """What a step of the table shows now (a deal's messages, a result, a sheet), told to
        every front end in turn (`Host.show`)."""
        for front in self.fronts:
            await front.shown(live, chat, what)

    def changed(self, live: OpenTable) -> None:
        """Every change of a table passes here once its step is stored and shown (a press, a
        toggle, a time-out, a computer's move, a stop, a restart): each front end is told (the
        Mini App redraws from `GameKind.screen`)."""
        for front in self.fronts:
            front.changed(live)

    async def _computer_moved(self, table_id: int, deal: object, action: computer.Move) -> None:
        """A computer player's move, thought out for `deal`: made under the chat's lock, like a
        press, unless the deal has moved on meanwhile (stopped, the table closed)."""
        live = self._live.get(table_id)
        if live is None:
            return
        async with self.locks.hold(live.row.chat_id):
            game = self.game(live)
            if self._live.get(table_id) is not live or game.position(live) is not deal:
                return
            chat = await self.storage.chats.chat(live.row.chat_id)
            await self._after(live, chat, await game.move(live, action, auto=False))

    async def _returns(self, live: OpenTable, user_id: int) -> None:
        """A player pressed one of his buttons (even an outdated one): his time-outs are
        forgotten; if he was away, he is back, and from now on his moves wait for him again."""
        away = user_id in live.row.away and user_id in live.row.seats  # dealt in or sitting out
        seating.back(live, user_id)
        if away:
            await self.storage.tables.save_table(live.row)
            self._arm_timer(live)

    # ---- timers ---------------------------------------------------------------------------------

    def deadline(self, chat: ChatRow) -> float | None:
        """When the move due now times out (the chat's turn timer; None: no timer)."""
        return self.clock() + chat.turn_timeout if chat.turn_timeout > 0 else None

    def idle_deadline(self) -> float | None:
        """When a lobby nobody starts, or a table nobody deals on after a result, closes."""
        return self.clock() + self.lobby_timeout if self.lobby_timeout > 0 else None

    def _arm_timer(self, live: OpenTable) -> None:
        """One timer per table: the lobby's expiry, the current move, or the expiry
        of a table waiting for its next deal."""
        table_id = live.row.table_id
        self.timers.cancel(table_id)
        delay: float | None = None
        game = self.game(live)
        if live.row.status == "lobby" or (live.play is not None and game.between_deals(live)):
            if live.row.deadline is not None:
                delay = live.row.deadline - self.clock()
        elif live.to_act is not None:
            seat = live.to_act
            mover = live.deal_seats[seat]
            if computer.is_computer(mover):  # it thinks now, moves after a pause
                know = functools.partial(game.knowledge, live, seat)
                self.computers.schedule(table_id, game.position(live), mover, know)
                return
            if seating.plays_itself(live, mover):
                delay = self.away_delay
            elif live.row.deadline is not None:
                delay = live.row.deadline - self.clock()
        self.computers.cancel(table_id)  # no computer player's move is due now
        if delay is None:
            return
        self.timers.set(table_id, delay, (live.row.deal_no, live.step))

    async def close(self) -> None:
        """Stop every timer (at shutdown: the restarted bot re-arms them from SQLite)."""
        await self.timers.close()
        await self.chat.close()
        await self.computers.close()

    async def _time_out(self, table_id: int, key: tuple[int, int]) -> None:
        live = self._live.get(table_id)
        if live is None:
            return
        async with self.locks.hold(live.row.chat_id):
            if self._live.get(table_id) is not live:
                return
            if live.row.status == "lobby":  # nobody started the game
                chat = await self.storage.chats.chat(live.row.chat_id)
                await self._close(live, chat, "lobby.expired", announce=False)
                return
            game = self.game(live)
            if live.play is None or (live.row.deal_no, live.step) != key:
                return  # a timer of an earlier move
            if game.between_deals(live):  # nobody pressed "next deal"
                chat = await self.storage.chats.chat(live.row.chat_id)
                await self._close(live, chat, "table.closed_idle")
                return
            seat = live.to_act
            if seat is None or computer.is_computer(live.deal_seats[seat]):
                return  # a computer player's move is scheduled on its own
            user_id = live.deal_seats[seat]
            # An away player is played by the rules level, a late one passes safely
            stood_in = seating.plays_itself(live, user_id)
            action = (
                computer.stand_in(game.knowledge(live, seat)) if stood_in else game.default(live)
            )
            if action is None:
                return
            note = seating.count_time_out(live, user_id)  # None when he was stood in for
            chat = await self.storage.chats.chat(live.row.chat_id)
            moved = await game.move(live, action, auto=True, note=note)
            if note is not None:
                await self.chat.tell_timed_out(live, user_id, action)
            await self._after(live, chat, moved)

    # ---- what the messages show -----------------------------------------------------------------

    async def _refresh(self, live: OpenTable) -> None:
        """Every message of the table as it stands (after a restart, a group's move), its timer
        armed; a deal whose end the bot died before showing is ended now."""
        chat = await self.storage.chats.chat(live.row.chat_id)
        if live.row.status == "lobby":
            self.lobby.show(live, chat)
        if live.play is None:  # (a table the bot died starting shows nothing more)
            self._arm_timer(live)
            return
        await self._after(live, chat, await self.game(live).refresh(live, chat))

    async def reshow_hand(self, user_id: int) -> bool:
        """Post the user's control messages (one per table he plays at) again at the bottom of
        the private chat; the old ones are deleted, so no copy keeps live-looking buttons."""
        shown = False
        for live in list(self._live.values()):
            if live.in_deal and user_id in live.deal_seats:
                chat = await self.storage.chats.chat(live.row.chat_id)
                await self.game(live).reshow(live, chat, user_id)
                shown = True
        return shown

    async def dm_forbidden(self, user_id: int) -> None:
        """A player blocked the bot (or never started it): tell the group, keep the deal moving."""
        if not await self.storage.chats.mark_blocked(user_id):
            return  # unknown, or told already (a 403 and my_chat_member may come together)
        for live in list(self._live.values()):
            if user_id in live.users:
                user = replace(live.users[user_id], blocked=True)
                live.users[user_id] = user
                self._arm_timer(live)  # if it is their move, the bot makes it
                await self.chat.tell_blocked(live, user_id)

    # ---- seasons --------------------------------------------------------------------------------

    @chat_locked
    async def new_season(self, chat_id: int, closed: int) -> dict[int, int]:
        """Archive the chat's balances and start from zero (no table may be open: its pot and
        deal belong to the season being closed). Refusal when pressed twice or too late."""
        if self.table_in(chat_id) is not None:
            raise Refusal("season.table_open")
        archived = await self.storage.money.new_season(
            self.storage.chats.moves.get(chat_id, chat_id), closed
        )
        if archived is None:
            raise Refusal("err.stale")
        return archived

    # ---- a group that became a supergroup, a group that removed the bot -------------------------

    async def migrate(self, old_id: int, new_id: int, title: str | None = None) -> None:
        """Group `old_id` became supergroup `new_id`: move its chips, history and open table
        there (one transaction), and show the table in the supergroup; the deal goes on.
        Idempotent: the service messages and a ChatMigrated error may each come, twice."""
        self.presenter.moves[old_id] = new_id  # from now on, send there
        async with self.locks.moving(old_id, new_id):
            if self.storage.chats.moves.get(old_id) == new_id:
                return
            moving = self.table_in(old_id)
            newer = self.table_in(new_id)
            if moving is not None and newer is not None:  # a chat has one open table: the
                chat = await self.storage.chats.chat(
                    new_id
                )  # group's goes on, the newer one closes
                await self._close(newer, chat, "table.stopped")
            await self.storage.chats.migrate_chat(old_id, new_id, title)
            log.info("chat %s moved to supergroup %s", old_id, new_id)
            if moving is not None:
                moving.row = replace(moving.row, chat_id=new_id)
                await self._refresh(moving)

    async def removed(self, chat_id: int) -> None:
        """The bot was removed from a group or may no longer write there: a deal in play is
        voided with every chip of it returned and the table closed; balances stay."""
        if chat_id in self.storage.chats.moves or chat_id in self.presenter.moves:
            return  # the old id of a group that became a supergroup: nothing was removed
        async with self.locks.hold(chat_id):
            live = self.table_in(chat_id)
            if live is None:
                return
            log.info(
                "chat %s: the bot cannot write there; table %s closed", chat_id, live.row.table_id
            )
            chat = await self.storage.chats.chat(chat_id)
            await self._close(live, chat, "lobby.closed", announce=False)
