"""One timer per table: when it rings, a step of the host's runs (a move timed out, a lobby
expired); a step the database refused rings again after a pause, and one that fails is logged,
since nobody awaits a timer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..storage import RETRY_AFTER, StorageUnavailable

log = logging.getLogger(__name__)

Key = tuple[int, int]  # the deal and step it was set for (a later one finds it stale)


class Timers:
    """The tables' timers; `ring(table_id, key)` is the host's step when one rings."""

    def __init__(self, ring: Callable[[int, Key], Awaitable[None]]) -> None:
        self.ring = ring
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._ringing: set[asyncio.Task[None]] = set()  # kept referenced while they run

    def set(self, table_id: int, delay: float, key: Key) -> None:
        """The table's timer, in `delay` seconds (the one set before is cancelled)."""
        self.cancel(table_id)
        self._handles[table_id] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self._fire, table_id, key
        )

    def cancel(self, table_id: int) -> None:
        timer = self._handles.pop(table_id, None)
        if timer is not None:
            timer.cancel()

    async def close(self) -> None:
        """Cancel every timer (at shutdown: the restarted bot sets them again from SQLite)
        and wait for those ringing."""
        for table_id in list(self._handles):
            self.cancel(table_id)
        await asyncio.gather(*self._ringing, return_exceptions=True)

    def _fire(self, table_id: int, key: Key) -> None:
        task = asyncio.create_task(self._rung(table_id, key), name=f"timer {table_id}")
        self._ringing.add(task)
        task.add_done_callback(self._ringing.discard)

    async def _rung(self, table_id: int, key: Key) -> None:
        try:
            await self.ring(table_id, key)
        except StorageUnavailable as exc:  # tried again until the database takes it
            log.warning("table %s: time-out not saved (%s); trying again", table_id, exc)
            self.set(table_id, RETRY_AFTER, key)
        except Exception:  # nobody awaits a timer: say so, or the table would stall silently
            log.exception("table %s: the timer failed", table_id)
