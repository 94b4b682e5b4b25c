"""Issue 24 in a real browser: Debian's headless Chromium, driven by Playwright, opens the pages as
Telegram opens them (the URL fragment #tgWebAppData=…&tgWebAppVersion=…&tgWebAppThemeParams=…,
initData signed with the test's token); players play a whole Frap deal and a Preferans deal by
tapping the pages' buttons, every page follows live, a chat button's press shows on the pages,
and a forged page gets nothing. Screenshots go to WEBAPP_SCREENSHOTS (README's are made so).

Skipped only outside CI when no Chromium is installed (.ci/run installs it); in CI a missing
browser fails the test."""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram
from tests.fakebot.models import FakeUser
from tests.webapp_helpers import init_data, webapp_overrides

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
OTHER_TOKEN = "654321:AAAnotherBotsToken_0123456789abcdefXYZ"
THEME = {
    "bg_color": "#ffffff", "text_color": "#222222", "hint_color": "#8a8a8a",
    "link_color": "#2481cc", "button_color": "#2481cc", "button_text_color": "#ffffff",
    "secondary_bg_color": "#eef1f5",
}  # fmt: skip
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        pytest.fail(f"no Chromium at {CHROMIUM}: .ci/run installs Debian's chromium", pytrace=False)
    pytest.skip(
        "no Chromium (apt-get install chromium): the browser tests run in CI",
        allow_module_level=True,
    )

from playwright.async_api import Browser, Page, async_playwright  # noqa: E402


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()


def shots(tmp_path: Path) -> Path:
    where = Path(os.environ.get("WEBAPP_SCREENSHOTS") or tmp_path / "shots")
    where.mkdir(parents=True, exist_ok=True)
    return where


async def open_page(
    browser: Browser, bot: RunningBot, user: FakeUser, table_id: int, token: str | None = None
) -> Page:
    """A page opened as Telegram opens a Mini App from the group's button: initData, its
    version and the theme in the URL's fragment (telegram-web-app.js itself is not fetched:
    the machine has no network; the page reads the fragment as that script does)."""
    bot.app.bot_data["web"].rate = (
        10_000,
        10.0,
    )  # a test taps faster than anyone (see the API test)
    context = await browser.new_context(viewport={"width": 360, "height": 760})
    page = await context.new_page()
    await page.route(
        "https://telegram.org/**",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=""),
    )
    init = init_data(token or bot.tg.token, user, str(table_id))
    fragment = (
        f"tgWebAppData={quote(init)}&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop"
        f"&tgWebAppThemeParams={quote(json.dumps(THEME))}"
    )
    await page.goto(bot.app.bot_data["web"].settings.webapp_url + "/#" + fragment)
    return page


async def synced(bot: RunningBot, pages: list[Page], table_id: int) -> None:
    """Every page shows the table's current position (its deal and step), pushed live."""
    await bot.idle()
    live = bot.service.find(table_id)
    assert live is not None
    want = f"{live.row.deal_no}:{live.step}"
    for page in pages:
        try:
            await page.wait_for_selector(f'body[data-step="{want}"]', timeout=10_000)
        except Exception:
            steps = [await p.evaluate("document.body.dataset.step") for p in pages]
            raise AssertionError(f"pages at {steps}, the table at {want}") from None


async def tap(page: Page, data: str) -> None:
    """The player taps the button the chat would press with `data`: a real <button>."""
    button = page.locator(f'button[data-press="{data}"]')
    async with page.expect_response(lambda r: "/api/press" in r.url) as answer:
        await button.click()
    response = await answer.value
    assert response.status == 200, await response.text()


def _pref_choice(phase: str, moves: list[str], live: Any, rng: random.Random) -> str:
    """A quick deal that comes to whisting: the first bidder bids the lowest, the others pass;
    the declarer discards the first two cards he marks and names the lowest contract."""
    if phase == "bidding":
        bids = [m for m in moves if m.rsplit(":", 1)[1].startswith("b")]
        opened = live.play.match.deal.auction.holder is not None
        passes = [m for m in moves if m.endswith(":P")]
        return passes[0] if opened and passes else (bids or moves)[0]
    if phase == "discard":
        confirm = [m for m in moves if m.startswith("a:")]
        return confirm[0] if confirm else rng.choice(moves)
    if phase == "contract":
        return moves[0]
    return rng.choice(moves)


async def _table_id(bot: RunningBot) -> int:
    table = await bot.service.storage.open_table(GROUP_ID)
    assert table is not None
    return table.table_id


async def test_four_players_play_a_frap_deal_by_tapping(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    group, users = make_players(tg, 4)
    rng = random.Random(24)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=24, **webapp_overrides()) as bot:
        await open_table(bot, group, users, "/newgame frap")
        table_id = await _table_id(bot)
        pages = [await open_page(browser, bot, u, table_id) for u in users]
        forged = await open_page(browser, bot, users[0], table_id, token=OTHER_TOKEN)
        await synced(bot, pages, table_id)
        await forged.wait_for_selector('body[data-state="refused"]')
        assert await forged.locator("button").count() == 0
        assert "hash" in (await forged.text_content("#notice") or "")
        by_chat = taps = 0
        trick_shot = False
        for _ in range(200):
            movers = [(i, moves_now(control_message(tg, u))) for i, u in enumerate(users)]
            movers = [(i, m) for i, m in movers if m]
            if not movers:
                break
            seat, moves = movers[0]
            data = rng.choice(moves)
            if taps == 3 and not by_chat:  # one press by the chat button: the pages follow
                message = control_message(tg, users[seat])
                assert message is not None
                await users[seat].press(message, data=data)
                by_chat += 1
            else:
                await tap(pages[seat], data)
                taps += 1
            await synced(bot, pages, table_id)
            live = bot.service.find(table_id)
            assert live is not None
            played = bot.service.game(live).position(live)
            assert played is not None
            trick, nxt = played.trick, played.to_act
            if not trick_shot and len(trick) >= 2 and nxt is not None:  # the next to play
                await pages[nxt].screenshot(path=shots(tmp_path) / "frap-trick.png", full_page=True)
                trick_shot = True
        else:
            pytest.fail("the deal did not end")
        assert taps > 5 and by_chat == 1 and trick_shot
        live = bot.service.find(table_id)
        assert live is not None and not live.in_deal  # the deal is over
        for page in pages:  # the result, with its reasons, on every page
            await page.wait_for_selector("#result:not([hidden]) pre")
        assert await forged.locator("button").count() == 0
        assert await bot.service.storage.check() == []


async def test_three_players_play_a_preferans_deal_by_tapping(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    group, users = make_players(tg, 3)
    users[2].language_code = "en"  # his page in English
    users[1].first_name = "<i>Bob</i>"  # a name goes in as text, never as HTML
    rng = random.Random(7)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7, **webapp_overrides()) as bot:
        await open_table(bot, group, users, "/newgame preferans")
        table_id = await _table_id(bot)
        pages = [await open_page(browser, bot, u, table_id) for u in users]
        await synced(bot, pages, table_id)
        assert await pages[2].evaluate("document.documentElement.lang") == "en"
        assert await pages[0].evaluate("document.documentElement.lang") == "ru"
        assert await pages[0].locator("#seats i").count() == 0
        assert "<i>Bob</i>" in (await pages[0].text_content("#seats") or "")
        theme = "getComputedStyle(document.documentElement).getPropertyValue('--tg-second')"
        assert (await pages[0].evaluate(theme)).strip() == THEME["secondary_bg_color"]
        whist_shot, whisted_deal = False, None
        for _ in range(600):
            live = bot.service.find(table_id)
            assert live is not None
            if whisted_deal is not None and live.row.deal_no > whisted_deal:
                break  # a deal with a whisting decision is over, the next one dealt
            movers = [(i, moves_now(control_message(tg, u))) for i, u in enumerate(users)]
            movers = [(i, m) for i, m in movers if m]
            assert movers
            seat, moves = movers[0]
            phase = await pages[seat].evaluate("document.body.dataset.phase")
            if phase == "whisting" and not whist_shot:
                path = shots(tmp_path) / "preferans-whisting.png"
                await pages[seat].screenshot(path=path, full_page=True)
                whist_shot, whisted_deal = True, live.row.deal_no
            await tap(pages[seat], _pref_choice(phase, moves, live, rng))
            await synced(bot, pages, table_id)
        else:
            pytest.fail("no deal with whisting ended")
        sheet = pages[0].locator("#sheet img")
        await sheet.wait_for()
        await pages[0].wait_for_function(
            "document.querySelector('#sheet img').naturalWidth > 0", timeout=10_000
        )
        await pages[0].locator("#sheet").screenshot(path=shots(tmp_path) / "preferans-sheet.png")
        for page in pages:
            await page.wait_for_selector("#result:not([hidden]) pre")
        assert whist_shot and await bot.service.storage.check() == []
