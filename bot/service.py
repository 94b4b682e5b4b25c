"""The game service: applies players' decisions to the engine, one at a time per chat.

Each step and its chips go to SQLite in one transaction; then the presenter is told what every
message should show.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from typing import Any

from engine.actions import Action, Do
from engine.ai import seat_knowledge
from engine.cards import make_deck, shuffled
from engine.deal import TrickDeal
from engine.defaults import default_action
from engine.errors import IllegalAction, ReplayError
from engine.events import ChipsMoved, Event
from engine.record import replay
from engine.views import seat_view, table_view
from locales import pick_language, t

from . import callbacks, computer, games, render, settings_menu, summary, turns
from .games.base import MatchTables
from .names import distinct, labels
from .presenter import Presenter
from .storage import RETRY_AFTER, ChatRow, Movement, Storage, StorageUnavailable, UserRow
from .table.live import Live, Person, Refusal

# re-exported: the handlers name a press's person and a refusal through the service
__all__ = ["AWAY_AFTER", "GameService", "Live", "Person", "Refusal"]

log = logging.getLogger(__name__)

AWAY_AFTER = 2  # time-outs in a row that mark a player away (issue 4)


def _practice(chat_id: int) -> bool:
    """Whether a chat's table is a practice table against computer players (issue 17): one
    opened in a private chat, whose id is its player's."""
    return chat_id > 0


class GameService:
    """Everything a chat can do to its table; every method runs under the chat's lock."""

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
    ) -> None:
        self.storage = storage
        self.presenter = presenter
        self.bot_username = bot_username
        self.rng = rng or random.SystemRandom()
        self.clock = clock
        self.lobby_timeout = lobby_timeout
        self.away_delay = away_delay
        self._locks: dict[int, asyncio.Lock] = {}
        self._live: dict[int, Live] = {}  # by table id
        self._langs: dict[int, str] = {}  # by user id
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._firing: set[asyncio.Task[None]] = set()  # timers running now (kept referenced)
        self._writes: set[asyncio.Task[None]] = set()  # writes a sync caller started (the same)
        self.computers = computer.Computers(
            self._computer_moved, pause=computer_pause, workers=computer_workers, rng=self.rng
        )
        presenter.on_forbidden = self.dm_forbidden
        presenter.on_migrated = self.migrate
        presenter.on_removed = self.removed
        # the games whose tables are matches of many deals, each played by its own service
        self._own: dict[str, MatchTables] = {
            game: tables(self) for game, tables in games.TABLES.items()
        }

    def busy(self) -> bool:
        """Whether some chat's action is being handled now (its lock is held): a press, a
        timer's move or a table closing."""
        return any(lock.locked() for lock in self._locks.values())

    def open_games(self) -> list[str]:
        """The game of each table open now (the open-tables gauge, bot/metrics.py)."""
        return [live.row.game for live in self._live.values() if live.row.status != "closed"]

    def lock(self, chat_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the lock that serialises one chat's actions (a group that became a supergroup:
        the supergroup's, even when the move happened while waiting for it)."""
        return self._locked(chat_id)

    @asynccontextmanager
    async def _locked(self, chat_id: int) -> AsyncIterator[None]:
        while True:
            current = self.storage.moves.get(chat_id, chat_id)
            async with self._locks.setdefault(current, asyncio.Lock()):
                if self.storage.moves.get(chat_id, chat_id) == current:
                    yield
                    return

    # ---- start-up -------------------------------------------------------------------------------

    async def resume(self) -> int:
        """Load every open table after a restart, re-show its messages, re-arm its timer."""
        await self.presenter.load()
        rows = await self.storage.open_tables()
        for row in rows:
            live = Live(row, await self.storage.users((*row.seats, row.creator_id)))
            deal_row = await self.storage.current_deal(row.table_id)
            own = self._own.get(row.game)
            if row.status == "playing" and own is not None:
                try:
                    await own.resume(live)
                except ValueError:
                    log.exception("table %s: its match cannot be rebuilt", row.table_id)
                    continue
            elif row.status == "playing" and deal_row is not None:
                try:
                    live.deal = replay(deal_row.record)
                except ReplayError:
                    log.exception(
                        "table %s: deal %s cannot be replayed", row.table_id, deal_row.deal_id
                    )
                    continue
                live.deal_id = deal_row.deal_id
                live.deal_seats = deal_row.seats
                live.sitting_out = tuple(u for u in row.seats if u not in deal_row.seats)
                live.mover = live.deal.to_act  # pinged before the restart
                live.users.update(await self.storage.users(deal_row.seats))
            self._live[row.table_id] = live
            async with self.lock(row.chat_id):
                await self._refresh(live)
                self._arm_timer(live)
        return len(rows)

    # ---- users ----------------------------------------------------------------------------------

    async def touch(self, person: Person, *, started: bool = False) -> UserRow:
        """Record a user; `started` marks that they opened the private chat."""
        user = await self.storage.touch_user(
            person.user_id, person.name, person.username, pick_language(person.language_code)
        )
        if (started and not user.started) or (user.blocked and started):
            await self.storage.set_user(person.user_id, started=1, blocked=0)
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
            user = await self.storage.user(user_id)
            if user is None:
                return pick_language(fallback)
            lang = self._langs[user_id] = pick_language(user.lang)
        return lang

    # ---- the lobby ------------------------------------------------------------------------------

    def find(self, table_id: int) -> Live | None:
        """An open table by id."""
        return self._live.get(table_id)

    def table_in(self, chat_id: int) -> Live | None:
        """The chat's open table, if any."""
        chat_id = self.storage.moves.get(chat_id, chat_id)
        return next((live for live in self._live.values() if live.row.chat_id == chat_id), None)

    async def new_table(
        self, chat_id: int, title: str, person: Person, game: str | None = None
    ) -> Live:
        """Open a lobby in the chat; the creator sits down if they have started the bot."""
        user = await self.touch(person)
        chat = await self.storage.chat(chat_id, title)
        row = await self.storage.create_table(chat_id, game or chat.game, person.user_id)
        if row is None:
            raise await self._table_exists(chat_id, chat.lang)
        # issue 12: a group speaks the language of its first table's opener; a practice table
        # (issue 17) the language of its player
        lang = pick_language(user.lang)
        if not chat.lang_chosen or (_practice(chat_id) and chat.lang != lang):
            await self.storage.set_chat(chat_id, lang=lang)
            chat = await self.storage.chat(chat_id)
        live = Live(row, {user.user_id: user})  # the lobby names its creator, seated or not
        self._live[row.table_id] = live
        live.row = replace(row, deadline=self._idle_deadline())  # issue 4: lobbies expire
        if user.started:
            await self._seat(live, user)  # saves the row
        else:
            await self.storage.save_table(live.row)
        if _practice(chat_id) and computer.plays(live.row.game):  # issue 17: ready to start
            ui = games.ui(live.row.game)
            for _ in range(min(ui.practice_players, ui.players[1]) - len(live.row.seats)):
                await self._seat_computer(live, chat, computer.PRACTICE_LEVEL)
        self._show_lobby(live, chat)
        self._arm_timer(live)
        return live

    async def join(self, chat_id: int, person: Person, table_id: int | None = None) -> Live:
        """Sit down at the chat's table (in the lobby or between deals)."""
        user = await self.touch(person)
        live = self._table(chat_id, table_id)
        if _practice(live.row.chat_id) and person.user_id != live.row.chat_id:
            raise Refusal("practice.private")  # issue 17: a practice table is its player's
        if person.user_id in live.row.seats:
            if person.user_id in live.row.away:  # issue 16: /join brings a sitting-out player back
                self._back(live, person.user_id)
                await self.storage.save_table(live.row)
                self._arm_timer(live)
                return live
            raise Refusal("err.already_joined")
        if live.match is not None:  # a match keeps the players it started with
            raise Refusal("err.match_seated")
        most = games.ui(live.row.game).players[1]
        if len(live.row.seats) >= most:
            raise Refusal("err.table_full", n=most)
        if not user.started or user.blocked:
            raise Refusal(
                "err.start_bot_first",
                url=render.deep_link(self.bot_username, f"j{live.row.table_id}"),
            )
        await self._seat(live, user)
        chat = await self.storage.chat(chat_id)
        if live.row.status == "lobby":
            self._show_lobby(live, chat)
        return live

    # ---- computer players (issue 17) -------------------------------------------------------

    async def seat_computer(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int, level: str | None
    ) -> Live:
        """The lobby's buttons: the table's creator (or an admin) seats a computer player of
        `level`, or (None) stands the last one seated up."""
        live = self._table(chat_id, table_id)
        if live.row.status != "lobby":
            raise Refusal("err.already_started")
        if not self._may_run(live, person.user_id, is_admin):
            raise Refusal("computer.only_creator")
        chat = await self.storage.chat(chat_id)
        if level is None:
            seated = [uid for uid in live.row.seats if computer.is_computer(uid)]
            if not seated:
                raise Refusal("computer.none_seated")
            self._unseat(live, seated[-1])
            await self.storage.save_table(live.row)
        else:
            if level not in computer.ORDER or not computer.plays(live.row.game):
                raise Refusal("err.stale")
            most = games.ui(live.row.game).players[1]
            if len(live.row.seats) >= most:
                raise Refusal("err.table_full", n=most)
            await self._seat_computer(live, chat, level)
        self._show_lobby(live, chat)
        return live

    async def _seat_computer(self, live: Live, chat: ChatRow, level: str) -> None:
        uid = computer.next_seat(level, live.row.seats)
        name = computer.name(chat.lang, uid)  # in the chat's language, as it sits down here
        await self._seat(live, await self.storage.touch_user(uid, name, None, None))

    async def _computer_moved(self, table_id: int, deal: object, action: computer.Move) -> None:
        """A computer player's move, thought out for `deal`: made under the chat's lock, like a
        press, unless the deal has moved on meanwhile (stopped, the table closed); at a match,
        through its game's own service."""
        live = self._live.get(table_id)
        if live is None:
            return
        async with self.lock(live.row.chat_id):
            if self._live.get(table_id) is not live or self._position(live) is not deal:
                return
            if live.match is None:
                assert isinstance(deal, TrickDeal) and isinstance(action, Action)
                await self._apply(live, deal, action)
                return
            chat = await self.storage.chat(live.row.chat_id)
            live.note = None
            await self._own[live.row.game].move(live, action, self._deadline(chat), auto=False)
            await self._match_moved(live, chat)

    def _position(self, live: Live) -> object | None:
        """The deal in play a move is made in: the table's own, or its match's."""
        if live.match is not None:
            return self._own[live.row.game].position(live)
        return live.deal

    def _knowledge(self, live: Live, seat: int) -> computer.Seen:
        """What `seat` may know of the deal in play (the engine's view, nothing hidden)."""
        if live.match is not None:
            seen: computer.Seen = self._own[live.row.game].knowledge(live, seat)
            return seen
        assert live.deal is not None
        return seat_knowledge(live.deal, seat)

    async def _seat(self, live: Live, user: UserRow) -> None:
        live.users[user.user_id] = user
        live.row = replace(live.row, seats=(*live.row.seats, user.user_id))
        await self.storage.save_table(live.row)

    async def leave(self, chat_id: int, person: Person, table_id: int | None = None) -> Live:
        """Stand up: in the lobby, or between deals (a deal in play must be finished or stopped)."""
        live = self._table(chat_id, table_id)
        uid = person.user_id
        if uid not in live.row.seats:
            raise Refusal("err.not_seated")
        if live.in_deal and uid in live.deal_seats:  # a pulya (P14): not before its end
            raise Refusal(games.ui(live.row.game).key("err.leave_mid_deal"))
        chat = await self.storage.chat(chat_id)
        self._unseat(live, uid)
        if await self._too_few(live, chat):
            return live
        await self.storage.save_table(live.row)
        if live.row.status == "lobby":
            self._show_lobby(live, chat)
        return live

    def _unseat(self, live: Live, uid: int) -> None:
        """Take a player off the seats (the dealer's place moves with them)."""
        seats = list(live.row.seats)
        index = seats.index(uid)
        seats.remove(uid)
        dealer = live.row.dealer
        if dealer is not None and seats:
            dealer = (dealer - 1) % len(seats) if index <= dealer else dealer
        live.row = replace(
            live.row,
            seats=tuple(seats),
            dealer=dealer,
            away=tuple(u for u in live.row.away if u != uid),
            strikes=tuple((u, n) for u, n in live.row.strikes if u != uid),
            leaving=tuple(u for u in live.row.leaving if u != uid),
        )
        self.presenter.retire(self._hand_slot(live, uid))

    async def _too_few(self, live: Live, chat: ChatRow) -> bool:
        """A table in play that has fewer seats than its game takes, or only computer players
        left (issue 17), closes (True if it did)."""
        if live.row.status != "playing":
            return False
        seats = live.row.seats
        if seats and not computer.people(seats):
            await self._close(live, chat, "computer.closed_no_people")
            return True
        if len(seats) < games.ui(live.row.game).players[0]:
            await self._close(live, chat, "table.closed_too_few")
            return True
        return False

    async def stand_up(self, chat_id: int, user_id: int, *, kicked: bool) -> bool:
        """A player left the group (or an admin stood him up, `kicked`): off the seats now, or
        at the end of the deal he is playing, his moves made for him till then (issue 16).
        False if he was not seated (or is already leaving)."""
        live = self.table_in(chat_id)
        if live is None or user_id not in live.row.seats or user_id in live.row.leaving:
            return False
        chat = await self.storage.chat(live.row.chat_id)
        user = live.users.get(user_id) or await self.storage.user(user_id)
        name = render.name(user.name if user else "?")
        if live.in_deal and user_id in live.deal_seats:
            live.row = replace(live.row, leaving=(*live.row.leaving, user_id))
            await self.storage.save_table(live.row)
            self._arm_timer(live)  # if it is his move, the bot makes it
            key = "seat.kicked_after_deal" if kicked else "seat.left_after_deal"
            text = games.ui(live.row.game).text(chat.lang, key, name=name)  # a match: its end
            await self.presenter.post(chat.chat_id, render.Rendered(text))
            self._last_word(live, chat, user_id, kicked=kicked)
            return True
        self._unseat(live, user_id)
        key = "seat.kicked" if kicked else "seat.left_group"
        await self.presenter.post(chat.chat_id, render.Rendered(t(chat.lang, key, name=name)))
        if await self._too_few(live, chat):
            return True
        await self.storage.save_table(live.row)
        if live.row.status == "lobby":
            self._show_lobby(live, chat)
        return True

    def _last_word(self, live: Live, chat: ChatRow, user_id: int, *, kicked: bool) -> None:
        """A leaving player's control message says why it stops, then is never edited again
        (issue 22: `deliver_hand` skips the players leaving)."""
        user = live.users.get(user_id)
        slot = self._hand_slot(live, user_id)
        if user is not None and not user.blocked and not computer.is_computer(user_id):
            key = "seat.kicked_you" if kicked else "seat.left_you"
            text = games.ui(live.row.game).text(
                pick_language(user.lang), key, group=render.name(chat.title)
            )
            self.presenter.show(slot, user_id, render.Rendered(text))
        self.presenter.retire(slot)

    async def _stand_up_leavers(self, live: Live, chat: ChatRow) -> bool:
        """At a deal's end: players leaving stand up now (True if the table closed for it)."""
        if not live.row.leaving:
            return False
        for uid in live.row.leaving:
            if uid in live.row.seats:
                self._unseat(live, uid)
        live.row = replace(live.row, leaving=())
        if await self._too_few(live, chat):
            return True
        await self.storage.save_table(live.row)
        return False

    async def _table_exists(self, chat_id: int, lang: str) -> Refusal:
        """/newgame while a table is open: who can stop it, and where it is."""
        live = self.table_in(chat_id)
        if live is None:
            return Refusal("err.table_exists")
        runner = self._runner(live)
        user = live.users.get(runner) if runner is not None else None
        if user is None and runner is not None:  # a creator who never started the bot
            user = await self.storage.user(runner)
        return Refusal(
            "seat.table_open",
            game=games.ui(live.row.game).title(lang),
            name=render.name(user.name if user else "?"),
        )

    def _runner(self, live: Live) -> int | None:
        """Who runs the table: its creator, or while he is not seated the first seated player
        (issue 16: a table does not stall when its creator stands up)."""
        people = computer.people(live.row.seats)
        if live.row.creator_id in live.row.seats or not people:
            return live.row.creator_id
        return people[0]

    def _may_run(self, live: Live, user_id: int, is_admin: bool) -> bool:
        return is_admin or user_id in (live.row.creator_id, self._runner(live))

    async def start(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int | None = None
    ) -> None:
        """Start play: only the table's creator or a chat admin, with as many players as the
        game takes (F1, K1, SK1)."""
        live = self._table(chat_id, table_id)
        if live.row.status != "lobby":
            raise Refusal("err.already_started")
        if not self._may_run(live, person.user_id, is_admin):
            raise Refusal("err.only_creator")
        (low, high), n = games.ui(live.row.game).players, len(live.row.seats)
        if not low <= n <= high:
            raise Refusal("err.wrong_players", low=low, high=high)
        chat = await self.storage.chat(chat_id)
        own = self._own.get(live.row.game)
        if own is None:
            cls = games.deal_class(live.row.game)
            rules = games.rules_for(live.row.game, chat.rules)
            if cls.deck_size_for(rules, n) < cls.HAND_SIZE * n + 1:
                raise Refusal("err.deck_too_small")
        await self._check_dealt_in(live, chat)
        live.row = replace(live.row, status="playing")
        if own is not None:
            await own.start(live, self._deadline(chat))
            self._arm_timer(live)
        else:
            await self._new_deal(live, dealer=self.rng.randrange(len(live.row.seats)))  # F2
        # Messages show only what is stored: a bot killed in between restarts from the lobby.
        self._show_lobby(live, chat, closed="lobby.started")
        self.presenter.retire(f"lobby:{live.row.table_id}")

    async def switch_game(
        self, chat_id: int, person: Person, is_admin: bool, table_id: int | None = None
    ) -> None:
        """The lobby's game button: the creator (or an admin) moves to the next game."""
        live = self._table(chat_id, table_id)
        if live.row.status != "lobby":
            raise Refusal("err.already_started")
        if not self._may_run(live, person.user_id, is_admin):
            raise Refusal("err.only_creator_game")
        live.row = replace(live.row, game=games.next_game(live.row.game))
        await self.storage.save_table(live.row)
        self._show_lobby(live, await self.storage.chat(chat_id))

    async def stop(self, chat_id: int, person: Person, is_admin: bool) -> None:
        """Stop the chat's table: a deal in play is voided and every chip of it returned."""
        live = self._table(chat_id, None)
        if not self._may_run(live, person.user_id, is_admin) and not self._stuck(live, person):
            raise Refusal("err.only_creator_stop")
        chat = await self.storage.chat(chat_id)
        await self._close(live, chat, "table.stopped")

    def _stuck(self, live: Live, person: Person) -> bool:
        """Whether a player of the deal in play may stop it: another of its players is away for
        good (left the group, was stood up, blocked the bot), so it can only be played out by
        the bot for him (a pulya, P14, is then settled as it stands)."""
        players = live.deal_seats if live.in_deal else ()
        return person.user_id in players and any(
            uid in live.row.leaving or live.users[uid].blocked
            for uid in players
            if uid != person.user_id
        )

    async def _close(
        self, live: Live, chat: ChatRow, reason: str, *, announce: bool = True
    ) -> None:
        self._cancel_timer(live.row.table_id)
        self.computers.cancel(live.row.table_id)
        own = self._own.get(live.row.game) if live.match is not None else None
        voided = own is None and live.in_deal and live.deal_id is not None
        live.row = replace(live.row, status="closed", deadline=None)
        if own is not None:
            await own.stop(live)  # its deal in play voided, the match settled as it stands
        elif voided:
            assert live.deal_id is not None
            await self.storage.void_deal(live.row, live.deal_id)
        else:
            await self.storage.save_table(live.row)
        del self._live[live.row.table_id]
        if own is not None:
            pass  # the match's service has shown its end
        elif live.deal is None:
            self._show_lobby(live, chat, closed=reason if not announce else "lobby.closed")
        elif live.in_deal:
            self._show_deal(live, chat, closing=True)
        else:  # between deals: the last result loses its "next deal" button
            await self._post_result(live, chat, offer_next=False)
        table_id = live.row.table_id
        self.presenter.retire(
            f"lobby:{table_id}", f"table:{table_id}:", f"hand:{table_id}:", f"result:{table_id}:"
        )
        if not announce:
            return
        said = games.ui(live.row.game).text(chat.lang, reason)  # in the game's own words
        text = said + ("\n" + t(chat.lang, "table.voided") if voided else "")
        deals, results = await self.storage.session(table_id)
        if deals:  # issue 16: the evening's result and who pays whom, in the same message
            names = distinct((await self.storage.users(results)).values())
            ui = games.ui(live.row.game)
            text += "\n\n" + summary.session_summary(chat.lang, ui, deals, results, names)
        await self.presenter.post(chat.chat_id, render.Rendered(text))

    async def repost(self, chat_id: int) -> None:
        """/pulya: the score of the chat's match (a Preferans sheet) posted again at the bottom
        of the group; with no match in play, the final score of the last one closed here."""
        chat_id = self.storage.moves.get(chat_id, chat_id)  # (a migrated group)
        live = self._open_table(chat_id)
        if live is not None and live.match is not None:
            await self._own[live.row.game].repost(live)
            return
        closed = await self.storage.last_closed_table(chat_id, list(self._own))
        if closed is None or not await self._own[closed.game].repost_closed(closed):
            raise Refusal("err.no_table" if live is None else "err.no_match")

    def match_standing(self, chat_id: int, lang: str) -> str | None:
        """For /balance and /top: where the players of the chat's match in play stand (a pulya's
        settlement were it closed now), None if no match is in play."""
        live = self._open_table(self.storage.moves.get(chat_id, chat_id))
        if live is None or live.match is None:
            return None
        return self._own[live.row.game].standing(live, lang)

    def _open_table(self, chat_id: int) -> Live | None:
        return next((lv for lv in self._live.values() if lv.row.chat_id == chat_id), None)

    def _table(self, chat_id: int, table_id: int | None) -> Live:
        chat_id = self.storage.moves.get(chat_id, chat_id)  # a press in the old group
        live = self._live.get(table_id) if table_id is not None else None
        if live is None and table_id is None:
            live = self._open_table(chat_id)
        if live is None or live.row.chat_id != chat_id:
            raise Refusal("err.no_table" if table_id is None else "err.stale")
        return live

    # ---- deals ----------------------------------------------------------------------------------

    def _sits_out(self, live: Live, user_id: int) -> bool:
        """Issue 16: away, unreachable or leaving players are not dealt in (no ante)."""
        user = live.users.get(user_id)
        return (
            user_id in live.row.away
            or user_id in live.row.leaving
            or (user is not None and user.blocked)
        )

    async def _dealt_in(self, live: Live, chat: ChatRow) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seated players the next deal deals to, and those it leaves out for want of chips:
        with a starting bankroll (F15) a player must hold what the game asks (SK13: two banks)."""
        seats = tuple(uid for uid in live.row.seats if not self._sits_out(live, uid))
        start = settings_menu.bankroll(chat)
        if not start:
            return seats, ()
        need = games.ui(live.row.game).bankroll_need(
            chat.ante, chat.pot_of(live.row.game), len(seats)
        )
        held = {user.user_id: bal for user, bal in await self.storage.balances(chat.chat_id)}
        short = tuple(uid for uid in seats if start + held.get(uid, 0) < need)
        return tuple(uid for uid in seats if uid not in short), short

    async def _check_dealt_in(self, live: Live, chat: ChatRow) -> None:
        """Refuse a deal that too few of the seated players could be dealt into (a match keeps
        its players to its end: every seated one)."""
        ui = games.ui(live.row.game)
        fewest = len(live.row.seats) if ui.match else ui.players[0]
        seats, short = await self._dealt_in(live, chat)
        if seats and not computer.people(seats):  # issue 17: computers play people, not alone
            raise Refusal("computer.no_people")
        if len(seats) < fewest:
            if short:
                names = ", ".join(render.name(live.users[uid].name) for uid in short)
                raise Refusal("bankroll.too_few", low=fewest, names=names)
            raise Refusal("seat.too_few_dealt", low=fewest)

    async def _new_deal(self, live: Live, dealer: int, *, redeal: bool = False) -> None:
        """Deal: shuffle (the only chance), antes (F3, SK12), the cards and the turn-up (F4).

        `dealer` is a place in the table's seats (the next one dealt in deals if he sits out);
        an F8 redeal deals to the same players as the deal it replaces, the same dealer, whoever
        sat down or went away meanwhile (issue 16: a redeal is not a new deal)."""
        # The pot as stored now: a row read before the last step (F8's antes) would be stale.
        chat = await self.storage.chat(live.row.chat_id)
        game = live.row.game
        cls = games.deal_class(game)
        rules = games.rules_for(game, chat.rules)
        ante, money = games.ui(game).deal_money(chat.rules, chat.ante)  # N1, N5: c and u
        live.users.update(await self.storage.users(live.row.seats))
        if redeal and live.deal is not None:
            seats, dealt_dealer = live.deal_seats, live.deal.dealer
            sitting_out, short = live.sitting_out, live.short
        else:
            everyone = live.row.seats
            seats, short = await self._dealt_in(live, chat)
            dealer_uid = next(
                everyone[(dealer + k) % len(everyone)]
                for k in range(len(everyone))
                if everyone[(dealer + k) % len(everyone)] in seats
            )
            dealer, dealt_dealer = everyone.index(dealer_uid), seats.index(dealer_uid)
            sitting_out = tuple(uid for uid in everyone if uid not in seats)
        names = labels([live.users[uid].name for uid in seats])
        deck = shuffled(make_deck(cls.deck_size_for(rules, len(seats))), self.rng)
        deal, events = cls.create(
            rules, names, dealt_dealer, ante, chat.pot_of(game), deck,
            pot_has_penalty=chat.penalty_in(game), redeal=redeal, **money,
        )  # fmt: skip
        live.row = replace(
            live.row, dealer=dealer, deal_no=live.row.deal_no + 1, deadline=self._deadline(chat)
        )
        live.deal, live.deal_seats, live.selection, live.note = deal, seats, {}, None
        live.sitting_out, live.short = sitting_out, short
        live.mover, live.auto = None, {}
        live.deal_id = await self.storage.start_deal(
            live.row, deal.to_record(), self._movements(live, events)
        )
        self._show_deal(live, chat)
        self._arm_timer(live)

    async def act(self, user_id: int, press: callbacks.Press) -> None:
        """A player pressed an action button in the private chat."""
        if self._in_match(press):
            async with self._match_pressed(user_id, press) as (live, own):
                chat = await self.storage.chat(live.row.chat_id)
                self._back(live, user_id)
                await own.act(live, user_id, press, self._deadline(chat))
                await self._match_moved(live, chat)
            return
        async with self._pressed(user_id, press) as (live, deal, seat):
            action = callbacks.parse_action(seat, press.code)
            await self._apply(live, deal, action)

    def _in_match(self, press: callbacks.Press) -> bool:
        """Whether a press is at a table its game's own service plays (a match of many deals)."""
        live = self._live.get(press.table_id)
        return live is not None and live.match is not None

    @asynccontextmanager
    async def _match_pressed(
        self, user_id: int, press: callbacks.Press
    ) -> AsyncIterator[tuple[Live, MatchTables]]:
        """Under the lock: a match's live table and its service, the presser back from away."""
        live = self._live.get(press.table_id)
        if live is None:
            raise Refusal("err.stale")
        async with self.lock(live.row.chat_id):
            if self._live.get(press.table_id) is not live or live.match is None:
                raise Refusal("err.stale")
            await self._returns(live, user_id)
            yield live, self._own[live.row.game]

    async def _match_moved(self, live: Live, chat: ChatRow) -> None:
        """After a step of a match: closed when it is over (P14), else the next move's timer."""
        if not live.in_deal:
            await self._close(live, chat, "table.match_over")
        else:
            self._arm_timer(live)

    @asynccontextmanager
    async def _pressed(
        self, user_id: int, press: callbacks.Press
    ) -> AsyncIterator[tuple[Live, TrickDeal, int]]:
        """Under the table's lock: the live table, its deal and the presser's seat, or Refusal
        when the button is from another table, deal or step, or the presser does not play."""
        live = self._live.get(press.table_id)
        if live is None:
            raise Refusal("err.stale")
        async with self.lock(live.row.chat_id):
            if self._live.get(press.table_id) is not live:
                raise Refusal("err.stale")
            await self._returns(live, user_id)
            deal = self._current(live, press)
            if user_id not in live.deal_seats:
                raise Refusal("err.not_player")
            yield live, deal, live.deal_seats.index(user_id)

    async def toggle(self, user_id: int, press: callbacks.Press) -> None:
        """F9: a player marks cards to discard before confirming (nothing is applied yet)."""
        if self._in_match(press):
            async with self._match_pressed(user_id, press) as (live, own):
                await own.toggle(live, user_id, press)
                self._back(live, user_id)
                self._arm_timer(live)
            return
        async with self._pressed(user_id, press) as (live, deal, seat):
            buying = any(a.do is Do.DISCARD for a in deal.legal_actions(seat))  # F9, SK6
            if not buying:
                raise Refusal("err.not_your_turn")
            chosen = callbacks.parse_cards_code(press.code)
            if any(card not in deal.hands[seat] for card in chosen):
                raise Refusal("err.stale")
            live.selection[seat] = chosen
            self._back(live, user_id)
            self._arm_timer(live)
            chat = await self.storage.chat(live.row.chat_id)
            self._show_hand(live, chat, seat)

    def _current(self, live: Live, press: callbacks.Press) -> TrickDeal:
        deal = live.deal
        timely = press.step == live.step or (
            press.step == callbacks.ANY_STEP and press.code == callbacks.LOOK
        )
        if deal is None or deal.finished or press.deal_no != live.row.deal_no or not timely:
            raise Refusal("err.stale")
        return deal

    async def _apply(
        self,
        live: Live,
        deal: TrickDeal,
        action: Action,
        *,
        note: tuple[str, str] | None = None,
        by_player: bool = True,
    ) -> None:
        try:
            new, events = deal.apply(action)
        except IllegalAction as exc:
            raise Refusal("err.illegal", rule=exc.rule) from exc
        while (forced := new.forced_move()) is not None:  # issue 22: stored with this step
            new, more = new.apply(forced)
            events += more
        chat = await self.storage.chat(live.row.chat_id)
        before = live.row  # issue 25: a step whose write fails leaves the table as it was
        if by_player:
            self._back(live, live.deal_seats[action.seat])
            live.auto.pop(action.seat, None)
        elif action.do is not Do.LOOK:
            live.auto[action.seat] = action  # his control message says what was played
        if action.do is not Do.LOOK:
            deadline = self._idle_deadline() if new.finished else self._deadline(chat)
            live.row = replace(live.row, deadline=deadline)
        assert live.deal_id is not None
        try:
            await self.storage.save_step(
                live.row,
                live.deal_id,
                new.to_record(),
                self._movements(live, events),
                finished=new.finished,
                pot_has_penalty=new.pot_has_penalty if new.finished else None,
            )
        except StorageUnavailable:
            live.row = before
            raise
        live.deal = new
        live.selection.pop(action.seat, None)
        if action.do is not Do.LOOK:
            live.note = note
        if action.do is Do.LOOK:
            self._show_hand(live, chat, action.seat)
            self._arm_timer(live)
            return
        self._arm_timer(live)
        self._show_deal(live, chat)
        if new.finished:
            await self._deal_over(live, chat)

    async def _deal_over(self, live: Live, chat: ChatRow) -> None:
        deal = live.deal
        assert deal is not None
        if deal.needs_redeal:  # F8: the same dealer redeals at once, no ante
            await self._post_result(live, chat, offer_next=False)
            if all(self._plays_itself(live, uid) for uid in computer.people(live.deal_seats)):
                # everyone is away: the bot would pass for them and redeal forever
                await self._close(live, chat, "table.closed_away")
                return
            self._retire_deal(live, live.row.deal_no)
            await self._new_deal(live, live.row.dealer or 0, redeal=True)
            return
        if await self._stand_up_leavers(live, chat):  # issue 16: at the end of the deal
            return
        await self._post_result(live, chat, offer_next=True)

    async def next_deal(self, chat_id: int, user_id: int, press: callbacks.Press) -> None:
        """Deal the next hand (the next dealer, F2) when a player at the table asks."""
        async with self.lock(chat_id):
            live = self._table(chat_id, press.table_id)
            if live.deal is None or not live.deal.finished or press.deal_no != live.row.deal_no:
                raise Refusal("err.stale")
            if user_id not in live.row.seats:
                raise Refusal("err.not_player")
            self._back(live, user_id)  # issue 16: pressing anything brings him back
            chat = await self.storage.chat(chat_id)
            await self._check_dealt_in(live, chat)
            result_slot = f"result:{live.row.table_id}:{live.row.deal_no}"
            result = await self._result(live, chat, offer_next=False)
            previous = live.row.deal_no
            await self._new_deal(live, self._next_dealer(live, live.deal))
            self.presenter.show(result_slot, chat_id, result)  # its button goes once stored
            self._retire_deal(live, previous)

    def _next_dealer(self, live: Live, deal: TrickDeal) -> int:
        """F2: the seat after the last dealer; SK3: the last declarer, if still seated."""
        seats = live.row.seats
        nominee = live.deal_seats[deal.next_dealer]
        if deal.next_dealer != (deal.dealer + 1) % deal.n and nominee in seats:
            return seats.index(nominee)
        previous = live.deal_seats[deal.dealer]
        if previous in seats:
            return (seats.index(previous) + 1) % len(seats)
        return (live.row.dealer or 0) % len(seats)

    def _movements(self, live: Live, events: Sequence[Event]) -> list[Movement]:
        return [
            Movement(live.deal_seats[e.seat], e.amount, e.reason.value)
            for e in events
            if isinstance(e, ChipsMoved) and e.amount
        ]

    # ---- timers ---------------------------------------------------------------------------------

    def _deadline(self, chat: ChatRow) -> float | None:
        return self.clock() + chat.turn_timeout if chat.turn_timeout > 0 else None

    def _idle_deadline(self) -> float | None:
        """When a lobby nobody starts, or a table nobody deals on after a result, closes."""
        return self.clock() + self.lobby_timeout if self.lobby_timeout > 0 else None

    def _arm_timer(self, live: Live) -> None:
        """One timer per table: the lobby's expiry, the current move (issue 4), or the expiry
        of a table waiting for its next deal."""
        table_id = live.row.table_id
        self._cancel_timer(table_id)
        delay: float | None = None
        if live.row.status == "lobby" or (live.deal is not None and live.deal.finished):
            if live.row.deadline is not None:
                delay = live.row.deadline - self.clock()
        elif live.to_act is not None:
            seat = live.to_act
            mover = live.deal_seats[seat]
            if computer.is_computer(mover):  # issue 17: it thinks now, moves after a pause
                know = functools.partial(self._knowledge, live, seat)
                self.computers.schedule(table_id, self._position(live), mover, know)
                return
            if self._plays_itself(live, mover):
                delay = self.away_delay
            elif live.row.deadline is not None:
                delay = live.row.deadline - self.clock()
        self.computers.cancel(table_id)  # no computer player's move is due now
        if delay is None:
            return
        key = (live.row.deal_no, live.step)
        self._timers[table_id] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self._fire, table_id, key
        )

    def _fire(self, table_id: int, key: tuple[int, int]) -> None:
        task = asyncio.create_task(self._timer_fired(table_id, key), name=f"timer {table_id}")
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def close(self) -> None:
        """Stop every timer (at shutdown: the restarted bot re-arms them from SQLite)."""
        for table_id in list(self._timers):
            self._cancel_timer(table_id)
        await asyncio.gather(*self._firing, *self._writes, return_exceptions=True)
        await self.computers.close()

    def _plays_itself(self, live: Live, user_id: int) -> bool:
        """Away players and players the bot cannot reach move automatically, without waiting."""
        return (
            user_id in live.row.away or user_id in live.row.leaving or live.users[user_id].blocked
        )

    def _cancel_timer(self, table_id: int) -> None:
        timer = self._timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()

    async def _timer_fired(self, table_id: int, key: tuple[int, int]) -> None:
        try:
            await self._time_out(table_id, key)
        except StorageUnavailable as exc:  # issue 25: tried again until the database takes it
            log.warning("table %s: time-out not saved (%s); trying again", table_id, exc)
            self._timers[table_id] = asyncio.get_running_loop().call_later(
                RETRY_AFTER, self._fire, table_id, key
            )
        except Exception:  # nobody awaits a timer: say so, or the table would stall silently
            log.exception("table %s: the timer failed", table_id)

    async def _time_out(self, table_id: int, key: tuple[int, int]) -> None:
        live = self._live.get(table_id)
        if live is None:
            return
        async with self.lock(live.row.chat_id):
            if self._live.get(table_id) is not live:
                return
            deal = live.deal
            if live.row.status == "lobby":  # nobody started the game
                chat = await self.storage.chat(live.row.chat_id)
                await self._close(live, chat, "lobby.expired", announce=False)
                return
            if live.match is not None:
                await self._match_time_out(live, key)
                return
            if deal is None or (live.row.deal_no, live.step) != key:
                return  # a timer of an earlier move
            if deal.finished:  # nobody pressed "next deal"
                chat = await self.storage.chat(live.row.chat_id)
                await self._close(live, chat, "table.closed_idle")
                return
            if deal.to_act is None or computer.is_computer(live.deal_seats[deal.to_act]):
                return  # a computer player's move is scheduled on its own (issue 17)
            user_id = live.deal_seats[deal.to_act]
            # issue 17: an away player is played by the rules level, a late one passes safely
            stood_in = self._plays_itself(live, user_id)
            seen = seat_knowledge(deal, deal.to_act) if stood_in else None
            action = default_action(deal) if seen is None else computer.stand_in(seen)
            if action is None:
                return
            note = self._count_time_out(live, user_id)  # None when he was stood in for
            await self._apply(live, deal, action, note=note, by_player=False)
            if note is not None:
                await self._tell_timed_out(live, user_id, action)

    def _count_time_out(self, live: Live, user_id: int) -> tuple[str, str] | None:
        """A real time-out (not the bot moving for an away player) is counted, the second in a
        row marks the player away (issue 4); the table's note saying so."""
        if self._plays_itself(live, user_id):
            return None
        strikes = dict(live.row.strikes)
        strikes[user_id] = strikes.get(user_id, 0) + 1
        away = live.row.away
        if strikes[user_id] >= AWAY_AFTER and user_id not in away:
            away = (*away, user_id)
        live.row = replace(live.row, strikes=tuple(strikes.items()), away=away)
        key_word = "table.now_away" if user_id in away else "table.timed_out"
        return key_word, live.users[user_id].name

    async def _match_time_out(self, live: Live, key: tuple[int, int]) -> None:
        """A match's move made for the player due: his game's safe default for a late player,
        the rules level for an away one (issue 17)."""
        seat = live.to_act
        if seat is None or (live.row.deal_no, live.step) != key:
            return  # a timer of an earlier move
        user_id = live.deal_seats[seat]
        if computer.is_computer(user_id):
            return  # a computer player's move is scheduled on its own (issue 17)
        own = self._own[live.row.game]
        stood_in = self._plays_itself(live, user_id)
        action = computer.stand_in(own.knowledge(live, seat)) if stood_in else own.default(live)
        if action is None:
            return
        live.note = self._count_time_out(live, user_id)
        chat = await self.storage.chat(live.row.chat_id)
        await own.move(live, action, self._deadline(chat), auto=True)
        if live.note is not None:
            await self._tell_timed_out(live, user_id, action)
        await self._match_moved(live, chat)

    async def _tell_timed_out(self, live: Live, user_id: int, action: Any) -> None:
        """A private line (a new message: it notifies) to a player whose time ran out: what
        the bot played for him, and whether it goes on playing for him."""
        user = live.users[user_id]
        if user.blocked:
            return
        lang = pick_language(user.lang)
        chat = await self.storage.chat(live.row.chat_id)
        text = turns.timed_out_message(
            lang, live.row.game, action, render.name(chat.title), away=user_id in live.row.away
        )
        await self.presenter.post(user_id, render.Rendered(text))

    # ---- what the messages show -----------------------------------------------------------------

    def _names(self, live: Live) -> list[str]:
        return list(live.deal.players) if live.deal is not None else []

    def _show_lobby(self, live: Live, chat: ChatRow, closed: str | None = None) -> None:
        names = [live.users[uid].name for uid in live.row.seats if uid in live.users]
        creator = live.users.get(live.row.creator_id)
        content = render.lobby(
            chat.lang,
            live.row.table_id,
            live.row.game,
            names,
            creator.name if creator else "?",
            chat.ante,
            self.bot_username,
            players_range=games.ui(live.row.game).players,
            closed=closed,
            rules=chat.rules,
            computers=computer.plays(live.row.game),
            private=_practice(chat.chat_id),
        )
        self.presenter.show(f"lobby:{live.row.table_id}", chat.chat_id, content)

    def _show_deal(self, live: Live, chat: ChatRow, *, closing: bool = False) -> None:
        deal = live.deal
        assert deal is not None
        mover = None if closing or deal.finished else deal.to_act
        ping = mover if mover != live.mover else None  # the move passed to another player
        live.mover = mover
        content = render.table_message(
            chat.lang,
            table_view(deal),
            self._names(live),
            live.row.deal_no,
            deal.redeal,
            self.bot_username,
            note=self._note(chat.lang, live),
            closed=closing,
            private=_practice(chat.chat_id),
        )
        self.presenter.show(self._table_slot(live), chat.chat_id, content)
        for seat in range(deal.n):
            self._show_hand(live, chat, seat, closing=closing, ping=seat == ping)

    def _note(self, lang: str, live: Live) -> str | None:
        lines = []
        if live.note is not None:
            key, who = live.note
            lines.append(t(lang, key, name=render.name(who)))
        out = [
            live.users[uid].name
            for uid in live.sitting_out
            if uid in live.users and uid not in live.short
        ]
        if out:  # issue 16: who was not dealt in, and how to come back
            lines.append(t(lang, "seat.sitting_out", names=", ".join(map(render.name, out))))
        short = [live.users[uid].name for uid in live.short if uid in live.users]
        if short:  # F15: the group is told who the bankroll left out
            lines.append(t(lang, "bankroll.sitting_out", names=", ".join(map(render.name, short))))
        return "\n".join(lines) or None

    async def _returns(self, live: Live, user_id: int) -> None:
        """An away player pressed one of his buttons (even an outdated one): he is back, and
        from now on his moves wait for him again (issue 4)."""
        if user_id in live.row.away and user_id in live.row.seats:  # dealt in or sitting out
            self._back(live, user_id)
            await self.storage.save_table(live.row)
            self._arm_timer(live)

    def _back(self, live: Live, user_id: int) -> None:
        """A player pressed a button: no longer away, no time-outs counted."""
        if user_id in live.row.away or any(uid == user_id for uid, _ in live.row.strikes):
            live.row = replace(
                live.row,
                away=tuple(uid for uid in live.row.away if uid != user_id),
                strikes=tuple((uid, n) for uid, n in live.row.strikes if uid != user_id),
            )

    def _retire_deal(self, live: Live, deal_no: int) -> None:
        """Deal `deal_no`'s group messages (the table, the result) have shown their last: the
        presenter stops tracking them once they show it. (A player's private control message
        stays: the next deal edits it, so a deal posts no new private messages.)"""
        deal = f"{live.row.table_id}:{deal_no}"
        self.presenter.retire(f"table:{deal}", f"result:{deal}")

    def _table_slot(self, live: Live) -> str:
        return f"table:{live.row.table_id}:{live.row.deal_no}"

    def _show_hand(
        self,
        live: Live,
        chat: ChatRow,
        seat: int,
        *,
        closing: bool = False,
        ping: bool = False,
        anew: bool = False,
    ) -> None:
        """Show a player his control message; `ping`: the move just passed to him, so it comes
        as a new message that notifies him (unless he switched pings off, or is away); `anew`:
        posted again at the bottom of his chat in any case (the old one deleted)."""
        deal = live.deal
        assert deal is not None
        user = live.users[live.deal_seats[seat]]
        if user.blocked or computer.is_computer(user.user_id):  # issue 17: never a DM to one
            return
        lang = pick_language(user.lang)
        view = seat_view(deal, seat)
        if closing:
            view = replace(view, legal=())
        content = render.hand_message(
            lang,
            view,
            self._names(live),
            live.row.table_id,
            live.row.deal_no,
            live.step,
            chat.title,
            live.selection.get(seat, ()),
            closed=closing,
            beside_table=_practice(chat.chat_id),  # issue 17: the table is in the same chat
        )
        moving = not closing and not deal.finished and deal.to_act == seat
        self.deliver_hand(live, seat, content, moving=moving, ping=ping, anew=anew)

    def deliver_hand(
        self, live: Live, seat: int, content: render.Rendered, *, moving: bool, ping: bool,
        anew: bool = False,
    ) -> None:  # fmt: skip
        """Send a player's control message of any game: with what the bot last played for him
        and, when he is to move, his time left; a ping (the move just passed to him) or `anew`
        post it again at the bottom of his chat (see `_show_hand`); never one to a computer
        player (issue 17)."""
        user = live.users[live.deal_seats[seat]]
        if computer.is_computer(user.user_id) or user.user_id in live.row.leaving:
            return  # (a player leaving has had the last word, `_last_word`)
        lang = pick_language(user.lang)
        auto = live.auto.get(seat)
        top = [turns.auto_line(lang, live.row.game, auto)] if auto is not None else []
        bottom: list[str] = []
        away = self._plays_itself(live, user.user_id)
        if moving and not away and live.row.deadline is not None:
            bottom.append(turns.timer_line(lang, live.row.deadline - self.clock()))
        ping = ping and user.pings and not away
        if ping and not user.pinged:  # issue 22: the first ping says how to turn them off
            bottom.insert(0, t(lang, "timer.pings_hint"))  # (the timer stays the last line)
            live.users[user.user_id] = replace(user, pinged=True)
            write = asyncio.create_task(self.storage.set_user(user.user_id, pinged=1))
            self._writes.add(write)
            write.add_done_callback(self._writes.discard)
        content = turns.with_lines(content, top, bottom)
        self.presenter.show(
            self._hand_slot(live, user.user_id),
            user.user_id,
            content,
            renew=anew or ping,
            if_spare=not anew,  # a ping could as well be an edit; a player's request cannot
        )

    def _hand_slot(self, live: Live, user_id: int) -> str:
        """A player's control message at a table: one for all his deals there (issue 6: new
        messages count against Telegram's 30 a second, edits do not)."""
        return f"hand:{live.row.table_id}:{user_id}"

    async def _result(self, live: Live, chat: ChatRow, *, offer_next: bool) -> render.Rendered:
        deal = live.deal
        assert deal is not None
        balances = {
            uid: bal
            for user, bal in await self.storage.balances(chat.chat_id)
            for uid in [user.user_id]
        }
        by_seat = {seat: balances.get(uid, 0) for seat, uid in enumerate(live.deal_seats)}
        return render.result_message(
            chat.lang,
            table_view(deal),
            self._names(live),
            live.row.deal_no,
            by_seat,
            live.row.table_id,
            pot_has_penalty=deal.pot_has_penalty,
            offer_next=offer_next,
            record=deal.to_record(),
        )

    async def _post_result(self, live: Live, chat: ChatRow, *, offer_next: bool) -> None:
        self.presenter.show(
            f"result:{live.row.table_id}:{live.row.deal_no}",
            chat.chat_id,
            await self._result(live, chat, offer_next=offer_next),
        )

    async def _refresh(self, live: Live) -> None:
        chat = await self.storage.chat(live.row.chat_id)
        if live.row.status == "lobby":
            self._show_lobby(live, chat)
        elif live.match is not None:
            self._own[live.row.game].show(live, chat)
        elif live.deal is not None:
            self._show_deal(live, chat)
            if live.deal.finished:  # the bot may have died before the deal's end was shown
                await self._deal_over(live, chat)  # result (with "next deal"), or F8's redeal

    async def reshow_hand(self, user_id: int) -> bool:
        """Post the user's control messages (one per table he plays at) again at the bottom of
        the private chat; the old ones are deleted, so no copy keeps live-looking buttons."""
        shown = False
        for live in list(self._live.values()):
            if live.in_deal and user_id in live.deal_seats:
                chat = await self.storage.chat(live.row.chat_id)
                if live.match is not None:
                    self._own[live.row.game].show(live, chat, anew=user_id)
                else:
                    self._show_hand(live, chat, live.deal_seats.index(user_id), anew=True)
                shown = True
        return shown

    async def dm_forbidden(self, user_id: int) -> None:
        """A player blocked the bot (or never started it): tell the group, keep the deal moving."""
        if not await self.storage.mark_blocked(user_id):
            return  # unknown, or told already (a 403 and my_chat_member may come together)
        for live in list(self._live.values()):
            if user_id in live.users:
                user = replace(live.users[user_id], blocked=True)
                live.users[user_id] = user
                self._arm_timer(live)  # if it is their move, the bot makes it
                chat = await self.storage.chat(live.row.chat_id)
                link = render.deep_link(self.bot_username, "hand")
                await self.presenter.post(
                    chat.chat_id,
                    render.Rendered(
                        t(chat.lang, "table.dm_blocked", name=render.name(user.name), link=link)
                    ),
                )

    # ---- seasons (issue 16) -------------------------------------------------------------------

    async def new_season(self, chat_id: int, closed: int) -> dict[int, int]:
        """Archive the chat's balances and start from zero (no table may be open: its pot and
        deal belong to the season being closed). Refusal when pressed twice or too late."""
        if self.table_in(chat_id) is not None:
            raise Refusal("season.table_open")
        archived = await self.storage.new_season(self.storage.moves.get(chat_id, chat_id), closed)
        if archived is None:
            raise Refusal("err.stale")
        return archived

    # ---- a group that became a supergroup, a group that removed the bot (issue 11) -------------

    async def migrate(self, old_id: int, new_id: int, title: str | None = None) -> None:
        """Group `old_id` became supergroup `new_id`: move its chips, history and open table
        there (one transaction), and show the table in the supergroup; the deal goes on.
        Idempotent: the service messages and a ChatMigrated error may each come, twice."""
        self.presenter.moves[old_id] = new_id  # from now on, send there
        old_lock = self._locks.setdefault(old_id, asyncio.Lock())
        async with old_lock, self._locks.setdefault(new_id, asyncio.Lock()):
            if self.storage.moves.get(old_id) == new_id:
                return
            moving = self.table_in(old_id)
            newer = self.table_in(new_id)
            if moving is not None and newer is not None:  # a chat has one open table: the
                chat = await self.storage.chat(new_id)  # group's goes on, the newer one closes
                await self._close(newer, chat, "table.stopped")
            await self.storage.migrate_chat(old_id, new_id, title)
            log.info("chat %s moved to supergroup %s", old_id, new_id)
            if moving is not None:
                moving.row = replace(moving.row, chat_id=new_id)
                await self._refresh(moving)

    async def removed(self, chat_id: int) -> None:
        """The bot was removed from a group or may no longer write there: a deal in play is
        voided with every chip of it returned and the table closed; balances stay."""
        if chat_id in self.storage.moves or chat_id in self.presenter.moves:
            return  # the old id of a group that became a supergroup: nothing was removed
        async with self.lock(chat_id):
            live = self.table_in(chat_id)
            if live is None:
                return
            log.info(
                "chat %s: the bot cannot write there; table %s closed", chat_id, live.row.table_id
            )
            chat = await self.storage.chat(chat_id)
            await self._close(live, chat, "lobby.closed", announce=False)
