"""What the running bot keeps of Telegram: which message shows each of the presenter's slots,
and its heartbeat for `python -m bot health`."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping, Sequence

from .db import Part


class Messages(Part):
    """The presenter's message slots and the heartbeat."""

    async def message_slots(self) -> dict[str, tuple[int, int, str]]:
        """Every remembered message: slot → (chat_id, message_id, content hash)."""
        rows = await self._jobs.query("SELECT * FROM messages")
        return {r["slot"]: (r["chat_id"], r["message_id"], r["content_hash"]) for r in rows}

    async def last_posts(self) -> dict[int, int]:
        """The id of the bot's last message in each chat, as last remembered."""
        rows = await self._jobs.query("SELECT chat_id, message_id FROM posts")
        return {r["chat_id"]: r["message_id"] for r in rows}

    async def remember_messages(
        self,
        rows: Sequence[tuple[str, int, int, str]],
        *,
        forget: Sequence[str] = (),
        posts: Mapping[int, int] | None = None,
    ) -> None:
        """Remember which message shows each slot and what it shows: (slot, chat, message, hash);
        forget the slots named in `forget`; and remember the bot's last message in each chat of
        `posts` (chat → message id)."""

        def body(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT INTO messages (slot, chat_id, message_id, content_hash) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (slot) DO UPDATE SET "
                "chat_id = excluded.chat_id, message_id = excluded.message_id, "
                "content_hash = excluded.content_hash",
                rows,
            )
            db.executemany("DELETE FROM messages WHERE slot = ?", [(n,) for n in forget])
            db.executemany(
                "INSERT INTO posts (chat_id, message_id) VALUES (?, ?) ON CONFLICT (chat_id) "
                "DO UPDATE SET message_id = max(message_id, excluded.message_id)",
                (posts or {}).items(),
            )

        await self._jobs.transaction(body)

    async def beat(self, telegram_at: float | None, pid: int) -> None:
        """The running bot's heartbeat: now, and when Telegram last answered (Unix times)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO heartbeat (id, beat_at, telegram_at, pid) VALUES (1, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at, "
                "telegram_at = excluded.telegram_at, pid = excluded.pid",
                (time.time(), telegram_at, pid),
            )

        await self._jobs.transaction(body)
