"""One chat's actions one at a time: each public step of the host (its service and its lobby)
takes the chat's lock itself, so no caller (a handler, a page, a timer) can forget it, or take
it twice around a step that takes it."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Concatenate, ParamSpec, Protocol, TypeVar


class Locking(Protocol):
    @property
    def locks(self) -> ChatLocks:
        """The chats' locks the host's steps take."""


S = TypeVar("S", bound=Locking)
P = ParamSpec("P")
R = TypeVar("R")


def chat_locked(
    step: Callable[Concatenate[S, int, P], Awaitable[R]],
) -> Callable[Concatenate[S, int, P], Awaitable[R]]:
    """`step`, whose first argument is a chat's id, run under that chat's lock."""

    @functools.wraps(step)
    async def locked(self: S, chat_id: int, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self.locks.hold(chat_id):
            return await step(self, chat_id, *args, **kwargs)

    return locked


class ChatLocks:
    """One lock per chat. `moved` says where a chat's id now leads (a group that became a
    supergroup: the supergroup's), so both ids share one lock once the move is known."""

    def __init__(self, moved: Callable[[int], int]) -> None:
        self._moved = moved
        self._locks: dict[int, asyncio.Lock] = {}

    def busy(self) -> bool:
        """Whether some chat's lock is held now."""
        return any(lock.locked() for lock in self._locks.values())

    @asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        """The chat's lock (the supergroup's, even when the move happened while waiting)."""
        while True:
            current = self._moved(chat_id)
            async with self._locks.setdefault(current, asyncio.Lock()):
                if self._moved(chat_id) == current:
                    yield
                    return

    @asynccontextmanager
    async def moving(self, old_id: int, new_id: int) -> AsyncIterator[None]:
        """The locks of a group and the supergroup it became, both held while it moves."""
        async with (
            self._locks.setdefault(old_id, asyncio.Lock()),
            self._locks.setdefault(new_id, asyncio.Lock()),
        ):
            yield
