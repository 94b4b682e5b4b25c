"""Cards, suits, ranks and decks (RULES F1), shared by every game."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum, IntEnum


class Suit(Enum):
    """A suit; its value is the one-letter code of hand records."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"

    # Members are singletons compared by identity, so the identity hash is exact, and it is far
    # cheaper than Enum's hash of the member name (cards are hashed whenever a deck is checked).
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The suit as a card symbol: ♠ ♣ ♦ ♥."""
        return _SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (S C D H) or symbol (♠ ♣ ♦ ♥)."""
        for suit in cls:
            if text in (suit.value, suit.symbol):
                return suit
        raise ValueError(f"not a suit: {text!r}")


_SYMBOLS = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}


class Rank(IntEnum):
    """A rank; higher value beats lower inside a suit (F1: 2 < … < 10 < J < Q < K < A)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        """The one-character code of hand records (T for the ten)."""
        return _RANK_CODES[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A rank from its code; '10' is accepted for the ten."""
        code = "T" if text == "10" else text.upper()
        index = _RANK_CODES.find(code)
        if len(code) != 1 or index < 0:
            raise ValueError(f"not a rank: {text!r}")
        return cls(index + 2)


_RANK_CODES = "23456789TJQKA"


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Card:
    """One playing card; printed and parsed as rank then suit, e.g. 'TH' for the ten of hearts.

    Each card exists once: `Card(rank, suit)` gives the same object every time, so cards compare
    by identity, which is equality (hands, tricks and decks are searched for cards constantly).
    `index` numbers the cards 0–51, for the tables the engine looks cards up in: a list index is
    cheaper than hashing a card."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False)

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        card = _CARDS.get((rank, suit))
        if card is None:
            card = _CARDS[(rank, suit)] = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "index", (rank - 2) * 4 + _SUIT_ORDER[suit])
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        # copy, deepcopy and pickle give back the one card, not a second equal one.
        return Card, (self.rank, self.suit)

    def __str__(self) -> str:
        return _RANK_CODES[self.rank - 2] + _SUIT_LETTERS[self.suit]

    def __hash__(self) -> int:
        # By rank and suit, not by the object: sets of cards iterate in the same order in every
        # process (the computer players shuffle what they have not seen). rank × 4 + suit, as it
        # has always been, so that seeded matches replay as before.
        return self.index + 8

    def __repr__(self) -> str:
        return f"Card({self})"

    @staticmethod
    def parse(text: str) -> Card:
        """A card from its two-character code ('TH', 'AS', '7C')."""
        card = _BY_CODE.get(text.strip().upper())
        if card is None:
            raise ValueError(f"not a card: {text!r}")
        return card

    @property
    def label(self) -> str:
        """The card for people: rank and suit symbol, e.g. '10♥', 'A♠'."""
        rank = "10" if self.rank is Rank.TEN else self.rank.code
        return rank + self.suit.symbol


_CARDS: dict[tuple[Rank, Suit], Card] = {}
# Suits are ordered S C D H only so that a fresh deck has a fixed order; suits have no rank in Frap.
_SUIT_ORDER = {Suit.SPADES: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3}
_SUIT_LETTERS = {suit: suit.value for suit in Suit}
ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
BY_INDEX: tuple[Card, ...] = tuple(sorted(ALL_CARDS, key=lambda card: card.index))  # [i].index == i
_BY_CODE: dict[str, Card] = {str(card): card for card in ALL_CARDS}

DECK_SIZES = (32, 36, 52)
_LOWEST_RANK = {32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}


def make_deck(size: int) -> tuple[Card, ...]:
    """A fresh deck of 32 (7..A), 36 (6..A) or 52 (2..A) cards in a fixed order (F1)."""
    if size not in _LOWEST_RANK:
        raise ValueError(f"F1: no deck of {size} cards")
    lowest = _LOWEST_RANK[size]
    return tuple(card for card in ALL_CARDS if card.rank >= lowest)


def shuffled(deck: tuple[Card, ...], rng: random.Random) -> tuple[Card, ...]:
    """The deck shuffled by the given generator: the engine's only source of chance."""
    cards = list(deck)
    rng.shuffle(cards)
    return tuple(cards)


def parse_cards(codes: list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Cards from a list of codes."""
    return tuple(Card.parse(code) for code in codes)


def suit_order(suit: Suit) -> int:
    """A stable sort key for suits (for showing hands)."""
    return _SUIT_ORDER[suit]
