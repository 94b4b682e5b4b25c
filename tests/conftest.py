"""Shared fixtures: the fake Telegram server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A fresh fake Bot API server for one test."""
    async with FakeTelegram(bot_username="frapbot") as server:
        yield server
