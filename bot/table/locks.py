"""One chat's actions one at a time: each public step of the host (its service and its lobby)
takes the chat's lock itself, so no caller (a handler, a page, a timer) can forget it, or take
it twice around a step that takes it."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Concatenate, ParamSpec, Protocol, TypeVar


class Locking(Protocol):
    def lock(self, chat_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the lock that serialises the chat's actions."""


S = TypeVar("S", bound=Locking)
P = ParamSpec("P")
R = TypeVar("R")


def chat_locked(
    step: Callable[Concatenate[S, int, P], Awaitable[R]],
) -> Callable[Concatenate[S, int, P], Awaitable[R]]:
    """`step`, whose first argument is a chat's id, run under that chat's lock."""

    @functools.wraps(step)
    async def locked(self: S, chat_id: int, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self.lock(chat_id):
            return await step(self, chat_id, *args, **kwargs)

    return locked
