"""Preferans tables: a pulya played deal after deal, each step written in one
transaction, the chips moved once, when the pulya closes (P14, P16 × the whist price), the sheet
one photo edited after each deal, a restart resuming pulya and deal.

The shared GameService keeps a Preferans table's lobby, seats, timers, away players and evening;
once the lobby starts, it hands this kind of table (`PulyaTables`, the `GameKind` of `base.py`)
the moments of the pulya: its start, presses, time-outs, the stop and the restart."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction
from engine.preferans import record as deal_record
from engine.preferans.actions import PrefAction
from engine.preferans.deal import PrefDeal
from engine.preferans.knowledge import PrefKnowledge, pref_knowledge
from engine.preferans.match import Match, default_action, from_records
from engine.preferans.pulya import Line
from engine.preferans.views import PrefSeatView, PrefTableView, seat_view, table_view

from ... import callbacks
from ...names import labels
from ...storage import ChatRow, Movement, TableRow
from ...table import seating
from ...table.live import OpenTable, Refusal, Turns
from ...table.steps import DealBegun, Settled, Stepped
from ...view.screen import ContractScreen, SheetScreen
from ..base import DealShown, Kind, Moved, ResultShown, SheetShown, who
from . import codes, screen
from .sheet import sheet_photo
from .ui import PreferansUI

if TYPE_CHECKING:
    pass

SETTLEMENT = "pulya"  # the ledger's reason for a pulya's settlement (P16)


@dataclass(frozen=True, slots=True)
class PulyaTable(Turns):
    """A Preferans table's state (`OpenTable.play`): the pulya being played."""

    match: Match

    @property
    def step(self) -> int:
        """How many actions the deal in play has seen (a button names the step it was drawn at)."""
        return len(self.match.deal.actions) if self.match.deal is not None else 0

    @property
    def to_act(self) -> int | None:
        """The seat that decides now: in light play the whister for the passer's cards (P7)."""
        return self.match.deal.controller if self.match.deal is not None else None

    @property
    def in_play(self) -> bool:
        """Whether the pulya is still being played (P14)."""
        return self.match.deal is not None


@dataclass(frozen=True, slots=True)
class Written:
    """A deal's result as a pulya writes it (`ResultShown.about`): its line of the sheet (None:
    the pulya stopped in it, P14), the pulya after it, and the deal's record (None: not played
    out, no review)."""

    line: Line | None
    match: Match
    record: dict[str, Any] | None


def pulya(live: OpenTable) -> Match:
    """The pulya of a Preferans table in play."""
    return state(live).match


def state(live: OpenTable) -> PulyaTable:
    """The state of a Preferans table in play."""
    assert isinstance(live.play, PulyaTable)
    return live.play


class PulyaTables(Kind[PreferansUI]):
    """Every Preferans table of the bot, played for its host (a `GameKind` of `base.py`); each
    call under the chat's lock."""

    keeps_players = True  # P14: a pulya's players play it to its end
    sheet = True  # the pulya sheet, posted again by /pulya

    # ---- starting and resuming ------------------------------------------------------------------

    async def start(self, live: OpenTable, chat: ChatRow) -> Moved:
        """The pulya of the lobby's players: the first dealer drawn (P3), the first deal."""
        deadline = self.host.deadline(chat)
        names = labels([live.users[uid].name for uid in live.row.seats])
        rules = self.ui.typed_rules(chat.rules)
        chance = live.first_chance(self.host.rng)  # (a replayed deal's: its dealer and deck)
        match = Match.start(names, rules, self.ui.whist_price(chat.rules), chance)
        assert match.deal is not None
        begun = DealBegun(
            deal_record.to_record(match.deal), seats=live.row.seats, dealer=match.deal.dealer,
            deal_no=1, deadline=deadline,
        )  # fmt: skip
        await self.host.store(live, begun)
        live.play = PulyaTable(match)
        await self.show(live, chat)
        return Moved.IN_PLAY

    async def resume(self, live: OpenTable) -> None:
        """After a restart: the pulya rebuilt from the table's stored deals, the deal in play
        replayed (a deal finished just before the stop is followed by the next one)."""
        chat = await self.storage.chats.chat(live.row.chat_id)
        stored = await self.storage.tables.table_deals(live.row.table_id)
        deals = [d for d in stored if d.status != "voided"]
        match = from_records([d.record for d in deals], self.ui.whist_price(chat.rules))
        # (a pulya has its first deal: else from_records refused)
        await self.host.resumed(live, deals[-1].deal_id, live.row.seats)
        live.play = PulyaTable(match)
        if match.deal is None and not match.finished:
            await self._next_deal(live, match.dealt(self.host.rng))

    # ---- presses --------------------------------------------------------------------------------

    def _pressed(
        self, live: OpenTable, user_id: int, press: callbacks.Press
    ) -> tuple[PrefDeal, int]:
        """The deal and the presser's seat; Refusal for a stale button or a non-player."""
        deal = pulya(live).deal
        if deal is None or press.deal_no != live.row.deal_no or press.step != live.step:
            raise Refusal("err.stale")
        if user_id not in live.deal_seats:
            raise Refusal("err.not_player")
        seat = live.deal_seats.index(user_id)
        if deal.controller != seat:  # P7: in light play the whister decides the passer's cards
            raise Refusal("err.not_your_turn")
        return deal, seat

    async def refresh(self, live: OpenTable, chat: ChatRow) -> Moved:
        """The deal in play's messages."""
        await self.show(live, chat)
        return Moved.IN_PLAY

    async def reshow(self, live: OpenTable, chat: ChatRow, user_id: int) -> None:
        """The deal in play's messages, the user's control message posted anew."""
        await self.show(live, chat, anew=user_id)

    async def act(self, live: OpenTable, user_id: int, press: callbacks.Press) -> Moved:
        """An action button: applied if legal (the engine says which rule refuses it)."""
        chat = await self.storage.chats.chat(live.row.chat_id)
        deadline = self.host.deadline(chat)
        deal, seat = self._pressed(live, user_id, press)
        assert deal.turn is not None
        try:
            action = codes.parse_action(deal.turn, press.code)
        except callbacks.BadCallback as exc:
            raise Refusal("err.stale") from exc
        auto = {at: move for at, move in state(live).auto.items() if at != seat}
        return await self._apply(live, action, deadline, auto, None)

    async def toggle(self, live: OpenTable, user_id: int, press: callbacks.Press) -> None:
        """P5: the declarer marks his two cards to discard before confirming."""
        deal, seat = self._pressed(live, user_id, press)
        try:
            marked = codes.toggle_selection(seat_view(deal, seat), press.code)
        except callbacks.BadCallback as exc:
            raise Refusal("err.stale") from exc
        live.play = replace(state(live), selection={**state(live).selection, seat: marked})
        chat = await self.storage.chats.chat(live.row.chat_id)
        await self.host.show(live, chat, DealShown(deal, live.row.deal_no, seat=seat))

    # ---- moves the bot makes --------------------------------------------------------------------

    def position(self, live: OpenTable) -> PrefDeal | None:
        """The deal in play: a new object after each step (a computer's move is thought for one)."""
        return pulya(live).deal

    def knowledge(self, live: OpenTable, seat: int) -> PrefKnowledge:
        """What `seat` may know of the deal in play; its legal actions when it is the
        controller (P7: in light play the whister, for the passer's cards too)."""
        deal = pulya(live).deal
        assert deal is not None
        return pref_knowledge(deal, seat)

    def default(self, live: OpenTable) -> PrefAction | None:
        """The move made for a late player: pass in bidding and whisting, the lowest card."""
        deal = pulya(live).deal
        return default_action(deal) if deal is not None else None

    async def move(
        self,
        live: OpenTable,
        action: PrefAction,
        *,
        auto: bool,
        note: tuple[str, str] | None = None,
    ) -> Moved:
        """A move the bot makes: a computer player's, or (`auto`) one made for the person due."""
        chat = await self.storage.chats.chat(live.row.chat_id)
        deal = pulya(live).deal
        assert deal is not None and deal.controller is not None
        made = dict(state(live).auto)
        if auto:
            made[deal.controller] = action  # his control message says what was played
        return await self._apply(live, action, self.host.deadline(chat), made, note)

    def seat_view(self, live: OpenTable, seat: int) -> PrefSeatView | None:
        """The deal in play as `seat` sees it."""
        deal = pulya(live).deal
        return None if deal is None else seat_view(deal, seat)

    def public_view(self, live: OpenTable) -> PrefTableView | None:
        """The deal in play as the group sees it."""
        deal = pulya(live).deal
        return None if deal is None else table_view(deal)

    def screen(
        self, live: OpenTable, seat: int | None, lang: str, balances: Mapping[int, int]
    ) -> ContractScreen | SheetScreen:
        """The pulya as `seat` sees it, its sheet too (bot/games/preferans/screen.py)."""
        return screen.screen(self, self.ui, pulya(live), live, seat, lang, balances)

    def shown_screen(
        self, live: OpenTable, shown: DealShown, seat: int | None, lang: str
    ) -> ContractScreen:
        """The deal shown (the one in play, or one just ended) as `seat` sees it (None: the
        group)."""
        assert isinstance(shown.position, PrefDeal)
        deal = shown.position
        mine = seat_view(deal, seat) if seat is not None else None
        return screen.build(
            self.ui, pulya(live), table_view(deal), mine, lang,
            (live.row.table_id, shown.deal_no, len(deal.actions)),
            state(live).selection.get(seat, ()) if seat is not None else (),
            lambda at, name: who(live, at, name, {}), closing=shown.closing,
        )  # fmt: skip

    async def sheet_picture(self, live: OpenTable, lang: str) -> bytes | None:
        """The pulya sheet as the group's photo draws it (off the event loop)."""
        if not isinstance(live.play, PulyaTable):
            return None
        png, _caption = await asyncio.to_thread(sheet_photo, lang, pulya(live))
        return png

    async def _apply(
        self,
        live: OpenTable,
        action: PrefAction,
        deadline: float | None,
        auto: Mapping[int, PrefAction],
        note: tuple[str, str] | None,
    ) -> Moved:
        """One action and the forced cards after it (`forced_move`): the step stored (a finished
        deal with the pulya's settlement when it is the last, P14, P16), then the next deal
        dealt, then the messages updated; `auto` and `note` the bot's moves for persons and the
        table's note after it."""
        try:
            step = pulya(live).apply(action, self.host.rng)
        except IllegalAction as exc:
            raise Refusal("err.illegal") from exc
        # The last trick's one-card moves are made at once, with no press and no ping
        while step.match.deal is not None and step.finished_deal is None:
            forced = step.match.deal.forced_move()
            if forced is None:
                break
            step = step.match.apply(forced, self.host.rng)
        chat = await self.storage.chats.chat(live.row.chat_id)
        if step.finished_deal is None:
            assert step.match.deal is not None
            record = deal_record.to_record(step.match.deal)
            await self.host.store(live, Stepped(record, deadline=deadline))
            live.play = PulyaTable(step.match, auto=auto, note=note)
            await self.show(live, chat)
            return Moved.IN_PLAY
        over = step.match.finished
        moves = self._settlement(live, step.match) if over else []
        record = deal_record.to_record(step.finished_deal)
        rated = seating.rated(live) if over else ()
        finished = Stepped(
            record, deadline=deadline, chips=moves, finished=True, rated=rated, closed=over
        )
        await self.host.store(live, finished)
        live.play = PulyaTable(step.match, auto=auto, note=note)
        await self._show_deal(live, chat, step.finished_deal)  # its last trick stays on it
        written = Written(step.line, step.match, record)
        result = ResultShown(live.row.deal_no, current=False, retire=True, about=written)
        await self.host.show(live, chat, result)
        await self.host.show(live, chat, SheetShown(last=over))
        if over:
            return Moved.MATCH_OVER
        await self._next_deal(live, step.match)
        await self.show(live, chat)
        return Moved.IN_PLAY

    async def stop(self, live: OpenTable, chat: ChatRow) -> bool:
        """/stopgame: the deal in play voided, the pulya settled as it stands (P14's top-up),
        in one transaction with the table's row (closed by the host); nothing if it is over
        (its last step stored the row). False: the result says the deal was not played."""
        match = pulya(live)
        if match.deal is None:
            return False
        stopped = match.stop()
        await self.host.store(live, Settled(self._settlement(live, stopped), seating.rated(live)))
        live.play = replace(state(live), match=stopped)  # (its players' messages end with it)
        await self._show_deal(live, chat, match.deal, closed=True)
        written = Written(None, stopped, None)
        result = ResultShown(live.row.deal_no, current=False, retire=True, about=written)
        await self.host.show(live, chat, result)
        await self.host.show(live, chat, SheetShown(last=True))
        return False

    # ---- helpers --------------------------------------------------------------------------------

    async def _next_deal(self, live: OpenTable, match: Match) -> None:
        assert match.deal is not None
        begun = DealBegun(
            deal_record.to_record(match.deal), seats=live.deal_seats, dealer=match.deal.dealer,
            deal_no=match.deal_no, deadline=live.row.deadline,
        )  # fmt: skip
        await self.host.store(live, begun)
        # what the bot played for someone is told for the deal it was played in
        live.play = PulyaTable(match, note=live.play.note if live.play else None)

    def _settlement(self, live: OpenTable, match: Match) -> list[Movement]:
        """P16 × the whist price, one ledger row per player (they sum to zero)."""
        return [
            Movement(uid, chips, SETTLEMENT)
            for uid, chips in zip(live.deal_seats, match.chips(), strict=True)
            if chips
        ]

    async def show(self, live: OpenTable, chat: ChatRow, *, anew: int | None = None) -> None:
        """The deal in play's table message and every player's control message."""
        deal = pulya(live).deal
        if deal is not None:
            await self._show_deal(live, chat, deal, anew=anew)

    async def _show_deal(
        self,
        live: OpenTable,
        chat: ChatRow,
        deal: PrefDeal,
        *,
        closed: bool = False,
        anew: int | None = None,
    ) -> None:
        """A deal's table message in the group and every player's control message; a finished
        (or voided) deal's message shows its last and is let go."""
        last = closed or deal.finished
        shown = DealShown(
            deal, live.row.deal_no, closing=closed, current=not closed, retire=last, anew=anew
        )
        await self.host.show(live, chat, shown)

    async def repost(self, live: OpenTable) -> bool:
        """/pulya: the sheet posted again at the bottom of the chat."""
        chat = await self.storage.chats.chat(live.row.chat_id)
        await self.host.show(live, chat, SheetShown(anew=True))
        return True

    async def final_sheet(self, table: TableRow) -> Match | None:
        """/pulya after a pulya closed or stopped: the pulya as it ended, settled (P16; P14's
        top-up for a stopped one, whose sheet never reached the target), rebuilt from its
        finished deals; None if none was finished."""
        chat = await self.storage.chats.chat(table.chat_id)
        rows = await self.storage.tables.table_deals(table.table_id)
        records = [d.record for d in rows if d.status == "finished"]
        if not records:
            return None
        match = from_records(records, self.ui.whist_price(chat.rules))
        return match if match.finished else match.stop()
