"""A Preferans pulya through storage, the presenter and the fake Bot API (issue 15): presses of
the buttons the players see, every step stored, chips moved once at the end (P14, P16 × the
whist price, per chat balances plus pot zero), the sheet one photo edited after each deal, at
most 3 new group messages per deal, a restart resuming pulya and deal, /stopgame mid-pulya."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bot import callbacks
from bot.api import FrapBot
from bot.games import preferans as pref
from bot.games.preferans_match import default_action
from bot.games.preferans_service import SETTLEMENT, PulyaService, PulyaTable
from bot.presenter import Presenter
from bot.service import Refusal
from bot.storage import Storage, TableRow
from engine.preferans.actions import PrefAction
from tests.fakebot import FakeTelegram
from tests.fakebot.models import FakeUser

GROUP = -100900
NAMES = ("Alice", "Bob", "Carol", "Dave")


@dataclass
class World:
    tg: FakeTelegram
    storage: Storage
    presenter: Presenter
    service: PulyaService
    users: list[FakeUser]


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="frapbot") as server:
        yield server
    await asyncio.sleep(0)


async def _world(tg: FakeTelegram, db: Path, players: int, seed: int) -> AsyncIterator[World]:
    storage = await Storage.open(str(db))
    async with FrapBot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
        presenter = Presenter(bot, storage)
        await presenter.load()
        users = [tg.world.users[1000 + i] for i in range(players)]
        yield World(
            tg, storage, presenter, PulyaService(storage, presenter, random.Random(seed)), users
        )
        await presenter.close(5)
    await storage.close()


async def _seated(tg: FakeTelegram, db: Path, players: int, price: int) -> TableRow:
    """Users who started the bot, a chat with its Preferans settings, a lobby with them."""
    group = tg.group(GROUP, "Friends")
    # Random moves play a deal in milliseconds; people take minutes, far below 20 a minute.
    tg.group_limit = 10_000
    storage = await Storage.open(str(db))
    for i in range(players):
        user = tg.user(1000 + i, NAMES[i], language_code="en")
        group.add(user, creator=i == 0)
        await user.start()
        await storage.touch_user(user.id, NAMES[i], None, "en")
        await storage.set_user(user.id, started=1)
    await storage.chat(GROUP, "Friends")
    await storage.set_chat(GROUP, rules={"preferans": {"target": 10, "whist_price": price}})
    row = await storage.create_table(GROUP, "preferans", 1000)
    assert row is not None
    row = replace(row, seats=tuple(1000 + i for i in range(players)))
    await storage.save_table(row)
    await storage.close()
    return row


def _press(world: World, table: PulyaTable, action: PrefAction) -> tuple[int, callbacks.Press]:
    """The press of the button showing `action` on the deciding player's private message."""
    deal = table.match.deal
    assert deal is not None and deal.controller is not None
    uid = table.row.seats[deal.controller]
    message = world.tg.last(world.tg.world.users[uid].dm)
    code = pref.action_code(action)
    for _, data in message.buttons:
        press = callbacks.decode(data)
        if press.code == code and press.kind == "a":
            return uid, press
    raise AssertionError(f"no button {code} on {message}")


async def _play(
    world: World, table: PulyaTable, rng: random.Random, deals: int, *, look: bool = True
) -> None:
    """Press buttons (random legal ones, or the timer's) until `deals` more deals are over;
    `look`: press only buttons found on the deciding player's message (else build the same
    press directly: a long pulya over HTTP would take minutes)."""
    start = table.match.sheet.deals
    while table.match.deal is not None and table.match.sheet.deals < start + deals:
        deal = table.match.deal
        action = default_action(deal) if rng.random() < 0.3 else None
        action = action or rng.choice(deal.legal_actions())
        seat = deal.controller
        assert seat is not None
        if action.cards:  # P5: two toggles, then the confirming button
            for k in (1, 2):
                code = callbacks.cards_code(action.cards[:k])
                press = callbacks.Press(
                    "t", table.row.table_id, table.row.deal_no, table.step, code
                )
                await world.service.toggle(table.row.seats[seat], press)
        if look:
            await world.presenter.flush()
            uid, press = _press(world, table, action)
        else:
            uid = table.row.seats[seat]
            code = pref.action_code(action)
            press = callbacks.Press("a", table.row.table_id, table.row.deal_no, table.step, code)
        await world.service.act(uid, press)


async def _ledger_zero(storage: Storage) -> list[tuple[int | None, int, int, str]]:
    rows = await storage.ledger_rows(GROUP)
    chat = await storage.chat(GROUP)
    assert sum(balance for _, balance in await storage.balances(GROUP)) + chat.pot == 0
    return rows


@pytest.mark.parametrize("players", [3, 4])  # P1: with 4, the dealer sits out each deal
async def test_a_pulya_to_10_is_played_to_its_settlement(
    tg: FakeTelegram, tmp_path: Path, players: int
) -> None:
    row = await _seated(tg, tmp_path / "db", players, price=2)
    async for world in _world(tg, tmp_path / "db", players, seed=players):
        table = await world.service.start(row)
        rng = random.Random(players)
        while table.match.deal is not None:
            assert table.match.sheet.deals < 200
            await _play(world, table, rng, 1, look=table.match.sheet.deals < 2)
            if table.match.deal is not None:
                assert await _ledger_zero(world.storage) == []  # no chips move before the end
        await world.presenter.flush()
        match = table.match
        assert match.sheet.finished and table.row.table_id not in world.service.tables
        rows = await _ledger_zero(world.storage)
        assert {reason for *_, reason in rows} == {SETTLEMENT}
        booked = {uid: amount for _, uid, amount, _ in rows}
        expected = dict(zip(table.row.seats, match.chips(), strict=True))
        assert booked == {uid: c for uid, c in expected.items() if c}
        assert all(c == 2 * w for c, w in zip(match.chips(), match.balances(), strict=True))
        [sheet] = [m for m in tg.messages(GROUP) if m.photo]  # one photo, edited per deal
        assert sheet.edits == match.sheet.deals - 1
        group = [m for m in tg.messages(GROUP) if m.from_bot]
        assert len(group) <= 3 * match.sheet.deals  # issue 15: at most 3 per deal
        lang = (await world.storage.chat(GROUP)).lang
        settle = pref.settlement_lines(lang, match.names, match.balances(), 2, stopped=False)
        assert any(m.html.endswith(settle[-1]) for m in group)
        assert not tg.errors


async def test_a_restart_mid_pulya_resumes_pulya_and_deal(tg: FakeTelegram, tmp_path: Path) -> None:
    row = await _seated(tg, tmp_path / "db", 3, price=1)
    rng = random.Random(8)
    async for world in _world(tg, tmp_path / "db", 3, seed=8):
        table = await world.service.start(row)
        await _play(world, table, rng, 2)
        for _ in range(5):  # a few moves into the third deal
            assert table.match.deal is not None
            await world.service.apply(table, rng.choice(table.match.deal.legal_actions()))
        before, saved = table.match, table.row
    async for world in _world(tg, tmp_path / "db", 3, seed=9):
        stored = await world.storage.table(saved.table_id)
        assert stored is not None
        table = await world.service.resume(stored)
        assert table.match == before and table.row.deal_no == saved.deal_no
        await _play(world, table, rng, 1)
        assert table.match.sheet.deals == before.sheet.deals + 1
        assert not tg.errors


async def test_stopgame_mid_pulya_voids_the_deal_and_settles_with_the_top_up(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    row = await _seated(tg, tmp_path / "db", 3, price=5)
    rng = random.Random(12)
    async for world in _world(tg, tmp_path / "db", 3, seed=12):
        table = await world.service.start(row)
        await _play(world, table, rng, 2)
        assert table.match.deal is not None
        await world.service.apply(table, table.match.deal.legal_actions()[0])
        sheet = table.match.sheet
        await world.service.stop(table.row.table_id)
        await world.presenter.flush()
        rows = await _ledger_zero(world.storage)
        assert sum(amount for _, _, amount, _ in rows) == 0
        booked = {uid: amount for _, uid, amount, _ in rows}
        chips = [5 * w for w in sheet.balances()]  # P14: the top-up is in the balances
        assert booked == {uid: c for uid, c in zip(table.row.seats, chips, strict=True) if c}
        deals = await world.storage.table_deals(table.row.table_id)
        assert [d.status for d in deals] == ["finished", "finished", "voided"]
        with pytest.raises(Refusal):
            await world.service.stop(table.row.table_id)
        assert not tg.errors
