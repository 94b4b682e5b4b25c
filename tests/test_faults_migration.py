"""A basic group that Telegram turns into a supergroup in the middle of a deal keeps its
table, chips and history under the new chat id — whichever signal comes first (the service
messages, or a call refused with migrate_to_chat_id), each of them twice, and across a restart."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.games.family.table import deal as deal_of
from tests.bot_harness import (
    NAMES,
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser

OLD_ID = -4_500_500  # a basic group's id
NEW_ID = -1_004_500_500  # the supergroup's


def basic_group(tg: FakeTelegram, n: int) -> tuple[FakeChat, list[FakeUser]]:
    """A basic group of `n` players (the first is its creator)."""
    group = tg.basic_group(OLD_ID, "Friends")
    users = [tg.user(1000 + i, NAMES[i]) for i in range(n)]
    for i, user in enumerate(users):
        group.add(user, creator=i == 0)
    return group, users


async def move(bot: RunningBot, users: list[FakeUser], rng: random.Random) -> None:
    """The player whose turn it is presses one of his legal buttons in his private chat."""
    for user in users:
        message = control_message(bot.tg, user)
        buttons = [d for _, d in action_buttons(message)] if message else []
        moves = [d for d in buttons if not d.endswith(":L")] or buttons
        if message is not None and moves:
            await user.press(message, data=rng.choice(moves))
            await bot.idle()
            return
    raise AssertionError("nobody can move")


@dataclass(frozen=True)
class Before:
    """What the chat had just before the group became a supergroup."""

    pot: int
    balances: dict[int, int]
    ledger: int
    deal_no: int
    old_messages: list[tuple[int, str, int]]


async def before(bot: RunningBot, group: FakeChat) -> Before:
    storage = bot.service.storage
    live = bot.service.table_in(OLD_ID)
    assert live is not None and live.in_deal
    return Before(
        (await storage.chats.chat(OLD_ID)).pot,
        {u.user_id: b for u, b in await storage.money.balances(OLD_ID)},
        len(await storage.money.ledger_rows(OLD_ID)),
        live.row.deal_no,
        old_messages(bot.tg, group),
    )


def old_messages(tg: FakeTelegram, group: FakeChat) -> list[tuple[int, str, int]]:
    return [(m.message_id, m.text, m.edits) for m in bot_messages(tg, group)]


def tables(tg: FakeTelegram, chat: FakeChat, deal_no: int) -> int:
    """How many table messages of deal `deal_no` the bot posted in `chat`."""
    return sum(f"сдача №{deal_no}" in m.text for m in bot_messages(tg, chat))


async def assert_moved(bot: RunningBot, group: FakeChat, was: Before) -> None:
    """Everything of the group is the supergroup's; the table shows there once; the old group's
    messages are as they were."""
    storage = bot.service.storage
    new = bot.tg.chat(NEW_ID)
    assert await storage.chats.chat_moves() == {OLD_ID: NEW_ID}
    assert (
        await storage.money.ledger_rows(OLD_ID) == [] and await storage.money.balances(OLD_ID) == []
    )
    sql = "SELECT chat_id FROM chats WHERE chat_id IN (?, ?)"
    rows = await storage.jobs.query(sql, (OLD_ID, NEW_ID))
    assert [r["chat_id"] for r in rows] == [NEW_ID]
    assert (await storage.chats.chat(NEW_ID)).pot == was.pot
    assert {u.user_id: b for u, b in await storage.money.balances(NEW_ID)} == was.balances
    assert len(await storage.money.ledger_rows(NEW_ID)) == was.ledger
    live = bot.service.table_in(NEW_ID)
    assert live is not None and live.row.chat_id == NEW_ID and live.row.deal_no == was.deal_no
    assert tables(bot.tg, new, was.deal_no) == 1  # re-posted there, once
    assert old_messages(bot.tg, group) == was.old_messages  # nothing sent or edited there
    assert await storage.check() == []


async def play_on(bot: RunningBot, users: list[FakeUser], rng: random.Random) -> None:
    """The deal goes on in the supergroup (from the players' private messages) to its result,
    and the next deal is dealt there from the result's button."""
    new = bot.tg.chat(NEW_ID)
    await play_deal(bot, users, rng)
    result = bot_messages(bot.tg, new)[-1]
    assert "Итог сдачи" in result.text
    data = next(d for _, d in result.buttons if d and d.startswith("n:"))
    live = bot.service.table_in(NEW_ID)
    assert live is not None
    await users[1].press(result, data=data)
    await bot.idle()
    assert tables(bot.tg, new, live.row.deal_no) == 1
    await users[1].send(new, "/balance")
    await bot.idle()
    assert "Здесь ещё никто не играл" not in bot_messages(bot.tg, new)[-1].text
    assert await bot.service.storage.check() == []


@pytest.mark.parametrize("first", ["service messages", "error"])
async def test_a_group_upgraded_mid_deal_plays_on_in_the_supergroup(
    tg: FakeTelegram, tmp_path: Path, first: str
) -> None:
    group, users = basic_group(tg, 3)
    rng = random.Random(5)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5) as bot:
        await open_table(bot, group, users)
        await move(bot, users, rng)
        was = await before(bot, group)
        calls = len(tg.log)
        tg.migrate(group, NEW_ID, by=users[0], announce=first == "service messages")
        await bot.idle()
        if first == "error":
            assert bot.service.storage.chats.moves == {}  # nothing told the bot yet
            await move(bot, users, rng)  # its table edit is refused: migrate_to_chat_id
            assert any("upgraded to a supergroup" in (c.description or "") for c in tg.errors)
        else:
            later = tg.log[calls:]
            assert not [c for c in later if c.params.get("chat_id") in (OLD_ID, str(OLD_ID))]
        await assert_moved(bot, group, was)
        for _ in range(2):  # both signals again, twice: nothing changes
            tg.announce_migration(group, by=users[0])
            await bot.idle()
            await assert_moved(bot, group, was)
        await play_on(bot, users, rng)


@pytest.mark.parametrize("announced", [False, True])
async def test_a_group_upgraded_while_the_bot_is_down(
    tg: FakeTelegram, tmp_path: Path, announced: bool
) -> None:
    """The group is upgraded while the bot is down: the restarted bot learns it from the service
    messages waiting in getUpdates, or else from its first call on the old id; one more
    restart and both signals again change nothing."""
    group, users = basic_group(tg, 3)
    db = tmp_path / "db.sqlite3"
    rng = random.Random(6)
    async with running_bot(tg, db, seed=6) as bot:
        await open_table(bot, group, users)
        await move(bot, users, rng)
        was = await before(bot, group)
    tg.migrate(group, NEW_ID, by=users[0], announce=announced)
    async with running_bot(tg, db, seed=7) as bot:
        await bot.idle()
        if not announced:
            assert bot.service.storage.chats.moves == {}
            await move(bot, users, rng)  # the table's edit is refused: migrate_to_chat_id
        await assert_moved(bot, group, was)
    tg.announce_migration(group, by=users[0])
    async with running_bot(tg, db, seed=8) as bot:
        await bot.idle()
        await assert_moved(bot, group, was)
        await play_on(bot, users, rng)


async def test_the_turn_timer_follows_the_table_to_the_supergroup(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A move nobody makes after the upgrade is made by the timer, and the supergroup is told."""
    group, users = basic_group(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5, turn_timeout=2) as bot:
        await open_table(bot, group, users)
        live = bot.service.table_in(OLD_ID)
        assert live is not None and deal_of(live) is not None
        step = live.step
        tg.migrate(group, NEW_ID, by=users[0])
        await bot.idle()
        await tg.wait_for(lambda: live.step > step, timeout=5)  # nobody pressed anything
        await bot.idle()
        table = next(m for m in bot_messages(tg, tg.chat(NEW_ID)) if "сдача №1" in m.text)
        assert "⏰" in table.text  # the time-out note, in the supergroup's table message
        assert "⏰" not in "".join(m.text for m in bot_messages(tg, group))
        assert await bot.service.storage.check() == []


async def test_leaving_the_old_group_on_an_upgrade_is_no_removal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """If the bot is told it left the basic group before it hears of the upgrade, the deal is
    not voided: the chat moves to the supergroup (getChat answers migrate_to_chat_id)."""
    group, users = basic_group(tg, 3)
    rng = random.Random(5)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5) as bot:
        await open_table(bot, group, users)
        await move(bot, users, rng)
        was = await before(bot, group)
        tg.migrate(group, NEW_ID, by=users[0], announce=False)
        tg.set_bot_status(group, "left", by=users[0])
        await bot.idle()
        await assert_moved(bot, group, was)
        live = bot.service.table_in(NEW_ID)
        assert live is not None and live.in_deal
        await play_on(bot, users, rng)
