"""The chat's front end for a table's messages: the group's table message and results with the
ways into the table's other front ends below them, each player's control message with the
chat's own lines (what the bot last played for him, his time left, the pings' hint) and its turn
ping, and the line telling a player his time ran out, posted through the presenter. The host
hands it to every game's tables (`Host.chat`) and knows no front end's buttons; a front end
beside the chat adds its way in (`ways_in`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from locales import pick_language, t

from .. import computer
from ..format import name
from ..presenter import Presenter
from ..storage import ChatRow, Storage
from ..table import seating
from ..table.live import OpenTable
from ..view import slots
from ..view.message import Button, Rendered
from . import turns

# A way into a table's other front end: the buttons that open it at table `table_id`, worded in
# `lang`, on a message in a private chat (True) or a group's (bot/web/opening.py: the Mini App).
WayIn = Callable[[int, str, bool], Sequence[Button]]


class ChatFront:
    """A table's messages in its chat and its players' private chats."""

    def __init__(self, presenter: Presenter, storage: Storage, clock: Callable[[], float]) -> None:
        self.presenter = presenter
        self.storage = storage
        self.clock = clock
        self.ways_in: list[WayIn] = []
        self._writes: set[asyncio.Task[None]] = set()  # the pings' hint marked as told

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
        auto = live.auto.get(seat)
        top = [turns.auto_line(lang, live.row.game, auto)] if auto is not None else []
        bottom: list[str] = []
        away = seating.plays_itself(live, user.user_id)
        if moving and not away and live.row.deadline is not None:
            bottom.append(turns.timer_line(lang, live.row.deadline - self.clock()))
        ping = ping and user.pings and not away
        if ping and not user.pinged:  # the first ping says how to turn them off
            bottom.insert(0, t(lang, "timer.pings_hint"))  # (the timer stays the last line)
            live.users[user.user_id] = replace(user, pinged=True)
            write = asyncio.create_task(self.storage.set_user(user.user_id, pinged=1))
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

    async def tell_timed_out(self, live: OpenTable, user_id: int, action: Any) -> None:
        """A private line (a new message: it notifies) to a player whose time ran out: what
        the bot played for him, and whether it goes on playing for him."""
        user = live.users[user_id]
        if user.blocked:
            return
        lang = pick_language(user.lang)
        chat = await self.storage.chat(live.row.chat_id)
        text = turns.timed_out_message(
            lang, live.row.game, action, name(chat.title), away=user_id in live.row.away
        )
        await self.presenter.post(user_id, Rendered(text))

    async def close(self) -> None:
        """Wait for the writes it started."""
        await asyncio.gather(*self._writes, return_exceptions=True)

    def _ways_in(self, content: Rendered, table_id: int, lang: str, private: bool) -> Rendered:
        for way in self.ways_in:
            content = content.below(way(table_id, lang, private))
        return content
