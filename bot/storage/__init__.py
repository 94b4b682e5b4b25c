"""SQLite storage (aiosqlite, WAL): chats, players, balances, the ledger, tables, deals, messages.

Money is a ledger: every chip movement is a row (chat, deal, player, amount, reason) written in the
same transaction as the game step that caused it; a player's balance and the chat's pot are kept
beside it so that, per chat, the sum of balances plus the pot is always zero.

One facade, `Storage`, owns the parts, split by concern, all on one connection and one job
runner (`db.Jobs`, its `jobs`): `chats` (users, chats, supergroup moves), `tables` (tables,
deals, the steps that write them), `money` (ledger, balances, pots, seasons, the money
invariants), `history` (finished deals), `league` (the ratings), `messages` (the presenter's
slots, the heartbeat); `schema` holds the migrations and `rows` the values handed out. A step
that writes to several concerns (a deal's chips and ratings with its table) is one transaction
of one part, built from the others' module functions (`money.book`, `league.rate`).
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from .chats import Chats
from .db import RETRY_AFTER, Jobs, StorageUnavailable, connect
from .history import History
from .league import League, Result, Standing
from .messages import Messages
from .money import Money
from .rows import ChatRow, DealRow, LedgerEntry, Movement, Problem, TableRow, UserRow
from .schema import MIGRATIONS
from .tables import Tables

__all__ = [
    "MIGRATIONS",
    "RETRY_AFTER",
    "ChatRow",
    "DealRow",
    "LedgerEntry",
    "Movement",
    "Problem",
    "Result",
    "Standing",
    "Storage",
    "StorageUnavailable",
    "TableRow",
    "UserRow",
]


class Storage:
    """All database access, by its parts (`chats`, `tables`, `money`, `history`, `league`,
    `messages`). Each public method of a part is one job on aiosqlite's database thread: a
    query, or a whole transaction (BEGIN IMMEDIATE … COMMIT) run there at once (`db._Connection`).
    Jobs run one after another, so none interleaves with another, and a write costs one round
    trip to the thread however many statements it has (a transaction of round trips
    held the one connection across several turns of a busy event loop)."""

    def __init__(self, db: aiosqlite.Connection, defaults: dict[str, Any]) -> None:
        self.jobs = Jobs(db)
        self.chats = Chats(self.jobs, defaults)
        self.tables = Tables(self.jobs)
        self.money = Money(self.jobs)
        self.history = History(self.jobs)
        self.league = League(self.jobs)
        self.messages = Messages(self.jobs)

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        lang: str = "ru",
        ante: int = 10,
        turn_timeout: int = 90,
        busy_timeout: float = 5.0,
    ) -> Storage:
        """Open (or create) the database and bring its schema up to date; a write waits up to
        `busy_timeout` seconds for another process's lock."""
        db = await connect(path, busy_timeout)
        storage = cls(db, {"lang": lang, "ante": ante, "turn_timeout": turn_timeout})
        storage.chats.moves.update(await storage.chats.chat_moves())
        return storage

    async def close(self) -> None:
        """Close the connection."""
        await self.jobs.close()

    async def check(self) -> list[Problem]:
        """Integrity check and the ledger invariants, per chat; empty when all is well."""
        problems: list[Problem] = []
        row = await self.jobs.query_one("PRAGMA integrity_check")
        if row is None or row[0] != "ok":
            problems.append(Problem(None, f"{row[0] if row else 'no answer'}", "integrity"))
        return problems + await self.money.problems()
