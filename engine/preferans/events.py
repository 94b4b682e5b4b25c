"""What happened when a Preferans action was applied, for the table and the log."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..events import CardPlayed, TrickWon


@dataclass(frozen=True, slots=True)
class Called:
    """A seat spoke: a bid, misère, here or pass in the auction (P4), or a whisting word (P6)."""

    seat: int
    word: str


@dataclass(frozen=True, slots=True)
class AuctionWon:
    """The auction ended with a declarer and his bid (P4)."""

    seat: int
    bid: str


@dataclass(frozen=True, slots=True)
class RaspasyStarted:
    """Three passes: raspasy is played (P10)."""


@dataclass(frozen=True, slots=True)
class TalonTaken:
    """The declarer took the talon; `shown` is the talon when shown to all (P5), else None."""

    seat: int
    shown: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Discarded:
    """The declarer put two cards face down (P5)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ContractNamed:
    """The declarer named the contract (P5); misère is named by the auction."""

    seat: int
    contract: str


@dataclass(frozen=True, slots=True)
class PlayChosen:
    """The lone whister chose light or dark (P7)."""

    seat: int
    light: bool


@dataclass(frozen=True, slots=True)
class HandsOpened:
    """These hands are laid open to the table (P7 light play, P9 misère)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TalonTurned:
    """Raspasy turned a talon card whose suit the trick follows (P10)."""

    card: Card


@dataclass(frozen=True, slots=True)
class DealOver:
    """The deal is over; its outcome is on the deal (`PrefDeal.outcome`)."""

    kind: str


PrefEvent = (
    Called
    | AuctionWon
    | RaspasyStarted
    | TalonTaken
    | Discarded
    | ContractNamed
    | PlayChosen
    | HandsOpened
    | TalonTurned
    | CardPlayed
    | TrickWon
    | DealOver
)
