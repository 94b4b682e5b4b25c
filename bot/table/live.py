"""An open table as the host holds it in memory beside its database rows, and the small value
types every layer names: who pressed, what is refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.actions import Do
from engine.cards import Card
from engine.deal import TrickDeal

from ..storage import TableRow, UserRow


class MatchState(Protocol):
    """What the shared service reads of a table that plays a match of many deals (`Live.match`)."""

    @property
    def step(self) -> int:
        """How many actions the deal in play has seen (a button and a timer name it)."""

    @property
    def to_act(self) -> int | None:
        """The seat (of `Live.deal_seats`) whose decision the table waits for, if any."""

    @property
    def in_play(self) -> bool:
        """Whether the match is still being played (its players cannot stand up)."""


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
class Live:
    """An open table held in memory beside its database rows."""

    row: TableRow
    users: dict[int, UserRow]
    deal: TrickDeal | None = None
    deal_id: int | None = None
    deal_seats: tuple[int, ...] = ()
    selection: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    note: tuple[str, str] | None = None  # (locale key, player) for the table, e.g. a time-out
    sitting_out: tuple[int, ...] = ()  # seated players this deal was dealt without (issue 16)
    short: tuple[int, ...] = ()  # of them, those short of the chips the bankroll asks (F15)
    mover: int | None = None  # the seat last shown to move: a new one is pinged (issue 12)
    auto: dict[int, Any] = field(default_factory=dict)  # by seat: the bot's last move for him
    match: MatchState | None = None  # a match of many deals, played by its game's own service

    @property
    def step(self) -> int:
        """How many turn-taking actions the deal has seen (looking at a hand does not count)."""
        if self.match is not None:
            return self.match.step
        return 0 if self.deal is None else sum(a.do is not Do.LOOK for a in self.deal.actions)

    @property
    def in_deal(self) -> bool:
        """Whether a deal (or a match of many) is being played now."""
        if self.match is not None:
            return self.match.in_play
        return self.deal is not None and not self.deal.finished

    @property
    def to_act(self) -> int | None:
        """The seat (of `deal_seats`) whose decision the table waits for."""
        if self.match is not None:
            return self.match.to_act
        return self.deal.to_act if self.deal is not None else None
