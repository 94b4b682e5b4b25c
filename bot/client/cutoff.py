"""The moment a stopping bot stops talking to Telegram.

SIGTERM gives the bot's messages a few seconds to show the latest state; then (Telegram down,
hanging, or the messages held back by its flood limits) `Cutoff.cut()` ends every call: the
ones in flight and the ones waiting for the rate limiter fail at once, and every later one too,
with `ShuttingDown`: a TelegramError, which every caller takes for a call Telegram refused, and
not a NetworkError, so that nothing tries it again (the presenter's retries wait on the cut-off,
and end at it). Each call that ends so is counted by its method, for the one line the shutdown
logs (`summary`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from telegram.error import TelegramError


class ShuttingDown(TelegramError):
    """A Telegram call not made, or abandoned, because the bot is stopping."""

    def __init__(self, method: str) -> None:
        super().__init__(f"not sent: the bot is shutting down ({method})")
        self.method = method


class Cutoff:
    """Whether the bot has stopped talking to Telegram, and what that left unsent."""

    def __init__(self) -> None:
        self.dropped: Counter[str] = Counter()  # calls ended by the cut-off, by method
        # the updates taken were not confirmed to Telegram (its last getUpdates failed): it
        # sends them again at the next start
        self.unconfirmed = False
        self._cut = asyncio.Event()
        self._calls: set[asyncio.Timeout] = set()

    @property
    def done(self) -> bool:
        return self._cut.is_set()

    def cut(self) -> None:
        """From now on every call fails at once; the calls in flight end now."""
        self._cut.set()
        now = asyncio.get_running_loop().time()
        for call in self._calls:
            call.reschedule(now)

    def refuse(self, method: str) -> ShuttingDown:
        """The error for a call the cut-off ended (counted)."""
        self.dropped[method] += 1
        return ShuttingDown(method)

    @asynccontextmanager
    async def call(self, method: str) -> AsyncIterator[None]:
        """A Telegram call (with its waits for the rate limiter): ShuttingDown if the cut-off
        comes before it is answered."""
        if self.done:
            raise self.refuse(method)
        scope = asyncio.timeout(None)
        self._calls.add(scope)
        try:
            async with scope:
                yield
        except TimeoutError:
            if not (self.done and scope.expired()):
                raise  # the call's own time-out
            raise self.refuse(method) from None
        finally:
            self._calls.discard(scope)

    async def sleep(self, seconds: float) -> None:
        """Wait `seconds` before trying again, or less if the cut-off comes meanwhile."""
        with suppress(TimeoutError):
            await asyncio.wait_for(self._cut.wait(), seconds)

    def summary(self) -> str | None:
        """The shutdown's line about what was not sent (None: everything was)."""
        parts = []
        if self.dropped:
            each = ", ".join(f"{method} {n}" for method, n in sorted(self.dropped.items()))
            parts.append(f"{self.dropped.total()} Telegram calls not made ({each})")
        if self.unconfirmed:
            parts.append("the last updates not confirmed (Telegram sends them again)")
        return "stopped with Telegram unfinished: " + "; ".join(parts) if parts else None
