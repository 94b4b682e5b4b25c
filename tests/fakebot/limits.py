"""Flood limits and fault injection for the fake Bot API server.

Flood limits count only NEW messages (sendMessage, sendDocument): Telegram documents "about
30 messages per second" overall and "no more than 20 messages per minute in the same group",
and does not say whether edits count. The fake assumes edits, deletions and callback answers
do not count, so a bot that edits one "table" message in place is not penalised.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from tests.fakebot.models import ApiError

_REASON_PHRASES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def too_many_requests(retry_after: int) -> ApiError:
    """Telegram's flood-control error with ``parameters.retry_after``."""
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


def default_description(error_code: int, retry_after: int | None) -> str:
    """A Telegram-like description for an injected error code."""
    if error_code == 429:
        return f"Too Many Requests: retry after {retry_after or 1}"
    return _REASON_PHRASES.get(error_code, "Internal Server Error")


class _Window:
    """Timestamps of events in a rolling window."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self._times: deque[float] = deque()

    def retry_after(self, now: float) -> int | None:
        """Seconds to wait before one more event fits, or None if it fits now."""
        while self._times and self._times[0] <= now - self.seconds:
            self._times.popleft()
        if len(self._times) < self.limit:
            return None
        oldest_blocking = self._times[len(self._times) - self.limit]
        return max(1, math.ceil(oldest_blocking + self.seconds - now))

    def record(self, now: float) -> None:
        """Count one event at ``now``."""
        self._times.append(now)


class FloodControl:
    """Per-bot (messages/second) and per-group (messages/minute) limits on new messages."""

    def __init__(self, group_limit: int = 20, global_limit: int = 30) -> None:
        self.group_limit = group_limit
        self.global_limit = global_limit
        self._global = _Window(global_limit, 1.0)
        self._groups: dict[int, _Window] = {}

    def check(self, chat_id: int, is_group: bool, now: float) -> None:
        """Raise the 429 Telegram would send for one more new message to ``chat_id``."""
        self._global.limit = self.global_limit
        waits = [self._global.retry_after(now)]
        if is_group:
            waits.append(self._group(chat_id).retry_after(now))
        worst = max((w for w in waits if w is not None), default=None)
        if worst is not None:
            raise too_many_requests(worst)

    def record(self, chat_id: int, is_group: bool, now: float) -> None:
        """Count one new message sent to ``chat_id``."""
        self._global.record(now)
        if is_group:
            self._group(chat_id).record(now)

    def _group(self, chat_id: int) -> _Window:
        window = self._groups.setdefault(chat_id, _Window(self.group_limit, 60.0))
        window.limit = self.group_limit  # tests may change the limit mid-run
        return window


@dataclass
class _Fault:
    error: ApiError
    remaining: int


@dataclass
class _Outage:
    error: ApiError | None  # None: every call is held (no answer) until the outage ends
    until: float | None
    include_get_updates: bool
    carry_out: bool = False  # a held call the bot gave up on is carried out when it ends


HOLD = ApiError(0, "held")  # what `take` returns for a call to hold until the outage ends


class Faults:
    """Errors injected by tests, answered before any validation."""

    def __init__(self) -> None:
        self._next: dict[str, list[_Fault]] = {}
        self._outage: _Outage | None = None
        self._lost: dict[str, int] = {}  # method → calls carried out, then answered 502

    def fail_next(self, method: str, error: ApiError, count: int) -> None:
        """Answer the next ``count`` calls of ``method`` with ``error``."""
        self._next.setdefault(method.lower(), []).append(_Fault(error, count))

    def start_outage(
        self,
        error: ApiError | None,
        until: float | None,
        include_get_updates: bool,
        carry_out: bool = False,
    ) -> None:
        """Answer every call with ``error`` (None: hold it unanswered) until ``until`` (clock
        time) or ``end_outage``; ``carry_out``: a held call is carried out when the outage ends
        even if the bot gave up on it meanwhile."""
        self._outage = _Outage(error, until, include_get_updates, carry_out)

    @property
    def carrying_out(self) -> bool:
        """Whether held calls are carried out even when the bot gave up on them."""
        return self._outage is not None and self._outage.carry_out

    def lose_answers(self, method: str, count: int) -> None:
        """Carry out the next ``count`` calls of ``method``, then answer them 502 (the answer
        lost on the way: Telegram did it, the bot does not know)."""
        self._lost[method.lower()] = self._lost.get(method.lower(), 0) + count

    def take_lost(self, method: str) -> bool:
        """Whether this call's answer is to be lost (counted off)."""
        left = self._lost.get(method.lower(), 0)
        if left:
            self._lost[method.lower()] = left - 1
        return left > 0

    def holding(self, now: float) -> bool:
        """Whether a hold-everything outage is still on."""
        outage = self._outage
        return (
            outage is not None
            and outage.error is None
            and (outage.until is None or now < outage.until)
        )

    def end_outage(self) -> None:
        """Stop the current outage."""
        self._outage = None

    def take(self, method: str, now: float) -> ApiError | None:
        """The injected error for this call of ``method``, if any."""
        queue = self._next.get(method.lower())
        if queue:
            fault = queue[0]
            fault.remaining -= 1
            if fault.remaining <= 0:
                queue.pop(0)
            return fault.error
        outage = self._outage
        if outage is None:
            return None
        if outage.until is not None and now >= outage.until:
            self._outage = None
            return None
        if method.lower() == "getupdates" and not outage.include_get_updates:
            return None
        return HOLD if outage.error is None else outage.error
