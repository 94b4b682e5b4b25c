"""What every trick-taking deal of the Frap family shares: seats, the stock and the turn-up, the
pot and each seat's chips, the queue of who acts, tricks, and the hand record (HAND_FORMAT.md).

Each game (Frap and Khrap in `frap/`, Student Khrap in `student/`) is a subclass that adds its own
phases and rules; the mechanics here are written once.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from itertools import combinations
from typing import Any, ClassVar, Self

from .actions import Action, Do
from .cards import Card, Suit
from .errors import IllegalAction
from .events import ChipsMoved, DealSettled, Event, Exchanged, Reason, TurnupTaken
from .tricks import Play, clockwise

FORMAT = "frap-hand/1"


class _Start(StrEnum):
    DEALT = "dealt"


@dataclass
class TrickDeal:
    """The state all games of the family share. Subclasses set `game` and add their own fields."""

    game: ClassVar[str]

    players: tuple[str, ...]
    dealer: int
    ante: int
    start_pot: int  # the pot before this deal's ante
    pot_had_penalty: bool  # the previous deal left penalty money in the pot (F3)
    redeal: bool  # the redeal after the all-pass rounds: no ante at its start
    deck: tuple[Card, ...]  # top card first
    hands: list[tuple[Card, ...]] = field(default_factory=list)
    next_card: int = 0  # index in `deck` of the top of the stock
    turnup: Card | None = None  # on the table, claimable
    trump: Suit = Suit.SPADES
    dead_turnups: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)  # face down
    phase: StrEnum = field(default_factory=lambda: _Start.DEALT)  # each game has its own Phase
    round: int = 1  # bidding round
    queue: list[int] = field(default_factory=list)  # seats still to act in this phase; [0] acts
    bids: list[Do | None] = field(default_factory=list)  # each seat's latest word
    declarer: int | None = None
    leader: int | None = None
    trick: list[Play] = field(default_factory=list)
    tricks_played: list[tuple[Play, ...]] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    p0: int = 0  # the pot when play starts
    delta: list[int] = field(default_factory=list)  # each seat's chips over the deal
    pot_has_penalty: bool = False  # the pot now holds penalty money
    needs_redeal: bool = False  # finished by all-pass rounds: the same dealer redeals
    actions: list[Action] = field(default_factory=list)

    # ---- questions ------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.players)

    @property
    def left_of_dealer(self) -> int:
        """The seat that is dealt and speaks first (F2)."""
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
        """Whether the deal is over."""
        return self.phase == "finished"

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when the deal is over."""
        return None if self.finished else self.queue[0]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now."""
        raise NotImplementedError

    def role(self, seat: int) -> str | None:
        """What the seat is in this deal, for the table: "declarer", "whister", … or None."""
        raise NotImplementedError

    # ---- applying -------------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[Self, list[Event]]:
        """The state after `action` and what happened; raises IllegalAction and changes nothing."""
        new = self.copy()
        events = new._apply_in_place(action)
        return new, events

    def copy(self) -> Self:
        """An independent copy (cards and hands are immutable; only the lists are copied)."""
        new = copy.copy(self)
        for name in _list_fields(type(self)):
            setattr(new, name, list(getattr(self, name)))
        return new

    def _apply_in_place(self, action: Action) -> list[Event]:
        raise NotImplementedError

    # ---- shared mechanics -----------------------------------------------------------------------

    def _start(self, hand_size: int, *, ante: bool, events: list[Event]) -> None:
        """Antes if due, `hand_size` cards to each seat one at a time, the turn-up (F3, F4)."""
        n = self.n
        self.bids = [None] * n
        self.tricks_won = [0] * n
        self.delta = [0] * n
        if ante:
            self._everyone_pays(Reason.ANTE, events)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n * hand_size):
            hands[(self.left_of_dealer + i) % n].append(self.deck[i])
        self.hands = [tuple(hand) for hand in hands]
        self.next_card = n * hand_size
        self._turn_up_next()
        self.queue = clockwise(self.left_of_dealer, n)

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

    def _drop_hand(self, seat: int, keep: Sequence[Card] = ()) -> None:
        """Put the seat's cards face down, all but `keep`."""
        hand = self.hands[seat]
        self.discards.extend(card for card in hand if card not in keep)
        self.hands[seat] = tuple(card for card in hand if card in keep)

    def _exchange_options(self, seat: int, most: int) -> list[Action]:
        """DISCARD actions for every set of up to `most` cards the stock can replace (F9, SK6)."""
        hand = self.hands[seat]
        limit = min(most, len(self.stock))
        return [
            Action(seat, Do.DISCARD, cards=combo)
            for k in range(limit + 1)
            for combo in combinations(hand, k)
        ]

    def _exchange(self, action: Action, rule: str, most: int, events: list[Event]) -> None:
        """Discard the named cards face down and draw as many from the stock (F9, SK6)."""
        seat, cards = action.seat, action.cards
        if cards is None:
            raise IllegalAction(rule, "say which cards to discard (possibly none)")
        hand = self.hands[seat]
        if len(set(cards)) != len(cards):
            raise IllegalAction(rule, "a card is named twice")
        for card in cards:
            if card not in hand:
                raise IllegalAction(rule, f"{card} is not in the hand")
        if len(cards) > most:
            raise IllegalAction(rule, f"at most {most} cards can be exchanged")
        if len(cards) > len(self.stock):
            raise IllegalAction(rule, f"the stock holds only {len(self.stock)} cards")
        kept = tuple(card for card in hand if card not in cards)
        self.discards.extend(cards)
        self.hands[seat] = kept + self._draw(len(cards))
        events.append(Exchanged(seat, len(cards), len(cards)))

    def _declarer_takes_pot(self, events: list[Event]) -> None:
        """Nobody stands against the declarer: the whole pot is his, no play (F6, SK4)."""
        self._move(ChipsMoved(self._declarer, self.pot, Reason.POT_TAKEN), events)
        self.pot_has_penalty = False
        self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        self.phase = type(self.phase)("finished")
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

    # ---- records --------------------------------------------------------------------------------

    def rules_record(self) -> dict[str, Any]:
        """The record's `rules` object."""
        raise NotImplementedError

    def to_record(self) -> dict[str, Any]:
        """The deal as a `frap-hand/1` record: header plus every action so far."""
        record: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules_record(),
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


_LIST_FIELDS: dict[type, tuple[str, ...]] = {}


def _list_fields(cls: type) -> tuple[str, ...]:
    names = _LIST_FIELDS.get(cls)
    if names is None:
        names = _LIST_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.default_factory is list)
    return names
