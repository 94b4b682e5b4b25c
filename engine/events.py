"""Events: what happened when an action was applied, for the table, the log and the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

from .actions import Verb
from .cards import Card


class Reason(StrEnum):
    """Why chips moved between a player and the pot."""

    ANTE = "ante"  # F3
    ALL_PASS_ANTE = "all_pass_ante"  # F8
    TRICKS = "tricks"  # F13
    PENALTY = "penalty"  # F14
    POT_TAKEN = "pot_taken"  # F6: uncontested declarer takes the pot; N6: napoleon's treasure
    CONTRIBUTION = "contribution"  # N1: each player's share of the treasure, every deal
    STAKE = "stake"  # N5–N7: paid between the declarer and another player, not the pot


@dataclass(frozen=True, slots=True)
class ChipsMoved:
    """`amount` chips went from the pot to `seat` (negative: from the seat into the pot).

    `other` is set when the chips go between two players instead (N5–N7): the seat on the other
    side, whose own ChipsMoved with the opposite amount follows, so the pot is unchanged."""

    seat: int
    amount: int
    reason: Reason
    other: int | None = None


@dataclass(frozen=True, slots=True)
class Looked:
    """A seat opened its hand (from now on no dark bid, F7)."""

    seat: int


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat bid: frap, dark frap, whist or pass (F5–F7); in Napoleon (N2) `level` is the
    height the bid stands at: 1–5 tricks, 6 for napoleon (also for a "here" at that level)."""

    seat: int
    bid: Verb
    level: int | None = None


@dataclass(frozen=True, slots=True)
class AllPassed:
    """A bidding round ended with everyone passing (F8); `new_turnup` is None before a redeal."""

    round: int
    dead_turnup: Card
    new_turnup: Card | None


@dataclass(frozen=True, slots=True)
class TurnupTaken:
    """A seat took the turn-up into the hand (dark frap F7, cutting-in F10)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A seat put `discarded` cards face down and drew `drawn` from the stock (F7, F9, F10)."""

    seat: int
    discarded: int
    drawn: int


@dataclass(frozen=True, slots=True)
class CutDecided:
    """A passer decided whether to cut in (F10)."""

    seat: int
    cut: bool
    turnup: bool = False


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a card to the current trick (F12)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """Trick number `number` (1-based) was won by `seat`."""

    number: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealSettled:
    """The deal is over: each seat's change (antes included), tricks, and the pot left (F13–F15)."""

    delta: tuple[int, ...]
    tricks: tuple[int, ...]
    pot: int
    pot_has_penalty: bool
    redeal: bool


Event = (
    ChipsMoved
    | Looked
    | BidMade
    | AllPassed
    | TurnupTaken
    | Exchanged
    | CutDecided
    | CardPlayed
    | TrickWon
    | DealSettled
)


# Events that recur with the same values are shared, being immutable: finding one again costs
# less than building a frozen dataclass, and the engine says one of these at most steps. A bid
# by its word's class too: two games' words spelled alike are equal (engine/actions.py).
bid_made = lru_cache(maxsize=None, typed=True)(BidMade)
cut_decided = cache(CutDecided)
exchanged = cache(Exchanged)
looked = cache(Looked)
