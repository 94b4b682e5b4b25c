"""Shared fixtures: the fake Telegram server."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram

# python-telegram-bot: RetryAfter.retry_after as a timedelta, without a deprecation warning.
os.environ.setdefault("PTB_TIMEDELTA", "true")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A fresh fake Bot API server for one test."""
    async with FakeTelegram(bot_username="frapbot") as server:
        yield server
