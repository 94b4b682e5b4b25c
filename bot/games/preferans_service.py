"""Preferans tables through storage and the presenter (issue 15): a pulya played deal after deal,
each step written in one transaction, the chips moved once, when the pulya closes (P14, P16 ×
the whist price), the sheet one photo edited after each deal, a restart resuming pulya and deal.

The shared GameService plays one TrickDeal per table; it hands a Preferans table to this
service (start, presses, time-outs, stop, resume) once it knows a game may be a match."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import Card
from engine.errors import IllegalAction
from engine.preferans import record as deal_record
from engine.preferans.actions import PrefAction
from engine.preferans.deal import PrefDeal
from engine.preferans.views import seat_view, table_view
from locales import pick_language

from .. import callbacks
from ..presenter import Presenter
from ..render import Rendered
from ..service import Refusal
from ..storage import ChatRow, Movement, Storage, TableRow, UserRow
from . import labels
from . import preferans as pref
from .preferans_match import Match, default_action, from_records

SETTLEMENT = "pulya"  # the ledger's reason for a pulya's settlement (P16)


def whist_price(chat_rules: dict[str, Any]) -> int:
    """The chat's price of a whist in chips (its Preferans settings; 1 unless set)."""
    return pref.UI.whist_price(chat_rules)


@dataclass
class PulyaTable:
    """An open Preferans table: its row, its players, the pulya and the deal's row in play."""

    row: TableRow
    users: dict[int, UserRow]
    match: Match
    deal_id: int
    selection: dict[int, tuple[Card, ...]] = field(default_factory=dict)

    @property
    def step(self) -> int:
        """How many actions the deal in play has seen (a button names the step it was drawn at)."""
        return len(self.match.deal.actions) if self.match.deal is not None else 0


class PulyaService:
    """Every Preferans table of the bot; the caller holds the chat's lock around each call."""

    def __init__(self, storage: Storage, presenter: Presenter, rng: random.Random) -> None:
        self.storage = storage
        self.presenter = presenter
        self.rng = rng
        self.tables: dict[int, PulyaTable] = {}

    # ---- starting and resuming ------------------------------------------------------------------

    async def start(self, row: TableRow) -> PulyaTable:
        """Start the pulya of a lobby's players: the first dealer drawn (P3), the first deal."""
        chat = await self.storage.chat(row.chat_id)
        users = await self.storage.users(row.seats)
        names = labels([users[uid].name for uid in row.seats])
        rules = pref.UI.typed_rules(chat.rules)
        match = Match.start(names, rules, whist_price(chat.rules), self.rng)
        assert match.deal is not None
        row = replace(row, status="playing", deal_no=1, dealer=match.deal.dealer)
        deal_id = await self.storage.start_deal(row, deal_record.to_record(match.deal), [])
        table = self.tables[row.table_id] = PulyaTable(row, users, match, deal_id)
        self._show(table, chat)
        return table

    async def resume(self, row: TableRow) -> PulyaTable:
        """After a restart: the pulya rebuilt from the table's stored deals, the deal in play
        replayed (a deal finished just before the stop is followed by the next one)."""
        chat = await self.storage.chat(row.chat_id)
        deals = [d for d in await self.storage.table_deals(row.table_id) if d.status != "voided"]
        match = from_records([d.record for d in deals], whist_price(chat.rules))
        users = await self.storage.users(row.seats)
        table = PulyaTable(row, users, match, deals[-1].deal_id)
        self.tables[row.table_id] = table
        if match.deal is None and not match.finished:
            await self._next_deal(table, match.dealt(self.rng))
        self._show(table, chat)
        return table

    # ---- presses --------------------------------------------------------------------------------

    def _pressed(self, user_id: int, press: callbacks.Press) -> tuple[PulyaTable, int]:
        """The table and the presser's seat; Refusal for a stale button or a non-player."""
        table = self.tables.get(press.table_id)
        deal = table.match.deal if table else None
        if table is None or deal is None or press.deal_no != table.row.deal_no:
            raise Refusal("err.stale")
        if press.step != table.step:
            raise Refusal("err.stale")
        if user_id not in table.row.seats:
            raise Refusal("err.not_player")
        seat = table.row.seats.index(user_id)
        if deal.controller != seat:  # P7: in light play the whister decides the passer's cards
            raise Refusal("err.not_your_turn")
        return table, seat

    async def act(self, user_id: int, press: callbacks.Press) -> None:
        """An action button: applied if legal (the engine says which rule refuses it)."""
        table, _ = self._pressed(user_id, press)
        deal = table.match.deal
        assert deal is not None and deal.turn is not None
        try:
            action = pref.parse_action(deal.turn, press.code)
        except callbacks.BadCallback as exc:
            raise Refusal("err.stale") from exc
        await self.apply(table, action)

    async def toggle(self, user_id: int, press: callbacks.Press) -> None:
        """P5: the declarer marks his two cards to discard before confirming."""
        table, seat = self._pressed(user_id, press)
        assert table.match.deal is not None
        view = seat_view(table.match.deal, seat)
        try:
            table.selection[seat] = pref.toggle_selection(view, press.code)
        except callbacks.BadCallback as exc:
            raise Refusal("err.stale") from exc
        chat = await self.storage.chat(table.row.chat_id)
        self._show_hand(table, chat, seat)

    async def time_out(self, table_id: int) -> None:
        """The move is made for the player due: pass in bidding and whisting, the lowest card."""
        table = self.tables.get(table_id)
        if table is None or table.match.deal is None:
            return
        action = default_action(table.match.deal)
        if action is not None:
            await self.apply(table, action)

    async def apply(self, table: PulyaTable, action: PrefAction) -> None:
        """One action: the step stored (a finished deal with the pulya's settlement when it is
        the last, P14, P16), then the next deal dealt, then the messages updated."""
        try:
            step = table.match.apply(action, self.rng)
        except IllegalAction as exc:
            raise Refusal("err.illegal", rule=exc.rule) from exc
        chat = await self.storage.chat(table.row.chat_id)
        table.selection.clear()
        if step.finished_deal is None:
            assert step.match.deal is not None
            record = deal_record.to_record(step.match.deal)
            await self.storage.save_step(table.row, table.deal_id, record, [])
            table.match = step.match
            self._show(table, chat)
            return
        over = step.match.finished
        if over:
            table.row = replace(table.row, status="closed", deadline=None)
        moves = self._settlement(table, step.match) if over else []
        record = deal_record.to_record(step.finished_deal)
        await self.storage.save_step(table.row, table.deal_id, record, moves, finished=True)
        table.match = step.match
        self._show_deal(table, chat, step.finished_deal)  # its last trick stays on its message
        result = pref.result_message(chat.lang, step.line, step.match)
        self.presenter.show(self._result_slot(table), chat.chat_id, result)
        self._show_sheet(table, chat)
        if over:
            self._close(table)
        else:
            await self._next_deal(table, step.match)
            self._show(table, chat)

    async def stop(self, table_id: int) -> None:
        """/stopgame: the deal in play voided, the pulya settled as it stands (P14's top-up)."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refusal("err.no_table")
        chat = await self.storage.chat(table.row.chat_id)
        stopped = table.match.stop()
        table.row = replace(table.row, status="closed", deadline=None)
        await self.storage.settle_match(table.row, table.deal_id, self._settlement(table, stopped))
        if table.match.deal is not None:
            self._show_deal(table, chat, table.match.deal, closed=True)
        table.match = stopped
        self.presenter.show(
            self._result_slot(table), chat.chat_id, pref.result_message(chat.lang, None, stopped)
        )
        self._show_sheet(table, chat)
        self._close(table)

    # ---- helpers --------------------------------------------------------------------------------

    async def _next_deal(self, table: PulyaTable, match: Match) -> None:
        assert match.deal is not None
        table.row = replace(table.row, deal_no=match.deal_no, dealer=match.deal.dealer)
        record = deal_record.to_record(match.deal)
        table.deal_id = await self.storage.start_deal(table.row, record, [])
        table.match = match

    def _settlement(self, table: PulyaTable, match: Match) -> list[Movement]:
        """P16 × the whist price, one ledger row per player (they sum to zero)."""
        return [
            Movement(uid, chips, SETTLEMENT)
            for uid, chips in zip(table.row.seats, match.chips(), strict=True)
            if chips
        ]

    def _close(self, table: PulyaTable) -> None:
        del self.tables[table.row.table_id]
        table_id = table.row.table_id
        self.presenter.retire(f"table:{table_id}:", f"hand:{table_id}:", f"result:{table_id}:")
        self.presenter.retire(f"sheet:{table_id}")

    def _result_slot(self, table: PulyaTable) -> str:
        return f"result:{table.row.table_id}:{table.row.deal_no}"

    def _show(self, table: PulyaTable, chat: ChatRow) -> None:
        assert table.match.deal is not None
        self._show_deal(table, chat, table.match.deal)

    def _show_deal(
        self, table: PulyaTable, chat: ChatRow, deal: PrefDeal, *, closed: bool = False
    ) -> None:
        """The deal's table message in the group and every player's control message."""
        deal_no, target = table.row.deal_no, table.match.sheet.rules.target
        content = pref.table_message(chat.lang, table_view(deal), deal_no, target)
        self.presenter.show(f"table:{table.row.table_id}:{deal_no}", chat.chat_id, content)
        for seat in range(len(table.row.seats)):
            self._show_hand(table, chat, seat, deal=deal, closed=closed)

    def _show_hand(
        self,
        table: PulyaTable,
        chat: ChatRow,
        seat: int,
        *,
        deal: PrefDeal | None = None,
        closed: bool = False,
    ) -> None:
        deal = deal or table.match.deal
        assert deal is not None
        user = table.users[table.row.seats[seat]]
        if user.blocked:
            return
        view = seat_view(deal, seat)
        if closed or deal.finished:
            view = replace(view, legal=())
        content = pref.hand_message(
            pick_language(user.lang), view, table.row.table_id, table.row.deal_no,
            len(deal.actions), chat.title, table.selection.get(seat, ()),
        )  # fmt: skip
        self.presenter.show(f"hand:{table.row.table_id}:{user.user_id}", user.user_id, content)

    def _show_sheet(self, table: PulyaTable, chat: ChatRow) -> None:
        png, caption = pref.sheet_photo(chat.lang, table.match)
        self.presenter.show(
            f"sheet:{table.row.table_id}", chat.chat_id, Rendered(caption, photo=png)
        )

    async def repost_sheet(self, table_id: int) -> None:
        """/pulya: the sheet posted again at the bottom of the chat."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refusal("err.no_table")
        chat = await self.storage.chat(table.row.chat_id)
        png, caption = pref.sheet_photo(chat.lang, table.match)
        await self.presenter.forget(f"sheet:{table_id}")
        self.presenter.show(f"sheet:{table_id}", chat.chat_id, Rendered(caption, photo=png))
