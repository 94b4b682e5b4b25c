"""One deal of Student Khrap (студенческий храп, docs/rules.md SK1–SK13) as a state machine.

36 cards, 3–4 players, 4 cards each; the 7♠ is the joker. Bidding: khrap (≥ 2 tricks) or pass;
after a khrap the later players help ("pomogu", ≥ 1), take five ("beru pyat'", ≥ 1) or pass;
"veselyu" and "zavorachivayu" take over the declaration. Then exchanges and four tricks; the bank
pays a quarter per trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from ..actions import Action, Do, Verb
from ..cards import Card, Rank, Suit
from ..deal import TrickDeal, card_actions, shared_action, with_item
from ..errors import IllegalAction
from ..events import AllPassed, ChipsMoved, Event, Reason, bid_made, exchanged
from ..tricks import clockwise, in_order, legal_plays, why_illegal
from .rules import StudentRules

HAND_SIZE = 4  # SK1
DECK_SIZE = 36  # SK1
JOKER = Card(Rank.SEVEN, Suit.SPADES)  # SK2
DECLARER_NEEDS, HELPER_NEEDS = 2, 1  # SK4, SK7, SK10


class StudentDo(Verb):
    """Student Khrap's own words: its khrap (SK4: spelled as Khrap's, but this game's call),
    the answers to it (SK4, SK7–SK9) and the discard of one card that completes a call."""

    KHRAP = "khrap"
    POMOGU = "pomogu"
    BERU_PYAT = "beru_pyat"
    VESELYU = "veselyu"
    ZAVORACHIVAYU = "zavorachivayu"
    CALL_DISCARD = "call_discard"


class Phase(StrEnum):
    """The stage a Student Khrap deal is in."""

    BIDDING = "bidding"  # SK4, SK5, SK7–SK10
    CALL_DISCARD = "call_discard"  # SK7–SK9: the caller discards one of five cards
    EXCHANGE = "exchange"  # SK6
    PLAY = "play"  # SK2, SK11
    FINISHED = "finished"  # SK12


_PHASE_RULE = {
    Phase.BIDDING: "SK4",
    Phase.CALL_DISCARD: "SK7",  # or SK8, SK9: the rule of the call being completed
    Phase.EXCHANGE: "SK6",
    Phase.PLAY: "SK11",
    Phase.FINISHED: "SK12",
}
# The calls, in the order they are offered (legal_actions).
_CALL_ORDER: tuple[Verb, ...] = (
    *(StudentDo.KHRAP, StudentDo.POMOGU, StudentDo.BERU_PYAT, StudentDo.VESELYU),
    *(StudentDo.ZAVORACHIVAYU, Do.PASS),
)
_PHASE_ACTIONS: dict[Phase, set[Verb]] = {
    Phase.BIDDING: set(_CALL_ORDER),
    Phase.CALL_DISCARD: {StudentDo.CALL_DISCARD},
    Phase.EXCHANGE: {Do.DISCARD},
    Phase.PLAY: {Do.PLAY},
    Phase.FINISHED: set(),
}
# What each call draws from the stock before its discard (SK7–SK9).
_DRAWS: dict[Verb, int] = {StudentDo.BERU_PYAT: 5, StudentDo.VESELYU: 4, StudentDo.ZAVORACHIVAYU: 4}


@dataclass
class StudentDeal(TrickDeal):
    """The whole state of one Student Khrap deal. Use `new`, `apply`, `from_record`."""

    game: ClassVar[str] = "student_khrap"
    MIN_PLAYERS: ClassVar[int] = 3  # SK1
    MAX_PLAYERS: ClassVar[int] = 4
    MAX_ROUNDS: ClassVar[int] = 3  # SK5: at most three turn-ups
    DECLARER_NEEDS: ClassVar[int] = DECLARER_NEEDS  # SK4
    FINISHED: ClassVar[StrEnum] = Phase.FINISHED
    VERBS: ClassVar[tuple[type[Verb], ...]] = (Do, StudentDo)
    # SK2: the 7♠ is played with `joker` said, and a led joker may name a suit (option).
    ACTION_FIELDS: ClassVar[dict[Verb, frozenset[str]]] = {
        **TrickDeal.ACTION_FIELDS,
        Do.PLAY: frozenset({"card", "joker", "suit"}),
        StudentDo.CALL_DISCARD: frozenset({"card"}),
    }
    # SK7–SK9: a call's discard of one card goes face down too.
    FACE_DOWN: ClassVar[frozenset[Verb]] = frozenset({Do.DISCARD, StudentDo.CALL_DISCARD})
    # SK6–SK9: a call draws cards after it is said.
    CHANGES_HAND: ClassVar[frozenset[Verb]] = frozenset(
        {Do.DISCARD, StudentDo.BERU_PYAT, StudentDo.VESELYU, StudentDo.ZAVORACHIVAYU}
    )

    rules: StudentRules = field(default_factory=StudentRules)
    phase: Phase = Phase.BIDDING
    helpers: tuple[int, ...] = ()  # pomogu, and a declarer taken over (SK10)
    takers: tuple[int, ...] = ()  # beru pyat' callers (SK7)
    led_suit: Suit | None = None  # the suit a led joker named (SK2 option)

    # ---- creation -------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: StudentRules,
        players: Sequence[str],
        dealer: int,
        ante: int,
        pot: int,
        deck: Sequence[Card],
        *,
        redeal: bool = False,
    ) -> tuple[StudentDeal, list[Event]]:
        """Start a deal; SK12: antes only when the bank is empty (and not at a redeal)."""
        cls._check_header(players, dealer, ante, pot, deck, DECK_SIZE, HAND_SIZE)
        deal = cls(
            players=tuple(players), dealer=dealer, ante=ante, start_pot=pot,
            pot_had_penalty=False, redeal=redeal, deck=tuple(deck), rules=rules,
        )  # fmt: skip
        events: list[Event] = []
        deal._start(HAND_SIZE, ante=pot == 0 and not redeal, events=events)
        return deal, events

    @classmethod
    def create(
        cls, rules: dict[str, Any], players: Sequence[str], dealer: int, ante: int, pot: int,
        deck: Sequence[Card], *, pot_has_penalty: bool = False, redeal: bool = False,
    ) -> tuple[StudentDeal, list[Event]]:  # fmt: skip
        """Start a deal from a record-style `rules` object (SK has no penalty carry-over)."""
        return cls.new(
            StudentRules.from_dict(rules), players, dealer, ante, pot, deck, redeal=redeal
        )

    @classmethod
    def deck_size_for(cls, rules: dict[str, Any], n_players: int) -> int:
        """SK1: always the 36-card deck."""
        return DECK_SIZE

    def rules_record(self) -> dict[str, Any]:
        """The record's `rules` object."""
        return self.rules.to_dict()

    # ---- questions ------------------------------------------------------------------------------

    @property
    def participants(self) -> list[int]:
        """Declarer, helpers and takers: the seats that play tricks."""
        if self.declarer is None:
            return []
        return sorted([self.declarer, *self.helpers, *self.takers])

    @property
    def next_dealer(self) -> int:
        """SK3: the last khrap declarer deals next; after an all-pass redeal, the same dealer."""
        return self.dealer if self.declarer is None else self.declarer

    def role(self, seat: int) -> str | None:
        """ "declarer", "helper", "taker", "out" (passed), or None (not yet spoken)."""
        if seat == self.declarer:
            return "declarer"
        if seat in self.helpers:
            return "helper"
        if seat in self.takers:
            return "taker"
        return "out" if self.bids[seat] is Do.PASS and self.declarer is not None else None

    def _offer(self, seat: int) -> list[Action]:
        """Every action `seat` may take now."""
        if self.finished or not 0 <= seat < self.n or seat != self.queue[0]:
            return []
        hand = self.hands[seat]
        match self.phase:
            case Phase.BIDDING:
                return [shared_action(seat, do) for do in self._calls(seat)]
            case Phase.CALL_DISCARD:
                row = card_actions(seat, StudentDo.CALL_DISCARD)
                return [row[card.index] for card in hand]
            case Phase.EXCHANGE:
                return self._exchange_options(seat, HAND_SIZE)
            case Phase.PLAY:
                return self._plays(seat)
        return []

    def _calls(self, seat: int) -> list[Verb]:
        return [do for do in _CALL_ORDER if self._why_not(seat, do) is None]

    def _why_not(self, seat: int, do: Verb) -> tuple[str, str] | None:
        """Why `seat` may not say `do` in the bidding now (rule, reason), or None if it may."""
        khrap_said = self.declarer is not None
        trump_ace = Card(Rank.ACE, self.trump)
        match do:
            case Do.PASS:
                return None
            case StudentDo.KHRAP:
                # SK4: one declarer; after him the later players help, take five or pass.
                return ("SK4", "only one khrap per deal: help or pass") if khrap_said else None
            case StudentDo.POMOGU:
                return None if khrap_said else ("SK4", "pomogu answers a khrap; none is said")
            case StudentDo.BERU_PYAT if not khrap_said:
                return ("SK7", "beru pyat' is said only after a khrap")
            case StudentDo.VESELYU if trump_ace not in self.hands[seat]:
                return ("SK8", f"veselyu needs the trump ace {trump_ace.label} in the hand")
            case StudentDo.ZAVORACHIVAYU if seat != self.dealer:
                return ("SK9", "only the dealer may say zavorachivayu")
            case StudentDo.ZAVORACHIVAYU if self.turnup is None or self.turnup.rank is not Rank.ACE:
                return ("SK9", "zavorachivayu needs an ace turned up")
        if do in _DRAWS:
            if self.stock_size < _DRAWS[do]:
                return (_CALL_RULE[do], f"the stock holds only {self.stock_size} cards")
            return None
        return ("SK4", f"{do.value} is not a call of Student Khrap")

    def _led(self) -> tuple[Suit | None, bool]:
        """The suit the others must follow now, and whether a led joker asks for trumps (SK2)."""
        if not self.trick:
            return None, False
        first = self.trick[0]
        if not first.joker:
            return first.card.suit, False
        if self.led_suit is not None:
            return self.led_suit, False
        return self.trump, True

    def _plays(self, seat: int) -> list[Action]:
        """SK2, F12: follow suit, else trump, else anything; the joker whenever its owner likes."""
        hand = self.hands[seat]
        rest = [card for card in hand if card != JOKER]
        led, _ = self._led()
        plays = legal_plays(rest, led, self.trump)
        row = card_actions(seat, Do.PLAY)
        actions = [row[card.index] for card in plays]
        if JOKER in hand:
            if not self.trick and self.rules.joker_lead == "named_suit":
                actions += [shared_action(seat, Do.PLAY, JOKER, joker=True, suit=s) for s in Suit]
            else:
                actions.append(shared_action(seat, Do.PLAY, JOKER, joker=True))
            if JOKER in legal_plays([*rest, JOKER], led, self.trump):
                actions.append(shared_action(seat, Do.PLAY, JOKER, joker=False))
        return actions

    # ---- applying -------------------------------------------------------------------------------

    def _phase_rule(self) -> str:
        if self.phase is Phase.CALL_DISCARD:
            call = self.bids[self.queue[0]]
            assert call is not None
            return _CALL_RULE[call]  # SK7, SK8 or SK9: the call being completed
        return _PHASE_RULE[self.phase]

    def _apply_in_place(self, action: Action) -> list[Event]:
        self._check_seat_and_turn(action, _PHASE_ACTIONS[self.phase], "SK12")
        return self._step(action)

    def _step(self, action: Action) -> list[Event]:
        events: list[Event] = []
        if self.phase is Phase.BIDDING:
            self._bid(action, events)
        elif self.phase is Phase.CALL_DISCARD:
            self._discard_one(action, self._phase_rule(), events)
            self.phase = Phase.BIDDING
            self._next_bidder(events)
        elif self.phase is Phase.EXCHANGE:
            self._exchange(action, "SK6", events)
            self.queue = self.queue[1:]
            if not self.queue:
                self._start_play()
        else:
            self._play(action, events)
        self.actions += (action,)
        return events

    def _bid(self, action: Action, events: list[Event]) -> None:
        seat, do = action.seat, action.do
        why = self._why_not(seat, do)
        if why is not None:
            raise IllegalAction(*why)
        self.bids = with_item(self.bids, seat, do)
        events.append(bid_made(seat, do))
        if do is StudentDo.KHRAP:
            self.declarer = seat
        elif do is StudentDo.POMOGU:
            self.helpers += (seat,)
        elif do in _DRAWS:
            self._call(seat, do, events)
            return
        self._next_bidder(events)

    def _call(self, seat: int, do: Verb, events: list[Event]) -> None:
        """SK7–SK10: draw, then discard one; veselyu and zavorachivayu take the declaration."""
        if do is StudentDo.BERU_PYAT:
            self.takers += (seat,)
            self._drop_hand(seat)
        else:
            if self.declarer is not None:
                self.helpers += (self.declarer,)  # SK10: the former declarer helps
            self.declarer = seat
            if do is StudentDo.VESELYU:
                self._drop_hand(seat, keep=[Card(Rank.ACE, self.trump)])
            else:
                self._drop_hand(seat)
                self._take_turnup(seat, events)
        drawn = _DRAWS[do]
        self._set_hand(seat, self.hands[seat] + self._draw(drawn))
        events.append(exchanged(seat, HAND_SIZE - (do is StudentDo.VESELYU), drawn))
        self.phase = Phase.CALL_DISCARD

    def _next_bidder(self, events: list[Event]) -> None:
        self.queue = self.queue[1:]
        if self.queue:
            return
        if self.declarer is None:
            self._all_passed(events)
        elif not self.helpers and not self.takers:
            self._declarer_takes_pot(events)  # nobody plays against the declarer
        else:
            self.phase = Phase.EXCHANGE  # SK6: the declarer first, then in order
            exchangers = [self._declarer, *self.helpers]
            self.queue = in_order(exchangers, self._declarer, self.n)

    def _all_passed(self, events: list[Event]) -> None:
        """SK5: a new trump over the old one, at most three turn-ups and no ante between them;
        after the third all-pass round everyone antes once more and the same dealer redeals."""
        dead = self.turnup
        assert dead is not None  # all passed, so nobody took it (zavorachivayu declares)
        self.dead_turnups += (dead,)
        self.turnup = None
        # With 36 cards the stock always holds a new turn-up; the second test is only a guard.
        if self.round == self.MAX_ROUNDS or not self.stock_size:
            events.append(AllPassed(self.round, dead, None))
            self._everyone_pays(Reason.ALL_PASS_ANTE, events)
            self.needs_redeal = True
            self._finish(events)
            return
        self.round += 1
        self._turn_up_next()
        events.append(AllPassed(self.round - 1, dead, self.turnup))
        self.bids = (None,) * self.n
        self.queue = clockwise(self.left_of_dealer, self.n)

    def _start_play(self) -> None:
        """SK11: the taker nearest the declarer's left leads; otherwise the declarer."""
        takers = in_order(self.takers, (self._declarer + 1) % self.n, self.n)
        self.leader = takers[0] if takers else self._declarer
        self.phase = Phase.PLAY
        self.p0 = self.pot
        self.queue = in_order(self.participants, self.leader, self.n)

    def _play(self, action: Action, events: list[Event]) -> None:
        self._check_play(action)
        seat, card = action.seat, action.card
        assert card is not None
        if not self.trick:
            self.led_suit = action.suit
        self._lay(seat, card, HAND_SIZE, events, joker=bool(action.joker))
        if not self.trick:
            self.led_suit = None

    def _check_play(self, action: Action) -> None:
        """SK2 and F12: the card is in the hand and may go on the trick; the 7♠ says whether it
        is the joker, and only a joker led under `joker_lead=named_suit` names a suit."""
        seat, card = action.seat, action.card
        hand = self.hands[seat]
        if card is None:
            raise IllegalAction("F12", "say which card is played")
        if card not in hand:
            raise IllegalAction("F12", f"{card} is not in the hand")
        if card != JOKER and action.joker is not None:
            raise IllegalAction("SK2", f"only the {JOKER.label} is the joker")
        if card == JOKER and action.joker is None:
            raise IllegalAction("SK2", f"say whether the {JOKER.label} is played as the joker")
        names_suit = bool(action.joker) and not self.trick and self.rules.joker_lead == "named_suit"
        if names_suit and action.suit is None:
            raise IllegalAction("SK2", "name the suit the others must follow")
        if not names_suit and action.suit is not None:
            raise IllegalAction("SK2", "a suit is named only when leading the joker (named_suit)")
        if action.joker:
            return  # SK2: the joker may be played at any time
        rest = [other for other in hand if other != JOKER]
        led, asks_trumps = self._led()
        allowed = [*rest, JOKER] if card == JOKER else rest  # the plain 7♠ is a spade (SK2)
        if card in legal_plays(allowed, led, self.trump):
            return
        if asks_trumps:
            raise IllegalAction("SK2", f"the joker was led: play a trump {self.trump.symbol}")
        raise IllegalAction("F12", why_illegal(card, allowed, led, self.trump) or "")

    def _settle(self, events: list[Event]) -> None:
        """SK12: a quarter of the bank per trick (SK13: a failed declarer too); the declarer short
        of 2 tricks pays 2× the bank, a helper or taker with none 1×."""
        q = self.p0 // HAND_SIZE
        for seat in self.participants:
            if self.tricks_won[seat]:
                self._move(ChipsMoved(seat, q * self.tricks_won[seat], Reason.TRICKS), events)
        penalties = 0
        if self.tricks_won[self._declarer] < DECLARER_NEEDS:
            self._move(ChipsMoved(self._declarer, -2 * self.p0, Reason.PENALTY), events)
            penalties += 2 * self.p0
        for seat in sorted([*self.helpers, *self.takers]):
            if self.tricks_won[seat] < HELPER_NEEDS:
                self._move(ChipsMoved(seat, -self.p0, Reason.PENALTY), events)
                penalties += self.p0
        self.pot_has_penalty = penalties > 0
        self._finish(events)


_CALL_RULE: dict[Verb, str] = {
    StudentDo.KHRAP: "SK4",
    StudentDo.POMOGU: "SK4",
    StudentDo.BERU_PYAT: "SK7",
    StudentDo.VESELYU: "SK8",
    StudentDo.ZAVORACHIVAYU: "SK9",
}
