"""Telegram's flood limits for the bot's own sends: new messages only, never over the window.

Telegram (and the tests' fake) count new messages: about 30 a second per bot and 20 a minute per
group. Edits and callback answers are not throttled here: the presenter already coalesces edits
to the latest content, so a busy table costs one edit per change, not a queue of them.
python-telegram-bot's AIORateLimiter throttles every request that names a chat, edits included,
which stalls busy tables; and its buckets can let through twice the limit in a rolling window.

Every call but getUpdates passes here, so here too the shutdown's cut-off ends them
(bot/client/cutoff.py): a send waiting for its group's budget as well as a call in flight.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from .cutoff import Cutoff

log = logging.getLogger(__name__)

SENDS = frozenset(
    {"sendMessage", "sendDocument", "sendPhoto", "sendAudio", "sendVideo", "sendAnimation",
     "sendVoice", "sendSticker", "sendMediaGroup", "copyMessage", "forwardMessage"}
)  # fmt: skip


def window_bucket(limit: int, window: float) -> AsyncLimiter:
    """A leaky bucket that never admits more than `limit` in any `window` seconds: a burst of
    limit/4 draining over window/3 admits at most limit/4 + 3·limit/4 in a window."""
    return AsyncLimiter(max(1.0, limit / 4), window / 3)


class SendLimiter(BaseRateLimiter[int]):
    """Throttles new messages per bot and per group; retries a 429 after Telegram's pause; ends
    every call at the `cutoff`, if given."""

    def __init__(
        self,
        per_second: int = 30,
        per_group_minute: int = 20,
        max_retries: int = 3,
        cutoff: Cutoff | None = None,
    ):
        self.cutoff = cutoff
        self._overall = window_bucket(per_second, 1.0)
        self._optional = window_bucket(per_second // 2, 1.0) if per_second >= 2 else None
        self._per_group = per_group_minute
        self._groups: dict[int | str, AsyncLimiter] = {}
        self._max_retries = max_retries

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        """Wait for the buckets a new message needs, send, and retry a 429 a few times."""
        if self.cutoff is None:
            return await self._process(callback, args, kwargs, endpoint, data, rate_limit_args)
        async with self.cutoff.call(endpoint):
            return await self._process(callback, args, kwargs, endpoint, data, rate_limit_args)

    async def _process(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        retries = rate_limit_args if rate_limit_args is not None else self._max_retries
        for attempt in range(retries + 1):
            if endpoint in SENDS:
                await self._wait(data.get("chat_id"))
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                if attempt == retries:
                    raise
                wait = exc.retry_after
                pause = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
                log.info("429 from Telegram: waiting %.1f s", pause)
                await asyncio.sleep(pause + 0.1)
        raise AssertionError("unreachable")

    async def spare(self) -> bool:
        """Take one from the budget of new messages that could as well be edits (turn pings):
        half the overall rate, and only while the overall bucket has room now. True
        if taken (never waits), so pings never queue up the messages that must be new."""
        if self._optional is None or not (
            self._optional.has_capacity() and self._overall.has_capacity()
        ):
            return False
        await self._optional.acquire()  # it has room: returns at once, nobody takes it between
        return True

    async def _wait(self, chat_id: object) -> None:
        try:
            chat = int(chat_id)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            chat = 0
        if chat < 0:  # groups and supergroups have negative ids
            bucket = self._groups.get(chat)
            if bucket is None:
                bucket = self._groups[chat] = window_bucket(self._per_group, 60.0)
            await bucket.acquire()
        await self._overall.acquire()
