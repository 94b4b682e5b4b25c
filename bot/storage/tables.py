"""Tables and their deals: a lobby, then a run of deals, until closed. Each game step is one
transaction: its record, the table, and the chips it moved (booked by `money.book`)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from .. import metrics
from .db import Part
from .league import rate
from .money import book
from .rows import DealRow, Movement, TableRow, read_deal, read_table


class Tables(Part):
    """Tables, deals, and the steps that write them."""

    async def create_table(self, chat_id: int, game: str, creator_id: int) -> TableRow | None:
        """A new lobby in the chat, or None if the chat already has an open table."""

        def body(db: sqlite3.Connection) -> Any:
            cursor = db.execute(
                "INSERT INTO tables (chat_id, game, status, creator_id, created_at) "
                "VALUES (?, ?, 'lobby', ?, ?)",
                (chat_id, game, creator_id, time.time()),
            )
            return db.execute(
                "SELECT * FROM tables WHERE table_id = ?", (cursor.lastrowid,)
            ).fetchone()

        try:
            return read_table(await self._jobs.transaction(body))
        except sqlite3.IntegrityError:
            return None

    async def table(self, table_id: int) -> TableRow | None:
        """A table by id."""
        row = await self._jobs.query_one("SELECT * FROM tables WHERE table_id = ?", (table_id,))
        return read_table(row) if row else None

    async def open_table(self, chat_id: int) -> TableRow | None:
        """The chat's table that is not closed, if any."""
        row = await self._jobs.query_one(
            "SELECT * FROM tables WHERE chat_id = ? AND status != 'closed'", (chat_id,)
        )
        return read_table(row) if row else None

    async def last_closed_table(self, chat_id: int, games: Sequence[str]) -> TableRow | None:
        """The chat's latest closed table of one of `games` (the last match played: /pulya)."""
        marks = ", ".join("?" * len(games))
        row = await self._jobs.query_one(
            f"SELECT * FROM tables WHERE chat_id = ? AND status = 'closed' AND game IN ({marks}) "
            "ORDER BY table_id DESC LIMIT 1",
            (chat_id, *games),
        )
        return read_table(row) if row else None

    async def open_tables(self) -> list[TableRow]:
        """Every table not closed (to resume after a restart)."""
        return [
            read_table(row)
            for row in await self._jobs.query("SELECT * FROM tables WHERE status != 'closed'")
        ]

    async def save_table(self, table: TableRow) -> None:
        """Write a table's seats, status, dealer, deal number and deadline."""
        await self._jobs.transaction(lambda db: _write_table(db, table))

    async def current_deal(self, table_id: int) -> DealRow | None:
        """The table's latest deal."""
        row = await self._jobs.query_one(
            "SELECT * FROM deals WHERE table_id = ? ORDER BY deal_no DESC LIMIT 1", (table_id,)
        )
        return read_deal(row) if row else None

    async def deal(self, deal_id: int) -> DealRow | None:
        """A deal by id."""
        row = await self._jobs.query_one("SELECT * FROM deals WHERE deal_id = ?", (deal_id,))
        return read_deal(row) if row else None

    async def start_deal(
        self,
        table: TableRow,
        record: dict[str, Any],
        movements: Sequence[Movement],
    ) -> int:
        """Insert a new deal, update the table, and book the deal's first chips: one transaction."""

        def body(db: sqlite3.Connection) -> tuple[int, bool]:
            _write_table(db, table)
            cursor = db.execute(
                "INSERT INTO deals (table_id, chat_id, deal_no, seats, record, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table.table_id,
                    table.chat_id,
                    table.deal_no,
                    json.dumps(list(table.seats)),
                    json.dumps(record),
                    time.time(),
                ),
            )
            deal_id = cursor.lastrowid
            assert deal_id is not None
            return deal_id, book(db, table.chat_id, table.game, deal_id, movements)

        deal_id, pot_moved = await self._jobs.transaction(body)
        if pot_moved:
            self._jobs.chat_changed(table.chat_id)
        return deal_id

    async def save_step(
        self,
        table: TableRow,
        deal_id: int,
        record: dict[str, Any],
        movements: Sequence[Movement],
        *,
        finished: bool = False,
        pot_has_penalty: bool | None = None,
        rated: Sequence[int] = (),
    ) -> None:
        """Write one game step: the record, the table, the chips it moved, and the league's
        ratings of the `rated` players by the deal's chips (a rated result: `league.rate`): one
        transaction."""

        def body(db: sqlite3.Connection) -> bool:
            _write_table(db, table)
            cursor = db.execute(
                "UPDATE deals SET record = ?, status = ?, finished_at = ? "
                "WHERE deal_id = ? AND status = 'playing'",
                (
                    json.dumps(record),
                    "finished" if finished else "playing",
                    time.time() if finished else None,
                    deal_id,
                ),
            )
            if cursor.rowcount != 1:  # settling twice changes nothing
                raise RuntimeError(f"deal {deal_id} is not in play")
            pot_moved = book(db, table.chat_id, table.game, deal_id, movements)
            rate(db, table.chat_id, table.game, deal_id, rated)
            if pot_has_penalty is None:
                return pot_moved
            db.execute(
                "INSERT INTO pots (chat_id, game, has_penalty) VALUES (?, ?, ?) "
                "ON CONFLICT (chat_id, game) DO UPDATE SET has_penalty = excluded.has_penalty",
                (table.chat_id, table.game, int(pot_has_penalty)),
            )
            return True

        if await self._jobs.transaction(body):
            self._jobs.chat_changed(table.chat_id)
        if finished:
            metrics.DEALS_FINISHED.labels(table.game).inc()

    async def void_deal(self, table: TableRow, deal_id: int) -> list[Movement]:
        """Void a deal in play: book the reverse of every chip it moved; returns the reversal."""

        def body(db: sqlite3.Connection) -> list[Movement]:
            _write_table(db, table)
            row = db.execute("SELECT status FROM deals WHERE deal_id = ?", (deal_id,)).fetchone()
            if row is None or row["status"] != "playing":
                return []
            sums = db.execute(
                "SELECT user_id, SUM(amount) AS total FROM ledger WHERE deal_id = ? "
                "GROUP BY user_id ORDER BY user_id",
                (deal_id,),
            ).fetchall()
            reversal = [Movement(r["user_id"], -r["total"], "void") for r in sums if r["total"]]
            book(db, table.chat_id, table.game, deal_id, reversal)
            db.execute(
                "UPDATE deals SET status = 'voided', finished_at = ? WHERE deal_id = ?",
                (time.time(), deal_id),
            )
            return reversal

        reversal = await self._jobs.transaction(body)
        if reversal:
            self._jobs.chat_changed(table.chat_id)
        return reversal

    async def table_deals(self, table_id: int) -> list[DealRow]:
        """Every deal of a table, first to last (a match of many deals, e.g. a Preferans pulya,
        is rebuilt from them)."""
        rows = await self._jobs.query(
            "SELECT * FROM deals WHERE table_id = ? ORDER BY deal_no", (table_id,)
        )
        return [read_deal(row) for row in rows]

    async def settle_match(
        self,
        table: TableRow,
        deal_id: int,
        movements: Sequence[Movement],
        rated: Sequence[int] = (),
    ) -> None:
        """A match stopped early: its deal in play voided (it moved no chips) and the match's
        settlement booked against its last finished deal, the one its score stands at (a voided
        deal books nothing: the start-up check holds it to that), with the table closed, and
        the `rated` players rated by it: one transaction. With no deal finished the sheet is
        empty, so nothing is owed, booked or rated."""

        def body(db: sqlite3.Connection) -> bool:
            _write_table(db, table)
            db.execute(
                "UPDATE deals SET status = 'voided', finished_at = ? "
                "WHERE deal_id = ? AND status = 'playing'",
                (time.time(), deal_id),
            )
            last = db.execute(
                "SELECT deal_id FROM deals WHERE table_id = ? AND status = 'finished' "
                "ORDER BY deal_no DESC LIMIT 1",
                (table.table_id,),
            ).fetchone()
            if last is None:
                if any(m.amount for m in movements):
                    raise RuntimeError(f"table {table.table_id}: a settlement with no deal played")
                return False
            pot_moved = book(db, table.chat_id, table.game, last["deal_id"], movements)
            rate(db, table.chat_id, table.game, last["deal_id"], rated)
            return pot_moved

        if await self._jobs.transaction(body):
            self._jobs.chat_changed(table.chat_id)


def _write_table(db: sqlite3.Connection, table: TableRow) -> None:
    """Inside a transaction: the table's row as `table` has it."""
    db.execute(
        "UPDATE tables SET game = ?, status = ?, seats = ?, dealer = ?, deal_no = ?, deadline = ?, "
        "away = ?, strikes = ?, leaving = ? WHERE table_id = ?",
        (
            table.game,
            table.status,
            json.dumps(list(table.seats)),
            table.dealer,
            table.deal_no,
            table.deadline,
            json.dumps(list(table.away)),
            json.dumps(dict(table.strikes)),
            json.dumps(list(table.leaving)),
            table.table_id,
        ),
    )
