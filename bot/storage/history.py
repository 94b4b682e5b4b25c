"""The readers of the chat's finished deals: /history's numbered list and the last deals."""

from __future__ import annotations

from .db import Jobs
from .rows import DealRow, read_deal


class History(Jobs):
    """The chat's finished deals, as /history and the evening read them."""

    async def recent_deals(self, chat_id: int, limit: int) -> list[DealRow]:
        """The chat's last finished deals, newest first."""
        rows = await self.query(
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
            rows = await self.query(sql, args)
        else:
            rows = await self.query(f"{numbered} ORDER BY deal_id DESC LIMIT ?", (chat_id, limit))
        return [(row["number"], read_deal(row)) for row in rows]
