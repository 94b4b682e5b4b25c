"""The pulya sheet as one photo message per pulya: the presenter posts it once with
sendPhoto and edits its media after each deal (editMessageMedia: no new group message), skips an
identical edit, and `post` re-posts it for /pulya; all through the fake Bot API."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client.api import FrapBot
from bot.games import preferans as pref
from bot.presenter import Presenter
from bot.storage import Storage
from bot.view.message import Rendered
from engine.preferans.match import Match, default_action
from engine.preferans.outcome import PrefRules
from tests.fakebot import FakeTelegram

GROUP = -100777


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="frapbot") as server:
        server.group(GROUP)
        yield server
    await asyncio.sleep(0)


@pytest.fixture
async def presenter(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Presenter]:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    async with FrapBot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
        yield Presenter(bot, storage)
    await storage.close()


def _deals(match: Match, rng: random.Random, count: int) -> Match:
    """`count` more deals of the pulya, every move the timer's (raspasy after raspasy, P10)."""
    target = match.sheet.deals + count
    while match.sheet.deals < target and not match.finished:
        assert match.deal is not None
        action = default_action(match.deal)
        assert action is not None
        match = match.apply(action, rng).match
    return match


async def test_the_sheet_is_one_photo_edited_after_each_deal(
    tg: FakeTelegram, presenter: Presenter
) -> None:
    rng = random.Random(5)
    match = Match.start(("Alice", "Bob", "Carol"), PrefRules(target=10), 2, rng)
    shown: list[bytes] = []
    for lang in ("ru", "en", "ru"):
        match = _deals(match, rng, 1)
        png, caption = pref.sheet_photo(lang, match)
        presenter.show("sheet:1", GROUP, Rendered(caption, photo=png))
        await presenter.flush()
        shown.append(png)
    [message] = [m for m in tg.messages(GROUP) if m.from_bot]
    assert message.photo is not None and message.photo.content == shown[-1]
    assert len(tg.calls("sendPhoto")) == 1 and len(tg.calls("editMessageMedia")) == 2
    assert message.html == pref.sheet_photo("ru", match)[1]
    presenter.show("sheet:1", GROUP, Rendered(message.html, photo=shown[-1]))  # nothing new
    await presenter.flush()
    assert len(tg.calls("editMessageMedia")) == 2 and not tg.errors


async def test_pulya_reposts_the_sheet_as_a_new_photo(
    tg: FakeTelegram, presenter: Presenter
) -> None:
    rng = random.Random(6)
    match = _deals(Match.start(("A", "B", "C", "D"), PrefRules(), 1, rng), rng, 2)
    png, caption = pref.sheet_photo("en", match)
    first = await presenter.post(GROUP, Rendered(caption, photo=png))
    again = await presenter.post(GROUP, Rendered(caption, photo=png))
    assert first is not None and again is not None and first != again
    assert [p.content for p in tg.photos(GROUP)] == [png, png] and not tg.errors
