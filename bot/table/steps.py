"""What a game's step stores, as values: a kind of game says what its step wrote (a deal dealt,
a step taken, a deal voided, a match settled, the table's row alone) and the host writes it with
the table's row, in one transaction (`GameService.store`). A kind reads the few rows it needs
through `Rows` and writes nothing itself."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..storage import ChatRow, DealRow, Movement, Storage, UserRow
from .live import OpenTable

Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class DealBegun:
    """A deal dealt: its record and the chips moved as it was dealt (the antes, F3), stored as
    the table's deal in play (`OpenTable.deal_id`)."""

    record: Record
    chips: Sequence[Movement] = ()


@dataclass(frozen=True, slots=True)
class Stepped:
    """The deal in play after a step: its record and the chips the step moved; `finished` once
    it has ended, with whether the pot carries a penalty (F15) and the players the league rates
    by its chips."""

    record: Record
    chips: Sequence[Movement] = ()
    finished: bool = False
    pot_has_penalty: bool | None = None
    rated: Sequence[int] = ()


@dataclass(frozen=True, slots=True)
class Voided:
    """The deal in play voided: every chip it moved returned."""


@dataclass(frozen=True, slots=True)
class Settled:
    """A match stopped early: its deal in play voided, its settlement booked against its last
    finished deal (P14), `rated` rated by it."""

    chips: Sequence[Movement]
    rated: Sequence[int] = ()


@dataclass(frozen=True, slots=True)
class RowOnly:
    """Only the table's row (its seats, dealer, deal number, deadline, status)."""


Stored = DealBegun | Stepped | Voided | Settled | RowOnly


class ChatRows(Protocol):
    """What a kind of game may read of the chats (`storage.chats`)."""

    async def chat(self, chat_id: int, title: str | None = None) -> ChatRow:
        """A chat's row: its rules, pots and timers."""

    async def users(self, user_ids: Iterable[int]) -> dict[int, UserRow]:
        """Players by id (their names)."""


class DealRows(Protocol):
    """What a kind of game may read of the tables (`storage.tables`): its table's deals."""

    async def current_deal(self, table_id: int) -> DealRow | None:
        """The table's latest deal."""

    async def table_deals(self, table_id: int) -> list[DealRow]:
        """Every deal of the table, first to last."""


class Rows(Protocol):
    """What a kind of game may read of the storage: a few rows of two of its parts."""

    @property
    def chats(self) -> ChatRows:
        """Chats and players."""

    @property
    def tables(self) -> DealRows:
        """The table's deals."""


async def store(storage: Storage, live: OpenTable, what: Stored) -> None:
    """`what` written with `live`'s row, in one transaction."""
    row, deal_id = live.row, live.deal_id
    if isinstance(what, DealBegun):
        live.deal_id = await storage.tables.start_deal(row, what.record, what.chips)
        return
    if isinstance(what, RowOnly):
        await storage.tables.save_table(row)
        return
    assert deal_id is not None, "a step of no deal"
    if isinstance(what, Stepped):
        await storage.tables.save_step(
            row, deal_id, what.record, what.chips, finished=what.finished,
            pot_has_penalty=what.pot_has_penalty, rated=what.rated,
        )  # fmt: skip
    elif isinstance(what, Voided):
        await storage.tables.void_deal(row, deal_id)
    else:
        await storage.tables.settle_match(row, deal_id, what.chips, what.rated)
