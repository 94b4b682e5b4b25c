"""The Frap family's tables (F1-F15, K, SK, N): deal after deal at one table, each step and its
chips written in one transaction, then what it shows told to the host (`Host.show`: the chat's
front end draws its messages from the deal's screens, bot/games/family/chat.py). The host
(`bot.service.GameService`) keeps the lobby, the seats, the timers and away players, and hands
this kind (a `GameKind` of `base.py`) the moments of the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.actions import Action, Do
from engine.ai import seat_knowledge
from engine.cards import make_deck, shuffled
from engine.deal import TrickDeal
from engine.defaults import default_action
from engine.errors import IllegalAction
from engine.events import ChipsMoved, Event
from engine.knowledge import Knowledge
from engine.record import replay
from engine.views import SeatView, TableView, seat_view, table_view

from ... import callbacks, computer
from ...format import signed
from ...names import labels
from ...storage import ChatRow, Movement
from ...table import seating
from ...table.live import OpenTable, Refusal, Turns
from ...table.steps import DealBegun, RowOnly, Stepped, Voided
from ...view.screen import PotScreen, with_chips
from ..base import DealRetired, DealShown, Kind, Moved, ResultShown
from . import codes, screen
from .ui import FamilyUI


@dataclass(frozen=True, slots=True)
class Dealt(Turns):
    """A family table's state (`OpenTable.play`): the deal in play or last played."""

    deal: TrickDeal

    @property
    def step(self) -> int:
        """How many turn-taking actions the deal has seen (looking at a hand does not count)."""
        return sum(a.do is not Do.LOOK for a in self.deal.actions)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the deal waits for."""
        return self.deal.to_act

    @property
    def in_play(self) -> bool:
        """Whether the deal is still being played."""
        return not self.deal.finished


def deal(live: OpenTable) -> TrickDeal | None:
    """The deal in play (or last played) at a family table; None before its first."""
    return live.play.deal if isinstance(live.play, Dealt) else None


def dealt(live: OpenTable) -> Dealt:
    """The state of a family table that has dealt."""
    assert isinstance(live.play, Dealt)
    return live.play


def played_deal(live: OpenTable) -> TrickDeal:
    """The deal in play (or last played) at a family table that has dealt one."""
    played = deal(live)
    assert played is not None
    return played


class DealTables(Kind[FamilyUI]):
    """Every table of one game of the Frap family, played for its host; each call runs under
    the chat's lock. Players sit down and stand up between deals; the chips are the score, so
    no sheet is kept."""

    # ---- starting and resuming ------------------------------------------------------------------

    def check_start(self, live: OpenTable, chat: ChatRow) -> None:
        """K1: the deck the rules give must deal every hand and a turn-up."""
        cls = self.ui.deal
        rules = self.ui.engine_rules(chat.rules)
        n = len(live.row.seats)
        if cls.deck_size_for(rules, n) < cls.HAND_SIZE * n + 1:
            raise Refusal("err.deck_too_small")

    async def start(self, live: OpenTable, chat: ChatRow) -> Moved:
        """F2: the first dealer drawn, the first deal dealt."""
        chance = live.chance or self.host.rng  # a replayed deal's: its dealer, then its deck
        await self._new_deal(live, dealer=chance.randrange(len(live.row.seats)))
        return Moved.IN_PLAY

    async def resume(self, live: OpenTable) -> None:
        """After a restart: the deal in play replayed from its record (ValueError if it does
        not replay)."""
        deal_row = await self.storage.tables.current_deal(live.row.table_id)
        if deal_row is None:
            return
        played = Dealt(replay(deal_row.record))
        await self.host.resumed(live, deal_row.deal_id, deal_row.seats)
        live.play = played

    async def refresh(self, live: OpenTable, chat: ChatRow) -> Moved:
        """The deal's messages; a deal whose end the bot died before showing is ended now."""
        if live.play is None:
            return Moved.IN_PLAY
        await self._show_deal(live, chat)
        if played_deal(live).finished:  # result (with "next deal"), or F8's redeal
            return await self._deal_over(live, chat)
        return Moved.IN_PLAY

    async def reshow(self, live: OpenTable, chat: ChatRow, user_id: int) -> None:
        """The user's control message posted again at the bottom of his chat."""
        await self._show_hand(live, chat, live.deal_seats.index(user_id), anew=user_id)

    # ---- presses --------------------------------------------------------------------------------

    def _pressed(
        self, live: OpenTable, user_id: int, press: callbacks.Press
    ) -> tuple[TrickDeal, int]:
        """The deal and the presser's seat; Refusal for a button of another deal or step, or a
        presser who does not play."""
        played = deal(live)
        timely = press.step == live.step or (
            press.step == callbacks.ANY_STEP and press.code == codes.LOOK
        )
        if played is None or played.finished or press.deal_no != live.row.deal_no or not timely:
            raise Refusal("err.stale")
        if user_id not in live.deal_seats:
            raise Refusal("err.not_player")
        return played, live.deal_seats.index(user_id)

    async def act(self, live: OpenTable, user_id: int, press: callbacks.Press) -> Moved:
        """An action button: applied if legal (the engine says which rule refuses it)."""
        played, seat = self._pressed(live, user_id, press)
        return await self._apply(live, played, self.ui.codes.parse_action(seat, press.code))

    async def toggle(self, live: OpenTable, user_id: int, press: callbacks.Press) -> None:
        """F9: a player marks cards to discard before confirming (nothing is applied yet)."""
        played, seat = self._pressed(live, user_id, press)
        buying = any(a.do is Do.DISCARD for a in played.legal_actions(seat))  # F9, SK6
        if not buying:
            raise Refusal("err.not_your_turn")
        chosen = callbacks.parse_cards_code(press.code)
        if any(card not in played.hands[seat] for card in chosen):
            raise Refusal("err.stale")
        state = dealt(live)
        live.play = replace(state, selection={**state.selection, seat: chosen})
        await self._show_hand(live, await self.storage.chats.chat(live.row.chat_id), seat)

    # ---- moves the bot makes --------------------------------------------------------------------

    def position(self, live: OpenTable) -> TrickDeal | None:
        """The deal: a new object after each step (a computer's move is thought for one)."""
        return deal(live)

    def knowledge(self, live: OpenTable, seat: int) -> Knowledge:
        """What `seat` may know of the deal in play."""
        return seat_knowledge(played_deal(live), seat)

    def default(self, live: OpenTable) -> Action | None:
        """The safe move for a late player (the engine's default: pass, the lowest card)."""
        return default_action(played_deal(live))

    async def move(
        self, live: OpenTable, action: Action, *, auto: bool, note: tuple[str, str] | None = None
    ) -> Moved:
        """A move the bot makes: a computer player's, or (`auto`) one made for the person due."""
        return await self._apply(live, played_deal(live), action, note=note, by_player=not auto)

    def seat_view(self, live: OpenTable, seat: int) -> SeatView | None:
        """The deal as `seat` sees it."""
        played = deal(live)
        return None if played is None else seat_view(played, seat)

    def public_view(self, live: OpenTable) -> TableView | None:
        """The deal as the group sees it."""
        played = deal(live)
        return None if played is None else table_view(played)

    def screen(
        self, live: OpenTable, seat: int | None, lang: str, balances: Mapping[int, int]
    ) -> PotScreen | None:
        """The deal as `seat` sees it (bot/games/family/screen.py), with the chat's chips laid on
        the screen his chat message was drawn from."""
        seen = self._screen(live, seat, lang)
        if seen is None:
            return None
        chips = [balances.get(uid) for uid in live.deal_seats]
        return with_chips(seen, [None if c is None else signed(c) for c in chips])

    def shown_screen(
        self, live: OpenTable, shown: DealShown, seat: int | None, lang: str
    ) -> PotScreen:
        """The deal shown (always the table's last) as `seat` sees it."""
        seen = self._screen(live, seat, lang, closing=shown.closing)
        assert seen is not None
        return seen

    def _screen(
        self, live: OpenTable, seat: int | None, lang: str, *, closing: bool = False
    ) -> PotScreen | None:
        """The deal as `seat` sees it, no chips on it: built once per change of the deal (a
        move, a discard marked, a player away or back, the table closing) for the chat's message
        and every page."""
        if not isinstance(live.play, Dealt):
            return None
        state = live.play  # (a move makes a new one, with no screens)
        chosen = state.selection.get(seat, ()) if seat is not None else ()
        key = (seat, lang, closing, chosen, frozenset(live.row.away))
        seen = state.screens.get(key)
        if seen is None:
            seen = state.screens[key] = screen.screen(
                self, self.ui, state.deal, live, seat, lang, {}, closing=closing
            )
        return seen

    # ---- the deal -------------------------------------------------------------------------------

    async def _new_deal(self, live: OpenTable, dealer: int, *, redeal: bool = False) -> None:
        """Deal: shuffle (the only chance), antes (F3, SK12), the cards and the turn-up (F4).

        `dealer` is a place in the table's seats (the next one dealt in deals if he sits out);
        an F8 redeal deals to the same players as the deal it replaces, the same dealer, whoever
        sat down or went away meanwhile (a redeal is not a new deal)."""
        # The pot as stored now: a row read before the last step (F8's antes) would be stale.
        chat = await self.storage.chats.chat(live.row.chat_id)
        game = live.row.game
        cls = self.ui.deal
        rules = self.ui.engine_rules(chat.rules)
        ante, money = self.ui.deal_money(chat.rules, chat.ante)  # N1, N5: c and u
        previous = deal(live)
        if redeal and previous is not None:
            seats, dealt_dealer = live.deal_seats, previous.dealer
            sitting_out, short = live.sitting_out, live.short
        else:
            everyone = live.row.seats
            seats, short = await self.host.dealt_in(live, chat)
            dealer_uid = next(
                everyone[(dealer + k) % len(everyone)]
                for k in range(len(everyone))
                if everyone[(dealer + k) % len(everyone)] in seats
            )
            dealer, dealt_dealer = everyone.index(dealer_uid), seats.index(dealer_uid)
            sitting_out = tuple(uid for uid in everyone if uid not in seats)
        names = labels([live.users[uid].name for uid in seats])
        chance = live.first_chance(self.host.rng)
        deck = shuffled(make_deck(cls.deck_size_for(rules, len(seats))), chance)
        new, events = cls.create(
            rules, names, dealt_dealer, ante, chat.pot_of(game), deck,
            pot_has_penalty=chat.penalty_in(game), redeal=redeal, **money,
        )  # fmt: skip
        begun = DealBegun(
            new.to_record(), seats=seats, dealer=dealer, deal_no=live.row.deal_no + 1,
            deadline=self.host.deadline(chat), chips=self._movements(seats, events),
            sitting_out=sitting_out, short=short,
        )  # fmt: skip
        await self.host.store(live, begun)
        live.play = Dealt(new)
        await self._show_deal(live, chat)

    async def _apply(
        self,
        live: OpenTable,
        played: TrickDeal,
        action: Action,
        *,
        note: tuple[str, str] | None = None,
        by_player: bool = True,
    ) -> Moved:
        try:
            new, events = played.apply(action)
        except IllegalAction as exc:
            raise Refusal("err.illegal") from exc
        while (forced := new.forced_move()) is not None:  # stored with this step
            new, more = new.apply(forced)
            events += more
        chat = await self.storage.chats.chat(live.row.chat_id)
        state, look = dealt(live), action.do is Do.LOOK  # F7: looking takes no turn
        auto = dict(state.auto)
        if by_player:
            auto.pop(action.seat, None)
        elif not look:
            auto[action.seat] = action  # his control message says what was played
        deadline = self.host.idle_deadline() if new.finished else self.host.deadline(chat)
        step = Stepped(
            new.to_record(),
            deadline=live.row.deadline if look else deadline,
            chips=self._movements(live.deal_seats, events),
            finished=new.finished,
            pot_has_penalty=new.pot_has_penalty if new.finished else None,
            rated=seating.rated(live) if new.finished else (),
        )
        await self.host.store(live, step)
        selection = {seat: c for seat, c in state.selection.items() if seat != action.seat}
        live.play = Dealt(new, selection=selection, auto=auto, note=state.note if look else note)
        if look:
            await self._show_hand(live, chat, action.seat)
            return Moved.IN_PLAY
        await self._show_deal(live, chat)
        if new.finished:
            return await self._deal_over(live, chat)
        return Moved.IN_PLAY

    async def _deal_over(self, live: OpenTable, chat: ChatRow) -> Moved:
        played = played_deal(live)
        if not played.needs_redeal:
            return Moved.DEAL_OVER
        # F8: the same dealer redeals at once, no ante
        await self._post_result(live, chat, offer_next=False)
        if all(seating.plays_itself(live, uid) for uid in computer.people(live.deal_seats)):
            return Moved.ABANDONED  # everyone is away: the bot would pass for them forever
        await self.host.show(live, chat, DealRetired(live.row.deal_no))
        await self._new_deal(live, live.row.dealer or 0, redeal=True)
        return Moved.IN_PLAY

    def between_deals(self, live: OpenTable) -> bool:
        """Whether the deal is over and the table waits for "next deal"."""
        played = deal(live)
        return played is not None and played.finished

    async def offer_next(self, live: OpenTable, chat: ChatRow) -> None:
        """The deal's result, with its "next deal" button."""
        await self._post_result(live, chat, offer_next=True)

    async def next_deal(self, live: OpenTable, chat: ChatRow) -> Moved:
        """Deal the next hand (the next dealer, F2); the last result loses its button."""
        previous = live.row.deal_no
        await self.host.show(live, chat, ResultShown(previous))
        await self._new_deal(live, self._next_dealer(live, played_deal(live)))
        await self.host.show(live, chat, DealRetired(previous))
        return Moved.IN_PLAY

    def _next_dealer(self, live: OpenTable, played: TrickDeal) -> int:
        """F2: the seat after the last dealer; SK3: the last declarer, if still seated."""
        seats = live.row.seats
        nominee = live.deal_seats[played.next_dealer]
        if played.next_dealer != (played.dealer + 1) % played.n and nominee in seats:
            return seats.index(nominee)
        previous = live.deal_seats[played.dealer]
        if previous in seats:
            return (seats.index(previous) + 1) % len(seats)
        return (live.row.dealer or 0) % len(seats)

    def _movements(self, seats: Sequence[int], events: Sequence[Event]) -> list[Movement]:
        return [
            Movement(seats[e.seat], e.amount, e.reason.value)
            for e in events
            if isinstance(e, ChipsMoved) and e.amount
        ]

    async def stop(self, live: OpenTable, chat: ChatRow) -> bool:
        """The table closed: a deal in play voided with every chip of it returned (else the row
        stored), its messages shown for the last time."""
        voided = live.in_deal and live.deal_id is not None
        await self.host.store(live, Voided() if voided else RowOnly())
        if live.in_deal:
            await self._show_deal(live, chat, closing=True)
        else:  # between deals: the last result loses its "next deal" button
            await self._post_result(live, chat, offer_next=False, closing=True)
        return voided

    # ---- what the messages show -----------------------------------------------------------------

    async def _show_deal(self, live: OpenTable, chat: ChatRow, *, closing: bool = False) -> None:
        """The deal's table message and every player's control message (a finished deal's
        result has the ways in, not its table message)."""
        played = played_deal(live)
        current = not closing and not played.finished
        shown = DealShown(played, live.row.deal_no, closing=closing, current=current)
        await self.host.show(live, chat, shown)

    async def _show_hand(
        self, live: OpenTable, chat: ChatRow, seat: int, *, anew: int | None = None
    ) -> None:
        """Show a player his control message (`anew`: posted again at the bottom of his chat,
        the old one deleted)."""
        shown = DealShown(played_deal(live), live.row.deal_no, seat=seat, anew=anew)
        await self.host.show(live, chat, shown)

    async def _post_result(
        self, live: OpenTable, chat: ChatRow, *, offer_next: bool, closing: bool = False
    ) -> None:
        """A deal's result in the group, the table's current message while it stays open."""
        result = ResultShown(live.row.deal_no, current=not closing, offer_next=offer_next)
        await self.host.show(live, chat, result)
