"""Seats follow people — players who leave the group, go away or are stood up by an
admin; F8 redeals deal to the same players; a table whose creator stood up still runs."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.games.family.table import deal as deal_of
from tests.bot_harness import (
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage


def _offered(tg: FakeTelegram, user: FakeUser) -> dict[str, str]:
    """The action codes on the user's control message → their callback data."""
    message = control_message(tg, user)
    return {} if message is None else {d.rsplit(":", 1)[1]: d for _, d in action_buttons(message)}


async def _until(
    done: Callable[[], object], step: Callable[[], Awaitable[None]], timeout: float = 30
) -> None:
    """Let the bot run (and `step` act) until `done()`; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await step()
        await asyncio.sleep(0.05)


def _mover(bot: RunningBot, players: list[FakeUser], rng: random.Random, prefer: str = ""):  # type: ignore[no-untyped-def]
    """A step that makes one move for whichever of `players` may move (`prefer`'s code first)."""

    async def step() -> None:
        for user in players:
            offered = _offered(bot.tg, user)
            moves = moves_now(control_message(bot.tg, user))  # F7: a dark declarer looks first
            if moves:
                data = offered.get(prefer) or rng.choice(moves)
                await user.press(control_message(bot.tg, user), data=data)  # type: ignore[arg-type]
                await bot.idle()
                return

    return step


def _result(tg: FakeTelegram, group_id: int) -> StoredMessage | None:
    """The group's message with a "next deal" button, if one shows now."""
    for message in reversed(bot_messages(tg, tg.chat(group_id))):
        if any(d and d.startswith("n:") for _, d in message.buttons):
            return message
    return None


async def _next_deal(bot: RunningBot, user: FakeUser, group_id: int) -> None:
    result = _result(bot.tg, group_id)
    assert result is not None
    await user.press(result, data=next(d for _, d in result.buttons if d and d.startswith("n:")))
    await bot.idle()


async def _balance(bot: RunningBot, group_id: int, user: FakeUser) -> int:
    return dict((u.user_id, b) for u, b in await bot.service.storage.money.balances(group_id)).get(
        user.id, 0
    )


@pytest.mark.parametrize(
    ("game", "bot_status"),
    [("frap", "member"), ("frap", "administrator"), ("napoleon", "member")],
)
async def test_a_player_who_leaves_the_group_mid_deal_stands_up_at_its_end(
    tg: FakeTelegram, tmp_path: Path, game: str, bot_status: str
) -> None:
    """A member bot learns it from left_chat_member; an admin bot also from chat_member (one
    notice either way). His moves are made for him; he is not dealt the next deal."""
    group, users = make_players(tg, 3)
    group.bot_status = bot_status
    rng = random.Random(3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, away_delay=0.05) as bot:
        await open_table(bot, group, users, f"/newgame {game}")
        leaver, stay = users[2], users[:2]
        tg.member_leaves(group, leaver)
        await bot.idle()
        live = bot.service.find(1)
        assert live is not None and leaver.id in live.row.seats and leaver.id in live.row.leaving
        notices = [m for m in bot_messages(tg, group) if "больше не в группе" in m.text]
        assert len(notices) == 1 and leaver.first_name in notices[0].text
        await _until(lambda: _result(tg, group.id) is not None, _mover(bot, stay, rng))
        await bot.idle()
        assert live.row.seats == tuple(u.id for u in stay) and live.row.leaving == ()
        kept = await _balance(bot, group.id, leaver)
        await _next_deal(bot, stay[0], group.id)
        assert live.deal_seats == tuple(u.id for u in stay)
        assert await _balance(bot, group.id, leaver) == kept  # no ante from him
        assert await bot.service.storage.check() == []
    assert tg.errors == []


@pytest.mark.parametrize("game", ["frap", "napoleon"])
async def test_an_away_player_sits_out_until_he_sends_join(
    tg: FakeTelegram, tmp_path: Path, game: str
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(5)
    async with running_bot(
        tg, tmp_path / "db.sqlite3", seed=5, turn_timeout=1, away_delay=0.05
    ) as bot:
        await open_table(bot, group, users, f"/newgame {game}")
        idle, active = users[2], users[:2]
        live = bot.service.find(1)
        assert live is not None
        for _ in range(4):  # deals until he has timed out twice
            await _until(lambda: _result(tg, group.id) is not None, _mover(bot, active, rng, "F"))
            await bot.idle()
            if idle.id in live.row.away:
                break
            await _next_deal(bot, active[0], group.id)
        assert idle.id in live.row.away
        kept = await _balance(bot, group.id, idle)
        await _next_deal(bot, active[0], group.id)
        assert live.deal_seats == tuple(u.id for u in active)  # not dealt, no ante
        assert await _balance(bot, group.id, idle) == kept
        table = bot_messages(tg, group)[-1]
        assert "Без карт в этой сдаче: Carol" in table.text, table.text
        await idle.send(group, "/join")
        await bot.idle()
        assert "Carol снова в игре" in bot_messages(tg, group)[-1].text
        assert idle.id not in live.row.away and live.deal_seats == tuple(u.id for u in active)
        await _until(lambda: _result(tg, group.id) is not None, _mover(bot, active, rng))
        await _next_deal(bot, active[1], group.id)
        assert set(live.deal_seats) == {u.id for u in users}
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_a_late_comer_waits_through_the_all_pass_rounds_for_a_real_deal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """F8: a redeal is not a new deal — it deals to the players of the deal it replaces."""
    group, users = make_players(tg, 4)
    players, late = users[:3], users[3]
    rng = random.Random(7)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7) as bot:
        await late.start()
        await open_table(bot, group, players)
        live = bot.service.find(1)
        assert live is not None
        await late.send(group, "/join")
        await bot.idle()
        assert late.id in live.row.seats
        first = live.deal_seats
        await _until(
            lambda: deal_of(live) is not None and deal_of(live).redeal,
            _mover(bot, players, rng, "P"),
        )
        assert live.deal_seats == first and late.id not in live.deal_seats
        assert late.id in live.row.seats
        assert control_message(tg, late) is None  # no cards for him in the redeal
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_when_the_creator_stands_up_the_first_seated_player_runs_the_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 4)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        for user in users:
            await user.start()
        await users[0].send(group, "/newgame")
        await bot.idle()
        for user in users[1:3]:
            await user.send(group, "/join")
            await bot.idle()
        await users[0].send(group, "/leave")
        await bot.idle()
        await users[3].send(group, "/newgame")  # says who may close the open table
        await bot.idle()
        answer = bot_messages(tg, group)[-1].text
        assert "уже есть стол" in answer and "Bob" in answer and "Alice" not in answer, answer
        await users[2].send(group, "/startgame")  # Carol is not the first seated: refused
        await bot.idle()
        live = bot.service.find(1)
        assert live is not None and live.row.status == "lobby"
        await users[1].send(group, "/startgame")
        await bot.idle()
        assert live.row.status == "playing" and set(live.deal_seats) == {users[1].id, users[2].id}
    assert tg.errors == []


async def test_an_admin_stands_a_player_up_with_kick_as_a_reply(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(11)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=11, away_delay=0.05) as bot:
        await open_table(bot, group, users)
        target = users[1]
        said = await tg.user_sends(target, group, "brb")
        await tg.user_sends(users[2], group, "/kick", reply_to=said)  # not an admin
        await bot.idle()
        live = bot.service.find(1)
        assert live is not None and target.id not in live.row.leaving
        await tg.user_sends(users[0], group, "/kick", reply_to=said)  # the group's creator
        await bot.idle()
        assert target.id in live.row.leaving
        assert "админ поднимает игрока" in bot_messages(tg, group)[-1].text
        others = [users[0], users[2]]
        await _until(lambda: _result(tg, group.id) is not None, _mover(bot, others, rng))
        await bot.idle()
        assert target.id not in live.row.seats
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_a_leaver_stays_leaving_across_a_restart(tg: FakeTelegram, tmp_path: Path) -> None:
    """The stand-up waiting for the deal's end is stored with the table, not only in memory."""
    group, users = make_players(tg, 3)
    rng = random.Random(13)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=13, away_delay=0.05) as bot:
        await open_table(bot, group, users)
        tg.member_leaves(group, users[2])
        await bot.idle()
    async with running_bot(tg, db, seed=13, away_delay=0.05) as bot:
        live = bot.service.find(1)
        assert live is not None and live.row.leaving == (users[2].id,)
        await _until(lambda: _result(tg, group.id) is not None, _mover(bot, users[:2], rng))
        await bot.idle()
        assert live.row.seats == (users[0].id, users[1].id)
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_an_admin_stands_a_player_up_with_a_button(tg: FakeTelegram, tmp_path: Path) -> None:
    async with table_of(tg, tmp_path, 3, away_delay=0.05) as (bot, group, users):
        await users[0].send(group, "/kick")
        await bot.idle()
        pick = bot_messages(tg, group)[-1]
        data = next(d for text, d in pick.buttons if text == users[1].first_name)
        assert data is not None
        refused = await users[2].press(pick, data=data)  # not an admin
        await bot.idle()
        live = bot.service.find(1)
        assert live is not None and live.row.leaving == ()
        answer = tg.callback_answer(refused)
        assert answer is not None and answer.get("show_alert")
        await users[0].press(pick, data=data)
        await bot.idle()
        assert live.row.leaving == (users[1].id,)
        again = await users[0].press(pick, data=data)  # already leaving: said so
        await bot.idle()
        answer = tg.callback_answer(again)
        assert answer is not None and answer.get("show_alert")
    assert tg.errors == []
