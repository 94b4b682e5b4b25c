"""The storage's one job runner: the aiosqlite connection, its schema brought up to date, and
each job (a query, or a whole transaction) run on aiosqlite's database thread at once.

Every part of `Storage` (chats, tables, money, history, league, messages) is a `Part` that
reads and writes through the one `Jobs` they share: one connection, one job at a time, a write
one transaction (BEGIN IMMEDIATE … COMMIT) of one round trip to the thread (a transaction of
round trips held the one connection across several turns of a busy event loop).
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import aiosqlite

from .. import metrics
from .rows import ChatRow
from .schema import MIGRATIONS

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
    whole, so the step it wrote did not happen. Worth trying again later."""

    def __init__(self, reason: str, error: sqlite3.Error) -> None:
        super().__init__(f"database {reason}: {error}")
        self.reason = reason


async def connect(path: str, busy_timeout: float) -> aiosqlite.Connection:
    """Open (or create) the database in WAL mode with its schema up to date; a write waits up to
    `busy_timeout` seconds for another process's lock."""
    db = await aiosqlite.connect(path, isolation_level=None, factory=_Connection)
    db.row_factory = aiosqlite.Row
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute("PRAGMA synchronous=NORMAL")
    await db.execute("PRAGMA foreign_keys=ON")
    await db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    version = int(row[0]) if row else 0
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        await db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
    return db


class Jobs:
    """The connection every part of the storage shares, and its jobs: `transaction` (a write),
    `query` and `query_one` (a read). The parts call these with their SQL; so may a tool that
    builds a database in bulk (bench/startup_db.py). The chat rows' cache lives here because
    every part's writes may change a chat's row (its pots)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # Chat rows, read on every press: kept until a write touches the row. A read
        # that raced a write (the epoch moved on meanwhile) is not kept.
        self._chats: dict[int, ChatRow] = {}
        self._chats_epoch = 0

    @property
    def connection(self) -> aiosqlite.Connection:
        """The aiosqlite connection itself (for a test or tool that sets a PRAGMA on it or reads
        a table whole); the bot's own code goes through the parts' methods."""
        return self._db

    async def close(self) -> None:
        """Close the connection."""
        await self._db.close()

    async def transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run `body` (plain sqlite3 calls) in one transaction, as one job on the database
        thread; rolled back if it raises, and its exception raised here (a failure of the host's
        as StorageUnavailable)."""
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

    async def query_one(self, sql: str, args: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """The first row a read gives, if any: one job."""
        rows = await self.query(sql, args)
        return rows[0] if rows else None

    async def query(self, sql: str, args: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Every row a read gives: one job."""
        return list(await self._db.execute_fetchall(sql, args))  # one job, not three

    def cached_chat(self, chat_id: int) -> ChatRow | None:
        """Chat `chat_id`'s row as last read, unless a write has changed it since."""
        return self._chats.get(chat_id)

    @property
    def chats_epoch(self) -> int:
        """How many writes have changed a chat's row so far (a read notes it before it asks)."""
        return self._chats_epoch

    def keep_chat(self, chat: ChatRow, epoch: int) -> None:
        """Keep a chat's row read when `chats_epoch` was `epoch`, unless a write changed a chat
        meanwhile (the row read may be the older one)."""
        if epoch == self._chats_epoch:
            self._chats[chat.chat_id] = chat

    def chat_changed(self, chat_id: int) -> None:
        """A write transaction changed chat `chat_id`'s row: forget the cached one."""
        self._chats.pop(chat_id, None)
        self._chats_epoch += 1

    def forget_chats(self) -> None:
        """Forget every cached chat row, so the next read is the database's (a test comparing
        the cache with the rows themselves)."""
        self._chats.clear()


class Part:
    """One part of the storage (its chats, tables, money, …): its methods' jobs run on the
    `Jobs` every part shares, so a write of one part is one transaction like any other's."""

    def __init__(self, jobs: Jobs) -> None:
        self._jobs = jobs


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
    runs each statement there; so a whole transaction costs one statement's round trip (a
    transaction of round trips held the connection across several turns of a busy loop), on
    aiosqlite's public API only. SQLite lets a function run statements on its connection,
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
