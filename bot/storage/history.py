"""The readers of the chat's finished deals: /history's numbered list and the last deals; a
finished deal's review, kept once worked out, and the message that shows it in the chat."""

from __future__ import annotations

import sqlite3

from .db import Part
from .rows import DealRow, read_deal


class History(Part):
    """The chat's finished deals, as /history and the evening read them."""

    async def recent_deals(self, chat_id: int, limit: int) -> list[DealRow]:
        """The chat's last finished deals, newest first."""
        rows = await self._jobs.query(
            "SELECT * FROM deals WHERE chat_id = ? AND status = 'finished' "
            "ORDER BY deal_id DESC LIMIT ?",
            (chat_id, limit),
        )
        return [read_deal(row) for row in rows]

    async def numbered_deals(
        self, chat_id: int, *, limit: int = 1, number: int | None = None
    ) -> list[tuple[int, DealRow]]:
        """The chat's finished deals numbered 1, 2, … in the order played (the numbers /history
        shows), newest first: the last `limit`, or only the one numbered `number`."""
        numbered = (
            "SELECT *, ROW_NUMBER() OVER (ORDER BY deal_id) AS number FROM deals "
            "WHERE chat_id = ? AND status = 'finished'"
        )
        if number is not None:
            sql, args = f"SELECT * FROM ({numbered}) WHERE number = ?", (chat_id, number)
            rows = await self._jobs.query(sql, args)
        else:
            rows = await self._jobs.query(
                f"{numbered} ORDER BY deal_id DESC LIMIT ?", (chat_id, limit)
            )
        return [(row["number"], read_deal(row)) for row in rows]

    async def finished_deal(self, deal_id: int) -> DealRow | None:
        """A finished deal by its id (a review button names it)."""
        row = await self._jobs.query_one(
            "SELECT * FROM deals WHERE deal_id = ? AND status = 'finished'", (deal_id,)
        )
        return None if row is None else read_deal(row)

    async def last_finished(self, table_id: int) -> DealRow | None:
        """The table's last finished deal (its result is the one a page shows)."""
        row = await self._jobs.query_one(
            "SELECT * FROM deals WHERE table_id = ? AND status = 'finished' "
            "ORDER BY deal_id DESC LIMIT 1",
            (table_id,),
        )
        return None if row is None else read_deal(row)

    async def deal_review(self, deal_id: int) -> str | None:
        """The deal's review as stored (JSON text), None until one is saved."""
        row = await self._jobs.query_one("SELECT review FROM deals WHERE deal_id = ?", (deal_id,))
        return None if row is None else row["review"]

    async def save_review(self, deal_id: int, review: str) -> None:
        """Keep a finished deal's review (its record no longer changes)."""

        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE deals SET review = ? WHERE deal_id = ? AND status = 'finished'",
                (review, deal_id),
            )

        await self._jobs.transaction(body)

    async def review_message(self, deal_id: int) -> int | None:
        """The message of the deal's chat that shows its review, once its button posted it."""
        row = await self._jobs.query_one(
            "SELECT review_message FROM deals WHERE deal_id = ?", (deal_id,)
        )
        return None if row is None else row["review_message"]

    async def save_review_message(self, deal_id: int, message_id: int) -> None:
        """Remember the message that shows the deal's review in its chat."""

        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE deals SET review_message = ? WHERE deal_id = ?", (message_id, deal_id)
            )

        await self._jobs.transaction(body)

    async def deal_number(self, deal: DealRow) -> int:
        """The chat's number for a finished deal (as /history numbers them)."""
        row = await self._jobs.query_one(
            "SELECT COUNT(*) AS n FROM deals WHERE chat_id = ? AND status = 'finished' "
            "AND deal_id <= ?",
            (deal.chat_id, deal.deal_id),
        )
        assert row is not None
        return int(row["n"])
