"""Players who wander off, block the bot or press twice; lobbies nobody starts; tables
stopped mid-deal; one seat per user and chat."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.games.family.table import deal as deal_of
from bot.service import AWAY_AFTER
from bot.table import seating
from engine.actions import Action
from engine.ai import rules_player, seat_knowledge
from engine.defaults import default_action
from engine.record import replay, start
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    make_players,
    open_table,
    play_deal,
    push_callback,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage


def _data(message: StoredMessage, prefix: str) -> str:
    return next(d for _, d in message.buttons if d and d.startswith(prefix))


def _offered(tg: FakeTelegram, user: FakeUser) -> dict[str, str]:
    """The action codes on the user's control message → their callback data."""
    message = control_message(tg, user)
    return {} if message is None else {d.rsplit(":", 1)[1]: d for _, d in action_buttons(message)}


async def _until(bot: RunningBot, done: Callable[[], object], timeout: float, step=None) -> None:  # type: ignore[no-untyped-def]
    """Let the bot run (and `step` act) until `done()`; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        if step is not None:
            await step()
        await asyncio.sleep(0.05)


def _table_texts(tg: FakeTelegram, deal_no: int = 1) -> list[str]:
    """Every text the group's table message of a deal has shown."""
    table = next(m for m in bot_messages(tg, tg.chat(GROUP_ID)) if f"сдача №{deal_no}" in m.text)
    return [*table.history, table.text]


def _result_posted(tg: FakeTelegram) -> bool:
    return any(
        d and d.startswith("n:") for m in bot_messages(tg, tg.chat(GROUP_ID)) for _, d in m.buttons
    )


def _db(tmp_path: Path) -> sqlite3.Connection:
    return closing(sqlite3.connect(tmp_path / "db.sqlite3"))  # type: ignore[return-value]


# ---- AFK ----------------------------------------------------------------------------------------


async def test_a_deal_finishes_through_timers_when_two_players_stop_acting(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 4)
    rng = random.Random(4)
    async with running_bot(
        tg, tmp_path / "db.sqlite3", seed=4, turn_timeout=1, away_delay=0.05
    ) as bot:
        await open_table(bot, group, users)
        order: list[FakeUser] = []
        for code in ("F", "W", "W", "P"):  # the first to speak fraps, the next two whist
            mover = next(u for u in users if code in _offered(tg, u) and u not in order)
            order.append(mover)
            await mover.press(control_message(tg, mover), data=_offered(tg, mover)[code])  # type: ignore[arg-type]
            await bot.idle()
        declarer, afk, passer = order[0], order[1:3], order[3]

        async def active_players_move() -> None:
            for user in (declarer, passer):
                moves = [d for c, d in _offered(tg, user).items() if c != "L"]
                if moves:
                    await user.press(control_message(tg, user), data=rng.choice(moves))  # type: ignore[arg-type]
                    await bot.idle()

        await _until(bot, lambda: _result_posted(tg), 30, active_players_move)
        await bot.idle()
        texts = "\n".join(_table_texts(tg))
        for user in afk:  # the group was told: a time-out, then "away"
            assert f"⏰ {user.first_name}" in texts and f"💤 {user.first_name}" in texts, texts
        live = bot.service.find(1)
        assert live is not None and set(live.row.away) == {u.id for u in afk}
        # the moves made for them: the engine's default at each of the two time-outs, then,
        # away, the rules level's
        deal_row = await bot.service.storage.tables.current_deal(1)
        assert deal_row is not None and deal_row.status == "finished"
        made_for = {deal_row.seats.index(u.id): 0 for u in afk}
        deal = start(deal_row.record)
        steps = 0
        for entry in deal_row.record["actions"]:
            action = Action.from_record(entry, deal.WORDS)
            steps += action.do != "look"
            if action.seat in made_for and steps > 4 and action.do != "look":  # after bidding
                made_for[action.seat] += 1
                if made_for[action.seat] <= AWAY_AFTER:
                    expected = default_action(deal)
                else:
                    expected = rules_player(seat_knowledge(deal, action.seat), random.Random())
                assert action == expected, (action, expected)
            deal, _ = deal.apply(action)
        assert sum(made_for.values()) >= 4
        assert await bot.service.storage.check() == []

        # next deal: they sit out, until one of them presses any of his buttons again
        result = bot_messages(tg, group)[-1]
        await declarer.press(result, data=_data(result, "n:"))
        await bot.idle()
        back = afk[0]
        message = control_message(tg, back)
        assert message is not None
        shown = [  # his buttons so far; the bot has moved for him since
            b["callback_data"]
            for call in tg.log
            if call.params.get("chat_id") == str(back.id)
            for row in (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
            for b in row
            if b.get("callback_data", "")[:2] in ("a:", "t:")
        ]
        query = push_callback(tg, back, message, shown[-1])
        await bot.idle()
        answer = tg.callback_answer(query)
        assert answer is not None
        assert back.id not in live.row.away and afk[1].id in live.row.away
        with _db(tmp_path) as db:
            (away,) = db.execute("SELECT away FROM tables WHERE table_id = 1").fetchone()
        assert json.loads(away) == [afk[1].id]
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


async def test_a_table_nobody_deals_on_closes_after_the_idle_time(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """After a result, nobody presses "next deal": after LOBBY_TIMEOUT the table closes, the
    result loses its next-deal button (its review's stays), and the chat can open a new table."""
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=8, lobby_timeout=2) as bot:
        await open_table(bot, group, users)
        await play_deal(bot, users, random.Random(8))
        with _db(tmp_path) as sql:  # the expiry is stored: a restart keeps it
            ((deadline,),) = sql.execute("SELECT deadline FROM tables").fetchall()
        assert deadline is not None
        result = bot_messages(tg, group)[-1]
        assert any(d and d.startswith("n:") for _, d in result.buttons)
    async with running_bot(tg, db, seed=8, lobby_timeout=2) as bot:
        await _until(bot, lambda: bot.service.find(1) is None, 10)
        await bot.idle()
        assert "следующую сдачу так и не начали" in bot_messages(tg, group)[-1].text
        assert [d[:2] for _, d in result.buttons] == ["r:"]
        await users[0].send(group, "/newgame")
        await bot.idle()
        assert bot.service.find(2) is not None
    assert tg.errors == []


async def test_a_table_where_everyone_is_away_stops_instead_of_redealing_forever(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    # nobody ever presses: passes by timer, F8 redeals
    async with table_of(tg, tmp_path, 2, turn_timeout=1, away_delay=0.05) as (bot, group, _):
        await _until(bot, lambda: bot.service.find(1) is None, 30)
        await bot.idle()
        assert "никто не играет" in bot_messages(tg, group)[-1].text
        with _db(tmp_path) as db:
            assert db.execute("SELECT status FROM tables").fetchall() == [("closed",)]
            statuses = db.execute("SELECT status FROM deals ORDER BY deal_id").fetchall()
        assert statuses[-1] == ("finished",) and len(statuses) <= 2
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_timers_survive_a_restart(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    other = tg.group(-100501, "Others", members=users)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, turn_timeout=2, lobby_timeout=3) as bot:
        await open_table(bot, group, users)
        await users[0].send(other, "/newgame")  # a lobby nobody starts
        await bot.idle()
    with _db(tmp_path) as sql:
        deadlines = dict(sql.execute("SELECT status, deadline FROM tables").fetchall())
    assert deadlines["playing"] and deadlines["lobby"]  # both stored in SQLite
    async with running_bot(tg, db, turn_timeout=2, lobby_timeout=3) as bot:
        await _until(bot, lambda: any("⏰" in t for t in _table_texts(tg)), 8)
        await _until(bot, lambda: bot.service.find(2) is None, 8)
        await bot.idle()
        lobby = bot_messages(tg, other)[0]
        assert "игру так и не начали" in lobby.text and not lobby.buttons
    assert tg.errors == []


# ---- blocked players ----------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["my_chat_member", "403 only"])
async def test_a_player_who_blocks_the_bot_mid_deal(
    tg: FakeTelegram, tmp_path: Path, how: str
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(9)
    async with running_bot(
        tg, tmp_path / "db.sqlite3", seed=9, turn_timeout=60, away_delay=0.05
    ) as bot:
        await open_table(bot, group, users)
        blocker = users[1]
        if how == "403 only":
            blocker.blocked = True  # the bot learns it only from a 403 to its next message
        else:
            tg.block(blocker)
        await bot.idle()

        async def others_move(players: list[FakeUser], prefer: str = "") -> None:
            for user in players:
                offered = _offered(tg, user)
                moves = [d for c, d in offered.items() if c != "L"]
                if moves:
                    data = offered.get(prefer) or rng.choice(moves)
                    await user.press(control_message(tg, user), data=data)  # type: ignore[arg-type]
                    await bot.idle()
                    return

        live = bot.service.find(1)
        assert live is not None and deal_of(live) is not None
        seat = live.deal_seats.index(blocker.id)

        def moved_for_him() -> bool:
            assert deal_of(live) is not None
            return any(a.seat == seat and a.do != "look" for a in deal_of(live).actions)

        await _until(bot, moved_for_him, 20, lambda: others_move([users[0], users[2]], "P"))
        await bot.idle()
        notices = [m for m in bot_messages(tg, group) if "не может написать" in m.text]
        assert len(notices) == 1 and "Bob" in notices[0].text  # the group is told once
        assert "https://t.me/frapbot?start=hand" in notices[0].html
        assert not deal_of(live).finished
        posted = len(bot_messages(tg, blocker))
        tg.unblock(blocker)
        await blocker.start("hand")  # the deep link brings the cards back
        await bot.idle()
        assert len(bot_messages(tg, blocker)) == posted  # posted anew, the old copy deleted
        hand = bot_messages(tg, blocker)[-1]
        assert hand is control_message(tg, blocker) and "Ваши карты" in hand.text
        assert not seating.plays_itself(live, blocker.id)  # he plays himself again
        await _until(bot, lambda: _result_posted(tg), 30, lambda: others_move(users))
        assert await bot.service.storage.check() == []
    # only the 403 that told the bot (and perhaps one already on its way)
    assert all(e.status == 403 and e.params["chat_id"] == str(blocker.id) for e in tg.errors)
    assert len(tg.errors) <= (0 if how == "my_chat_member" else 2), tg.errors
    assert tg.unanswered_callbacks() == []


# ---- double presses -----------------------------------------------------------------------------


async def test_concurrent_double_presses_apply_once(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=6) as bot:
        for user in users:
            await user.start()
        await users[0].send(group, "/newgame")
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        # Bob: the Join button twice, /join and the deep link, all at once
        await users[1].press(lobby, data=_data(lobby, "j:"))
        await users[1].press(lobby, data=_data(lobby, "j:"))
        await users[1].send(group, "/join")
        await users[1].start("j1")
        await users[2].press(lobby, data=_data(lobby, "j:"))
        await bot.idle()
        live = bot.service.find(1)
        assert live is not None and live.row.seats == (users[0].id, users[1].id, users[2].id)
        # the Start button twice and /startgame
        await users[0].press(lobby, data=_data(lobby, "s:"))
        await users[0].press(lobby, data=_data(lobby, "s:"))
        await users[0].send(group, "/startgame")
        await bot.idle()
        assert live.row.deal_no == 1
        # every move button pressed twice at once, until the deal ends
        while not _result_posted(tg):
            mover = next(u for u in users if [c for c in _offered(tg, u) if c != "L"])
            message = control_message(tg, mover)
            assert message is not None
            offered = _offered(tg, mover)
            code = [c for c in ("F", "W", "b", "n") if c in offered]
            code += [c for c in offered if c[:1] in "pxy"]  # a card
            code = code[0]
            step = live.step
            await mover.press(message, data=offered[code])
            await mover.press(message, data=offered[code])
            await bot.idle()
            # The press before the last trick plays that trick too (one card each)
            deal = deal_of(live)
            forced = len(deal.tricks_played[-1]) if deal is not None and deal.finished else 0
            assert live.step == step + 1 + forced
        # the Next-deal button pressed by two players at once: one new deal
        result = bot_messages(tg, group)[-1]
        await users[1].press(result, data=_data(result, "n:"))
        await users[2].press(result, data=_data(result, "n:"))
        await bot.idle()
        assert live.row.deal_no == 2
        with _db(tmp_path) as db:
            assert db.execute("SELECT COUNT(*) FROM deals").fetchone() == (2,)
        assert await bot.service.storage.check() == []
        # settings buttons pressed twice by an admin: one page turn, the rule moves one step
        await users[0].send(group, "/settings")
        await bot.idle()
        menu = bot_messages(tg, group)[-1]
        await users[0].press(menu, data="c:p:frap")
        await users[0].press(menu, data="c:p:frap")
        await bot.idle()
        menu = bot_messages(tg, group)[-1]
        await users[0].press(menu, data="c:o:frap:pen")
        await users[0].press(menu, data="c:o:frap:pen")
        await bot.idle()
        chat = await bot.service.storage.chats.chat(GROUP_ID)
        assert chat.rules["frap"] == {"penalties": "flat"}
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


# ---- stuck tables and rights --------------------------------------------------------------------


async def test_a_lobby_nobody_starts_closes_itself(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 2)
    async with running_bot(tg, tmp_path / "db.sqlite3", lobby_timeout=1) as bot:
        await users[0].start()
        await users[0].send(group, "/newgame")
        await bot.idle()
        await _until(bot, lambda: bot.service.find(1) is None, 5)
        await bot.idle()
        lobby = bot_messages(tg, group)[0]
        assert "игру так и не начали" in lobby.text and not lobby.buttons
        await users[0].send(group, "/newgame")  # the chat is free for a new table
        await bot.idle()
        assert bot.service.find(2) is not None
    assert tg.errors == []


async def test_one_table_per_chat_and_one_seat_per_user(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        await open_table(bot, group, users[:2])
        await users[2].start()
        await users[2].send(group, "/newgame")
        await users[0].send(group, "/join")
        await bot.idle()
        texts = [m.text for m in bot_messages(tg, group)[-2:]]
        assert any("уже есть стол" in t for t in texts) and any("уже за столом" in t for t in texts)
        live = bot.service.find(1)
        assert live is not None and live.row.seats == (users[0].id, users[1].id)
        with _db(tmp_path) as db:
            assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (1,)
    assert tg.errors == []


async def test_stopgame_mid_deal_needs_rights_and_voids_by_reversal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    admin = tg.user(1500, "Admin")
    group.add(admin, admin=True)
    await admin.start()
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=2) as bot:
        await open_table(bot, group, users)
        await play_deal(bot, users, random.Random(2))
        await users[0].send(group, "/settings")  # antes every deal: the voided one moves chips
        await bot.idle()
        await users[0].press(bot_messages(tg, group)[-1], data="c:p:frap")
        await bot.idle()
        await users[0].press(bot_messages(tg, group)[-1], data="c:o:frap:am")
        await bot.idle()
        storage = bot.service.storage
        balances_before = {u.user_id: b for u, b in await storage.money.balances(GROUP_ID)}
        pot_before = (await storage.chats.chat(GROUP_ID)).pot
        result = next(m for m in bot_messages(tg, group) if "Итог" in m.text)
        await users[1].press(result, data=_data(result, "n:"))
        await bot.idle()
        ledger_mid_deal = await storage.money.ledger_rows(GROUP_ID)
        await users[1].send(group, "/stopgame")  # neither the table's creator nor an admin
        await bot.idle()
        assert "создатель стола или администратор" in bot_messages(tg, group)[-1].text
        assert bot.service.find(1) is not None
        assert await storage.money.ledger_rows(GROUP_ID) == ledger_mid_deal
        await admin.send(group, "/stopgame")
        await bot.idle()
        assert "отменена" in bot_messages(tg, group)[-1].text
        assert bot.service.find(1) is None
        ledger = await storage.money.ledger_rows(GROUP_ID)
        assert ledger[: len(ledger_mid_deal)] == ledger_mid_deal  # reversed, not deleted
        reversal = ledger[len(ledger_mid_deal) :]
        assert reversal and all(reason == "void" for *_, reason in reversal)
        deal_id = ledger_mid_deal[-1][0]
        assert all(d == deal_id for d, *_ in reversal)
        assert {u.user_id: b for u, b in await storage.money.balances(GROUP_ID)} == balances_before
        assert (await storage.chats.chat(GROUP_ID)).pot == pot_before
        deal = await storage.tables.deal(deal_id)  # type: ignore[arg-type]
        assert deal is not None and deal.status == "voided"
        replay(deal.record)
        assert await storage.check() == []
    with _db(tmp_path) as db, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM ledger WHERE reason = 'void'")
    assert tg.errors == []
