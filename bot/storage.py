"""SQLite storage (aiosqlite, WAL): chats, players, balances, the ledger, tables, deals, messages.

Money is a ledger: every chip movement is a row (chat, deal, player, amount, reason) written in the
same transaction as the game step that caused it; a player's balance and the chat's pot are kept
beside it so that, per chat, the sum of balances plus the pot is always zero.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        lang TEXT NOT NULL,
        game TEXT NOT NULL DEFAULT 'frap',
        rules TEXT NOT NULL DEFAULT '{"preset": "classic"}',
        ante INTEGER NOT NULL,
        turn_timeout INTEGER NOT NULL,
        pot INTEGER NOT NULL DEFAULT 0,
        pot_has_penalty INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        lang TEXT,
        started INTEGER NOT NULL DEFAULT 0,
        blocked INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE balances (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        balance INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE TABLE tables (
        table_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        dealer INTEGER,
        deal_no INTEGER NOT NULL DEFAULT 0,
        deadline REAL,
        created_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_chat ON tables (chat_id) WHERE status != 'closed';
    CREATE TABLE deals (
        deal_id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL REFERENCES tables (table_id),
        chat_id INTEGER NOT NULL,
        deal_no INTEGER NOT NULL,
        seats TEXT NOT NULL,
        record TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing',
        created_at REAL NOT NULL,
        finished_at REAL,
        UNIQUE (table_id, deal_no)
    );
    CREATE TABLE ledger (
        entry_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        deal_id INTEGER REFERENCES deals (deal_id),
        user_id INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        reason TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX ledger_by_chat ON ledger (chat_id, user_id);
    CREATE TABLE messages (
        slot TEXT PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        content_hash TEXT NOT NULL
    );
    """,
    # 2: players who timed out twice are "away" and play automatically (issue 4)
    """
    ALTER TABLE tables ADD COLUMN away TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN strikes TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: the ledger is append-only (issue 4): a voided deal is reversed by new rows
    """
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
)


@dataclass(frozen=True, slots=True)
class ChatRow:
    """A chat's settings and pot."""

    chat_id: int
    title: str
    lang: str
    game: str
    rules: dict[str, Any]
    ante: int
    turn_timeout: int
    pot: int
    pot_has_penalty: bool


@dataclass(frozen=True, slots=True)
class UserRow:
    """A Telegram user the bot has seen."""

    user_id: int
    name: str
    username: str | None
    lang: str | None
    started: bool
    blocked: bool


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


class Storage:
    """All database access. Each public method is one job on aiosqlite's database thread: a
    query, or a whole transaction (BEGIN IMMEDIATE … COMMIT) run there at once. Jobs run one
    after another, so none interleaves with another, and a write costs one round trip to the
    thread however many statements it has (issue 6: a transaction of round trips held the one
    connection across several turns of a busy event loop)."""

    def __init__(self, db: aiosqlite.Connection, defaults: dict[str, Any]) -> None:
        self._db = db
        self._defaults = defaults
        # Chat rows, read on every press (issue 6): kept until a write touches the row. A read
        # that raced a write (the epoch moved on meanwhile) is not kept.
        self._chats: dict[int, ChatRow] = {}
        self._chats_epoch = 0

    @classmethod
    async def open(
        cls, path: str, *, lang: str = "ru", ante: int = 10, turn_timeout: int = 90
    ) -> Storage:
        """Open (or create) the database and bring its schema up to date."""
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        storage = cls(db, {"lang": lang, "ante": ante, "turn_timeout": turn_timeout})
        await storage._migrate()
        return storage

    async def close(self) -> None:
        """Close the connection."""
        await self._db.close()

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        version = int(row[0]) if row else 0
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            await self._db.executescript(
                f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;"
            )

    async def _write(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run `body` (plain sqlite3 calls) in one transaction, as one job on the database
        thread; rolled back if it raises. (aiosqlite's `_execute` is the queue its own methods
        use; it has no public way to run a function there.)"""
        job = self._db._execute(_transaction, self._db._conn, body)  # type: ignore[no-untyped-call]
        result: T = await job
        return result

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self._db.execute_fetchall(sql, args))  # one job, not three

    # ---- users and chats ------------------------------------------------------------------------

    async def touch_user(
        self, user_id: int, name: str, username: str | None, lang: str | None
    ) -> UserRow:
        """Record (or refresh) a user's name and language; returns the row."""

        def body(db: sqlite3.Connection) -> Any:
            db.execute(
                "INSERT INTO users (user_id, name, username, lang) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, "
                "username = excluded.username, lang = COALESCE(users.lang, excluded.lang)",
                (user_id, name, username, lang),
            )
            return db.execute("SELECT * FROM users WHERE user_id = ?", (user_id,)).fetchone()

        return _user(await self._write(body))

    async def user(self, user_id: int) -> UserRow | None:
        """A user by id."""
        row = await self._one("SELECT * FROM users WHERE user_id = ?", (user_id,))
        return _user(row) if row else None

    async def users(self, user_ids: Iterable[int]) -> dict[int, UserRow]:
        """Users by id."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(f"SELECT * FROM users WHERE user_id IN ({marks})", ids)
        return {row["user_id"]: _user(row) for row in rows}

    async def set_user(self, user_id: int, **fields: Any) -> None:
        """Change some of a user's fields (started, blocked, lang)."""
        await self._update("users", "user_id", user_id, fields)

    async def mark_blocked(self, user_id: int) -> bool:
        """Mark a known user as unreachable; False if unknown or marked already."""

        def body(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE users SET blocked = 1 WHERE user_id = ? AND blocked = 0", (user_id,)
            )
            return cursor.rowcount == 1

        return await self._write(body)

    async def chat(self, chat_id: int, title: str | None = None) -> ChatRow:
        """A chat's row, created with the defaults the first time (a plain read otherwise: the
        service asks for it on every press: cached, so it costs no query at all)."""
        cached = self._chats.get(chat_id)
        if cached is not None and (not title or cached.title == title):
            return cached
        epoch = self._chats_epoch
        row = await self._one("SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
        if row is not None and (not title or row["title"] == title):
            chat = _chat(row)
            if epoch == self._chats_epoch:
                self._chats[chat_id] = chat
            return chat
        defaults = self._defaults

        def body(db: sqlite3.Connection) -> Any:
            db.execute(
                "INSERT INTO chats (chat_id, title, lang, ante, turn_timeout) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO NOTHING",
                (
                    chat_id,
                    title or "",
                    defaults["lang"],
                    defaults["ante"],
                    defaults["turn_timeout"],
                ),
            )
            if title:
                db.execute("UPDATE chats SET title = ? WHERE chat_id = ?", (title, chat_id))
            return db.execute("SELECT * FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()

        created = await self._write(body)
        self._chat_changed(chat_id)
        return _chat(created)

    def _chat_changed(self, chat_id: int) -> None:
        """A write transaction changed chat `chat_id`'s row: forget the cached one."""
        self._chats.pop(chat_id, None)
        self._chats_epoch += 1

    async def set_chat(self, chat_id: int, **fields: Any) -> None:
        """Change chat settings (lang, game, rules, ante, turn_timeout)."""
        if "rules" in fields:
            fields["rules"] = json.dumps(fields["rules"], sort_keys=True)
        await self._update("chats", "chat_id", chat_id, fields)

    async def _update(self, table: str, key: str, key_value: int, fields: dict[str, Any]) -> None:
        allowed = {
            "users": {"started", "blocked", "lang"},
            "chats": {"lang", "game", "rules", "ante", "turn_timeout"},
        }[table]
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"cannot set {sorted(fields)} on {table}")
        assignments = ", ".join(f"{name} = ?" for name in fields)
        sql, args = (
            f"UPDATE {table} SET {assignments} WHERE {key} = ?",
            (*fields.values(), key_value),
        )
        await self._write(lambda db: db.execute(sql, args))
        if table == "chats":
            self._chat_changed(key_value)

    # ---- tables ---------------------------------------------------------------------------------

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
            return _table(await self._write(body))
        except sqlite3.IntegrityError:
            return None

    async def table(self, table_id: int) -> TableRow | None:
        """A table by id."""
        row = await self._one("SELECT * FROM tables WHERE table_id = ?", (table_id,))
        return _table(row) if row else None

    async def open_table(self, chat_id: int) -> TableRow | None:
        """The chat's table that is not closed, if any."""
        row = await self._one(
            "SELECT * FROM tables WHERE chat_id = ? AND status != 'closed'", (chat_id,)
        )
        return _table(row) if row else None

    async def open_tables(self) -> list[TableRow]:
        """Every table not closed (to resume after a restart)."""
        return [
            _table(row) for row in await self._all("SELECT * FROM tables WHERE status != 'closed'")
        ]

    async def save_table(self, table: TableRow) -> None:
        """Write a table's seats, status, dealer, deal number and deadline."""
        await self._write(lambda db: _write_table(db, table))

    # ---- deals and money ------------------------------------------------------------------------

    async def current_deal(self, table_id: int) -> DealRow | None:
        """The table's latest deal."""
        row = await self._one(
            "SELECT * FROM deals WHERE table_id = ? ORDER BY deal_no DESC LIMIT 1", (table_id,)
        )
        return _deal(row) if row else None

    async def deal(self, deal_id: int) -> DealRow | None:
        """A deal by id."""
        row = await self._one("SELECT * FROM deals WHERE deal_id = ?", (deal_id,))
        return _deal(row) if row else None

    async def recent_deals(self, chat_id: int, limit: int) -> list[DealRow]:
        """The chat's last finished deals, newest first."""
        rows = await self._all(
            "SELECT * FROM deals WHERE chat_id = ? AND status = 'finished' "
            "ORDER BY deal_id DESC LIMIT ?",
            (chat_id, limit),
        )
        return [_deal(row) for row in rows]

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
            return deal_id, _book(db, table.chat_id, deal_id, movements)

        deal_id, pot_moved = await self._write(body)
        if pot_moved:
            self._chat_changed(table.chat_id)
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
    ) -> None:
        """Write one game step: the record, the table, the chips it moved: one transaction."""

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
            pot_moved = _book(db, table.chat_id, deal_id, movements)
            if pot_has_penalty is None:
                return pot_moved
            db.execute(
                "UPDATE chats SET pot_has_penalty = ? WHERE chat_id = ?",
                (int(pot_has_penalty), table.chat_id),
            )
            return True

        if await self._write(body):
            self._chat_changed(table.chat_id)

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
            _book(db, table.chat_id, deal_id, reversal)
            db.execute(
                "UPDATE deals SET status = 'voided', finished_at = ? WHERE deal_id = ?",
                (time.time(), deal_id),
            )
            return reversal

        reversal = await self._write(body)
        if reversal:
            self._chat_changed(table.chat_id)
        return reversal

    async def table_deals(self, table_id: int) -> list[DealRow]:
        """Every deal of a table, first to last (a match of many deals, e.g. a Preferans pulya,
        is rebuilt from them)."""
        rows = await self._all(
            "SELECT * FROM deals WHERE table_id = ? ORDER BY deal_no", (table_id,)
        )
        return [_deal(row) for row in rows]

    async def settle_match(
        self, table: TableRow, deal_id: int, movements: Sequence[Movement]
    ) -> None:
        """A match stopped early: its deal in play voided (it moved no chips) and the match's
        settlement booked against it, with the table closed: one transaction."""

        def body(db: sqlite3.Connection) -> bool:
            _write_table(db, table)
            db.execute(
                "UPDATE deals SET status = 'voided', finished_at = ? "
                "WHERE deal_id = ? AND status = 'playing'",
                (time.time(), deal_id),
            )
            return _book(db, table.chat_id, deal_id, movements)

        if await self._write(body):
            self._chat_changed(table.chat_id)

    async def balances(self, chat_id: int) -> list[tuple[UserRow, int]]:
        """Every player's chips in the chat, richest first."""
        rows = await self._all(
            "SELECT u.*, b.balance FROM balances b JOIN users u USING (user_id) "
            "WHERE b.chat_id = ? ORDER BY b.balance DESC, u.name",
            (chat_id,),
        )
        return [(_user(row), int(row["balance"])) for row in rows]

    async def ledger_rows(self, chat_id: int) -> list[tuple[int | None, int, int, str]]:
        """The chat's ledger, oldest first: (deal_id, user_id, amount, reason)."""
        rows = await self._all(
            "SELECT deal_id, user_id, amount, reason FROM ledger WHERE chat_id = ? "
            "ORDER BY entry_id",
            (chat_id,),
        )
        return [(r["deal_id"], r["user_id"], r["amount"], r["reason"]) for r in rows]

    # ---- messages kept up to date ---------------------------------------------------------------

    async def message_slots(self) -> dict[str, tuple[int, int, str]]:
        """Every remembered message: slot → (chat_id, message_id, content hash)."""
        rows = await self._all("SELECT * FROM messages")
        return {r["slot"]: (r["chat_id"], r["message_id"], r["content_hash"]) for r in rows}

    async def remember_messages(
        self, rows: Sequence[tuple[str, int, int, str]], *, forget: Sequence[str] = ()
    ) -> None:
        """Remember which message shows each slot and what it shows: (slot, chat, message, hash);
        and forget the slots named in `forget`."""

        def body(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT INTO messages (slot, chat_id, message_id, content_hash) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (slot) DO UPDATE SET "
                "chat_id = excluded.chat_id, message_id = excluded.message_id, "
                "content_hash = excluded.content_hash",
                rows,
            )
            db.executemany("DELETE FROM messages WHERE slot = ?", [(n,) for n in forget])

        await self._write(body)

    # ---- checks ---------------------------------------------------------------------------------

    async def check(self) -> list[Problem]:
        """Integrity check and the ledger invariants, per chat; empty when all is well."""
        problems: list[Problem] = []
        row = await self._one("PRAGMA integrity_check")
        if row is None or row[0] != "ok":
            problems.append(Problem(None, f"integrity_check: {row[0] if row else 'no answer'}"))
        for r in await self._all(
            "SELECT c.chat_id, c.pot, COALESCE((SELECT SUM(balance) FROM balances b "
            "WHERE b.chat_id = c.chat_id), 0) AS total FROM chats c"
        ):
            if r["pot"] + r["total"] != 0:
                problems.append(
                    Problem(r["chat_id"], f"balances {r['total']} + pot {r['pot']} != 0")
                )
        for r in await self._all(
            "SELECT b.chat_id, b.user_id, b.balance, COALESCE((SELECT SUM(amount) FROM ledger l "
            "WHERE l.chat_id = b.chat_id AND l.user_id = b.user_id), 0) AS booked FROM balances b"
        ):
            if r["balance"] != r["booked"]:
                problems.append(
                    Problem(
                        r["chat_id"],
                        f"user {r['user_id']}: balance {r['balance']} != ledger {r['booked']}",
                    )
                )
        return problems


def _transaction(db: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """On the database thread: `body` between BEGIN IMMEDIATE and COMMIT, or ROLLBACK."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = body(db)
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return result


def _write_table(db: sqlite3.Connection, table: TableRow) -> None:
    db.execute(
        "UPDATE tables SET game = ?, status = ?, seats = ?, dealer = ?, deal_no = ?, deadline = ?, "
        "away = ?, strikes = ? WHERE table_id = ?",
        (
            table.game,
            table.status,
            json.dumps(list(table.seats)),
            table.dealer,
            table.deal_no,
            table.deadline,
            json.dumps(list(table.away)),
            json.dumps(dict(table.strikes)),
            table.table_id,
        ),
    )


def _book(
    db: sqlite3.Connection, chat_id: int, deal_id: int | None, movements: Sequence[Movement]
) -> bool:
    """Inside a transaction: a ledger row and a balance change per movement; the pot takes the
    opposite of their sum (per chat, balances plus pot stay zero). True if the pot changed."""
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
    return total != 0


def _user(row: aiosqlite.Row) -> UserRow:
    return UserRow(
        row["user_id"],
        row["name"],
        row["username"],
        row["lang"],
        bool(row["started"]),
        bool(row["blocked"]),
    )


def _chat(row: aiosqlite.Row) -> ChatRow:
    return ChatRow(
        row["chat_id"],
        row["title"],
        row["lang"],
        row["game"],
        json.loads(row["rules"]),
        row["ante"],
        row["turn_timeout"],
        row["pot"],
        bool(row["pot_has_penalty"]),
    )


def _table(row: aiosqlite.Row) -> TableRow:
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
    )


def _deal(row: aiosqlite.Row) -> DealRow:
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
