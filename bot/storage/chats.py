"""Users and chats: who the bot has seen, each chat's settings (cached: read on every press),
and a group that became a supergroup moving there whole."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

import aiosqlite

from .db import Jobs, Part
from .league import replay
from .rows import ChatRow, UserRow, read_chat, read_user


class Chats(Part):
    """Users, chats and the chats' moves."""

    def __init__(self, jobs: Jobs, defaults: dict[str, Any]) -> None:
        super().__init__(jobs)
        self._defaults = defaults  # a new chat's language, ante and turn time
        self.moves: dict[int, int] = {}  # old group id → supergroup id (`chat_moves`)

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

        return read_user(await self._jobs.transaction(body))

    async def user(self, user_id: int) -> UserRow | None:
        """A user by id."""
        row = await self._jobs.query_one("SELECT * FROM users WHERE user_id = ?", (user_id,))
        return read_user(row) if row else None

    async def users(self, user_ids: Iterable[int]) -> dict[int, UserRow]:
        """Users by id."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._jobs.query(f"SELECT * FROM users WHERE user_id IN ({marks})", ids)
        return {row["user_id"]: read_user(row) for row in rows}

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

        return await self._jobs.transaction(body)

    async def chat(self, chat_id: int, title: str | None = None) -> ChatRow:
        """A chat's row, created with the defaults the first time (a plain read otherwise: the
        service asks for it on every press: cached, so it costs no query at all)."""
        chat_id = self.moves.get(chat_id, chat_id)  # a group that became a supergroup
        cached = self._jobs.cached_chat(chat_id)
        if cached is not None and (not title or cached.title == title):
            return cached
        epoch = self._jobs.chats_epoch
        row = await self._jobs.query_one("SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
        if row is not None and (not title or row["title"] == title):
            chat = read_chat(row, await self._pots(chat_id))
            self._jobs.keep_chat(chat, epoch)
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

        created = await self._jobs.transaction(body)
        self._jobs.chat_changed(chat_id)
        return read_chat(created, await self._pots(chat_id))

    async def _pots(self, chat_id: int) -> list[aiosqlite.Row]:
        """The chat's pot of each game that has had one."""
        return await self._jobs.query(
            "SELECT game, pot, has_penalty FROM pots WHERE chat_id = ? ORDER BY game", (chat_id,)
        )

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
        await self._jobs.transaction(lambda db: db.execute(sql, args))
        if table == "chats":
            self._jobs.chat_changed(key_value)

    # ---- a group that became a supergroup -------------------------------------------------------

    async def chat_moves(self) -> dict[int, int]:
        """Every recorded move: old group id → supergroup id."""
        rows = await self._jobs.query("SELECT old_id, new_id FROM chat_moves")
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
            for table in ("tables", "deals", "ledger", "rated"):
                db.execute(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
            db.execute("DELETE FROM ratings WHERE chat_id = ?", (old_id,))
            replay(db, new_id)  # the results of both, in the order played
            db.execute("DELETE FROM messages WHERE chat_id = ?", (old_id,))
            return True

        moved = await self._jobs.transaction(body)
        self.moves[old_id] = new_id
        self._jobs.chat_changed(old_id)
        self._jobs.chat_changed(new_id)
        return moved


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
