"""The Mini App in a real browser: Debian's headless Chromium, driven by Playwright, opens each page
from the URL on the button the fake Bot API recorded (the group's t.me link resolved to the URL
the operator gave BotFather, or a private web_app button's own URL), with the launch data in the
fragment as Telegram appends it; telegram-web-app.js is a stand-in that counts the page's calls
(tests/webapp_telegram.js). Players spend the evening on the pages alone at 390×844: the lobby,
whole deals by taps, the result and the next deal. Screenshots go to WEBAPP_SCREENSHOTS
(README's are made so).

Skipped only outside CI when no Chromium is installed (.ci/run installs it); in CI a missing
browser fails the test."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote

import pytest

from bot import games
from tests import toy_game
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram, StoredMessage
from tests.fakebot.miniapp import DARK, LIGHT
from tests.fakebot.models import FakeUser
from tests.installed import require
from tests.webapp_helpers import webapp_overrides

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
STUB = (Path(__file__).parent / "webapp_telegram.js").read_text(encoding="utf-8")
PHONE = {"width": 390, "height": 844}
WINDOW = {"width": 1280, "height": 800}
SMALL = {"width": 360, "height": 720}  # a small phone
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

require(CHROMIUM, "Chromium", "chromium", "browser")

from playwright.async_api import Browser, Page, WebSocketRoute, async_playwright  # noqa: E402


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


SOCKETS: list[str] = []  # the address of every WebSocket a page opened


async def open_from(
    browser: Browser,
    bot: RunningBot,
    user: FakeUser,
    message: StoredMessage,
    size: dict[str, int] = PHONE,
    motion: Literal["reduce", "no-preference"] = "no-preference",
    socket: Callable[[WebSocketRoute], Awaitable[None]] | None = None,
    **launch: Any,
) -> Page:
    """`user` taps the message's "🃏 Table" button: the page his client opens, at a phone's size
    (or `size`), his system asking for `motion` (reduced or not)."""
    bot.app.bot_data["web"].rate = (10_000, 10.0)  # a test taps faster than anyone
    url = bot.tg.mini_apps.launch_url(bot.tg.mini_apps.opener(message), user, **launch)
    context = await browser.new_context(viewport=size, reduced_motion=motion)
    page = await context.new_page()
    page.on("websocket", lambda opened: SOCKETS.append(opened.url))
    if socket is not None:  # the page's live channel passes through the test's hands
        await page.route_web_socket("**/api/ws", socket)
    await page.route(
        "https://telegram.org/**",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=STUB),
    )
    await page.goto(url)
    return page


async def picture(page: Page, path: Path) -> None:
    """A screenshot of the page at rest: its cards flying in have landed, a trick taken has gone."""
    await page.screenshot(animations="disabled", path=path)


async def live(page: Page) -> Page:
    await page.wait_for_selector('body[data-state="live"]', timeout=10_000)
    return page


async def synced(bot: RunningBot, pages: list[Page], table_id: int) -> None:
    """Every page shows the table's current position (its deal and step), pushed live."""
    await bot.idle()
    table = bot.service.find(table_id)
    assert table is not None
    want = f"{table.row.deal_no}:{table.step}"
    for page in pages:
        try:
            await page.wait_for_selector(f'body[data-step="{want}"]', timeout=10_000)
        except Exception:
            steps = [await p.evaluate("document.body.dataset.step") for p in pages]
            raise AssertionError(f"pages at {steps}, the table at {want}") from None


# A point of a button that a tap there reaches (not under another element), or null.
VISIBLE_POINT = """(button) => {
  const r = button.getBoundingClientRect();
  const y = r.top + r.height / 2;
  for (const x of [r.left + r.width / 2, r.left + Math.min(15, r.width / 2)]) {
    const hit = document.elementFromPoint(x, y);
    if (hit && button.contains(hit)) return [x, y];
  }
  return null;
}"""


async def tap(page: Page, data: str, status: int = 200) -> None:
    """The player taps the page's button for `data`, a real <button> that is on the screen as
    it stands (no scrolling: a button below the fold would not count), or Telegram's main
    button under the page if it holds `data`."""
    if await page.evaluate("document.body.dataset.main") == data:
        async with page.expect_response(lambda r: "/api/press" in r.url) as answer:
            assert await page.evaluate("window.__telegram.main()")
        response = await answer.value
        assert response.status == status, await response.text()
        return
    button = page.locator(f'button[data-press="{data}"]')
    # a push may be redrawing the page (another player sat down): the button found may be gone
    # the next moment, so it is looked for again, for up to a second
    for _ in range(20):
        await button.wait_for(state="visible", timeout=5_000)
        box = await button.bounding_box()
        # where a finger finds it: its middle, or for a card half under the next one of the
        # hand's fan, the middle of the strip in view
        point = await button.evaluate(VISIBLE_POINT) if box is not None else None
        if point is not None:
            break
        await page.wait_for_timeout(50)
    size = page.viewport_size or PHONE
    assert box is not None, f"no button {data}"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (data, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (data, box)
    assert point is not None, f"button {data} covered"
    async with page.expect_response(lambda r: "/api/press" in r.url) as answer:
        await page.mouse.click(*point)
    response = await answer.value
    assert response.status == status, await response.text()


LAYOUT = """() => {
  const wrong = [];
  for (const node of document.querySelectorAll("body *")) {  // no text under 11 px
    const text = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!text || !node.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size < 11) wrong.push(`"${node.textContent.trim().slice(0, 20)}" at ${size}px`);
  }
  const deal = view && view.deal;
  const over = document.scrollingElement.scrollHeight - innerHeight;
  if (!deal || !deal.seats) {  // the lobby fits its screen too
    if (view && view.status === "lobby" && over > 0.5) wrong.push(`lobby scrolls by ${over}px`);
    return wrong;
  }
  // a deal in progress (bidding, the contract named, the discard, whisting, play): the table
  // and the dock fit the screen, nothing to scroll to, no seat under the dock (a finished
  // deal's result is a sheet over the felt, scrolled inside itself; a sub-view is its own)
  const sub = document.querySelector(".sub:not([hidden])");
  if (!deal.finished && !sub && over > 0.5) wrong.push(`scrolls by ${over}px in ${deal.phase}`);
  const inside = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
    && r.bottom <= innerHeight + 0.5;
  const seats = [...document.querySelectorAll("#seats.table .seat")];
  const out = view.sitting_out || [];
  if (seats.length !== deal.seats.length + out.length) wrong.push(`${seats.length} seats drawn`);
  const boxes = seats.map((n) => n.getBoundingClientRect());
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
        && b.top < a.bottom - 0.5) wrong.push(`seats ${i} and ${i + j + 1} overlap`);
  }));
  seats.forEach((n, i) => {
    if (!inside(boxes[i])) wrong.push(`seat ${n.dataset.seat} off screen`);
  });
  const trick = document.querySelector("#seats .trick");
  if (!trick || !inside(trick.getBoundingClientRect())) wrong.push("the trick off screen");
  for (const card of document.querySelectorAll("#seats .trick .card, #dock .hand .card")) {
    if (!inside(card.getBoundingClientRect())) wrong.push(`card ${card.dataset.code} off screen`);
  }
  const hand = [...document.querySelectorAll("#dock .hand .card")];
  const top = (c) => c.getBoundingClientRect().top;
  // the felt spans the width; the hand is cards, not slivers: ten fit with 30 px of each in view
  const feltWidth = document.querySelector("#seats.table").getBoundingClientRect().width;
  if (feltWidth < 0.9 * innerWidth) wrong.push(`felt ${feltWidth}px wide`);
  if (hand.length <= 10) {
    hand.forEach((c, i) => {
      const r = c.getBoundingClientRect();
      if (r.height < 84) wrong.push(`card ${c.dataset.code} ${r.height}px tall`);
      const next = hand[i + 1] && hand[i + 1].getBoundingClientRect().left;
      if (next !== undefined && next - r.left < 30) wrong.push(`card ${c.dataset.code} hidden`);
    });
  }
  // the cards to play raised above the rest, the rest dimmed yet legible (a light face kept)
  const raised = hand.filter((c) => c.dataset.press && !c.classList.contains("marked"));
  for (const card of hand.filter((c) => c.classList.contains("dim"))) {
    if (raised.some((c) => top(c) > top(card) - 3)) {
      wrong.push(`card ${card.dataset.code} not below the cards to play`);
    }
    const face = getComputedStyle(card);
    if (Number(face.opacity) < 0.5) wrong.push(`card ${card.dataset.code} too faint`);
  }
  // P7: the whister who plays the passer's open hand sees his own dimmed
  const fromOpen = document.querySelector("#seats .open button.card");
  if (fromOpen && hand.some((c) => !c.classList.contains("dim"))) {
    wrong.push("the own hand not dimmed while the player plays from an open hand");
  }
  for (const card of hand.filter((c) => c.classList.contains("marked"))) {
    if (hand.some((c) => !c.classList.contains("marked") && top(card) > top(c) - 8)) {
      wrong.push(`card ${card.dataset.code} marked for the discard, not lifted`);
    }
  }
  // the ranks in the player's language: В Д К Т in Russian
  const ranks = document.documentElement.lang === "ru" ? /^([2-9]|10|В|Д|К|Т)$/
    : /^([2-9]|10|J|Q|K|A)$/;
  for (const rank of document.querySelectorAll(".card .rank")) {
    if (!ranks.test(rank.textContent)) wrong.push(`rank ${rank.textContent}`);
  }
  for (const name of document.querySelectorAll("#seats .seat .name")) {
    if (name.scrollWidth > name.clientWidth + 1) wrong.push(`name ${name.textContent} cut`);
  }
  const mover = deal.finished ? null : deal.mover;
  for (const n of seats) {
    if (n.dataset.out) {  // a seated player the deal left out: at his seat, marked
      if (!n.querySelector(".badge.out")) wrong.push(`${n.textContent} not marked out`);
      continue;
    }
    const s = deal.seats[Number(n.dataset.seat)];
    if (s.out && !n.querySelector(".badge.out")) wrong.push(`seat ${s.seat} not marked out`);
    const marked = n.classList.contains("to-act");
    if ((s.seat === mover) !== marked) wrong.push(`seat ${s.seat} mover mark`);
    if (s.seat === view.seat || !s.cards) continue;
    const backs = n.querySelector(".backs");
    const open = n.querySelectorAll(".open .card").length;
    if (open !== s.cards && (!backs || backs.textContent.indexOf(String(s.cards)) < 0)) {
      wrong.push(`seat ${s.seat} shows no count of its ${s.cards} cards`);
    }
  }
  return wrong;
}"""


# how many cards lie in the trick, up to two (where two play, the second takes it at once)
TRICK = "() => Math.min(2, (view.deal && view.deal.trick && view.deal.trick.plays.length) || 0)"


async def laid_out(page: Page) -> None:
    """The table fits its screen whatever the deal: in a deal nothing to scroll to, every seat
    drawn (those sitting out the deal marked so), no two overlap, every seat, the trick and the
    player's own cards are inside the viewport, the cards to play raised above the rest, which
    are dimmed but not faint, a card marked for the discard lifted, the ranks in the player's
    language, no name is cut, the mover's seat is marked, and every other seat shows how many
    cards it holds."""
    wrong = await page.evaluate(LAYOUT)
    assert not wrong, wrong


async def press_of(page: Page, prefix: str, suffix: str = "") -> str:
    """The press of the page's first button, or of Telegram's main button, whose data starts
    with `prefix` (and ends with `suffix`)."""
    main = await page.evaluate("document.body.dataset.main") or ""
    if main.startswith(prefix) and main.endswith(suffix):
        return str(main)
    ends = f'[data-press$="{suffix}"]' if suffix else ""  # ($="" matches nothing)
    found = page.locator(f'button[data-press^="{prefix}"]{ends}')
    data = await found.first.get_attribute("data-press")
    assert data is not None
    return data


async def calls(page: Page, name: str, arg: str | None = None) -> int:
    """How many times the page called Telegram's `name` (with `arg`)."""
    return int(await page.evaluate("([n, a]) => window.__telegram.count(n, a)", [name, arg]))


async def felt(page: Page, name: str, arg: str) -> None:
    """The page called Telegram's `name(arg)` (it does once a press's answer is read)."""
    await page.wait_for_function(
        "([n, a]) => window.__telegram.count(n, a) > 0", arg=[name, arg], timeout=5_000
    )


def lobby_message(tg: FakeTelegram, group: Any) -> StoredMessage:
    """The group's newest message with the page's button (the lobby, before the first deal)."""
    return next(m for m in reversed(bot_messages(tg, group)) if "startapp" in str(m.reply_markup))


async def gather_on_pages(
    browser: Browser,
    bot: RunningBot,
    group: Any,
    users: list[FakeUser],
    command: str,
    size: dict[str, int] = PHONE,
    **launch: Any,
) -> tuple[list[Page], int]:
    """The first user opens a table in the group; everyone opens the page from the lobby's
    button (at `size`, with `launch`'s theme), sits down and the first starts the game, by taps
    on the pages alone."""
    for user in users:
        await user.start()
    await users[0].send(group, command)
    await bot.idle()
    lobby = lobby_message(bot.tg, group)
    pages = [await live(await open_from(browser, bot, u, lobby, size, **launch)) for u in users]
    table = await bot.service.storage.tables.open_table(GROUP_ID)
    assert table is not None
    for page in pages:
        assert await page.evaluate("document.body.dataset.phase") == "lobby"
    start = await press_of(pages[0], "s:")
    if len(users) > 1:  # too few players: refused in the creator's words, an error felt
        await tap(pages[0], start, status=409)
        await felt(pages[0], "notificationOccurred", "error")
        assert "игрок" in (await pages[0].text_content("#notice") or "")
    for page in pages[1:]:
        await tap(page, await press_of(page, "j:"))
    await bot.idle()
    await pages[0].wait_for_function(
        f"() => document.querySelectorAll('#seats .seat').length === {len(users)}"
    )
    await laid_out(pages[0])  # the lobby full
    await tap(pages[0], start)
    await synced(bot, pages, table.table_id)
    return pages, table.table_id


async def play_deal_by_taps(
    bot: RunningBot,
    users: list[FakeUser],
    pages: list[Page],
    table_id: int,
    choose: Any,
    shot: Path | None = None,
) -> int:
    """Whoever is to move taps one of his buttons on his page until the deal is over (a
    Preferans pulya deals the next at once); the taps made. `shot`: a picture of the page of
    whoever is to move once two cards lie in a trick (or one, if no trick ever holds two; the
    result if no card is played)."""
    rng = random.Random(table_id)
    laid = 0  # the cards in the trick of the picture taken
    table = bot.service.find(table_id)
    assert table is not None
    deal_no = table.row.deal_no
    for taps in range(400):
        table = bot.service.find(table_id)
        assert table is not None
        game = bot.service.game(table)
        if table.row.deal_no != deal_no or game.between_deals(table):
            if shot is not None and not laid:  # no card was played: the result
                await picture(pages[0], shot)
            return taps
        movers = [(i, moves_now(control_message(bot.tg, u))) for i, u in enumerate(users)]
        seat, moves = next((i, m) for i, m in movers if m)
        if shot is not None and laid < 2 and await pages[seat].evaluate(TRICK) > laid:
            await picture(pages[seat], shot)
            laid = await pages[seat].evaluate(TRICK)
        phase = await pages[seat].evaluate("document.body.dataset.phase")
        await tap(pages[seat], choose(phase, moves, table, rng))
        await synced(bot, pages, table_id)
        for page in pages:
            await laid_out(page)
    raise AssertionError("the deal did not end")


def any_move(phase: str, moves: list[str], table: Any, rng: random.Random) -> str:
    return rng.choice(moves)


def quick_move(phase: str, moves: list[str], table: Any, rng: random.Random) -> str:
    """Any game's deal kept short: in an auction a pass more often than not, else the first move
    offered (the lowest bid); after it any move."""
    passes = [m for m in moves if m.endswith(":P")]
    if phase == "bidding" and passes and rng.random() < 0.6:
        return passes[0]
    if phase == "bidding":
        return moves[0]
    return rng.choice(moves)


def pref_move(phase: str, moves: list[str], table: Any, rng: random.Random) -> str:
    """A quick deal: the first bidder bids the lowest, the others pass; the declarer discards
    the first two cards he marks and names the lowest contract."""
    if phase == "bidding":
        bids = [m for m in moves if m.rsplit(":", 1)[1].startswith("b")]
        opened = table.play.match.deal.auction.holder is not None
        passes = [m for m in moves if m.endswith(":P")]
        return passes[0] if opened and passes else (bids or moves)[0]
    if phase == "discard":
        confirm = [m for m in moves if m.startswith("a:")]
        return confirm[0] if confirm else rng.choice(moves)
    if phase == "contract":
        return moves[0]
    return rng.choice(moves)


async def test_an_answer_that_crosses_a_later_push_does_not_take_the_page_back(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """The answer to Start is held up on its way; meanwhile a late player sits down and the push
    draws him. When the older answer arrives at last, the page keeps the newer view."""
    group, users = make_players(tg, 4)
    late = users.pop()
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=11, **webapp_overrides()) as bot:
        for user in [*users, late]:
            await user.start()
        await users[0].send(group, "/newgame frap")
        await bot.idle()
        lobby = lobby_message(tg, group)
        pages = [await live(await open_from(browser, bot, u, lobby)) for u in users]
        for page in pages[1:]:
            await tap(page, await press_of(page, "j:"))
        await bot.idle()
        held: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        answered = asyncio.Event()

        async def hold(route: Any) -> None:
            held.set_result(await route.fetch())  # the bot answered; the answer waits
            await answered.wait()
            await route.fulfill(response=held.result())

        await pages[0].route("**/api/press", hold)
        assert await pages[0].evaluate("window.__telegram.main()")  # Start
        await held
        await late.send(group, "/join")  # sits the deal out: drawn by the next push
        await bot.idle()
        out = '#seats .seat[data-out="1"]'
        await pages[0].wait_for_selector(out)
        async with pages[0].expect_response(lambda r: "/api/press" in r.url):
            answered.set()
        await pages[0].wait_for_timeout(300)  # the old answer read
        assert await pages[0].locator(out).count() == 1


async def test_a_player_picks_the_four_colour_deck_and_it_is_kept(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """One tap turns diamonds blue and clubs green on every card; the choice is kept in
    Telegram's CloudStorage and the page opened again draws the deck so."""
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4, **webapp_overrides()) as bot:
        pages, _ = await gather_on_pages(browser, bot, group, users, "/newgame preferans")
        page = pages[0]
        colour = "(n) => getComputedStyle(n).color"
        diamond = page.locator('.card[data-suit="D"]').first
        club = page.locator('.card[data-suit="C"]').first
        assert await diamond.evaluate(colour) == await page.locator(".card.red").first.evaluate(
            colour
        )
        await page.locator("button.deck").click()
        assert await diamond.evaluate(colour) == "rgb(21, 101, 192)"  # blue
        assert await club.evaluate(colour) == "rgb(46, 125, 50)"  # green
        assert await page.locator("button.deck").get_attribute("aria-pressed") == "true"
        assert await calls(page, "CloudStorage.setItem", "deck") == 1
        await page.reload()
        await live(page)
        await page.wait_for_function("() => document.documentElement.dataset.deck === '4'")
        diamond = page.locator('.card[data-suit="D"]').first
        assert await diamond.evaluate(colour) == "rgb(21, 101, 192)"


async def test_the_table_reads_to_a_screen_reader(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """The felt is a region named "Стол", each seat a group named by its player, each card of
    the hand a button named as the chat names it (8♠, Д♥), disabled while it cannot be played,
    and who is to move is said politely once, not with every tick of the clock."""
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4, **webapp_overrides()) as bot:
        pages, table_id = await gather_on_pages(browser, bot, group, users, "/newgame frap")
        rng = random.Random(4)
        for _ in range(20):  # the bids, until a card is to play
            seat, moves = next(
                (i, m) for i, u in enumerate(users) if (m := moves_now(control_message(tg, u)))
            )
            if await pages[seat].evaluate("view.deal.phase") == "play":
                break
            await tap(pages[seat], rng.choice(moves))
            await synced(bot, pages, table_id)
        table = bot.service.find(table_id)
        assert table is not None and table.to_act is not None
        mover = table.deal_seats[table.to_act]
        for user, page in zip(users, pages, strict=True):
            await laid_out(page)
            assert await page.get_by_role("region", name="Стол").count() == 1
            for other in users:
                assert await page.get_by_role("group", name=other.first_name).count() == 1
            hand = page.get_by_role("group", name="Ваши карты").get_by_role("button")
            cards = await page.evaluate("view.deal.hand")
            names = [await hand.nth(i).get_attribute("aria-label") for i in range(len(cards))]
            assert await hand.count() == len(cards) and names == [c["label"] for c in cards]
            for i, card in enumerate(cards):
                assert await hand.nth(i).is_enabled() == ("press" in card), card["label"]
            assert any("press" in c for c in cards) == (user.id == mover)
            said = "Ваш ход" if user.id == mover else f"{table.users[mover].name} ходит"
            assert await page.text_content("#mover") == said
            assert await page.get_attribute("#mover", "aria-live") == "polite"
            assert await page.get_attribute("#clock", "aria-live") is None


@pytest.mark.parametrize("slash", ["", "/"], ids=["webapp-url-as-readme", "with-slash"])
async def test_the_page_opens_from_every_button(
    tg: FakeTelegram, tmp_path: Path, browser: Browser, slash: str
) -> None:
    """WEBAPP_URL as README writes it (…/app) and with a slash: the lobby's link, the table
    message's, each control message's web_app button and a result's link all open the page
    live, and a reload inside Telegram keeps it."""
    group, users = make_players(tg, 3)
    web = webapp_overrides(slash)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5, **web) as bot:
        pages, table_id = await gather_on_pages(browser, bot, group, users, "/newgame frap")
        table_message = lobby_message(tg, group)  # the deal's, once the lobby's is let go
        more = [await live(await open_from(browser, bot, users[1], table_message))]
        for user in users:
            control = control_message(tg, user)
            assert control is not None
            more.append(await live(await open_from(browser, bot, user, control)))
        await more[-1].reload()
        await live(more[-1])
        await synced(bot, pages + more, table_id)
        seat_pages = more[1:]
        taps = await play_deal_by_taps(bot, users, seat_pages, table_id, any_move)
        assert taps > 3
        result = next(m for m in reversed(bot_messages(tg, group)) if "n:" in str(m.buttons))
        after = await live(await open_from(browser, bot, users[2], result))
        await after.wait_for_selector('body[data-main^="n:"]')
        # the launch data goes in each socket's first message: no address a proxy logs holds it
        assert SOCKETS and not [url for url in SOCKETS if "hash" in unquote(url)], SOCKETS


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_four_players_spend_a_frap_evening_on_the_pages(
    tg: FakeTelegram, tmp_path: Path, browser: Browser, theme: str
) -> None:
    """From the lobby to the next deal by taps on the pages alone; haptic feedback on taps, a
    success when the move comes to a page's player; the clock names whose time it is."""
    group, users = make_players(tg, 4)
    colours = LIGHT if theme == "light" else DARK
    web = {**webapp_overrides(), "turn_timeout": 90}
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=24, **web) as bot:
        for user in users:
            await user.start()
        await users[0].send(group, "/newgame frap")
        await bot.idle()
        lobby = lobby_message(tg, group)
        pages = [await live(await open_from(browser, bot, u, lobby, theme=colours)) for u in users]
        # the creator seats three computer players from his page and stands them up again;
        # on a phone's width each seat's name is whole, so the three are told apart
        for seated in (2, 3, 4):
            await tap(pages[0], await press_of(pages[0], "m:"))
            await pages[1].wait_for_function(
                f"() => document.querySelectorAll('#seats .seat').length === {seated}"
            )
        names = pages[1].locator("#seats .seat .name")
        shown = [await names.nth(i).text_content() for i in range(await names.count())]
        assert len(set(shown)) == 4, shown
        whole = "(n) => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight"
        assert all([await names.nth(i).evaluate(whole) for i in range(4)]), shown
        for seated in (3, 2, 1):  # the last computer stands up
            await tap(pages[0], await press_of(pages[0], "m:", ":-"))
            await pages[1].wait_for_function(
                f"() => document.querySelectorAll('#seats .seat').length === {seated}"
            )
        for page in pages[1:]:
            await tap(page, await press_of(page, "j:"))
        await bot.idle()
        await pages[1].wait_for_function(
            f"() => document.querySelectorAll('#seats .seat').length === {len(users)}"
        )
        await picture(pages[0], shots(tmp_path) / f"frap-lobby-{theme}.png")
        # Start is on Telegram's main button, not a second time on the page
        assert await pages[0].evaluate("window.__telegram.mainText()") == "▶️ Начать игру"
        assert await pages[0].locator('button[data-press^="s:"]').count() == 0
        await tap(pages[0], await press_of(pages[0], "s:"))
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        await synced(bot, pages, table.table_id)
        for page in pages:  # in play: no main button, and a drag over the hand keeps the app
            assert await page.evaluate("window.__telegram.mainText()") is None
            assert await calls(page, "disableVerticalSwipes") == 1
        mover = bot.service.find(table.table_id)
        assert mover is not None and mover.to_act is not None
        clock = await pages[0].text_content("#clock") or ""
        mover_name = mover.users[mover.deal_seats[mover.to_act]].name
        assert clock.startswith(mover_name + " · 1:") or clock.startswith(mover_name + " · 0:")
        trick = shots(tmp_path) / f"frap-play-{theme}.png"
        taps = await play_deal_by_taps(bot, users, pages, table.table_id, any_move, trick)
        for page in pages:  # the result on every page, and the next deal to tap
            await page.wait_for_selector("#result:not([hidden]) .head")
            await page.wait_for_selector('body[data-main^="n:"]')
            assert await page.evaluate("window.__telegram.mainText()") == "🃏 Следующая сдача"
            assert await calls(page, "enableVerticalSwipes") == 1
        await picture(pages[0], shots(tmp_path) / f"frap-result-{theme}.png")
        # the result is a sheet over the felt, within the screen; its handle folds it to its
        # head line to look at the table, and opens it again
        sheet = pages[0].locator("#result.sheet")
        box = await sheet.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"]
        await sheet.locator("button.handle").click()
        await pages[0].wait_for_selector("#result.sheet.folded .head")
        assert await sheet.locator(".hands").is_hidden()
        await sheet.locator("button.handle").click()
        await pages[0].wait_for_selector("#result.sheet:not(.folded) .hands")
        await tap(pages[2], await press_of(pages[2], "n:"))
        await synced(bot, pages, table.table_id)
        again = bot.service.find(table.table_id)
        assert again is not None and again.row.deal_no == 2 and again.in_deal
        assert sum([await calls(p, "impactOccurred", "light") for p in pages]) >= taps
        assert sum([await calls(p, "notificationOccurred", "success") for p in pages]) >= 2
        for page in pages:
            assert await calls(page, "ready") == 1 and await calls(page, "expand") == 1
            assert await calls(page, "requestFullscreen") == 1  # a phone's client, Bot API 8.0
        assert await bot.service.storage.check() == []


@pytest.mark.parametrize(
    ("game", "players", "size", "theme"),
    [
        ("frap", 7, PHONE, "dark"),
        ("frap", 6, WINDOW, "light"),
        ("frap", 4, SMALL, "light"),
        ("frap", 7, SMALL, "dark"),
        ("khrap", 7, SMALL, "light"),
        ("napoleon", 5, SMALL, "dark"),  # and the late one: six, its most
    ],
    ids=[
        "frap-seven-phone-dark", "frap-six-window-light", "frap-four-360-light",
        "frap-seven-360-dark", "khrap-seven-360-light", "napoleon-six-360-dark",
    ],
)  # fmt: skip
async def test_a_full_table_fits_a_phone_and_a_window(
    tg: FakeTelegram,
    tmp_path: Path,
    browser: Browser,
    game: str,
    players: int,
    size: dict[str, int],
    theme: str,
) -> None:
    """Seven players (or fewer) around the table on a phone, a small phone and in a desktop
    window, and one more who sat down once the cards were dealt, at his seat sitting the deal
    out: a whole deal by taps, the layout checked on every page after every tap (`laid_out`).
    Each game of more than four seats, as full as it goes: up to seven dealt in and the late
    one (Napoleon's six seats: five and him)."""
    group, users = make_players(tg, players + 1)
    late = users.pop()
    colours = LIGHT if theme == "light" else DARK
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=11, **webapp_overrides()) as bot:
        for user in [*users, late]:
            await user.start()
        await users[0].send(group, f"/newgame {games.ui(game).aliases[0]}")
        await bot.idle()
        lobby = lobby_message(tg, group)
        pages = [
            await live(await open_from(browser, bot, u, lobby, size, theme=colours))
            for u in [*users, late]
        ]
        for page in pages[1:-1]:
            await tap(page, await press_of(page, "j:"))
        await bot.idle()
        await tap(pages[0], await press_of(pages[0], "s:"))
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        await late.send(group, "/join")
        await synced(bot, pages, table.table_id)
        running = bot.service.find(table.table_id)
        assert running is not None and late.id in running.row.seats
        assert late.id not in running.deal_seats
        for page in pages:  # at his seat, sitting out
            seat = page.locator('#seats .seat[data-out="1"]')
            assert await seat.locator(".name").text_content() == late.first_name
            assert await seat.locator(".badge.out").text_content() == "не играет"
        assert await pages[-1].locator("#seats .ring.me .seat[data-out]").count() == 1
        shot = shots(tmp_path) / f"{game}-{players}-{size['width']}-{theme}.png"
        taps = await play_deal_by_taps(bot, users, pages, table.table_id, any_move, shot)
        assert taps > players


async def test_f8_the_rounds_everyone_passed_are_told_on_the_felt(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """Seven at a Frap table on a small phone pass two rounds of bidding (F8): every page says
    the round of the three and each round passed (its dead turn-up, the ante paid again) in the
    words of the group's table message, and the table still fits the screen."""
    group, users = make_players(tg, 7)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5, **webapp_overrides()) as bot:
        pages, table_id = await gather_on_pages(browser, bot, group, users, "/newgame frap", SMALL)
        rounds = "() => view.deal.rounds && view.deal.rounds[0]"
        while await pages[0].evaluate(rounds) != 3:
            movers = [(i, moves_now(control_message(tg, u))) for i, u in enumerate(users)]
            seat = next(i for i, moves in movers if moves)
            await tap(pages[seat], await press_of(pages[seat], "a:", ":P"))
            await synced(bot, pages, table_id)
        told = lobby_message(tg, group).text  # the group's table message, with the page's link
        await picture(pages[0], shots(tmp_path) / "frap-passed-360-light.png")
        for page in pages:
            await laid_out(page)
            dead = page.locator("#seats .mid .rounds .card.dead")
            assert await dead.count() == 2 and await dead.last.is_visible()
            for i in (0, 1):
                line = await dead.nth(i).get_attribute("aria-label")
                assert line and line.startswith(f"Круг {i + 1}:") and line in told, line
            assert await page.get_by_text("Круг 3 из 3").is_visible()


async def test_the_league_rating_stands_beside_each_name_on_the_result_and_in_the_lobby(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """After a rated deal each player's rating in the chat's league stands beside his name on
    the result, and beside the name in the chairs of the next table's lobby."""
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, **webapp_overrides()) as bot:
        pages, table_id = await gather_on_pages(browser, bot, group, users, "/newgame frap")
        await play_deal_by_taps(bot, users, pages, table_id, any_move)
        await synced(bot, pages, table_id)
        league = {
            s.user_id: s.now for s in await bot.service.storage.league.standings(GROUP_ID, "frap")
        }
        want = sorted(f"🏆 {r.shown}?" for r in league.values())  # provisional after one
        for page in pages:
            await page.wait_for_selector("#result:not([hidden]) .rating")
            assert sorted(await page.locator("#result .rating").all_text_contents()) == want
        await picture(pages[0], shots(tmp_path) / "league-result.png")
        await users[0].send(group, "/stopgame")
        await bot.idle()
        await users[0].send(group, "/newgame frap")
        await bot.idle()
        page = await live(await open_from(browser, bot, users[1], lobby_message(tg, group), PHONE))
        await page.wait_for_selector("#seats .seat .rating")
        chairs = await page.locator("#seats .seat .rating").all_text_contents()
        assert chairs == [f"🏆 {league[users[0].id].shown}?"]  # the creator, seated


@pytest.mark.parametrize(
    ("players", "size"), [(3, PHONE), (4, SMALL)], ids=["three", "four-dealer-sits-out-360"]
)
async def test_a_preferans_deal_played_on_the_pages(
    tg: FakeTelegram, tmp_path: Path, browser: Browser, players: int, size: dict[str, int]
) -> None:
    """A whole Preferans deal by taps on the pages, to the next deal; the sheet one tap away
    (Telegram's BackButton closes it), its picture the sheet of the deal just played."""
    group, users = make_players(tg, players)
    users[-1].language_code = "en"  # his page in English
    users[1].first_name = "<i>Bob</i>"  # a name goes in as text, never as HTML
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7, **webapp_overrides()) as bot:
        pages, table_id = await gather_on_pages(
            browser, bot, group, users, "/newgame preferans", size
        )
        assert await pages[-1].evaluate("document.documentElement.lang") == "en"
        assert await pages[0].evaluate("document.documentElement.lang") == "ru"
        assert await pages[0].locator("#seats i").count() == 0
        assert "<i>Bob</i>" in (await pages[0].text_content("#seats") or "")
        # the first hand bids on a ladder: a row a level, each bid he may say enabled, the
        # bids his chat message offers and no other; pass and misère buttons of their own
        seat, moves = next(
            (i, m) for i, u in enumerate(users) if (m := moves_now(control_message(tg, u)))
        )
        page = pages[seat]
        ladder = page.locator(".ladder button.rung")
        assert await ladder.count() == 25  # 6♠ … 10 no trumps, misère apart
        enabled = page.locator(".ladder button.rung[data-press]")
        bids = {m for m in moves if m.rsplit(":", 1)[1].startswith("b")}
        assert {
            await enabled.nth(i).get_attribute("data-press") for i in range(await enabled.count())
        } == bids
        assert await page.locator(".ladder").get_attribute("aria-label") in ("Заявки", "Bids")
        others = page.locator("#dock .actions button.word")
        assert {
            await others.nth(i).get_attribute("data-press") for i in range(await others.count())
        } == set(moves) - bids
        await picture(page, shots(tmp_path) / f"preferans-bidding-{players}.png")
        trick = shots(tmp_path) / f"preferans-play-{players}.png"
        await play_deal_by_taps(bot, users, pages, table_id, pref_move, trick)
        table = bot.service.find(table_id)
        assert table is not None and table.row.deal_no == 2
        await synced(bot, pages, table_id)
        page = pages[0]
        await page.locator('button[data-open="sheet"]').click()
        await page.wait_for_selector("#sheet:not([hidden]) img")
        await page.wait_for_function("() => document.querySelector('#sheet').dataset.deals === '1'")
        await page.wait_for_function("() => document.querySelector('#sheet img').naturalWidth > 0")
        await picture(page, shots(tmp_path) / f"preferans-sheet-{players}.png")
        assert await calls(page, "BackButton.show") >= 1
        await page.evaluate("window.__telegram.back()")
        await page.wait_for_selector("#sheet", state="hidden")
        assert await bot.service.storage.check() == []


# Each seat's plate as drawn: its seat, its earlier words of the auction, and its latest.
CALLS = """() => [...document.querySelectorAll("#seats .seat[data-seat]")].map((n) => [
  Number(n.dataset.seat), n.querySelector(".calls")?.textContent ?? "",
  n.querySelector(".said")?.textContent ?? ""])"""


async def test_p4_the_auction_so_far_is_at_each_seats_plate(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """A rigged auction by taps on the pages: 6♠, 6♣, pass, then 6♦ by the first hand. Every
    page shows at each plate the seat's earlier words before its latest: the first hand's 6♠
    before his 6♦, one word alone for the others."""
    from tests.pref_deal_helpers import rig
    from tests.test_bot_review import Rigged

    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot:
        bot.service.rng = Rigged(rig(OPEN_HANDS, OPEN_TALON), dealer=2)  # seat 0 bids first
        pages, table_id = await gather_on_pages(
            browser, bot, group, users, "/newgame preferans", PHONE
        )
        for seat, said in ((0, ":b6S"), (1, ":b6C"), (2, ":P"), (0, ":b6D")):
            moves = moves_now(control_message(tg, users[seat]))
            await tap(pages[seat], next(m for m in moves if m.endswith(said)))
            await synced(bot, pages, table_id)
        for page in pages:
            await laid_out(page)
            assert sorted(await page.evaluate(CALLS)) == [
                [0, "6♠", "6♦"], [1, "", "6♣"], [2, "", "пас"],
            ]  # fmt: skip
        await picture(pages[1], shots(tmp_path) / "preferans-auction.png")


# P7: the first hand (seat 0) holds the spades and bids 6♠, the others pass; the second (at the
# declarer's left) whists alone and plays light: both defenders' hands lie open on the table.
OPEN_HANDS = ("AS KS QS JS TS 9S AD KD 7C 7H", "AH KH QH JH AC KC QC 8D 7D 8S",
              "TH 9H 8H TC 9C 8C QD JD TD 9D")  # fmt: skip
OPEN_TALON = "7S JC"


def light_move(phase: str, moves: list[str], table: Any) -> str:
    """The taps to P7's light play: 6♠ by the first hand, passes, the contract 6♠ (after the
    discard), a whist, a pass, and light."""
    deal = table.play.match.deal
    wanted = {
        "bidding": ":b6S" if deal.turn == 0 else ":P",
        "contract": ":c6S",
        "whisting": ":W" if deal.turn == 1 else ":P",
        "light_or_dark": ":l",
    }
    return next(m for m in moves if m.endswith(wanted[phase]))


# Each seat's open hand as drawn: its seat and how many cards it shows.
OPEN = """() => [...document.querySelectorAll("#seats .seat")]
  .filter((n) => n.querySelector(".open"))
  .map((n) => [Number(n.dataset.seat), n.querySelectorAll(".open .card").length])"""


@pytest.mark.parametrize(
    ("players", "size", "theme"),
    [(3, SMALL, "light"), (3, PHONE, "dark"), (4, SMALL, "dark")],
    ids=["three-360-light", "three-phone-dark", "four-dealer-sits-out-360-dark"],
)
async def test_p7_light_play_lays_two_hands_open_on_every_page(
    tg: FakeTelegram,
    tmp_path: Path,
    browser: Browser,
    players: int,
    size: dict[str, int],
    theme: str,
) -> None:
    """A rigged Preferans deal to P7's light play by taps on the pages (the ladder's rungs, the
    dock's words, Telegram's main button where the page puts a choice): the lone whister plays
    light and both defenders' hands lie open. On every page, from the first lead to the second
    trick's after every tap, the table fits the screen (`laid_out`) and each open hand is drawn
    whole, card for card: the declarer's page (and the dealer's, sitting out) shows both, each
    defender's the other's; at the passer's turn the whister's page offers the passer's legal
    cards from his open hand."""
    from tests.pref_deal_helpers import rig
    from tests.test_bot_review import Rigged

    group, users = make_players(tg, players)
    colours = LIGHT if theme == "light" else DARK
    async with running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot:
        # the last seat deals (sitting out at four): seat 0 is the first hand
        bot.service.rng = Rigged(rig(OPEN_HANDS, OPEN_TALON), dealer=players - 1)
        pages, table_id = await gather_on_pages(
            browser, bot, group, users, "/newgame preferans", size, theme=colours
        )
        for _ in range(30):  # the auction, the talon, the contract, the whist and light
            table = bot.service.find(table_id)
            assert table is not None
            if table.play.match.deal.opened:
                break
            seat, moves = next(
                (i, m) for i, u in enumerate(users) if (m := moves_now(control_message(tg, u)))
            )
            phase = await pages[seat].evaluate("document.body.dataset.phase")
            if phase == "discard":  # the first two cards marked, then the discard confirmed
                confirm = [m for m in moves if m.startswith("a:")]
                unmarked = "view.deal.hand.find((c) => c.press && !c.marked).press"
                press = confirm[0] if confirm else await pages[seat].evaluate(unmarked)
            else:
                press = light_move(phase, moves, table)
            await tap(pages[seat], press)
            await synced(bot, pages, table_id)
        deal = table.play.match.deal
        assert deal.phase == "play" and sorted(deal.opened) == [1, 2], deal.opened
        name = f"preferans-open-{size['width']}-{theme}"
        await picture(pages[0], shots(tmp_path) / f"{name}.png")
        if players == 4:
            await picture(pages[3], shots(tmp_path) / f"{name}-dealer.png")

        async def drawn() -> None:  # every page fits, each open hand drawn card for card
            for i, page in enumerate(pages):
                await laid_out(page)
                shown = await page.evaluate(OPEN)
                want = [[s, len(deal.hands[s])] for s in (1, 2) if s != i]
                assert sorted(shown) == want, (i, shown)

        for _ in range(4):  # from the first lead to the second trick's
            await drawn()
            seat, moves = next(
                (i, m) for i, u in enumerate(users) if (m := moves_now(control_message(tg, u)))
            )
            if deal.turn == 2:  # the whister plays the passer's cards from his open hand
                assert seat == 1
                from_open = '#seats .seat[data-seat="2"] .open button.card[data-press]'
                assert await pages[1].locator(from_open).count() == len(moves)
                await picture(pages[1], shots(tmp_path) / f"{name}-whister.png")
            await tap(pages[seat], moves[0])
            await synced(bot, pages, table_id)
            table = bot.service.find(table_id)
            assert table is not None
            deal = table.play.match.deal
        await drawn()
        assert await bot.service.storage.check() == []


# Every game of the registry and the toy game of the tests, played whole on the pages: on a phone
# and on a small phone (as many players as it takes up to five), and in a desktop window (three,
# or two), the themes taking turns so that each game is seen in both.
GAMES = [*games.ORDER, toy_game.GAME]
SITTINGS = [
    pytest.param(game, size, theme, id=f"{game}-{size['width']}-{theme}")
    for i, game in enumerate(GAMES)
    for size, theme in (
        (PHONE, ("light", "dark")[i % 2]),
        (SMALL, ("dark", "light")[i % 2]),
        (WINDOW, ("dark", "light")[i % 2]),
    )
]


@pytest.mark.parametrize(("game", "size", "theme"), SITTINGS)
async def test_every_game_is_played_whole_on_the_pages(
    tg: FakeTelegram,
    tmp_path: Path,
    browser: Browser,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    size: dict[str, int],
    theme: str,
) -> None:
    """A whole deal of each game by taps on the pages alone, drawn by the same page code from the
    same description, the layout checked on every page after every tap (`laid_out`); a picture
    of the mover's page once cards lie in the trick (docs/playing.md shows them)."""
    if game == toy_game.GAME:
        toy_game.register(monkeypatch)
    low, high = games.ui(game).players
    players = min(high, 5) if size is not WINDOW else max(low, 3 if high >= 3 else low)
    group, users = make_players(tg, players)
    colours = LIGHT if theme == "light" else DARK
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, **webapp_overrides()) as bot:
        command = f"/newgame {games.ui(game).aliases[0]}"
        pages, table_id = await gather_on_pages(
            browser, bot, group, users, command, size, theme=colours
        )
        small = f"-{size['width']}" if size is SMALL else ""  # (docs/playing.md: the others)
        shot = shots(tmp_path) / f"{game}{small}-{theme}.png"
        taps = await play_deal_by_taps(bot, users, pages, table_id, quick_move, shot)
        assert taps >= players and shot.exists()
        await synced(bot, pages, table_id)
        for page in pages:  # the result on every page (a pulya's next deal: a tap away)
            await page.wait_for_selector('#result:not([hidden]), button[data-open="lastdeal"]')
        assert await bot.service.storage.check() == []


# Every card put on the felt or drawn flying, as the page draws it: its classes and the
# animations its style runs (recorded as each is added, before any animation ends).
WATCH = """() => {
  window.__flights = [];
  const seen = new WeakSet();
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (!node.querySelectorAll) continue;
      const cards = node.matches(".card.laid") ? [node] : [...node.querySelectorAll(".card.laid")];
      for (const card of cards) {
        if (seen.has(card) || card.closest(".sub")) continue;  // (not the last trick's view)
        seen.add(card);
        window.__flights.push({ code: card.dataset.code, taken: card.classList.contains("taken"),
          animation: getComputedStyle(card).animationName });
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


async def test_a_card_flies_in_and_a_trick_to_its_taker_unless_motion_is_reduced(
    tg: FakeTelegram, tmp_path: Path, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card played flies from its seat to the middle and a trick taken flies to its taker (CSS
    animations); a player whose system asks for reduced motion sees the cards laid and taken
    with no animation at all."""
    toy_game.register(monkeypatch)  # two cards a trick: every second card takes one
    group, users = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=2, **webapp_overrides()) as bot:
        for user in users:
            await user.start()
        await users[0].send(group, "/newgame toy")
        await bot.idle()
        lobby = lobby_message(tg, group)
        moving = await live(await open_from(browser, bot, users[0], lobby))
        still = await live(await open_from(browser, bot, users[1], lobby, motion="reduce"))
        pages = [moving, still]
        await tap(still, await press_of(still, "j:"))
        await bot.idle()
        await tap(moving, await press_of(moving, "s:"))
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        await synced(bot, pages, table.table_id)
        for page in pages:
            await page.evaluate(WATCH)
        taps = await play_deal_by_taps(bot, users, pages, table.table_id, any_move)
        assert taps == 4  # two tricks of two cards
        flown: list[dict[str, Any]] = await moving.evaluate("window.__flights")
        laid = [f for f in flown if not f["taken"]]
        taken = [f for f in flown if f["taken"]]
        # each trick's first card flies in and lies on the felt (drawn again, it lies still); the
        # second flies in over it and the two fly to the taker
        assert [f["code"] for f in laid if f["animation"] == "fly-in"] == [
            f["code"] for f in taken[::2]
        ], flown
        assert len(taken) == 4 and all("fly-out" in f["animation"] for f in taken), flown
        assert sum("fly-in" in f["animation"] for f in taken) == 2, flown
        seen: list[dict[str, Any]] = await still.evaluate("window.__flights")
        assert seen and not [f for f in seen if f["taken"] or f["animation"] != "none"], seen


async def test_a_stranger_and_a_stale_page_are_told_in_their_language(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    group, users = make_players(tg, 2)
    stranger = tg.user(77, "Мэллори", language_code="ru")  # not in the group
    async with running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot:
        await users[0].start()
        await users[0].send(group, "/newgame frap")
        await bot.idle()
        lobby = lobby_message(tg, group)
        page = await open_from(browser, bot, stranger, lobby)  # a forwarded link
        await page.wait_for_selector('body[data-state="refused"]')
        assert await page.evaluate("document.documentElement.lang") == "ru"
        text = await page.text_content("#refusal") or ""
        assert "«Friends»" in text and "Попросите" in text
        assert await page.locator("button").count() == 0
        await felt(page, "notificationOccurred", "error")
        old = await open_from(browser, bot, users[1], lobby, auth_date=1_000_000)
        await old.wait_for_selector('body[data-state="refused"]')
        assert "снова откройте стол" in (await old.text_content("#refusal") or "")


async def test_p8_a_finished_deals_review_is_stepped_through_on_the_page(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """The rigged Preferans deal played out; Boris opens the page from the table's button, the
    last deal's result shows every hand and its "Review", which steps through the deal card by
    card: his A♥ on the first trick marked with the trick it gave away, a best card marked best;
    a trick jumped to and a step back."""
    from tests.test_bot_review import _preferans

    async with running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot:
        users = await _preferans(bot, "en")
        group = tg.world.chats[GROUP_ID]
        page = await live(await open_from(browser, bot, users[1], lobby_message(tg, group)))
        await page.locator('button[data-open="lastdeal"]').click()
        await page.wait_for_selector("#lastdeal:not([hidden]) .hands")
        hands = await page.text_content("#lastdeal .hands") or ""
        # the declarer's discard, named as the chat's result names it: not "Your discard" to
        # a player whose discard it is not
        assert "Discard8♣" in hands.replace(" ", "") and "Your discard" not in hands
        await page.locator("#lastdeal button.review-open").click()
        review = page.locator("#review")
        await page.wait_for_selector('#review:not([hidden])[data-at="0"]')
        await review.locator('button[data-go="forward"]').click()
        await page.wait_for_selector('#review[data-at="1"]')
        played = review.locator("figure.weighed.played")
        assert await played.locator(".card").get_attribute("data-code") == "AH"
        assert "tricks given away: 1" in (await played.text_content() or "")
        assert "best" in (await review.locator("figure.weighed.best").first.text_content() or "")
        assert " tricks" in (await review.locator("figure.weighed").first.text_content() or "")
        summary = await review.locator(".review-summary li").all_text_contents()
        assert len(summary) == 3 and any("A♥, trick 1" in line for line in summary), summary
        assert await review.locator(".review-trick .card").get_attribute("data-code") == "JS"
        await picture(page, shots(tmp_path) / "review.png")
        # the next deal is dealt already (a pulya): the table has no next step to take here
        assert await review.locator("button.again").count() == 0
        await review.locator('button[data-trick="2"]').click()
        await page.wait_for_selector('#review[data-at="3"]')
        assert await review.locator('.card[data-code="AH"]').count() == 0  # played: gone
        await review.locator('button[data-go="back"]').click()
        await page.wait_for_selector('#review[data-at="2"]')
        await page.evaluate("window.__telegram.back()")
        await page.wait_for_selector("#review", state="hidden")


@pytest.mark.parametrize("version", ["8.0", "7.7"], ids=["secondary-button", "older-client"])
async def test_at_a_result_the_review_is_on_telegrams_secondary_button(
    tg: FakeTelegram, tmp_path: Path, browser: Browser, version: str
) -> None:
    """The rigged Napoleon deal played out; Bob opens the page from the result's button: the
    next deal on Telegram's main button and, beside it, the review on the secondary one (Bot API
    7.10), not a second time on the page; a tap on it opens the review, which hides it until
    Telegram's BackButton closes the review. An older client has no secondary button: the
    result keeps the page's own "Review"."""
    from tests.test_bot_review import _napoleon

    async with running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot:
        users = await _napoleon(bot, "en")
        group = tg.world.chats[GROUP_ID]
        result = next(m for m in reversed(bot_messages(tg, group)) if "n:" in str(m.buttons))
        page = await live(await open_from(browser, bot, users[1], result, version=version))
        await page.wait_for_selector('body[data-main^="n:"]')
        await page.wait_for_selector("#result.sheet .head")
        own = page.locator("#result button.review-open")
        secondary = "window.__telegram.secondaryText()"
        if version == "7.7":
            assert await page.evaluate(secondary) is None
            assert await calls(page, "SecondaryButton.show") == 0
            await own.click()
        else:
            assert await page.evaluate(secondary) == "🔍 Review"
            assert await calls(page, "SecondaryButton.setParams") == 1  # left of the main one
            assert await own.count() == 0
            assert await page.evaluate("window.__telegram.secondary()")
            await felt(page, "impactOccurred", "light")
        await page.wait_for_selector('#review:not([hidden])[data-at="0"]')
        assert await page.evaluate(secondary) is None
        await page.evaluate("window.__telegram.back()")
        await page.wait_for_selector("#review", state="hidden")
        assert await page.evaluate(secondary) == (None if version == "7.7" else "🔍 Review")
        assert await page.evaluate("window.__telegram.mainText()") == "🃏 Next deal"


# Where each card of the review's trick lies: the seat it was laid toward, the plate whose
# direction from the trick's middle is nearest the card's.
TOWARD = """() => [...document.querySelectorAll("#review .felt .trick .card.laid")].map((card) => {
  const middle = (n) => { const r = n.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [cx, cy] = middle(card.parentElement);
  const [x, y] = middle(card);
  const plates = [...document.querySelectorAll("#review .felt .seat")];
  const cos = (n) => { const [a, b] = middle(n);
    return ((a - cx) * (x - cx) + (b - cy) * (y - cy)) / Math.hypot(a - cx, b - cy)
      / Math.max(Math.hypot(x - cx, y - cy), 1e-9); };
  const toward = plates.reduce((a, b) => (cos(b) > cos(a) ? b : a));
  return [card.dataset.code, card.dataset.seat, toward.dataset.seat];
})"""

# The review's felt within the screen's width: no plate over another, none cut off at the side.
REVIEW_FITS = """() => {
  const wrong = [];
  const felt = document.querySelector("#review .felt");
  if (felt.scrollWidth > felt.clientWidth + 1) wrong.push(`felt ${felt.scrollWidth}px wide`);
  const boxes = [...felt.querySelectorAll(".seat")].map((n) => n.getBoundingClientRect());
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
        && b.top < a.bottom - 0.5) wrong.push(`plates ${i} overlap`);
  }));
  for (const node of felt.querySelectorAll(".seat, .card, figure")) {
    const r = node.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5) wrong.push(`${node.className} off screen`);
  }
  return wrong;
}"""


@pytest.mark.parametrize(
    ("lang", "theme", "size"),
    [("ru", "light", PHONE), ("ru", "dark", PHONE), ("en", "light", WINDOW)],
    ids=["phone-light", "phone-dark", "window"],
)
async def test_a_review_replays_the_deal_on_the_felt_and_plays_again(
    tg: FakeTelegram,
    tmp_path: Path,
    browser: Browser,
    lang: str,
    theme: str,
    size: dict[str, int],
) -> None:
    """The rigged Napoleon deal played out; Bob opens the page from the result's button and its
    review, a step on: the deal on a felt, each seat's plate with the cards it still holds, the
    trick so far (Alice's 10♦) laid toward her, Bob's legal cards labelled with the tricks they
    give, his 6♦ with the trick it gave away; "play again" closes the review and deals the
    next deal."""
    from tests.test_bot_review import _napoleon

    colours = LIGHT if theme == "light" else DARK
    async with running_bot(tg, tmp_path / "db.sqlite3", **webapp_overrides()) as bot:
        users = await _napoleon(bot, lang)
        group = tg.world.chats[GROUP_ID]
        result = next(m for m in reversed(bot_messages(tg, group)) if "n:" in str(m.buttons))
        page = await live(await open_from(browser, bot, users[1], result, size, theme=colours))
        await page.wait_for_selector('body[data-main^="n:"]')
        if size is WINDOW:
            await picture(page, shots(tmp_path) / "napoleon-result-desktop.png")
        assert await page.evaluate("window.__telegram.secondary()")
        review = page.locator("#review")
        await page.wait_for_selector('#review:not([hidden])[data-at="0"]')
        await review.locator('button[data-go="forward"]').click()
        await page.wait_for_selector('#review[data-at="1"]')
        felt = review.get_by_role("region")
        for user in users:  # each seat a plate named by its player, on the review's felt
            assert await felt.get_by_role("group", name=user.first_name).count() == 1
        assert await page.evaluate(TOWARD) == [["TD", "0", "0"]]  # toward Alice, who led it
        held = felt.locator('.seat[data-seat="0"] .cards .card')
        assert await held.count() == 4  # her 10♦ is on the felt, not in her hand
        assert await felt.locator('.seat[data-seat="0"] .card[data-code="TD"]').count() == 0
        mover = felt.locator(".seat.to-act")
        assert await mover.get_attribute("data-seat") == "1"
        weighed = mover.locator("figure.weighed")
        unit = " взят" if lang == "ru" else " trick"
        assert await weighed.count() >= 1
        for i in range(await weighed.count()):
            assert unit in (await weighed.nth(i).locator("figcaption").text_content() or "")
        played = mover.locator("figure.weighed.played")
        assert await played.locator(".card").get_attribute("data-code") == "6D"
        cost = "отдано взяток: 1" if lang == "ru" else "tricks given away: 1"
        assert cost in (await played.text_content() or "")
        assert await mover.locator("figure.weighed.best").count() >= 1
        assert not await page.evaluate(REVIEW_FITS)
        await laid_out(page)  # no text under 11 px, the review's too
        name = {PHONE["width"]: f"review-{theme}.png", WINDOW["width"]: "review-desktop.png"}
        await picture(page, shots(tmp_path) / name[size["width"]])
        again = review.locator("button.again")
        assert await again.text_content() == ("▶️ Сыграть ещё" if lang == "ru" else "▶️ Play again")
        point = await again.evaluate(VISIBLE_POINT)
        assert point is not None
        async with page.expect_response(lambda r: "/api/press" in r.url) as answer:
            await page.mouse.click(*point)
        assert (await answer.value).status == 200
        await page.wait_for_selector("#review", state="hidden")
        table = await bot.service.storage.tables.open_table(GROUP_ID)
        assert table is not None
        await synced(bot, [page], table.table_id)
        running = bot.service.find(table.table_id)
        assert running is not None and running.row.deal_no == 2 and running.in_deal
        assert str(await page.evaluate("document.body.dataset.step")).startswith("2:")
        if size is WINDOW:
            await picture(page, shots(tmp_path) / "napoleon-next-desktop.png")


async def test_a_silent_bot_is_told_and_its_clock_stops(
    tg: FakeTelegram, tmp_path: Path, browser: Browser
) -> None:
    """A bot that hangs with the page's socket open (its answers to the page's pings held
    back), then one that is killed: within 5 s the page says it is reconnecting and its clock
    stands still; when the bot answers again the notice goes."""
    hung = False

    async def channel(route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        route.on_message(lambda said: None if hung and said == "ping" else server.send(said))

    group, users = make_players(tg, 3)
    web = {**webapp_overrides(), "turn_timeout": 90}
    async with running_bot(tg, tmp_path / "db.sqlite3", **web) as bot:
        await open_table(bot, group, users, "/newgame frap")
        lobby = lobby_message(tg, group)
        page = await live(await open_from(browser, bot, users[0], lobby, socket=channel))
        await page.wait_for_function("() => document.getElementById('clock').textContent !== ''")
        assert await page.is_hidden("#link")
        hung = True
        await page.wait_for_selector("#link:not([hidden])", timeout=5_000)
        clock = await page.text_content("#clock")
        await page.wait_for_timeout(1_500)
        assert await page.text_content("#clock") == clock  # the clock stopped
        assert "Переподключение" in (await page.text_content("#link") or "")
        hung = False
        await page.wait_for_selector("#link", state="hidden", timeout=5_000)
    await page.wait_for_selector("#link:not([hidden])", timeout=5_000)  # the bot is gone
    await page.context.close()
