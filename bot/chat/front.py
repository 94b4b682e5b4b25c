"""The chat's front end for a table's messages, registered with the host like any front end
(`GameService.fronts`): told what each step shows (`shown`), it draws the group's table message
and every player's control message from the deal's screens with the game's chat drawing
(`ChatDrawing`, registered beside its kind), a result and a sheet, adds the ways into the
table's other front ends below the table's current message and the chat's own lines to a
control message (what the bot last played for him, his time left, the pings' hint) with its turn
ping, and posts them through the presenter; and the line telling a player his time ran out. The
host knows no front end's buttons; a front end beside the chat adds its way in (`ways_in`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from locales import pick_language, t

from .. import computer, games
from ..format import name
from ..games.base import (
    ChatDrawing,
    DealRetired,
    DealShown,
    GameKind,
    ResultShown,
    SheetShown,
    Shown,
)
from ..names import distinct
from ..presenter import Presenter
from ..storage import ChatRow, Storage, TableRow
from ..table import seating
from ..table.live import OpenTable
from ..view import slots
from ..view.message import Button, Rendered, deep_link
from . import evening, turns

# A way into a table's other front end: the buttons that open it at table `table_id`, worded in
# `lang`, on a message in a private chat (True) or a group's (bot/web/opening.py: the Mini App).
WayIn = Callable[[int, str, bool], Sequence[Button]]


class ChatFront:
    """A table's messages in its chat and its players' private chats."""

    def __init__(
        self,
        presenter: Presenter,
        storage: Storage,
        clock: Callable[[], float],
        kind: Callable[[OpenTable], GameKind],
        bot_username: str,
    ) -> None:
        self.presenter = presenter
        self.storage = storage
        self.clock = clock
        self.kind = kind  # the kind a table is played at, which gives its screens
        self.bot_username = bot_username
        self.ways_in: list[WayIn] = []
        self._writes: set[asyncio.Task[None]] = set()  # the pings' hint marked as told

    async def shown(self, live: OpenTable, chat: ChatRow, what: Shown) -> None:
        """What a step shows, drawn and posted (a deal's messages, a result, a sheet)."""
        table_id = live.row.table_id
        if isinstance(what, DealShown):
            self._deal(live, chat, what)
        elif isinstance(what, ResultShown):
            balances = {
                user.user_id: bal for user, bal in await self.storage.money.balances(chat.chat_id)
            }
            drawn = await self._drawing(live).result_message(live, chat, what, balances)
            slot = slots.result(table_id, what.deal_no)
            self.show_table(live, chat, slot, drawn, current=what.current)
            if what.retire:
                self.presenter.retire(slot)  # a pulya's result is never edited again
        elif isinstance(what, DealRetired):
            # (a player's control message stays: the next deal edits it)
            self.presenter.retire(
                slots.table(table_id, what.deal_no), slots.result(table_id, what.deal_no)
            )
        elif isinstance(what, SheetShown):
            sheet = await self._drawing(live).sheet_message(live, chat)
            if sheet is not None:
                slot = slots.sheet(table_id)
                self.presenter.show(slot, chat.chat_id, sheet, renew=what.anew)
                if what.last:
                    self.presenter.retire(slot)

    def changed(self, live: OpenTable) -> None:
        """Nothing more to do: every message was posted as the step showed it."""

    def standing(self, live: OpenTable, lang: str) -> str | None:
        """Where the players of the match in play stand were it closed now (/balance, /top)."""
        return self._drawing(live).standing(live, lang)

    async def post_final_sheet(self, table: TableRow, final: object) -> None:
        """/pulya: a closed table's final sheet posted at the bottom of its group."""
        chat = await self.storage.chats.chat(table.chat_id)
        drawing = games.drawing(table.game, self.bot_username)
        sheet = await drawing.final_sheet_message(chat, final)
        if sheet is not None:
            await self.presenter.post(chat.chat_id, sheet)

    def _drawing(self, live: OpenTable) -> ChatDrawing:
        return games.drawing(live.row.game, self.bot_username)

    def _deal(self, live: OpenTable, chat: ChatRow, shown: DealShown) -> None:
        """The deal's table message and each player's control message (or one player's), drawn
        from the screens of the deal shown; the mover's pinged when the move just passed to
        him."""
        kind, drawing = self.kind(live), self._drawing(live)
        if shown.seat is not None:
            self._hand(live, chat, shown, kind, drawing, shown.seat, ping=False)
            return
        seen = kind.shown_screen(live, shown, None, chat.lang)
        content = drawing.table_message(live, chat, shown, seen)
        slot = slots.table(live.row.table_id, shown.deal_no)
        self.show_table(live, chat, slot, content, current=shown.current, deal=True)
        ping = self.passed_to(live, None if shown.closing else seen.mover)
        for seat in range(len(live.deal_seats)):
            self._hand(live, chat, shown, kind, drawing, seat, ping=seat == ping)
        if shown.retire:
            self.presenter.retire(slot)

    def _hand(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, kind: GameKind,
        drawing: ChatDrawing, seat: int, *, ping: bool,
    ) -> None:  # fmt: skip
        user = live.users[live.deal_seats[seat]]
        if user.blocked or computer.is_computer(user.user_id):  # never a DM to one
            return
        lang = pick_language(user.lang)
        seen = kind.shown_screen(live, shown, seat, lang)
        content = drawing.hand_message(live, chat, shown, seen, seat, lang)
        moving = not shown.closing and seen.mover == seat
        anew = user.user_id == shown.anew
        self.deliver_hand(live, seat, content, moving=moving, ping=ping, anew=anew)

    def passed_to(self, live: OpenTable, mover: int | None) -> int | None:
        """The seat to move now is `mover` (None: nobody); it, if the move just passed to it (the
        turn ping's rule, one for every game), else None."""
        ping = mover if mover != live.mover else None
        live.mover = mover
        return ping

    def show_table(
        self, live: OpenTable, chat: ChatRow, slot: str, content: Rendered, *, current: bool,
        deal: bool = False,
    ) -> None:  # fmt: skip
        """Show one of the table's messages in its chat (its lobby, a deal's table message when
        `deal`, a result) in slot `slot`. While it is the table's `current` message, the ways
        into the table's other front ends are added below it, so a page can be opened at any
        moment of the evening; at a practice table (a private chat) none on a deal's table
        message, since its player's control message, just below, has them."""
        private = seating.practice(chat.chat_id)
        if current and not (private and deal):
            content = self._ways_in(content, live.row.table_id, chat.lang, private)
        self.presenter.show(slot, chat.chat_id, content)

    def deliver_hand(
        self, live: OpenTable, seat: int, content: Rendered, *, moving: bool, ping: bool,
        anew: bool = False,
    ) -> None:  # fmt: skip
        """Send a player's control message of any game: with what the bot last played for him
        and, when he is to move, his time left; a ping (the move just passed to him) or `anew`
        post it again at the bottom of his chat (see `_show_hand`); never one to a computer
        player."""
        user = live.users[live.deal_seats[seat]]
        if computer.is_computer(user.user_id) or user.user_id in live.row.leaving:
            return  # (a player leaving has had the last word, `_last_word`)
        lang = pick_language(user.lang)
        auto = live.play.auto.get(seat) if live.play is not None else None
        top = [turns.auto_line(lang, live.row.game, auto)] if auto is not None else []
        bottom: list[str] = []
        away = seating.plays_itself(live, user.user_id)
        if moving and not away and live.row.deadline is not None:
            bottom.append(turns.timer_line(lang, live.row.deadline - self.clock()))
        ping = ping and user.pings and not away
        if ping and not user.pinged:  # the first ping says how to turn them off
            bottom.insert(0, t(lang, "timer.pings_hint"))  # (the timer stays the last line)
            live.users[user.user_id] = replace(user, pinged=True)
            write = asyncio.create_task(self.storage.chats.set_user(user.user_id, pinged=1))
            self._writes.add(write)
            write.add_done_callback(self._writes.discard)
        content = turns.with_lines(content, top, bottom)
        content = self._ways_in(content, live.row.table_id, lang, private=True)
        self.presenter.show(
            slots.hand(live.row.table_id, user.user_id),
            user.user_id,
            content,
            renew=anew or ping,
            if_spare=not anew,  # a ping could as well be an edit; a player's request cannot
        )

    async def tell_closed(
        self, live: OpenTable, chat: ChatRow, reason: str, *, voided: bool
    ) -> None:
        """The group told its table closed and why (`reason`, in the game's own words), whether
        a deal in play was voided, and the evening's result: who pays whom, and the league."""
        game, table_id = live.row.game, live.row.table_id
        ui = games.ui(game)
        text = ui.text(chat.lang, reason) + ("\n" + t(chat.lang, "table.voided") if voided else "")
        deals, results = await self.storage.money.session(table_id)
        if deals:  # the evening's result, who pays whom and the league, in the same message
            rated = await self.storage.league.standings(chat.chat_id, game, table_id)
            people = {*results, *(s.user_id for s in rated)}
            names = distinct((await self.storage.chats.users(people)).values())
            text += "\n\n" + evening.session_summary(chat.lang, ui, deals, results, names)
            if rated:
                text += "\n\n" + evening.ratings(chat.lang, rated, names)
        await self.presenter.post(chat.chat_id, Rendered(text))

    async def tell_timed_out(self, live: OpenTable, user_id: int, action: Any) -> None:
        """A private line (a new message: it notifies) to a player whose time ran out: what
        the bot played for him, and whether it goes on playing for him."""
        user = live.users[user_id]
        if user.blocked:
            return
        lang = pick_language(user.lang)
        chat = await self.storage.chats.chat(live.row.chat_id)
        text = turns.timed_out_message(
            lang, live.row.game, action, name(chat.title), away=user_id in live.row.away
        )
        await self.presenter.post(user_id, Rendered(text))

    async def tell_blocked(self, live: OpenTable, user_id: int) -> None:
        """A line in the group: a player of the table blocked the bot (or never started it), so
        the bot plays for him; the link lets him start it."""
        chat = await self.storage.chats.chat(live.row.chat_id)
        link = deep_link(self.bot_username, "hand")
        who = name(live.users[user_id].name)
        await self.presenter.post(
            chat.chat_id, Rendered(t(chat.lang, "table.dm_blocked", name=who, link=link))
        )

    async def close(self) -> None:
        """Wait for the writes it started."""
        await asyncio.gather(*self._writes, return_exceptions=True)

    def _ways_in(self, content: Rendered, table_id: int, lang: str, private: bool) -> Rendered:
        for way in self.ways_in:
            content = content.below(way(table_id, lang, private))
        return content
