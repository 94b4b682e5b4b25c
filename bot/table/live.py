"""`OpenTable`: an open table as the host holds it in memory beside its database row
(`storage.TableRow`) while the table is open: the host's seating (who sits, who was dealt in,
who was last shown to move) and the game played at it (`TableState`), a value only the table's
kind replaces; and the small value types every layer names: who pressed (`Person`), what is
refused (`Refusal`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.cards import Card

from ..storage import TableRow, UserRow


class TableState(Protocol):
    """What the host reads of the game played at a table (`OpenTable.play`), whatever its kind: a
    deal of the Frap family, a Preferans pulya of many deals. A new object after each step (a
    card marked too): the kind's own state (its marked cards, the bot's moves for players, the
    table's note, its screens built) lives on it, and only the kind replaces it."""

    @property
    def step(self) -> int:
        """How many actions the deal in play has seen (a button and a timer name it)."""

    @property
    def to_act(self) -> int | None:
        """The seat (of `OpenTable.deal_seats`) whose decision the table waits for, if any."""

    @property
    def in_play(self) -> bool:
        """Whether a deal (or a match of many) is being played now (its players cannot stand
        up; a stop voids it)."""

    @property
    def selection(self) -> Mapping[int, tuple[Card, ...]]:
        """By seat: the cards marked to discard, before the button that confirms them."""

    @property
    def auto(self) -> Mapping[int, Any]:
        """By seat: the move the bot last made for a person in the deal in play (a time-out, an
        away player's), until he moves himself; his control message says what was played."""

    @property
    def note(self) -> tuple[str, str] | None:
        """(locale key, player): the table's line about the last move, e.g. a time-out."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Turns:
    """What a kind's `TableState` keeps beside its game, for every kind alike: the cards a
    seat has marked before confirming (F9, P5), the bot's moves for persons, the table's note,
    and the screens built of it (the chat's message and each page draw the same one), which a
    new state (`dataclasses.replace` too) starts without."""

    selection: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    auto: Mapping[int, Any] = field(default_factory=dict)
    note: tuple[str, str] | None = None
    screens: dict[tuple[Any, ...], Any] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )


class Refusal(Exception):
    """A request the service turns down; `key` is the locale string explaining why."""

    def __init__(self, key: str, url: str | None = None, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.url = url
        self.values = values


@dataclass(frozen=True, slots=True)
class Person:
    """Who pressed or typed: the Telegram user as the service needs it."""

    user_id: int
    name: str
    username: str | None = None
    language_code: str | None = None


@dataclass
class OpenTable:
    """An open table held in memory beside its database rows: the host's seating, which the
    host alone changes (a kind says what its step changes of it: `table/steps.py`), and the
    game played at it (`play`), which its kind alone replaces."""

    row: TableRow
    users: dict[int, UserRow]
    play: TableState | None = None  # the game played here since the lobby started (its kind's)
    deal_id: int | None = None
    deal_seats: tuple[int, ...] = ()
    sitting_out: tuple[int, ...] = ()  # seated players this deal was dealt without
    short: tuple[int, ...] = ()  # of them, those short of the chips the bankroll asks (F15)
    mover: int | None = None  # the seat last shown to move: a new one is pinged
    # A deal played again (a review's "play again"): the chance of the table's first deal, which
    # lays out that deal's deck and dealer; the host's own after it
    chance: random.Random | None = None

    def first_chance(self, host: random.Random) -> random.Random:
        """The chance to deal with now: a replayed deal's, once, else the host's."""
        chance, self.chance = self.chance, None
        return chance or host

    @property
    def step(self) -> int:
        """How many turn-taking actions the deal has seen (looking at a hand does not count)."""
        return 0 if self.play is None else self.play.step

    @property
    def in_deal(self) -> bool:
        """Whether a deal (or a match of many) is being played now."""
        return self.play is not None and self.play.in_play

    @property
    def to_act(self) -> int | None:
        """The seat (of `deal_seats`) whose decision the table waits for."""
        return None if self.play is None else self.play.to_act


class SameCards(random.Random):
    """A finished deal's chance again: its deck (top card first) at the first shuffle and its
    dealer at the first draw of one; an ordinary generator after."""

    def __init__(self, deck: Sequence[Card], dealer: int) -> None:
        super().__init__()
        self.deck: list[Card] | None = list(deck)
        self.dealer: int | None = dealer

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """The deal's deck laid out (then real shuffles)."""
        if self.deck is not None and len(self.deck) == len(x):
            x[:], self.deck = self.deck, None
        else:
            super().shuffle(x)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        """The deal's dealer (then real draws)."""
        if self.dealer is not None:
            dealer, self.dealer = self.dealer, None
            return dealer
        return super().randrange(*args, **kwargs)
