"""The Mini App's server at its edges: what a stranger, a proxy or Telegram itself may send to
PORT — large updates, the same update twice, malformed bodies and requests, table ids no table
has — answered with a 4xx and at most a line of log, never a 500 or a traceback; and a member's
page that follows his membership as the group's updates tell it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from bot.callbacks import parse_id
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    make_players,
    open_table,
    running_bot,
    webhook_overrides,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser
from tests.webapp_helpers import PATH, auth, init_data, webapp_overrides


def _shared(tg: FakeTelegram) -> dict[str, Any]:
    """Webhook and Mini App on one port."""
    hook = webhook_overrides(tg)
    return {**hook, "webapp_url": f"http://127.0.0.1:{hook['port']}{PATH}"}


@asynccontextmanager
async def served(
    tg: FakeTelegram, tmp_path: Path, group: FakeChat, users: list[FakeUser], **settings: Any
) -> AsyncIterator[tuple[RunningBot, aiohttp.ClientSession, int]]:
    async with (
        running_bot(tg, tmp_path / "db.sqlite3", seed=3, **settings) as bot,
        aiohttp.ClientSession() as http,
    ):
        await open_table(bot, group, users)
        table = await bot.service.storage.open_table(GROUP_ID)
        assert table is not None
        yield bot, http, table.table_id


def _base(bot: RunningBot) -> str:
    return str(bot.app.bot_data["web"].settings.webapp_url)


async def _status(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> int:
    async with http.get(url, headers=headers) as response:
        await response.read()
        return response.status


# ---- table ids --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1), ("9223372036854775807", 2**63 - 1), ("9223372036854775808", None),
        ("99999999999999999999", None), ("²", None), ("١٢", None), ("", None), ("-1", None),
        ("+1", None), (" 1", None), ("1_000", None),
    ],
)  # fmt: skip
def test_a_table_id_is_ascii_digits_within_sqlites_integers(text: str, value: int | None) -> None:
    assert parse_id(text) == value


async def test_a_table_id_no_table_can_have_is_a_4xx(tg: FakeTelegram, tmp_path: Path) -> None:
    """A signed start_param of 20 digits, a superscript digit, an unsigned ?table= of 25
    digits: 400 or 404, never SQLite's OverflowError as a 500."""
    group, users = make_players(tg, 3)
    async with served(tg, tmp_path, group, users, **webapp_overrides()) as (bot, http, _):
        view = _base(bot) + "/api/view"
        for start in ("99999999999999999999", "²", "9223372036854775808"):
            headers = {"Authorization": "tma " + init_data(tg.token, users[0], start)}
            assert await _status(http, view, headers) in (400, 404), start
        unsigned = {"Authorization": "tma " + init_data(tg.token, users[0])}
        for table in ("9999999999999999999999999", "²", "1e3"):
            assert await _status(http, f"{view}?table={quote(table)}", unsigned) in (400, 404)
        assert await _status(http, view, auth(tg, users[0], 1)) == 200  # a real one still opens
