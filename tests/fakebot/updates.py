"""The bot's pending updates and getUpdates long-polling semantics."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

Json = dict[str, Any]

# What Telegram delivers when allowed_updates was never given (or given as an empty list).
DEFAULT_ALLOWED = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post", "inline_query",
        "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
        "poll", "poll_answer", "my_chat_member", "chat_join_request",
    }
)  # fmt: skip


class UpdateQueue:
    """Unconfirmed updates; ``fetch`` implements getUpdates (offset, limit, timeout)."""

    def __init__(self, first_update_id: int = 500_000) -> None:
        self._next_id = first_update_id
        self._pending: list[Json] = []
        self._allowed: frozenset[str] = DEFAULT_ALLOWED
        self._wakeup = asyncio.Event()
        self._poll_serial = 0
        self._waiting_polls = 0
        self._closed = False
        self.dropped: list[Json] = []  # updates filtered out by allowed_updates

    @property
    def unconfirmed(self) -> int:
        """Number of updates not yet confirmed by a later getUpdates offset."""
        return len(self._pending)

    @property
    def closed(self) -> bool:
        """True once the server is stopping (no more updates go out)."""
        return self._closed

    @property
    def waiting_polls(self) -> int:
        """Number of getUpdates requests currently held open waiting for updates."""
        return self._waiting_polls

    def push(self, kind: str, payload: Json) -> int:
        """Add an update of ``kind`` (e.g. "message") and wake long polls; returns update_id."""
        update_id = self._next_id
        self._next_id += 1
        self._pending.append({"update_id": update_id, kind: payload})
        self._wake()
        return update_id

    def set_allowed(self, allowed: Iterable[str] | None) -> None:
        """Apply getUpdates' ``allowed_updates`` (None keeps the previous setting)."""
        if allowed is None:
            return
        names = frozenset(allowed)
        self._allowed = names or DEFAULT_ALLOWED

    def drop_pending(self) -> None:
        """deleteWebhook(drop_pending_updates=True): forget every unconfirmed update."""
        self._pending.clear()

    async def next_for_webhook(self, timeout: float) -> Json | None:
        """The oldest update to deliver to a webhook (pending until `confirm`ed), waiting up to
        ``timeout`` seconds for one (counted as a held poll: the bot is waiting for updates)."""
        batch = self._take(1)
        if not batch and not self._closed:
            await self._wait(timeout)
            batch = self._take(1)
        return batch[0] if batch else None

    def confirm(self, update_id: int) -> None:
        """The webhook accepted ``update_id``: it (and any older one) is delivered."""
        self._confirm(update_id + 1)

    def close(self) -> None:
        """Release every held poll; later polls return immediately."""
        self._closed = True
        self._wake()

    async def fetch(self, offset: int | None, limit: int, timeout: float) -> list[Json]:
        """getUpdates: confirm ids below ``offset``, then return updates or wait for them."""
        if offset is not None:
            self._confirm(offset)
        self._poll_serial += 1
        serial = self._poll_serial
        self._wake()  # a newer getUpdates ends older ones (Telegram answers those with 409)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if serial != self._poll_serial:
                return []
            batch = self._take(limit)
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or self._closed:
                return batch
            await self._wait(remaining)

    async def _wait(self, seconds: float) -> None:
        event = self._wakeup
        self._waiting_polls += 1
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except TimeoutError:
            pass
        finally:
            self._waiting_polls -= 1

    def _wake(self) -> None:
        self._wakeup.set()
        self._wakeup = asyncio.Event()

    def _confirm(self, offset: int) -> None:
        if offset < 0:  # Telegram: negative offset keeps only the last -offset updates
            del self._pending[: max(0, len(self._pending) + offset)]
        else:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]

    def _take(self, limit: int) -> list[Json]:
        kept = []
        for update in self._pending:
            if self._kind(update) in self._allowed:
                kept.append(update)
            else:
                self.dropped.append(update)
        self._pending = kept
        return kept[:limit]

    @staticmethod
    def _kind(update: Json) -> str:
        return next(key for key in update if key != "update_id")
