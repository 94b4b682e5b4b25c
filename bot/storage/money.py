"""Money: the ledger, balances and each game's pot, seasons, the evening's
and /stats's sums, and the start-up check's money invariants.

Every chip movement is a ledger row written by `book` alone, inside the transaction of the game
step that caused it; a player's balance and the pots are kept beside it so that, per chat, the
sum of balances plus the pot is always zero, and the chat's pot is the sum of its games' pots.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Collection, Sequence

from .db import Part
from .rows import DealRow, LedgerEntry, Movement, Problem, UserRow, read_deal, read_user


def book(
    db: sqlite3.Connection,
    chat_id: int,
    game: str | None,
    deal_id: int | None,
    movements: Sequence[Movement],
) -> bool:
    """Inside a transaction: a ledger row and a balance change per movement; the pot of `game`
    (the deal's table's) takes the opposite of their sum, and so does the chat's sum of pots
    (per chat, balances plus every pot stay zero). Chips moved outside a game (`game` None: a
    season's close) move the chat's pot only, and that caller settles the games' pots itself.
    The one writer of chips. True if a pot changed."""
    now = time.time()
    db.executemany(
        "INSERT INTO ledger (chat_id, deal_id, user_id, amount, reason, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(chat_id, deal_id, m.user_id, m.amount, m.reason, now) for m in movements],
    )
    db.executemany(
        "INSERT INTO balances (chat_id, user_id, balance) VALUES (?, ?, ?) "
        "ON CONFLICT (chat_id, user_id) DO UPDATE SET balance = balance + excluded.balance",
        [(chat_id, m.user_id, m.amount) for m in movements],
    )
    total = sum(move.amount for move in movements)
    if total:
        db.execute("UPDATE chats SET pot = pot - ? WHERE chat_id = ?", (total, chat_id))
        if game is not None:
            db.execute(
                "INSERT INTO pots (chat_id, game, pot) VALUES (?, ?, ?) "
                "ON CONFLICT (chat_id, game) DO UPDATE SET pot = pot + excluded.pot",
                (chat_id, game, -total),
            )
    return total != 0


class Money(Part):
    """Readers of the ledger and balances, seasons, and the money invariants."""

    async def balances(self, chat_id: int) -> list[tuple[UserRow, int]]:
        """Every player's chips in the chat, richest first."""
        rows = await self._jobs.query(
            "SELECT u.*, b.balance FROM balances b JOIN users u USING (user_id) "
            "WHERE b.chat_id = ? ORDER BY b.balance DESC, u.name",
            (chat_id,),
        )
        return [(read_user(row), int(row["balance"])) for row in rows]

    async def ledger_rows(self, chat_id: int) -> list[tuple[int | None, int, int, str]]:
        """The chat's ledger, oldest first: (deal_id, user_id, amount, reason)."""
        rows = await self._jobs.query(
            "SELECT deal_id, user_id, amount, reason FROM ledger WHERE chat_id = ? "
            "ORDER BY entry_id",
            (chat_id,),
        )
        return [(r["deal_id"], r["user_id"], r["amount"], r["reason"]) for r in rows]

    async def ledger_entries(self, chat_id: int) -> list[LedgerEntry]:
        """The chat's ledger with the players' names, oldest first (for /export)."""
        rows = await self._jobs.query(
            "SELECT l.*, COALESCE(u.name, '') AS name FROM ledger l "
            "LEFT JOIN users u USING (user_id) WHERE l.chat_id = ? ORDER BY l.entry_id",
            (chat_id,),
        )
        return [
            LedgerEntry(
                r["entry_id"],
                r["created_at"],
                r["deal_id"],
                r["user_id"],
                r["name"],
                r["amount"],
                r["reason"],
            )
            for r in rows
        ]

    async def session(self, table_id: int) -> tuple[int, dict[int, int]]:
        """A table's evening: deals played to the end, and each player's chips won
        (+) or lost (−) over them (a voided deal's reversal cancels its rows)."""
        row = await self._jobs.query_one(
            "SELECT COUNT(*) AS n FROM deals WHERE table_id = ? AND status = 'finished'",
            (table_id,),
        )
        sums = await self._jobs.query(
            "SELECT l.user_id, SUM(l.amount) AS total FROM ledger l JOIN deals d USING (deal_id) "
            "WHERE d.table_id = ? GROUP BY l.user_id",
            (table_id,),
        )
        return int(row["n"]) if row else 0, {r["user_id"]: int(r["total"]) for r in sums}

    async def deal_sums(
        self, chat_id: int, taken: Collection[str]
    ) -> list[tuple[DealRow, str, dict[int, int], dict[int, int], bool]]:
        """The chat's finished deals, oldest first, for /stats: each with its game,
        every seated player's chips won or lost in it, what each took from the pot (the chips
        won for the ledger reasons `taken`, which the games name), and whether its table is
        closed (a match's settlement is then booked)."""
        deals = await self._jobs.query(
            "SELECT d.*, t.game, t.status AS table_status FROM deals d "
            "JOIN tables t USING (table_id) "
            "WHERE d.chat_id = ? AND d.status = 'finished' ORDER BY d.deal_id",
            (chat_id,),
        )
        marks = ", ".join("?" * len(taken))
        sums = await self._jobs.query(
            "SELECT deal_id, user_id, SUM(amount) AS total, SUM(CASE WHEN amount > 0 AND "
            f"reason IN ({marks}) THEN amount ELSE 0 END) AS taken FROM ledger "
            "WHERE chat_id = ? AND deal_id IS NOT NULL GROUP BY deal_id, user_id",
            (*taken, chat_id),
        )
        by_deal: dict[int, dict[int, tuple[int, int]]] = {}
        for r in sums:
            by_deal.setdefault(r["deal_id"], {})[r["user_id"]] = (int(r["total"]), int(r["taken"]))
        out = []
        for row in deals:
            deal = read_deal(row)
            booked = by_deal.get(deal.deal_id, {})
            deltas = {uid: booked.get(uid, (0, 0))[0] for uid in deal.seats}
            won = {uid: booked[uid][1] for uid in deal.seats if uid in booked and booked[uid][1]}
            out.append((deal, str(row["game"]), deltas, won, row["table_status"] == "closed"))
        return out

    async def seasons(self, chat_id: int) -> int:
        """How many seasons the chat has closed."""
        row = await self._jobs.query_one(
            "SELECT COUNT(*) AS n FROM seasons WHERE chat_id = ?", (chat_id,)
        )
        return int(row["n"]) if row else 0

    async def season_balances(self, chat_id: int, season: int) -> dict[int, int]:
        """The balances the chat's closed `season` (counted from 0) ended with."""
        row = await self._jobs.query_one(
            "SELECT balances FROM seasons WHERE chat_id = ? ORDER BY season_id LIMIT 1 OFFSET ?",
            (chat_id, season),
        )
        return {int(uid): bal for uid, bal in json.loads(row["balances"]).items()} if row else {}

    async def new_season(self, chat_id: int, closed: int) -> dict[int, int] | None:
        """Close the chat's season: ledger rows bring every balance back to zero
        (the pot, which held their opposite, with them), the season row keeps what they were.
        None if the chat has closed another season since `closed` were counted."""

        def body(db: sqlite3.Connection) -> dict[int, int] | None:
            count = db.execute("SELECT COUNT(*) FROM seasons WHERE chat_id = ?", (chat_id,))
            if count.fetchone()[0] != closed:
                return None
            rows = db.execute(
                "SELECT user_id, balance FROM balances WHERE chat_id = ? AND balance != 0",
                (chat_id,),
            ).fetchall()
            balances = {r["user_id"]: r["balance"] for r in rows}
            pot = db.execute("SELECT pot FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
            db.execute(
                "INSERT INTO seasons (chat_id, closed_at, pot, balances) VALUES (?, ?, ?, ?)",
                (chat_id, time.time(), pot[0] if pot else 0, json.dumps(balances)),
            )
            book(db, chat_id, None, None, [Movement(u, -b, "season") for u, b in balances.items()])
            # The season's rows emptied the chat's pots as a whole (chats.pot is now 0): every
            # game's pot is zero with them, whichever game had held the chips.
            db.execute("UPDATE pots SET pot = 0, has_penalty = 0 WHERE chat_id = ?", (chat_id,))
            return balances

        result = await self._jobs.transaction(body)
        if result is not None:
            self._jobs.chat_changed(chat_id)
        return result

    async def problems(self) -> list[Problem]:
        """The start-up check's money invariants, per chat: balances plus the pot are zero, the
        games' pots add up to the chat's, each balance is its ledger rows' sum, and no deal is
        half settled (in play at no table, or voided with its chips not returned)."""
        problems: list[Problem] = []
        for r in await self._jobs.query(
            "SELECT c.chat_id, c.pot, COALESCE((SELECT SUM(balance) FROM balances b "
            "WHERE b.chat_id = c.chat_id), 0) AS total FROM chats c"
        ):
            if r["pot"] + r["total"] != 0:
                what = f"balances {r['total']} + pot {r['pot']} != 0"
                problems.append(Problem(r["chat_id"], what, "zero-sum"))
        for r in await self._jobs.query(
            "SELECT c.chat_id, c.pot, COALESCE((SELECT SUM(p.pot) FROM pots p "
            "WHERE p.chat_id = c.chat_id), 0) AS pots FROM chats c"
        ):
            if r["pot"] != r["pots"]:  # so balances plus every game's pot is zero too
                what = f"the pots {r['pots']} != the chat's pot {r['pot']}"
                problems.append(Problem(r["chat_id"], what, "pots"))
        for r in await self._jobs.query(
            "SELECT b.chat_id, b.user_id, b.balance, COALESCE((SELECT SUM(amount) FROM ledger l "
            "WHERE l.chat_id = b.chat_id AND l.user_id = b.user_id), 0) AS booked FROM balances b"
        ):
            if r["balance"] != r["booked"]:
                problems.append(
                    Problem(
                        r["chat_id"],
                        f"user {r['user_id']}: balance {r['balance']} != ledger {r['booked']}",
                        "ledger",
                    )
                )
        for r in await self._jobs.query(
            "SELECT d.chat_id, d.deal_id, d.status FROM deals d JOIN tables t USING (table_id) "
            "WHERE (d.status = 'playing' AND (t.status != 'playing' OR t.deal_no != d.deal_no)) "
            "OR (d.status = 'voided' AND EXISTS (SELECT 1 FROM ledger l "
            "WHERE l.deal_id = d.deal_id GROUP BY l.user_id HAVING SUM(l.amount) != 0))"
        ):
            playing = r["status"] == "playing"
            what = "in play at no table" if playing else "voided, chips not returned"
            problems.append(Problem(r["chat_id"], f"deal {r['deal_id']} {what}", "half-settled"))
        return problems
