"""The rows the storage hands out: plain frozen values, and how each is read from its row."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import aiosqlite


@dataclass(frozen=True, slots=True)
class ChatRow:
    """A chat's settings and pots: `pot` is the sum of every game's pot, `pots` each game's
    (game, pot, whether a penalty is in it: F3) for the games that have one."""

    chat_id: int
    title: str
    lang: str
    game: str
    rules: dict[str, Any]
    ante: int
    turn_timeout: int
    pot: int
    pots: tuple[tuple[str, int, bool], ...] = ()
    lang_chosen: bool = False  # set by a person (or the first table), not the default

    def pot_of(self, game: str) -> int:
        """The chips in `game`'s pot (Napoleon's treasure, Frap's pot…)."""
        return next((pot for g, pot, _ in self.pots if g == game), 0)

    def penalty_in(self, game: str) -> bool:
        """Whether `game`'s pot holds a penalty (F3: the next deal has no ante)."""
        return next((has for g, _, has in self.pots if g == game), False)


@dataclass(frozen=True, slots=True)
class UserRow:
    """A Telegram user the bot has seen."""

    user_id: int
    name: str
    username: str | None
    lang: str | None
    started: bool
    blocked: bool
    pings: bool = True  # his control message is posted anew (and notifies) on his turn
    pinged: bool = False  # he has had a ping (the first says how to turn them off)


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table: a lobby, then a run of deals, until closed."""

    table_id: int
    chat_id: int
    game: str
    status: str  # lobby | playing | closed
    creator_id: int
    seats: tuple[int, ...]
    dealer: int | None
    deal_no: int
    deadline: float | None  # the lobby's expiry, or the current move's
    away: tuple[int, ...] = ()  # players who play automatically until they press a button
    strikes: tuple[tuple[int, int], ...] = ()  # (user, timeouts in a row)
    leaving: tuple[int, ...] = ()  # stand up when the deal in play ends


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal's hand record and where it stands."""

    deal_id: int
    table_id: int
    chat_id: int
    deal_no: int
    seats: tuple[int, ...]
    record: dict[str, Any]
    status: str  # playing | finished | voided
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class Movement:
    """Chips from the pot to a player (negative: from the player into the pot)."""

    user_id: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class Problem:
    """An invariant found broken at start-up."""

    chat_id: int | None
    what: str
    check: str = ""  # which check found it: integrity, zero-sum, ledger, half-settled

    def line(self) -> str:
        """One line naming the chat and the check."""
        where = f"chat {self.chat_id}" if self.chat_id is not None else "database"
        return f"{where}: {self.check} check: {self.what}"


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One ledger row as /export shows it."""

    entry_id: int
    created_at: float
    deal_id: int | None
    user_id: int
    name: str
    amount: int
    reason: str


def read_user(row: aiosqlite.Row) -> UserRow:
    """A user's row."""
    return UserRow(
        row["user_id"],
        row["name"],
        row["username"],
        row["lang"],
        bool(row["started"]),
        bool(row["blocked"]),
        bool(row["pings"]),
        bool(row["pinged"]),
    )


def read_chat(row: aiosqlite.Row, pots: Iterable[Any]) -> ChatRow:
    """A chat's row with its pots' rows (game, pot, has_penalty)."""
    return ChatRow(
        row["chat_id"],
        row["title"],
        row["lang"],
        row["game"],
        json.loads(row["rules"]),
        row["ante"],
        row["turn_timeout"],
        row["pot"],
        tuple((p["game"], int(p["pot"]), bool(p["has_penalty"])) for p in pots),
        bool(row["lang_chosen"]),
    )


def read_table(row: aiosqlite.Row) -> TableRow:
    """A table's row (its seats, away players, strikes and leavers kept as JSON)."""
    return TableRow(
        row["table_id"],
        row["chat_id"],
        row["game"],
        row["status"],
        row["creator_id"],
        tuple(json.loads(row["seats"])),
        row["dealer"],
        row["deal_no"],
        row["deadline"],
        tuple(json.loads(row["away"])),
        tuple((int(user), count) for user, count in json.loads(row["strikes"]).items()),
        tuple(json.loads(row["leaving"])),
    )


def read_deal(row: aiosqlite.Row) -> DealRow:
    """A deal's row (its seats and hand record kept as JSON)."""
    return DealRow(
        row["deal_id"],
        row["table_id"],
        row["chat_id"],
        row["deal_no"],
        tuple(json.loads(row["seats"])),
        json.loads(row["record"]),
        row["status"],
        row["finished_at"],
    )
