"""One deal of Frap as a state machine: whose turn, what is legal, what applying an action gives.

Every rule point of RULES.md (F1–F15) is implemented here or in `settle.py`; each is cited where it
applies. A deal is fully determined by its header (rules, players, dealer, ante, pot, deck) and its
action list, so the record *is* the serialised state (`to_record` / `from_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Any

from ..actions import Action, Do
from ..cards import Card, Suit, make_deck, parse_cards
from ..errors import IllegalAction
from ..events import (
    AllPassed,
    BidMade,
    CardPlayed,
    ChipsMoved,
    CutDecided,
    DealSettled,
    Event,
    Exchanged,
    Looked,
    Reason,
    TrickWon,
    TurnupTaken,
)
from ..tricks import (
    Play,
    clockwise,
    deal_round_robin,
    in_order,
    legal_plays,
    trick_winner,
    why_illegal,
)
from .rules import FrapRules
from .settle import settle_play

HAND_SIZE = 4  # F4
TRICKS = 4  # F12
MAX_ROUNDS = 3  # F8
MIN_PLAYERS, MAX_PLAYERS = 2, 12  # F1


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

_PHASE_ACTIONS = {
    Phase.BIDDING: {Do.FRAP, Do.DARK_FRAP, Do.PASS},
    Phase.WHIST: {Do.WHIST, Do.PASS},
    Phase.DARK_DISCARD: {Do.DARK_DISCARD},
    Phase.BUYING: {Do.DISCARD},
    Phase.CUTTING: {Do.CUT, Do.NO_CUT},
    Phase.CUT_DISCARD: {Do.CUT_DISCARD},
    Phase.PLAY: {Do.PLAY},
    Phase.FINISHED: set(),
}


@dataclass
class FrapDeal:
    """The whole state of one Frap deal. Use `new`, `apply` and `from_record`; never mutate it."""

    rules: FrapRules
    players: tuple[str, ...]
    dealer: int
    ante: int
    start_pot: int  # the pot before this deal's ante
    pot_had_penalty: bool  # F3: the previous deal left penalty money in the pot
    redeal: bool  # F8: the redeal after three all-pass rounds (no ante)
    deck: tuple[Card, ...]  # top card first
    hands: list[tuple[Card, ...]] = field(default_factory=list)
    next_card: int = 0  # index in `deck` of the top of the stock
    turnup: Card | None = None  # on the table, claimable (F4, F7, F10)
    trump: Suit = Suit.SPADES
    dead_turnups: list[Card] = field(default_factory=list)  # F8
    discards: list[Card] = field(default_factory=list)  # face down: F7, F9, F10
    looked: list[bool] = field(default_factory=list)
    phase: Phase = Phase.BIDDING
    round: int = 1  # bidding round, 1..3 (F8)
    queue: list[int] = field(default_factory=list)  # seats still to act in this phase; [0] acts
    bids: list[Do | None] = field(default_factory=list)  # each seat's latest word
    declarer: int | None = None
    dark: bool = False
    taken_turnup: Card | None = None  # the turn-up the dark declarer took (F14 ×3 case)
    whisters: list[int] = field(default_factory=list)
    cutters: list[int] = field(default_factory=list)
    leader: int | None = None
    trick: list[Play] = field(default_factory=list)
    tricks_played: list[tuple[Play, ...]] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    p0: int = 0  # F13: the pot when play starts
    delta: list[int] = field(default_factory=list)  # each seat's chips over the deal
    pot_has_penalty: bool = False  # F15: the pot now holds penalty money
    needs_redeal: bool = False  # F8: finished by a third all-pass round
    actions: list[Action] = field(default_factory=list)

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
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"F1: Frap is for {MIN_PLAYERS}–{MAX_PLAYERS} players, not {n}")
        if not all(isinstance(name, str) for name in players) or len(set(players)) != n:
            # HAND_FORMAT: names label the seats in a record's outcome, so they must differ.
            raise ValueError("F2: the players must be distinct names")
        size = rules.deck_size_for(n)
        if size < HAND_SIZE * n + 1:
            raise ValueError(f"F1: a deck of {size} cards is too small for {n} players")
        if len(deck) != size or frozenset(deck) != _full_deck(size):
            raise ValueError(f"F1: the deck must be the {size}-card deck, each card once")
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise ValueError(f"F2: no seat {dealer!r} to deal")
        if not (_is_int(ante) and _is_int(pot)) or ante < 0 or pot < 0:
            raise ValueError("F3: the ante and the pot are whole numbers of chips, not negative")
        deal = cls(
            rules=rules,
            players=tuple(players),
            dealer=dealer,
            ante=ante,
            start_pot=pot,
            pot_had_penalty=pot_has_penalty,
            redeal=redeal,
            deck=tuple(deck),
            looked=[False] * n,
            bids=[None] * n,
            tricks_won=[0] * n,
            delta=[0] * n,
        )
        events: list[Event] = []
        carries = rules.ante == "penalty_carries" and pot_has_penalty
        if not redeal and not carries:  # F3
            deal._everyone_pays(Reason.ANTE, events)
        hands, taken = deal_round_robin(deal.deck, deal.left_of_dealer, n, HAND_SIZE)
        deal.hands = [tuple(hand) for hand in hands]
        deal.next_card = taken
        deal._turn_up_next()
        deal.queue = clockwise(deal.left_of_dealer, n)
        return deal, events

    # ---- questions ------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.players)

    @property
    def left_of_dealer(self) -> int:
        """The seat that bids, buys and is dealt first (F2)."""
        return (self.dealer + 1) % self.n

    @property
    def pot(self) -> int:
        """The chips in the pot now."""
        return self.start_pot - sum(self.delta)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards left in the stock, top first."""
        return self.deck[self.next_card :]

    @property
    def finished(self) -> bool:
        """Whether the deal is over (settled, uncontested, or ended for a redeal)."""
        return self.phase is Phase.FINISHED

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when the deal is over."""
        return None if self.finished else self.queue[0]

    @property
    def participants(self) -> list[int]:
        """Declarer, whisters and cutters: the seats that play tricks (F12)."""
        if self.declarer is None:
            return []
        return sorted([self.declarer, *self.whisters, *self.cutters])

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, including opening the hand (F7)."""
        if self.phase is Phase.FINISHED or not 0 <= seat < len(self.players):
            return []
        actions = [] if self.looked[seat] else [_action(seat, Do.LOOK)]
        if seat != self.queue[0]:
            return actions
        hand = self.hands[seat]
        match self.phase:
            case Phase.BIDDING:
                actions.append(_action(seat, Do.FRAP))
                if not self.looked[seat]:
                    actions.append(_action(seat, Do.DARK_FRAP))  # F7
                actions.append(_action(seat, Do.PASS))
            case Phase.WHIST:
                actions += [_action(seat, Do.WHIST), _action(seat, Do.PASS)]
            case Phase.DARK_DISCARD:
                actions += [_action(seat, Do.DARK_DISCARD, card) for card in hand]
            case Phase.CUT_DISCARD:
                actions += [_action(seat, Do.CUT_DISCARD, card) for card in hand]
            case Phase.BUYING:
                most = min(HAND_SIZE, len(self.deck) - self.next_card)  # F9
                actions += [
                    Action(seat, Do.DISCARD, cards=combo)
                    for k in range(most + 1)
                    for combo in combinations(hand, k)
                ]
            case Phase.CUTTING:
                actions.append(_action(seat, Do.NO_CUT))
                if self._cut_possible(turnup=True):
                    actions.append(_action(seat, Do.CUT, None, True))
                if self._cut_possible(turnup=False):
                    actions.append(_action(seat, Do.CUT, None, False))
            case Phase.PLAY:
                led = self.trick[0].card.suit if self.trick else None
                actions += [_action(seat, Do.PLAY, c) for c in legal_plays(hand, led, self.trump)]
        return actions

    # ---- applying -------------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[FrapDeal, list[Event]]:
        """The state after `action` and what happened; raises IllegalAction and changes nothing."""
        new = self.copy()
        events = new._apply_in_place(action)
        return new, events

    def copy(self) -> FrapDeal:
        """An independent copy (cards and hands are immutable; only the lists are copied)."""
        state = self.__dict__.copy()
        for name in _LIST_FIELDS:
            state[name] = state[name].copy()
        new = object.__new__(FrapDeal)
        new.__dict__.update(state)
        return new

    def _apply_in_place(self, action: Action) -> list[Event]:
        action = self._normalised(action)
        self._check_turn(action)
        events: list[Event] = []
        seat = action.seat
        if action.do is Do.LOOK:
            self.looked[seat] = True
            events.append(Looked(seat))
            self.actions.append(action)
            return events
        if action.do is not Do.DARK_FRAP and not self.looked[seat]:
            self.looked[seat] = True  # HAND_FORMAT: any other action counts as having looked
        _HANDLERS[self.phase](self, action, events)
        self.actions.append(action)
        return events

    def _normalised(self, action: Action) -> Action:
        """`do` as a Do and `cards` as a tuple, as in a replayed record, so that a plain string
        cannot pass for another action and live and replayed deals compare equal."""
        do, cards = action.do, action.cards
        if type(do) is Do and (cards is None or type(cards) is tuple):
            return action
        try:
            do = Do(do)
        except ValueError:
            raise IllegalAction(_PHASE_RULE[self.phase], f"no such action {do!r}") from None
        return replace(action, do=do, cards=None if cards is None else tuple(cards))

    def _check_turn(self, action: Action) -> None:
        if self.phase is Phase.FINISHED:
            raise IllegalAction("F15", "the deal is over")
        rule = _PHASE_RULE[self.phase]
        if not 0 <= action.seat < self.n:
            raise IllegalAction("F2", f"there is no seat {action.seat}")
        if action.do is Do.LOOK:
            if self.looked[action.seat]:
                raise IllegalAction("F7", "the hand is already open")
            return
        if action.do not in _PHASE_ACTIONS[self.phase]:
            if action.do is Do.WHIST and self.phase is Phase.BIDDING:
                raise IllegalAction("F5", "whist is illegal before a frap")
            if action.do in (Do.FRAP, Do.DARK_FRAP):
                raise IllegalAction("F5", "only one frap per deal")
            raise IllegalAction(rule, f"cannot {action.do.value} now ({self.phase.value})")
        if action.seat != self.queue[0]:
            raise IllegalAction(
                rule, f"it is seat {self.queue[0]}'s turn, not seat {action.seat}'s"
            )

    # F5, F7, F8: bidding rounds.
    def _bid(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.do is Do.DARK_FRAP and self.looked[seat]:
            raise IllegalAction("F7", "dark frap needs a hand not yet looked at")
        self.bids[seat] = action.do
        events.append(BidMade(seat, action.do))
        if action.do is Do.PASS:
            self.queue.pop(0)
            if not self.queue:
                self._all_passed(events)
            return
        # F5: the first frap makes the declarer; F6: everyone else, passers included, answers.
        self.declarer = seat
        self.dark = action.do is Do.DARK_FRAP
        self.phase = Phase.WHIST
        self.queue = clockwise(seat, self.n)[1:]
        for other in self.queue:
            self.bids[other] = None

    def _all_passed(self, events: list[Event]) -> None:
        """F8: everyone pays the ante, the turn-up dies, a new one is turned (or the redeal)."""
        self._everyone_pays(Reason.ALL_PASS_ANTE, events)
        dead = self.turnup
        assert dead is not None
        self.dead_turnups.append(dead)
        self.turnup = None
        # F8: after the third round, the redeal. An empty stock (no new turn-up to turn) ends the
        # deal the same way; with the decks of F1 and 4N + 1 cards dealt the stock always holds at
        # least 3 cards, so this is only a guard.
        if self.round == MAX_ROUNDS or not self.stock:
            events.append(AllPassed(self.round, dead, None))
            self.needs_redeal = True
            self.pot_has_penalty = self.pot_had_penalty
            self._finish(events)
            return
        self.round += 1
        self._turn_up_next()
        assert self.turnup is not None
        events.append(AllPassed(self.round - 1, dead, self.turnup))
        self.bids = [None] * self.n
        self.queue = clockwise(self.left_of_dealer, self.n)

    # F6: whist or pass after the frap.
    def _whist(self, action: Action, events: list[Event]) -> None:
        self.bids[action.seat] = action.do
        events.append(BidMade(action.seat, action.do))
        if action.do is Do.WHIST:
            self.whisters.append(action.seat)
        self.queue.pop(0)
        if self.queue:
            return
        if not self.whisters and not self.rules.cut_when_uncontested:
            self._declarer_takes_pot(events)  # F6 (S0)
        elif self.dark:
            self._take_turnup(self._declarer, events)  # F7
            self.taken_turnup = self.hands[self._declarer][-1]
            self.phase = Phase.DARK_DISCARD
            self.queue = [self._declarer]
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
        seat, cards = action.seat, action.cards
        if cards is None:
            raise IllegalAction("F9", "say which cards to discard (possibly none)")
        hand = self.hands[seat]
        if len(set(cards)) != len(cards):
            raise IllegalAction("F9", "a card is named twice")
        for card in cards:
            if card not in hand:
                raise IllegalAction("F9", f"{card} is not in the hand")
        stock = len(self.deck) - self.next_card
        if len(cards) > stock:
            raise IllegalAction("F9", f"the stock holds only {stock} cards")
        kept = tuple(card for card in hand if card not in cards)
        self.discards.extend(cards)
        self.hands[seat] = kept + self._draw(len(cards))
        events.append(Exchanged(seat, len(cards), len(cards)))
        self.queue.pop(0)
        if not self.queue:
            self._start_cutting(events)

    # F10: cutting-in by those who passed.
    def _start_cutting(self, events: list[Event]) -> None:
        self.phase = Phase.CUTTING
        passers = [s for s in range(self.n) if s != self.declarer and s not in self.whisters]
        self.queue = in_order(passers, self.left_of_dealer, self.n) if self.rules.cutting_in else []
        self._next_cutter(events)

    def _cut_possible(self, *, turnup: bool) -> bool:
        """F10: a cut needs five cards from the stock, or four with the turn-up."""
        stock = len(self.deck) - self.next_card
        if turnup:
            return self.turnup is not None and stock >= HAND_SIZE
        return stock >= HAND_SIZE + 1

    def _next_cutter(self, events: list[Event]) -> None:
        """Skip passers the stock no longer allows to cut in; start play when none is left."""
        self.phase = Phase.CUTTING
        while self.queue and not (
            self._cut_possible(turnup=True) or self._cut_possible(turnup=False)
        ):
            self.queue.pop(0)
        if not self.queue:
            self._start_play(events)

    def _cut(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.do is Do.NO_CUT:
            events.append(CutDecided(seat, cut=False))
            self.bids[seat] = Do.NO_CUT
            self.queue.pop(0)
            self._next_cutter(events)
            return
        if action.turnup is None:
            raise IllegalAction("F10", "say whether the turn-up is taken")
        if action.turnup and self.turnup is None:
            raise IllegalAction("F10", "the turn-up is no longer on the table")
        if not self._cut_possible(turnup=action.turnup):
            raise IllegalAction("F10", f"the stock holds only {len(self.stock)} cards")
        events.append(CutDecided(seat, cut=True, turnup=action.turnup))
        self.bids[seat] = Do.CUT
        self.cutters.append(seat)
        self.discards.extend(self.hands[seat])
        self.hands[seat] = ()
        if action.turnup:
            self._take_turnup(seat, events)
        drawn = HAND_SIZE + 1 - len(self.hands[seat])
        self.hands[seat] += self._draw(drawn)
        events.append(Exchanged(seat, HAND_SIZE, drawn))
        self.phase = Phase.CUT_DISCARD

    def _cut_discard(self, action: Action, events: list[Event]) -> None:
        self._discard_one(action, "F10", events)
        self.queue.pop(0)
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
        at = hand.index(card)
        self.hands[seat] = hand[:at] + hand[at + 1 :]
        self.trick.append(Play(seat, card))
        events.append(CardPlayed(seat, card))
        self.queue.pop(0)
        if self.queue:
            return
        winner = trick_winner(self.trick, self.trump)
        self.tricks_won[winner] += 1
        self.tricks_played.append(tuple(self.trick))
        events.append(TrickWon(len(self.tricks_played), winner, tuple(p.card for p in self.trick)))
        self.trick = []
        if len(self.tricks_played) == TRICKS:
            self._settle(events)
        else:
            self.leader = winner
            self.queue = in_order(self.participants, winner, self.n)

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
        )
        for move in moves:
            self._move(move, events)
        self.pot_has_penalty = any(m.reason is Reason.PENALTY and m.amount for m in moves)
        self._finish(events)

    def _declarer_takes_pot(self, events: list[Event]) -> None:
        """F6: nobody stands against the declarer: the whole pot is his, no play."""
        self._move(ChipsMoved(self._declarer, self.pot, Reason.POT_TAKEN), events)
        self.pot_has_penalty = False
        self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        self.phase = Phase.FINISHED
        self.queue = []
        events.append(
            DealSettled(
                tuple(self.delta),
                tuple(self.tricks_won),
                self.pot,
                self.pot_has_penalty,
                self.needs_redeal,
            )
        )

    # ---- small mechanics ------------------------------------------------------------------------

    @property
    def _declarer(self) -> int:
        assert self.declarer is not None
        return self.declarer

    def _everyone_pays(self, reason: Reason, events: list[Event]) -> None:
        if self.ante:
            for seat in clockwise(self.left_of_dealer, self.n):
                self._move(ChipsMoved(seat, -self.ante, reason), events)

    def _move(self, move: ChipsMoved, events: list[Event]) -> None:
        self.delta[move.seat] += move.amount
        events.append(move)

    def _draw(self, count: int) -> tuple[Card, ...]:
        drawn = self.deck[self.next_card : self.next_card + count]
        self.next_card += count
        return drawn

    def _turn_up_next(self) -> None:
        (self.turnup,) = self._draw(1)
        self.trump = self.turnup.suit

    def _take_turnup(self, seat: int, events: list[Event]) -> None:
        card = self.turnup
        assert card is not None
        self.turnup = None
        self.hands[seat] += (card,)
        events.append(TurnupTaken(seat, card))

    def _discard_one(self, action: Action, rule: str, events: list[Event]) -> None:
        seat, card, hand = action.seat, action.card, self.hands[action.seat]
        if card is None:
            raise IllegalAction(rule, "say which card is discarded")
        if card not in hand:
            raise IllegalAction(rule, f"{card} is not in the hand")
        at = hand.index(card)
        self.hands[seat] = hand[:at] + hand[at + 1 :]
        self.discards.append(card)
        events.append(Exchanged(seat, 1, 0))

    # ---- records --------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The deal as a `frap-hand/1` record: header plus every action so far."""
        record: dict[str, Any] = {
            "format": "frap-hand/1",
            "game": "frap",
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "dealer": self.dealer,
            "ante": self.ante,
            "pot": self.start_pot,
            "pot_has_penalty": self.pot_had_penalty,
            "deck": [str(card) for card in self.deck],
            "actions": [action.to_record() for action in self.actions],
        }
        if self.redeal:
            record["redeal"] = True
        return record

    @classmethod
    def start_from_record(cls, record: dict[str, Any]) -> FrapDeal:
        """The deal a record starts with, before any of its actions; ValueError if malformed."""
        rules = record.get("rules", {"preset": "classic"})
        players, deck = record["players"], record["deck"]
        if not isinstance(rules, dict):
            raise ValueError("rules must be an object")
        if not isinstance(players, list):
            raise ValueError("players must be a list of names")
        if not isinstance(deck, list) or not all(isinstance(code, str) for code in deck):
            raise ValueError("deck must be a list of card codes")
        flags = {name: record.get(name, False) for name in ("pot_has_penalty", "redeal")}
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false")
        deal, _ = cls.new(
            FrapRules.from_dict(rules),
            players,
            record["dealer"],
            record["ante"],
            record["pot"],
            parse_cards(deck),
            pot_has_penalty=flags["pot_has_penalty"],
            redeal=flags["redeal"],
        )
        return deal


_LIST_FIELDS = tuple(f.name for f in fields(FrapDeal) if f.default_factory is list)

_HANDLERS: dict[Phase, Callable[[FrapDeal, Action, list[Event]], None]] = {
    Phase.BIDDING: FrapDeal._bid,
    Phase.WHIST: FrapDeal._whist,
    Phase.DARK_DISCARD: FrapDeal._dark_discard,
    Phase.BUYING: FrapDeal._buy,
    Phase.CUTTING: FrapDeal._cut,
    Phase.CUT_DISCARD: FrapDeal._cut_discard,
    Phase.PLAY: FrapDeal._play,
}


@cache
def _action(seat: int, do: Do, card: Card | None = None, turnup: bool | None = None) -> Action:
    """A shared Action (immutable): `legal_actions` offers the same few again and again."""
    return Action(seat, do, card=card, turnup=turnup)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _full_deck(size: int) -> frozenset[Card]:
    return frozenset(make_deck(size))
