"""SQLite storage (aiosqlite, WAL): chats, players, balances, the ledger, tables, deals, messages.

Money is a ledger: every chip movement is a row (chat, deal, player, amount, reason) written in the
same transaction as the game step that caused it; a player's balance and the chat's pot are kept
beside it so that, per chat, the sum of balances plus the pot is always zero.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import aiosqlite

from . import metrics

T = TypeVar("T")
# SQLite's primary result codes of a write the host failed (not the bot's bug): the disk full,
# the database locked by another process longer than the busy timeout, an I/O error.
_HOST_TROUBLE = {
    sqlite3.SQLITE_BUSY: "locked",
    sqlite3.SQLITE_LOCKED: "locked",
    sqlite3.SQLITE_FULL: "full",
    sqlite3.SQLITE_IOERR: "io",
    sqlite3.SQLITE_READONLY: "readonly",
}


RETRY_AFTER = 5.0  # seconds before a step nobody waits for (a timer's, a computer's) is tried again


class StorageUnavailable(Exception):
    """A write failed for the host's reasons (disk full, database locked); it was rolled back
    whole, so the step it wrote did not happen. Worth trying again later (issue 25)."""

    def __init__(self, reason: str, error: sqlite3.Error) -> None:
        super().__init__(f"database {reason}: {error}")
        self.reason = reason


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
    # 4: a group that became a supergroup moves to its new chat id (issue 11); its ledger rows
    # may change chat, and only that, only along a move recorded in chat_moves
    """
    CREATE TABLE chat_moves (
        old_id INTEGER PRIMARY KEY,
        new_id INTEGER NOT NULL,
        moved_at REAL NOT NULL
    );
    DROP TRIGGER ledger_no_update;
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    WHEN NOT (
        NEW.entry_id = OLD.entry_id AND NEW.deal_id IS OLD.deal_id
        AND NEW.user_id = OLD.user_id AND NEW.amount = OLD.amount AND NEW.reason = OLD.reason
        AND NEW.created_at = OLD.created_at
        AND EXISTS (
            SELECT 1 FROM chat_moves WHERE old_id = OLD.chat_id AND new_id = NEW.chat_id
        )
    )
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 5: one pot per game (issue 13): Napoleon's treasure is not Frap's pot. `chats.pot` stays
    # the sum of the chat's pots; the single pot so far goes to the game of the last deal that
    # moved chips in the chat, or to Frap.
    """
    CREATE TABLE pots (
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        pot INTEGER NOT NULL DEFAULT 0,
        has_penalty INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, game)
    );
    INSERT INTO pots (chat_id, game, pot, has_penalty)
    SELECT c.chat_id,
        COALESCE((SELECT t.game FROM ledger l JOIN deals d ON d.deal_id = l.deal_id
                  JOIN tables t ON t.table_id = d.table_id
                  WHERE l.chat_id = c.chat_id ORDER BY l.entry_id DESC LIMIT 1), 'frap'),
        c.pot, c.pot_has_penalty
    FROM chats c WHERE c.pot != 0 OR c.pot_has_penalty != 0;
    UPDATE chats SET pot_has_penalty = 0;
    """,
    # 6 (issue 16): players who left the group or were stood up by an admin: seated until the
    # deal in play ends (the bot moves for them), then stood up
    """
    ALTER TABLE tables ADD COLUMN leaving TEXT NOT NULL DEFAULT '[]';
    """,
    # 7 (issue 16): /newseason: the balances and pot a chat ended a season with; the ledger rows
    # that brought them back to zero carry the reason 'season'
    """
    CREATE TABLE seasons (
        season_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        closed_at REAL NOT NULL,
        pot INTEGER NOT NULL,
        balances TEXT NOT NULL
    );
    CREATE INDEX seasons_by_chat ON seasons (chat_id);
    """,
    # 8: turn pings a player can switch off; a chat's language is taken from whoever opens its
    # first table until someone chooses one (issue 12); chats that had tables keep theirs
    """
    ALTER TABLE users ADD COLUMN pings INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE chats ADD COLUMN lang_chosen INTEGER NOT NULL DEFAULT 0;
    UPDATE chats SET lang_chosen = 1 WHERE chat_id IN (SELECT chat_id FROM tables);
    """,
    # 9: whether a player has had his first turn ping, which says how to turn them off (issue 22)
    """
    ALTER TABLE users ADD COLUMN pinged INTEGER NOT NULL DEFAULT 0;
    """,
    # 10: the running bot's heartbeat, one row, for `python -m bot health` (issue 25)
    """
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        beat_at REAL NOT NULL,
        telegram_at REAL,
        pid INTEGER NOT NULL
    );
    """,
)


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
    pot_has_penalty: bool  # unused since pots are per game (migration 5): see `pots`
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
    leaving: tuple[int, ...] = ()  # stand up when the deal in play ends (issue 16)


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


class Storage:
    """All database access. Each public method is one job on aiosqlite's database thread: a
    query, or a whole transaction (BEGIN IMMEDIATE … COMMIT) run there at once (`_Connection`).
    Jobs run one after another, so none interleaves with another, and a write costs one round
    trip to the thread however many statements it has (issue 6: a transaction of round trips
    held the one connection across several turns of a busy event loop)."""

    def __init__(self, db: aiosqlite.Connection, defaults: dict[str, Any]) -> None:
        self._db = db
        self._defaults = defaults
        # Chat rows, read on every press (issue 6): kept until a write touches the row. A read
        # that raced a write (the epoch moved on meanwhile) is not kept.
        self._chats: dict[int, ChatRow] = {}
        self._chats_epoch = 0
        self.moves: dict[int, int] = {}  # old group id → supergroup id (issue 11)

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
        db = await aiosqlite.connect(path, isolation_level=None, factory=_Connection)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        storage = cls(db, {"lang": lang, "ante": ante, "turn_timeout": turn_timeout})
        await storage._migrate()
        storage.moves = await storage.chat_moves()
        return storage

    async def beat(self, telegram_at: float | None, pid: int) -> None:
        """The running bot's heartbeat: now, and when Telegram last answered (Unix times)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO heartbeat (id, beat_at, telegram_at, pid) VALUES (1, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at, "
                "telegram_at = excluded.telegram_at, pid = excluded.pid",
                (time.time(), telegram_at, pid),
            )

        await self._write(body)

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
        thread; rolled back if it raises, and its exception raised here."""
        key = next(_job_keys)
        job = _jobs[key] = _Job(body)
        began = time.perf_counter()
        try:
            await self._db.execute_fetchall("SELECT storage_job(?)", (key,))
        finally:
            del _jobs[key]
            metrics.SQLITE_WRITE_SECONDS.observe(time.perf_counter() - began)
        error = job.error
        if isinstance(error, sqlite3.Error):
            reason = _HOST_TROUBLE.get(getattr(error, "sqlite_errorcode", 0) & 0xFF)
            if reason is not None:
                metrics.SQLITE_WRITE_FAILURES.labels(reason).inc()
                raise StorageUnavailable(reason, error) from error
        if error is not None:
            raise error
        result: T = job.result
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
        """Change some of a user's fields (started, blocked, lang, pings, pinged)."""
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
        chat_id = self.moves.get(chat_id, chat_id)  # a group that became a supergroup
        cached = self._chats.get(chat_id)
        if cached is not None and (not title or cached.title == title):
            return cached
        epoch = self._chats_epoch
        row = await self._one("SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
        if row is not None and (not title or row["title"] == title):
            chat = _chat(row, await self._pots(chat_id))
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
        return _chat(created, await self._pots(chat_id))

    async def _pots(self, chat_id: int) -> list[aiosqlite.Row]:
        """The chat's pot of each game that has had one (issue 13)."""
        return await self._all(
            "SELECT game, pot, has_penalty FROM pots WHERE chat_id = ? ORDER BY game", (chat_id,)
        )

    def _chat_changed(self, chat_id: int) -> None:
        """A write transaction changed chat `chat_id`'s row: forget the cached one."""
        self._chats.pop(chat_id, None)
        self._chats_epoch += 1

    async def set_chat(self, chat_id: int, **fields: Any) -> None:
        """Change chat settings (lang, game, rules, ante, turn_timeout)."""
        chat_id = self.moves.get(chat_id, chat_id)  # a settings menu in the old group
        if "rules" in fields:
            fields["rules"] = json.dumps(fields["rules"], sort_keys=True)
        await self._update("chats", "chat_id", chat_id, fields)

    async def _update(self, table: str, key: str, key_value: int, fields: dict[str, Any]) -> None:
        allowed = {
            "users": {"started", "blocked", "lang", "pings", "pinged"},
            "chats": {"lang", "game", "rules", "ante", "turn_timeout"},
        }[table]
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"cannot set {sorted(fields)} on {table}")
        if table == "chats" and "lang" in fields:
            fields = {**fields, "lang_chosen": 1}  # chosen: the next first table keeps it
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

    async def last_closed_table(self, chat_id: int, games: Sequence[str]) -> TableRow | None:
        """The chat's latest closed table of one of `games` (the last match played: /pulya)."""
        marks = ", ".join("?" * len(games))
        row = await self._one(
            f"SELECT * FROM tables WHERE chat_id = ? AND status = 'closed' AND game IN ({marks}) "
            "ORDER BY table_id DESC LIMIT 1",
            (chat_id, *games),
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
            rows = await self._all(sql, args)
        else:
            rows = await self._all(f"{numbered} ORDER BY deal_id DESC LIMIT ?", (chat_id, limit))
        return [(row["number"], _deal(row)) for row in rows]

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
                "INSERT INTO pots (chat_id, game, has_penalty) VALUES (?, ?, ?) "
                "ON CONFLICT (chat_id, game) DO UPDATE SET has_penalty = excluded.has_penalty",
                (table.chat_id, table.game, int(pot_has_penalty)),
            )
            return True

        if await self._write(body):
            self._chat_changed(table.chat_id)
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
        settlement booked against its last finished deal, the one its score stands at (a voided
        deal books nothing: the start-up check holds it to that), with the table closed: one
        transaction. With no deal finished the sheet is empty, so nothing is owed or booked."""

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
            return _book(db, table.chat_id, last["deal_id"], movements)

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

    async def ledger_entries(self, chat_id: int) -> list[LedgerEntry]:
        """The chat's ledger with the players' names, oldest first (for /export)."""
        rows = await self._all(
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
        """A table's evening (issue 16): deals played to the end, and each player's chips won
        (+) or lost (−) over them (a voided deal's reversal cancels its rows)."""
        row = await self._one(
            "SELECT COUNT(*) AS n FROM deals WHERE table_id = ? AND status = 'finished'",
            (table_id,),
        )
        sums = await self._all(
            "SELECT l.user_id, SUM(l.amount) AS total FROM ledger l JOIN deals d USING (deal_id) "
            "WHERE d.table_id = ? GROUP BY l.user_id",
            (table_id,),
        )
        return int(row["n"]) if row else 0, {r["user_id"]: int(r["total"]) for r in sums}

    async def deal_sums(
        self, chat_id: int
    ) -> list[tuple[DealRow, str, dict[int, int], dict[int, int], bool]]:
        """The chat's finished deals, oldest first, for /stats (issue 16): each with its game,
        every seated player's chips won or lost in it, what each took from the pot, and
        whether its table is closed (a match's settlement is then booked)."""
        deals = await self._all(
            "SELECT d.*, t.game, t.status AS table_status FROM deals d "
            "JOIN tables t USING (table_id) "
            "WHERE d.chat_id = ? AND d.status = 'finished' ORDER BY d.deal_id",
            (chat_id,),
        )
        sums = await self._all(
            "SELECT deal_id, user_id, SUM(amount) AS total, SUM(CASE WHEN amount > 0 AND "
            "reason IN ('tricks', 'pot_taken') THEN amount ELSE 0 END) AS taken FROM ledger "
            "WHERE chat_id = ? AND deal_id IS NOT NULL GROUP BY deal_id, user_id",
            (chat_id,),
        )
        by_deal: dict[int, dict[int, tuple[int, int]]] = {}
        for r in sums:
            by_deal.setdefault(r["deal_id"], {})[r["user_id"]] = (int(r["total"]), int(r["taken"]))
        out = []
        for row in deals:
            deal = _deal(row)
            booked = by_deal.get(deal.deal_id, {})
            deltas = {uid: booked.get(uid, (0, 0))[0] for uid in deal.seats}
            taken = {uid: booked[uid][1] for uid in deal.seats if uid in booked and booked[uid][1]}
            out.append((deal, str(row["game"]), deltas, taken, row["table_status"] == "closed"))
        return out

    async def seasons(self, chat_id: int) -> int:
        """How many seasons the chat has closed (issue 16)."""
        row = await self._one("SELECT COUNT(*) AS n FROM seasons WHERE chat_id = ?", (chat_id,))
        return int(row["n"]) if row else 0

    async def new_season(self, chat_id: int, closed: int) -> dict[int, int] | None:
        """Close the chat's season (issue 16): ledger rows bring every balance back to zero
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
            _book(db, chat_id, None, [Movement(u, -b, "season") for u, b in balances.items()])
            # The season's rows emptied the chat's pots as a whole (chats.pot is now 0): every
            # game's pot is zero with them, whichever game had held the chips.
            db.execute("UPDATE pots SET pot = 0, has_penalty = 0 WHERE chat_id = ?", (chat_id,))
            return balances

        result = await self._write(body)
        if result is not None:
            self._chat_changed(chat_id)
        return result

    # ---- a group that became a supergroup (issue 11) --------------------------------------------

    async def chat_moves(self) -> dict[int, int]:
        """Every recorded move: old group id → supergroup id."""
        rows = await self._all("SELECT old_id, new_id FROM chat_moves")
        return {r["old_id"]: r["new_id"] for r in rows}

    async def migrate_chat(self, old_id: int, new_id: int, title: str | None = None) -> bool:
        """Move a chat's settings, pot, balances, ledger, tables, deals to `new_id`: one
        transaction; False (and no change) if that move was made already. The group's messages
        are forgotten, not moved: they stay in the old chat, and the open table is posted anew."""

        def body(db: sqlite3.Connection) -> bool:
            done = db.execute("SELECT new_id FROM chat_moves WHERE old_id = ?", (old_id,))
            if done.fetchone() is not None:
                return False
            db.execute(
                "INSERT INTO chat_moves (old_id, new_id, moved_at) VALUES (?, ?, ?)",
                (old_id, new_id, time.time()),
            )
            _merge_chat(db, old_id, new_id, title)
            for table in ("tables", "deals", "ledger"):
                db.execute(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
            db.execute("DELETE FROM messages WHERE chat_id = ?", (old_id,))
            return True

        moved = await self._write(body)
        self.moves[old_id] = new_id
        self._chat_changed(old_id)
        self._chat_changed(new_id)
        return moved

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
            problems.append(Problem(None, f"{row[0] if row else 'no answer'}", "integrity"))
        for r in await self._all(
            "SELECT c.chat_id, c.pot, COALESCE((SELECT SUM(balance) FROM balances b "
            "WHERE b.chat_id = c.chat_id), 0) AS total FROM chats c"
        ):
            if r["pot"] + r["total"] != 0:
                what = f"balances {r['total']} + pot {r['pot']} != 0"
                problems.append(Problem(r["chat_id"], what, "zero-sum"))
        for r in await self._all(
            "SELECT c.chat_id, c.pot, COALESCE((SELECT SUM(p.pot) FROM pots p "
            "WHERE p.chat_id = c.chat_id), 0) AS pots FROM chats c"
        ):
            if r["pot"] != r["pots"]:  # so balances plus every game's pot is zero too
                what = f"the pots {r['pots']} != the chat's pot {r['pot']}"
                problems.append(Problem(r["chat_id"], what, "pots"))
        for r in await self._all(
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
        for r in await self._all(
            "SELECT d.chat_id, d.deal_id, d.status FROM deals d JOIN tables t USING (table_id) "
            "WHERE (d.status = 'playing' AND (t.status != 'playing' OR t.deal_no != d.deal_no)) "
            "OR (d.status = 'voided' AND EXISTS (SELECT 1 FROM ledger l "
            "WHERE l.deal_id = d.deal_id GROUP BY l.user_id HAVING SUM(l.amount) != 0))"
        ):
            playing = r["status"] == "playing"
            what = "in play at no table" if playing else "voided, chips not returned"
            problems.append(Problem(r["chat_id"], f"deal {r['deal_id']} {what}", "half-settled"))
        return problems


class _Job:
    """A transaction waiting for the database thread, and then what it returned or raised."""

    __slots__ = ("body", "error", "result")

    def __init__(self, body: Callable[[sqlite3.Connection], Any]) -> None:
        self.body = body
        self.result: Any = None
        self.error: BaseException | None = None


_jobs: dict[int, _Job] = {}  # by key; written on the event loop, run on the database thread
_job_keys = itertools.count()


class _Connection(sqlite3.Connection):
    """The sqlite3 connection aiosqlite opens on its thread (`sqlite3.connect(factory=...)`),
    with one SQL function: `SELECT storage_job(key)` runs the transaction queued under `key` on
    this very connection. aiosqlite has no public way to run a function on its thread, but it
    runs each statement there; so a whole transaction costs one statement's round trip (issue 6:
    a transaction of round trips held the connection across several turns of a busy loop; issue
    10: only aiosqlite's public API). SQLite lets a function run statements on its connection,
    BEGIN and COMMIT included, while the table-less SELECT that called it reads nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.create_function("storage_job", 1, self._run_job)

    def _run_job(self, key: int) -> None:
        job = _jobs[key]
        try:
            job.result = _transaction(self, job.body)
        except BaseException as error:  # raised again on the event loop, as it was raised
            job.error = error


def _transaction(db: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """On the database thread: `body` between BEGIN IMMEDIATE and COMMIT, or ROLLBACK."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = body(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # SQLite may have rolled back itself (a full disk)
            db.execute("ROLLBACK")
        raise
    return result


def _merge_chat(db: sqlite3.Connection, old_id: int, new_id: int, title: str | None) -> None:
    """Inside a migration: the old chat's row becomes the new one's. A row the new chat got
    meanwhile (someone typed there first) is merged: its pots and balances are added, so per chat
    balances plus pots stay zero."""
    if db.execute("SELECT 1 FROM chats WHERE chat_id = ?", (old_id,)).fetchone() is None:
        return  # the bot never stored anything of the old group
    new = db.execute("SELECT pot, pot_has_penalty FROM chats WHERE chat_id = ?", (new_id,))
    extra = new.fetchone()
    if extra is not None:
        db.execute("DELETE FROM chats WHERE chat_id = ?", (new_id,))
    db.execute("UPDATE chats SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
    if extra is not None:
        db.execute(
            "UPDATE chats SET pot = pot + ?, pot_has_penalty = MAX(pot_has_penalty, ?) "
            "WHERE chat_id = ?",
            (extra["pot"], extra["pot_has_penalty"], new_id),
        )
    if title:
        db.execute("UPDATE chats SET title = ? WHERE chat_id = ?", (title, new_id))
    db.execute(
        "INSERT INTO balances (chat_id, user_id, balance) "
        "SELECT ?, user_id, balance FROM balances WHERE chat_id = ? "
        "ON CONFLICT (chat_id, user_id) DO UPDATE SET balance = balance + excluded.balance",
        (new_id, old_id),
    )
    db.execute("DELETE FROM balances WHERE chat_id = ?", (old_id,))
    db.execute(
        "INSERT INTO pots (chat_id, game, pot, has_penalty) "
        "SELECT ?, game, pot, has_penalty FROM pots WHERE chat_id = ? "
        "ON CONFLICT (chat_id, game) DO UPDATE SET pot = pot + excluded.pot, "
        "has_penalty = MAX(has_penalty, excluded.has_penalty)",
        (new_id, old_id),
    )
    db.execute("DELETE FROM pots WHERE chat_id = ?", (old_id,))
    db.execute("UPDATE seasons SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))


def _write_table(db: sqlite3.Connection, table: TableRow) -> None:
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


def _book(
    db: sqlite3.Connection, chat_id: int, deal_id: int | None, movements: Sequence[Movement]
) -> bool:
    """Inside a transaction: a ledger row and a balance change per movement; the pot of the
    deal's game takes the opposite of their sum, and so does the chat's sum of pots (per chat,
    balances plus every pot stay zero). True if a pot changed."""
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
        db.execute(
            "INSERT INTO pots (chat_id, game, pot) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id, game) DO UPDATE SET pot = pot + excluded.pot",
            (chat_id, _game_of(db, deal_id), -total),
        )
    return total != 0


def _game_of(db: sqlite3.Connection, deal_id: int | None) -> str:
    """The game a deal is played at (its table's); Frap for chips moved outside a deal."""
    row = db.execute(
        "SELECT t.game FROM deals d JOIN tables t ON t.table_id = d.table_id WHERE d.deal_id = ?",
        (deal_id,),
    ).fetchone()
    return str(row["game"]) if row is not None else "frap"


def _user(row: aiosqlite.Row) -> UserRow:
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


def _chat(row: aiosqlite.Row, pots: Iterable[Any]) -> ChatRow:
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
        tuple((p["game"], int(p["pot"]), bool(p["has_penalty"])) for p in pots),
        bool(row["lang_chosen"]),
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
        tuple(json.loads(row["leaving"])),
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
