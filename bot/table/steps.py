"""What a game's step stores, as values: a kind of game says what its step wrote (a deal dealt,
a step taken, a deal voided, a match settled, the table's row alone) and what it changes of the
table's seating (who was dealt in, the dealer, the deal's number, the next move's deadline); the
host changes the seating and writes it all with the table's row, in one transaction
(`GameService.store`). A kind reads the few rows it needs through `Rows` and writes nothing of
the table itself but its own `OpenTable.play`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, replace
from typing import Any, Protocol

from ..storage import ChatRow, DealRow, Movement, Storage, UserRow
from .live import OpenTable

Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class DealBegun:
    """A deal dealt: its record and the chips moved as it was dealt (the antes, F3), stored as
    the table's deal in play (`OpenTable.deal_id`); the players it was dealt to (`seats`), its
    dealer (a place in the row's seats), number and first deadline, and the seated players it
    was dealt without (`sitting_out`; of them `short`, short of the bankroll's chips, F15).
    Nobody has been shown to move in it yet (`OpenTable.mover`)."""

    record: Record
    _: KW_ONLY
    seats: tuple[int, ...]
    dealer: int | None
    deal_no: int
    deadline: float | None
    chips: Sequence[Movement] = ()
    sitting_out: tuple[int, ...] = ()
    short: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Stepped:
    """The deal in play after a step: its record, the next move's deadline and the chips the
    step moved; `finished` once it has ended, with whether the pot carries a penalty (F15) and
    the players the league rates by its chips; `closed` when it ended the table's match (P14)."""

    record: Record
    _: KW_ONLY
    deadline: float | None
    chips: Sequence[Movement] = ()
    finished: bool = False
    pot_has_penalty: bool | None = None
    rated: Sequence[int] = ()
    closed: bool = False


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
    """The seating `what` changes, and `what` written with `live`'s row, in one transaction; a
    step whose write fails leaves the seating as it was."""
    before = live.row, live.deal_seats, live.sitting_out, live.short, live.mover
    _seat(live, what)
    try:
        await _write(storage, live, what)
    except BaseException:
        live.row, live.deal_seats, live.sitting_out, live.short, live.mover = before
        raise


async def resumed(rows: Rows, live: OpenTable, deal_id: int, seats: tuple[int, ...]) -> None:
    """After a restart: the seating of a table whose deal in play is `deal_id`, dealt to
    `seats` (the seated others sat it out)."""
    live.deal_id, live.deal_seats = deal_id, seats
    live.sitting_out = tuple(uid for uid in live.row.seats if uid not in seats)
    live.users.update(await rows.chats.users(seats))


def _seat(live: OpenTable, what: Stored) -> None:
    """What a step changes of the table's seating."""
    if isinstance(what, DealBegun):
        live.row = replace(
            live.row, dealer=what.dealer, deal_no=what.deal_no, deadline=what.deadline
        )
        live.deal_seats, live.sitting_out, live.short = what.seats, what.sitting_out, what.short
        live.mover = None
    elif isinstance(what, Stepped) and what.closed:
        live.row = replace(live.row, status="closed", deadline=None)
    elif isinstance(what, Stepped):
        live.row = replace(live.row, deadline=what.deadline)


async def _write(storage: Storage, live: OpenTable, what: Stored) -> None:
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
