"""A manually advanced clock for the fake server's rate limits."""

from __future__ import annotations


class FakeClock:
    """Callable returning a monotonic time in seconds that only moves when advanced."""

    def __init__(self, start: float = 1_000.0) -> None:
        self._now = start

    def __call__(self) -> float:
        """Current fake time in seconds."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (must not be negative)."""
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        self._now += seconds
