"""One deal of Frap as a state machine: whose turn, what is legal, what applying an action gives.

Every rule point of docs/rules.md (F1–F15) is implemented here or in `settle.py`; each is cited
where it applies. Khrap (K1–K6) is the same game with five cards, three tricks to make, two
trump rounds and its own money: `KhrapDeal` changes only those. A deal is fully determined by its
header and its action list, so the record *is* the serialised state (`to_record` /
`start_from_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from ..actions import Action, Do, Verb
from ..cards import Card
from ..deal import TrickDeal, card_actions, shared_action, with_item
from ..errors import IllegalAction
from ..events import AllPassed, Event, Reason, bid_made, cut_decided, exchanged, looked
from ..tricks import clockwise, in_order, legal_plays, why_illegal
from .rules import FrapRules
from .settle import settle_play


class Phase(StrEnum):
    """The stage a deal is in."""

    BIDDING = "bidding"  # F5, F7, F8
    WHIST = "whist"  # F6
    DARK_DISCARD = "dark_discard"  # F7
    BUYING = "buying"  # F9
    CUTTING = "cutting"  # F10
    CUT_DISCARD = "cut_discard"  # F10
    PLAY = "play"  # F11, F12
    FINISHED = "finished"  # F13–F15


_PHASE_RULE = {
    Phase.BIDDING: "F5",
    Phase.WHIST: "F6",
    Phase.DARK_DISCARD: "F7",
    Phase.BUYING: "F9",
    Phase.CUTTING: "F10",
    Phase.CUT_DISCARD: "F10",
    Phase.PLAY: "F12",
    Phase.FINISHED: "F15",
}


@dataclass
class FrapDeal(TrickDeal):
    """The whole state of one Frap deal. Use `new`, `apply` and `start_from_record`."""

    game: ClassVar[str] = "frap"
    MIN_PLAYERS: ClassVar[int] = 2  # F1
    MAX_PLAYERS: ClassVar[int] = 12
    HAND_SIZE: ClassVar[int] = 4  # F4
    DECLARER_NEEDS: ClassVar[int] = 2  # F5
    MAX_ROUNDS: ClassVar[int] = 3  # F8
    BID: ClassVar[Verb] = Do.FRAP
    DARK_BID: ClassVar[Verb] = Do.DARK_FRAP
    FINISHED: ClassVar[StrEnum] = Phase.FINISHED
    # F7, F10: the dark declarer's and a cutter's discard of one card go face down too.
    FACE_DOWN: ClassVar[frozenset[Verb]] = frozenset({Do.DISCARD, Do.DARK_DISCARD, Do.CUT_DISCARD})
    # F7, F9, F10: the dark declarer and a cutter take cards after they spoke.
    CHANGES_HAND: ClassVar[frozenset[Verb]] = frozenset({Do.DISCARD, Do.DARK_FRAP, Do.CUT})

    rules: FrapRules = field(default_factory=FrapRules)
    phase: Phase = Phase.BIDDING
    looked: tuple[bool, ...] = ()
    dark: bool = False
    taken_turnup: Card | None = None  # the turn-up the dark declarer took (F14 ×3 case)
    whisters: tuple[int, ...] = ()
    cutters: tuple[int, ...] = ()

    # ---- creation -------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: FrapRules,
        players: Sequence[str],
        dealer: int,
        ante: int,
        pot: int,
        deck: Sequence[Card],
        *,
        pot_has_penalty: bool = False,
        redeal: bool = False,
    ) -> tuple[FrapDeal, list[Event]]:
        """Start a deal: antes (F3), the deal and the turn-up (F4); `deck` is top card first."""
        size = rules.deck_size_for(len(players))
        cls._check_header(players, dealer, ante, pot, deck, size, cls.HAND_SIZE)
        deal = cls(
            players=tuple(players), dealer=dealer, ante=ante, start_pot=pot,
            pot_had_penalty=pot_has_penalty, redeal=redeal, deck=tuple(deck), rules=rules,
            looked=(False,) * len(players),
        )  # fmt: skip
        events: list[Event] = []
        carries = rules.ante == "penalty_carries" and pot_has_penalty
        deal._start(cls.HAND_SIZE, ante=not redeal and not carries, events=events)  # F3, F4
        return deal, events

    @classmethod
    def create(
        cls, rules: dict[str, Any], players: Sequence[str], dealer: int, ante: int, pot: int,
        deck: Sequence[Card], *, pot_has_penalty: bool = False, redeal: bool = False,
    ) -> tuple[FrapDeal, list[Event]]:  # fmt: skip
        """Start a deal from a record-style `rules` object."""
        return cls.new(
            FrapRules.from_dict(rules), players, dealer, ante, pot, deck,
            pot_has_penalty=pot_has_penalty, redeal=redeal,
        )  # fmt: skip

    @classmethod
    def deck_size_for(cls, rules: dict[str, Any], n_players: int) -> int:
        """F1 (and K1): the deck by the number of players, or the fixed size of the option."""
        return FrapRules.from_dict(rules).deck_size_for(n_players)

    def rules_record(self) -> dict[str, Any]:
        """The record's `rules` object."""
        return self.rules.to_dict()

    # ---- questions ------------------------------------------------------------------------------

    @property
    def participants(self) -> list[int]:
        """Declarer, whisters and cutters: the seats that play tricks (F12)."""
        if self.declarer is None:
            return []
        return sorted([self.declarer, *self.whisters, *self.cutters])

    def role(self, seat: int) -> str | None:
        """ "declarer", "whister", "cutter", "out" (passed after the frap) or None."""
        if seat == self.declarer:
            return "declarer"
        if seat in self.cutters:
            return "cutter"
        if seat in self.whisters:
            return "whister"
        if self.declarer is None:
            return None
        if self.phase is Phase.WHIST and self.bids[seat] is not Do.PASS:
            return None  # not yet answered the frap (F6)
        return "out"

    def hand_hidden(self, seat: int) -> bool:
        """F7: a hand nobody has looked at stays face down, even to its owner."""
        return not self.looked[seat]

    def _offer(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, including opening the hand (F7)."""
        if self.finished or not 0 <= seat < self.n:
            return []
        actions = [] if self.looked[seat] else [shared_action(seat, Do.LOOK)]
        if seat == self.queue[0]:
            actions += _OFFERS[self.phase](self, seat)
        return actions

    def _offer_bids(self, seat: int) -> list[Action]:
        bids = [shared_action(seat, self.BID)]  # F5
        if not self.looked[seat]:
            bids.append(shared_action(seat, self.DARK_BID))  # F7
        bids.append(shared_action(seat, Do.PASS))
        return bids

    def _offer_whist(self, seat: int) -> list[Action]:
        answers = [shared_action(seat, Do.WHIST)]  # F6
        if not self.rules.must_whist:  # K6 option
            answers.append(shared_action(seat, Do.PASS))
        return answers

    def _offer_dark_discard(self, seat: int) -> list[Action]:
        row = card_actions(seat, Do.DARK_DISCARD)  # F7
        return [row[card.index] for card in self.hands[seat]]

    def _offer_cut_discard(self, seat: int) -> list[Action]:
        row = card_actions(seat, Do.CUT_DISCARD)  # F10
        return [row[card.index] for card in self.hands[seat]]

    def _offer_buying(self, seat: int) -> list[Action]:
        return self._exchange_options(seat, self.HAND_SIZE)  # F9

    def _offer_cutting(self, seat: int) -> list[Action]:
        cuts = [shared_action(seat, Do.NO_CUT)]  # F10
        if self._cut_possible(turnup=True):
            cuts.append(shared_action(seat, Do.CUT, None, True))
        if self._cut_possible(turnup=False):
            cuts.append(shared_action(seat, Do.CUT, None, False))
        return cuts

    def _offer_plays(self, seat: int) -> list[Action]:
        led = self.trick[0].card.suit if self.trick else None  # F12: follow, else trump
        row = card_actions(seat, Do.PLAY)
        return [row[card.index] for card in legal_plays(self.hands[seat], led, self.trump)]

    # ---- applying -------------------------------------------------------------------------------

    def _phase_rule(self) -> str:
        return _PHASE_RULE[self.phase]

    def _apply_in_place(self, action: Action) -> list[Event]:
        self._check_turn(action)
        return self._step(action)

    def _step(self, action: Action) -> list[Event]:
        events: list[Event] = []
        seat = action.seat
        if action.do is Do.LOOK:
            self.looked = with_item(self.looked, seat, True)
            events.append(looked(seat))
            self.actions += (action,)
            return events
        if action.do is not self.DARK_BID and not self.looked[seat]:
            # HAND_FORMAT: any other action counts as having looked
            self.looked = with_item(self.looked, seat, True)
        _HANDLERS[self.phase](self, action, events)
        self.actions += (action,)
        return events

    def _check_turn(self, action: Action) -> None:
        allowed = self._allowed()
        if action.do in allowed and self.queue and action.seat == self.queue[0]:
            return  # the usual case: the seat to act does what the phase asks
        if self.finished:
            raise IllegalAction("F15", "the deal is over")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("F2", f"there is no seat {action.seat}")
        if action.do is Do.LOOK:
            if self.looked[action.seat]:
                raise IllegalAction("F7", "the hand is already open")
            return
        if action.do not in allowed:
            if action.do is Do.WHIST and self.phase is Phase.BIDDING:
                raise IllegalAction("F5", f"whist is illegal before a {self.BID.value}")
            if action.do in (self.BID, self.DARK_BID):
                raise IllegalAction("F5", f"only one {self.BID.value} per deal")
        self._check_seat_and_turn(action, allowed, "F15")

    def _allowed(self) -> frozenset[Verb]:
        key = (type(self), self.phase, self.rules.must_whist)
        allowed = _ALLOWED.get(key)
        if allowed is None:
            allowed = _ALLOWED[key] = frozenset(self._allowed_now())
        return allowed

    def _allowed_now(self) -> set[Verb]:
        match self.phase:
            case Phase.BIDDING:
                return {self.BID, self.DARK_BID, Do.PASS}
            case Phase.WHIST:
                return {Do.WHIST} if self.rules.must_whist else {Do.WHIST, Do.PASS}
            case Phase.DARK_DISCARD:
                return {Do.DARK_DISCARD}
            case Phase.BUYING:
                return {Do.DISCARD}
            case Phase.CUTTING:
                return {Do.CUT, Do.NO_CUT}
            case Phase.CUT_DISCARD:
                return {Do.CUT_DISCARD}
            case Phase.PLAY:
                return {Do.PLAY}
        return set()

    # F5, F7, F8: bidding rounds.
    def _bid(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.do is self.DARK_BID and self.looked[seat]:
            raise IllegalAction("F7", f"dark {self.BID.value} needs a hand not yet looked at")
        self.bids = with_item(self.bids, seat, action.do)
        events.append(bid_made(seat, action.do))
        if action.do is Do.PASS:
            self.queue = self.queue[1:]
            if not self.queue:
                self._all_passed(events)
            return
        # F5: the first frap makes the declarer; F6: everyone else, passers included, answers.
        self.declarer = seat
        self.dark = action.do is self.DARK_BID
        self.phase = Phase.WHIST
        self.queue = clockwise(seat, self.n)[1:]
        self.bids = tuple(bid if other == seat else None for other, bid in enumerate(self.bids))

    def _all_passed(self, events: list[Event]) -> None:
        """F8: everyone pays the ante, the turn-up dies, a new one is turned (or the redeal)."""
        self._everyone_pays(Reason.ALL_PASS_ANTE, events)
        dead = self.turnup
        assert dead is not None
        self.dead_turnups += (dead,)
        self.turnup = None
        # F8 (K3: two rounds in Khrap): after the last round, the redeal. An empty stock (no new
        # turn-up to turn) ends the deal the same way; with the decks of F1 the stock always holds
        # at least 3 cards, so this is only a guard.
        if self.round == self.MAX_ROUNDS or not self.stock_size:
            events.append(AllPassed(self.round, dead, None))
            self.needs_redeal = True
            self.pot_has_penalty = self.pot_had_penalty
            self._finish(events)
            return
        self.round += 1
        self._turn_up_next()
        assert self.turnup is not None
        events.append(AllPassed(self.round - 1, dead, self.turnup))
        self.bids = (None,) * self.n
        self.queue = clockwise(self.left_of_dealer, self.n)

    # F6: whist or pass after the frap.
    def _whist(self, action: Action, events: list[Event]) -> None:
        self.bids = with_item(self.bids, action.seat, action.do)
        events.append(bid_made(action.seat, action.do))
        if action.do is Do.WHIST:
            self.whisters += (action.seat,)
        self.queue = self.queue[1:]
        if self.queue:
            return
        if not self.whisters and not self.rules.cut_when_uncontested:
            self._declarer_takes_pot(events)  # F6 (S0)
        elif self.dark:
            self._take_turnup(self._declarer, events)  # F7
            self.taken_turnup = self.hands[self._declarer][-1]
            self.phase = Phase.DARK_DISCARD
            self.queue = (self._declarer,)
        else:
            self._start_buying()

    # F7: the dark declarer discards one of five cards.
    def _dark_discard(self, action: Action, events: list[Event]) -> None:
        self._discard_one(action, "F7", events)
        self._start_buying()

    # F9: buying, in order from the dealer's left.
    def _start_buying(self) -> None:
        self.phase = Phase.BUYING
        self.queue = in_order([self._declarer, *self.whisters], self.left_of_dealer, self.n)

    def _buy(self, action: Action, events: list[Event]) -> None:
        self._exchange(action, "F9", events)
        self.queue = self.queue[1:]
        if not self.queue:
            self._start_cutting(events)

    # F10: cutting-in by those who passed.
    def _start_cutting(self, events: list[Event]) -> None:
        self.phase = Phase.CUTTING
        passers = [s for s in range(self.n) if s != self.declarer and s not in self.whisters]
        self.queue = in_order(passers, self.left_of_dealer, self.n) if self.rules.cutting_in else ()
        self._next_cutter(events)

    def _cut_possible(self, *, turnup: bool) -> bool:
        """F10: a cut needs a hand and one more from the stock, or one fewer with the turn-up."""
        if turnup:
            return self.turnup is not None and self.stock_size >= self.HAND_SIZE
        return self.stock_size >= self.HAND_SIZE + 1

    def _next_cutter(self, events: list[Event]) -> None:
        """Skip passers the stock no longer allows to cut in; start play when none is left."""
        self.phase = Phase.CUTTING
        while self.queue and not (
            self._cut_possible(turnup=True) or self._cut_possible(turnup=False)
        ):
            self.queue = self.queue[1:]
        if not self.queue:
            self._start_play(events)

    def _cut(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.do is Do.NO_CUT:
            events.append(cut_decided(seat, cut=False))
            self.bids = with_item(self.bids, seat, Do.NO_CUT)
            self.queue = self.queue[1:]
            self._next_cutter(events)
            return
        if action.turnup is None:
            raise IllegalAction("F10", "say whether the turn-up is taken")
        if action.turnup and self.turnup is None:
            raise IllegalAction("F10", "the turn-up is no longer on the table")
        if not self._cut_possible(turnup=action.turnup):
            raise IllegalAction("F10", f"the stock holds only {self.stock_size} cards")
        events.append(cut_decided(seat, cut=True, turnup=action.turnup))
        self.bids = with_item(self.bids, seat, Do.CUT)
        self.cutters += (seat,)
        self._drop_hand(seat)
        if action.turnup:
            self._take_turnup(seat, events)
        drawn = self.HAND_SIZE + 1 - len(self.hands[seat])
        self._set_hand(seat, self.hands[seat] + self._draw(drawn))
        events.append(exchanged(seat, self.HAND_SIZE, drawn))
        self.phase = Phase.CUT_DISCARD

    def _cut_discard(self, action: Action, events: list[Event]) -> None:
        self._discard_one(action, "F10", events)
        self.queue = self.queue[1:]
        self._next_cutter(events)

    # F11, F12: play.
    def _start_play(self, events: list[Event]) -> None:
        if not self.whisters and not self.cutters:
            self._declarer_takes_pot(events)  # F6 option: uncontested and nobody cut in
            return
        if self.cutters:
            self.leader = self.cutters[-1] if self.rules.lead == "last_cutter" else self.cutters[0]
        else:
            self.leader = self._declarer
        self.phase = Phase.PLAY
        self.p0 = self.pot
        self.queue = in_order(self.participants, self.leader, self.n)

    def _play(self, action: Action, events: list[Event]) -> None:
        seat, card = action.seat, action.card
        if card is None:
            raise IllegalAction("F12", "say which card is played")
        hand = self.hands[seat]
        led = self.trick[0].card.suit if self.trick else None
        if card not in legal_plays(hand, led, self.trump):
            raise IllegalAction("F12", why_illegal(card, hand, led, self.trump) or "")
        self._lay(seat, card, self.HAND_SIZE, events)

    # F13–F15: money.
    def _settle(self, events: list[Event]) -> None:
        moves = settle_play(
            self.rules,
            p0=self.p0,
            declarer=self._declarer,
            dark=self.dark,
            taken_turnup=self.taken_turnup,
            trump=self.trump,
            opponents=[*self.whisters, *self.cutters],
            tricks=self.tricks_won,
            needs=self.DECLARER_NEEDS,
            tricks_in_deal=self.HAND_SIZE,
        )
        for move in moves:
            self._move(move, events)
        self.pot_has_penalty = any(m.reason is Reason.PENALTY and m.amount for m in moves)
        self._finish(events)


_ALLOWED: dict[tuple[type, Phase, bool], frozenset[Verb]] = {}
# What the seat to act may do in each phase (legal_actions), in the order the bot offers it.
_OFFERS: dict[Phase, Callable[[FrapDeal, int], list[Action]]] = {
    Phase.BIDDING: FrapDeal._offer_bids,
    Phase.WHIST: FrapDeal._offer_whist,
    Phase.DARK_DISCARD: FrapDeal._offer_dark_discard,
    Phase.BUYING: FrapDeal._offer_buying,
    Phase.CUTTING: FrapDeal._offer_cutting,
    Phase.CUT_DISCARD: FrapDeal._offer_cut_discard,
    Phase.PLAY: FrapDeal._offer_plays,
}
_HANDLERS: dict[Phase, Callable[[FrapDeal, Action, list[Event]], None]] = {
    Phase.BIDDING: FrapDeal._bid,
    Phase.WHIST: FrapDeal._whist,
    Phase.DARK_DISCARD: FrapDeal._dark_discard,
    Phase.BUYING: FrapDeal._buy,
    Phase.CUTTING: FrapDeal._cut,
    Phase.CUT_DISCARD: FrapDeal._cut_discard,
    Phase.PLAY: FrapDeal._play,
}
