"""Computer players through the fake Bot API: seated from the lobby, they play whole deals
beside people; a practice table in a private chat, a restart with a computer's move pending, and
an away player played by the rules level; the same at a Preferans pulya (a match of many deals
played by its own service)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot import computer
from bot.games.family.table import deal as deal_of
from bot.games.preferans import action_code as pref_code
from bot.games.preferans.table import pulya
from bot.service import OpenTable
from bot.storage import DealRow
from engine.actions import Do
from engine.ai import pref_knowledge, rules_player, seat_knowledge
from engine.defaults import default_action
from engine.preferans import record as pref_record
from engine.preferans.actions import PrefAction
from engine.preferans.deal import PrefDeal
from engine.preferans.match import default_action as pref_default
from engine.record import replay, start
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    running_bot,
    with_button,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage
from tests.fakebot.models import FakeChat
from tests.test_bot_preferans import _control as pref_control
from tests.test_bot_preferans import _press as pref_press
from tests.test_bot_preferans import _settled as pref_settled

SPAN = computer.SPAN
QUICK = {"computer_pause_min": 0.0, "computer_pause_max": 0.01}


def _data(message: StoredMessage, prefix: str) -> str:
    return next(d for _, d in message.buttons if d and d.startswith(prefix))


async def _group_lobby(
    bot: RunningBot, group: FakeChat, users: list[FakeUser], command: str
) -> StoredMessage:
    """Everyone opens the bot, the first opens a table with `command`, the others sit down."""
    for user in users:
        await user.start()
    await users[0].send(group, command)
    await bot.idle()
    lobby = bot_messages(bot.tg, group)[-1]
    for user in users[1:]:
        await user.press(lobby, data=_data(lobby, "j:"))
        await bot.idle()
    return lobby


async def _lobby_with_computers(
    bot: RunningBot, chat: FakeChat, opener: FakeUser, levels: list[str]
) -> StoredMessage:
    """The opener presses a lobby's "+🤖" button per level; the lobby as it is then."""
    lobby = bot_messages(bot.tg, chat)[-1]
    for level in levels:
        await opener.press(
            lobby, data=_data(lobby, f"m:{_lobby_id(lobby)}:{computer.ORDER.index(level)}")
        )
        await bot.idle()
    return lobby


def _lobby_id(lobby: StoredMessage) -> str:
    return _data(lobby, "s:").split(":")[1]


async def _play_deal(
    bot: RunningBot, live: OpenTable, users: list[FakeUser], rng: random.Random
) -> int:
    """People press random legal buttons, computer players move by themselves, until the deal
    ends (an F8 redeal goes on); how many moves the computer players made in the deal that
    finished (read off its actions: a computer often moves while the harness waits for quiet)."""
    by_id = {user.id: user for user in users}
    for _ in range(600):
        await bot.idle()
        deal = deal_of(live)
        assert deal is not None
        if deal.finished:
            return sum(computer.is_computer(live.deal_seats[a.seat]) for a in deal.actions)
        assert deal.to_act is not None
        mover = live.deal_seats[deal.to_act]
        if computer.is_computer(mover):
            await bot.tg.wait_for(lambda deal=deal: deal_of(live) is not deal, timeout=30)
            continue
        person = by_id[mover]
        moves = await bot.tg.wait_for(lambda p=person: moves_now(control_message(bot.tg, p)))
        message = control_message(bot.tg, person)
        assert message is not None
        await person.press(message, data=rng.choice(moves))
    raise AssertionError("the deal did not end")


def _no_message_to_computers(tg: FakeTelegram) -> None:
    sends = [c for c in tg.log if c.method.lower() in ("sendmessage", "sendphoto", "senddocument")]
    targets = {int(c.params["chat_id"]) for c in sends}
    # a computer player's id is -101…-399 (groups' ids are far below): never a chat written to
    assert not {target for target in targets if -SPAN * (len(computer.ORDER) + 1) < target < 0}
    assert not tg.errors, [(c.method, c.description) for c in tg.errors]


async def test_computer_seats_play_whole_deals_beside_people(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """F1–F16 with a Novice and a Master seated from the lobby: they move by themselves
    (the Master's search in a worker process), own balances like anyone, are told nothing."""
    group, users = make_players(tg, 2)
    rng = random.Random(3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3, **QUICK) as bot:
        lobby = await _group_lobby(bot, group, users, "/newgame frap")
        query = await users[1].press(lobby, data=_data(lobby, f"m:{_lobby_id(lobby)}:0"))
        await bot.idle()
        answer = tg.callback_answer(query)
        assert answer is not None and "создатель" in answer["text"]  # only the creator seats one
        lobby = await _lobby_with_computers(bot, group, users[0], ["random", "strong"])
        assert "🤖 Новичок" in lobby.text and "🤖 Мастер" in lobby.text
        await users[0].press(lobby, data=_data(lobby, "s:"))
        live = bot.service.table_in(GROUP_ID)
        assert live is not None
        for deal_no in (1, 2):
            assert await _play_deal(bot, live, users, rng) > 0  # the computer players moved
            if deal_no == 1:  # the result's "next deal" (under load it may follow the idle)
                result = await tg.wait_for(lambda: with_button(bot_messages(tg, group), "n:"))
                await users[0].press(result, data=_data(result, "n:"))
        assert live.row.deal_no >= 2
        second = await tg.wait_for(
            lambda: (m := with_button(bot_messages(tg, group), "n:")) is not result and m
        )  # the second deal's result; the message before it, its table
        messages = bot_messages(tg, group)
        assert "🤖 Мастер" in messages[messages.index(second) - 1].text
        await users[0].send(group, "/balance")
        await bot.idle()
        balance = bot_messages(tg, group)[-1].text
        assert "🤖 Новичок" in balance and "🤖 Мастер" in balance
        assert await bot.service.storage.check() == []  # balances plus pots zero, ledger agrees
        _no_message_to_computers(tg)


async def test_a_practice_table_in_private_plays_against_computers(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """/newgame in a private chat: the player alone with computer players, the table and his
    cards in that chat without repeating each other, its chips apart from the group's."""
    _, (alice, bob) = make_players(tg, 2)
    rng = random.Random(5)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5, **QUICK) as bot:
        await alice.start()
        await bob.start()
        await alice.send(alice.dm, "/newgame khrap")
        await bot.idle()
        lobby = bot_messages(tg, alice)[-1]
        assert "Тренировочный стол" in lobby.text
        assert not [d for _, d in lobby.buttons if d and d[:2] in ("j:", "l:")]
        await bob.start(f"j{_lobby_id(lobby)}")  # someone else's deep link: refused
        await bot.idle()
        assert "чужой тренировочный стол" in bot_messages(tg, bob)[-1].text
        lobby = bot_messages(tg, alice)[-1]  # three Amateurs sit down with her at once
        assert "Alice, 🤖 Любитель, 🤖 Любитель 2, 🤖 Любитель 3" in lobby.text
        await alice.press(lobby, data=_data(lobby, "m:"))  # "+🤖 Новичок"
        await alice.press(lobby, data=_data(lobby, f"m:{_lobby_id(lobby)}:-"))
        await bot.idle()
        assert "Alice, 🤖 Любитель, 🤖 Любитель 2, 🤖 Любитель 3\n" in lobby.text
        await alice.press(lobby, data=_data(lobby, "s:"))
        live = bot.service.table_in(alice.id)
        assert live is not None
        await _play_deal(bot, live, [alice], rng)
        table = next(m for m in bot_messages(tg, alice) if "сдача №1" in m.text and "🃏" in m.text)
        hand = control_message(tg, alice)
        assert hand is not None and hand is not table
        assert not any(url for _, url in table.buttons if url)  # no "my cards" link: they are here
        assert "сдача №" not in hand.text and "Банк" not in hand.text  # the table says those
        shown = tg.messages(alice.dm, include_deleted=True)  # a turn ping deletes the old one
        said = [text for m in shown if m.from_bot for text in (*m.history, m.text)]
        assert any("⏳ Ждите своего хода." in text for text in said)  # no group here
        assert not any("в группе" in text for text in said)
        storage = bot.service.storage
        practice = {user.user_id: bal for user, bal in await storage.money.balances(alice.id)}
        amateurs = {computer.seat_id("rules", k) for k in (1, 2, 3)}
        assert set(practice) == {alice.id, *amateurs}
        assert await storage.money.balances(GROUP_ID) == []
        assert await storage.league.results(alice.id) == []  # practice: the league rates nothing
        assert await storage.check() == []
        _no_message_to_computers(tg)


async def test_a_computer_move_pending_at_a_restart_is_made_after_it(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A restart while a computer player thinks: the resumed table schedules its move again;
    when the people stand up, the table closes."""
    group, users = make_players(tg, 2)
    db = tmp_path / "db.sqlite3"
    slow = {"computer_pause_min": 30.0, "computer_pause_max": 30.0}
    async with running_bot(tg, db, seed=7, **slow) as bot:
        lobby = await _group_lobby(bot, group, users, "/newgame")
        await _lobby_with_computers(bot, group, users[0], ["rules"])
        await users[0].press(lobby, data=_data(lobby, "s:"))
        await bot.idle()
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and deal_of(live) is not None
        rng = random.Random(7)
        while not computer.is_computer(live.deal_seats[deal_of(live).to_act or 0]):
            mover = next(u for u in users if u.id == live.deal_seats[deal_of(live).to_act or 0])
            message = control_message(tg, mover)
            await mover.press(message, data=rng.choice(moves_now(message)))
            await bot.idle()
        steps = len(deal_of(live).actions)
    async with running_bot(tg, db, seed=7, **QUICK) as bot:
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and deal_of(live) is not None
        await tg.wait_for(lambda: len(deal_of(live).actions) > steps, timeout=10)
        await _play_deal(bot, live, users, rng)
        for user in users:  # the people stand up: a table of computer players alone closes
            await user.send(group, "/leave")
            await bot.idle()
        assert bot.service.table_in(GROUP_ID) is None
        assert "остались одни компьютерные игроки" in "\n".join(
            m.text for m in bot_messages(tg, group)
        )
        assert await bot.service.storage.check() == []
        _no_message_to_computers(tg)


async def test_an_away_player_is_played_by_the_rules_level(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """After two time-outs (the safe default) the bot plays an away player's seat
    with the rules level, not the default (seed 24: a deal where the two differ)."""
    _, (alice,) = make_players(tg, 1)
    settings: dict[str, Any] = {**QUICK, "turn_timeout": 1, "away_delay": 0}
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=24, **settings) as bot:
        await alice.start()
        await alice.send(alice.dm, "/newgame napoleon")  # N: every seat plays every trick
        await bot.idle()
        lobby = bot_messages(tg, alice)[-1]
        for _ in range(3):  # the three Amateurs seated at a practice table stand up for Novices
            await alice.press(lobby, data=_data(lobby, f"m:{_lobby_id(lobby)}:-"))
            await bot.idle()
        lobby = await _lobby_with_computers(bot, alice.dm, alice, ["random", "random", "random"])
        await alice.press(lobby, data=_data(lobby, "s:"))
        live = bot.service.table_in(alice.id)
        assert live is not None
        await tg.wait_for(lambda: deal_of(live) is not None and deal_of(live).finished, timeout=20)
        seat = live.deal_seats.index(alice.id)
        assert alice.id in live.row.away
        record = deal_of(live).to_record()
    deal, hers = start(record), []
    for action in replay(record).actions:
        if action.seat == seat and action.do is not Do.LOOK:
            hers.append((deal, action))
        deal, _ = deal.apply(action)
    _played_for_away(hers, default_action, lambda before: seat_knowledge(before, seat))


def _played_for_away(
    hers: list[tuple[Any, Any]], default: Callable[[Any], Any], knows: Callable[[Any], Any]
) -> None:
    """A player's decisions (the deal before each, his action): two time-outs made by the safe
    `default`, then, once away, the rules level on what his seat `knows`, which is not the
    default at least once."""
    assert len(hers) >= 3
    for before, action in hers[:2]:
        assert action == default(before)  # timed out: the safe default
    away = hers[2:]
    for before, action in away:
        assert action == rules_player(knows(before), random.Random())
    assert any(action != default(before) for before, action in away)


def test_computer_ids_are_negative_per_level_and_named_with_the_mark() -> None:
    """No Telegram user id (positive) nor the evening's pot (0) can be a computer player's."""
    ids = [computer.seat_id(level, k) for level in computer.ORDER for k in (1, 2, 99)]
    assert len(set(ids)) == len(ids) and all(uid < 0 for uid in ids)
    assert [computer.level_of(computer.seat_id(lv, 7)) for lv in computer.ORDER] == list(
        computer.ORDER
    )
    first = computer.next_seat("strong", [1000, computer.seat_id("rules", 1)])
    second = computer.next_seat("strong", [1000, first])
    assert (computer.name("ru", first), computer.name("en", second)) == ("🤖 Мастер", "🤖 Master 2")
    assert not computer.is_computer(0) and not computer.is_computer(1000)


# ---- Preferans (a pulya: a match of many deals played by its own service) ----------------------


def _pulya_table(bot: RunningBot, chat_id: int) -> OpenTable:
    live = bot.service.table_in(chat_id)
    assert live is not None and live.play is not None
    return live


async def _pref_lobby(bot: RunningBot, alice: FakeUser, levels: list[str]) -> int:
    """Alice alone in the group with computer players of `levels` at a pulya to 10; the table."""
    await bot.service.storage.chats.chat(GROUP_ID, "Friends")
    await bot.service.storage.chats.set_chat(GROUP_ID, rules={"preferans": {"target": 10}})
    await alice.start()
    group = bot.tg.chat(GROUP_ID)
    await alice.send(group, "/newgame preferans")
    await bot.idle()
    lobby = await _lobby_with_computers(bot, group, alice, levels)
    await alice.press(lobby, data=_data(lobby, "s:"))
    await bot.idle()
    return _pulya_table(bot, GROUP_ID).row.table_id


def _pref_decisions(deals: list[DealRow], seat: int) -> list[tuple[PrefDeal, PrefAction]]:
    """Every decision `seat` made in these stored Preferans deals, each with the deal before
    it (P7: the controller decides, in light play a passer's cards too)."""
    decisions = []
    for stored in deals:
        deal = pref_record.start(stored.record)
        for action in pref_record.replay(stored.record).actions:
            if deal.controller == seat:
                decisions.append((deal, action))
            deal, _ = deal.apply(action)
    return decisions


async def _pref_step(bot: RunningBot, alice: FakeUser, rng: random.Random) -> bool:
    """One move at the pulya: Alice's by the rules level through her buttons (a discard by its
    two toggles), or a wait for the computer player due; False once the table is closed."""
    live = bot.service.table_in(GROUP_ID)
    if live is None:
        return False
    deal = pulya(live).deal
    assert deal is not None and deal.controller is not None
    if computer.is_computer(live.deal_seats[deal.controller]):
        await bot.tg.wait_for(lambda: pulya(live).deal is not deal, timeout=30)
        await bot.idle()
        return True
    await bot.tg.wait_for(lambda: pref_control(bot.tg, alice).buttons)  # the deal is shown
    await pref_press(bot, [alice], rules_player(pref_knowledge(deal, deal.controller), rng))
    return True


async def test_p14_a_preferans_table_with_two_computer_players_plays_whole_deals(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Computer players at a pulya: an Amateur and a Master seated from the lobby bid, whist,
    discard and play by themselves (P4–P13; the Master's search in a worker process), are told
    nothing; /stopgame after three deals books P16's settlement to the computers too."""
    _, (alice,) = make_players(tg, 1, lang="en")
    rng = random.Random(11)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=11, **QUICK) as bot:
        table_id = await _pref_lobby(bot, alice, ["rules", "strong"])
        live = _pulya_table(bot, GROUP_ID)
        master, amateur = computer.seat_id("strong", 1), computer.seat_id("rules", 1)
        assert set(live.deal_seats) == {alice.id, master, amateur}
        while pulya(live).sheet.deals < 3:
            assert await _pref_step(bot, alice, rng)
        await alice.send(tg.chat(GROUP_ID), "/stopgame")
        await bot.idle()
        assert bot.service.table_in(GROUP_ID) is None
        settled = await pref_settled(bot, table_id, price=1)
        assert settled.sheet.deals == 3 and any(settled.balances())
        deals = await bot.service.storage.tables.table_deals(table_id)
        seat = deals[0].seats.index(amateur)
        decided = _pref_decisions(deals, seat)  # the Amateur's: the rules level on its knowledge
        assert len(decided) >= 3
        for deal, action in decided:
            assert action == rules_player(pref_knowledge(deal, seat), random.Random())
        _no_message_to_computers(tg)


async def test_p1_a_practice_pulya_seats_two_amateurs_and_resumes_a_pending_move(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """/newgame preferans in private: P1's table of three, the player and two Amateurs; a
    restart while a computer player thinks: the resumed pulya schedules its move again."""
    _, (alice,) = make_players(tg, 1, lang="en")
    db = tmp_path / "db.sqlite3"
    slow = {"computer_pause_min": 30.0, "computer_pause_max": 30.0}
    async with running_bot(tg, db, seed=8, **slow) as bot:
        await alice.start()
        await alice.send(alice.dm, "/newgame preferans")
        await bot.idle()
        lobby = bot_messages(tg, alice)[-1]
        assert "Alice, 🤖 Amateur, 🤖 Amateur 2\n" in lobby.text
        await alice.press(lobby, data=_data(lobby, "s:"))
        await bot.idle()
        live = _pulya_table(bot, alice.id)
        deal = pulya(live).deal
        while deal is not None and live.deal_seats[deal.controller or 0] == alice.id:
            action = pref_default(deal)  # she passes: the word goes round to a computer
            assert action is not None
            message = control_message(tg, alice)
            assert message is not None
            code = ":" + pref_code(action)
            await alice.press(message, data=next(d for _, d in message.buttons if d.endswith(code)))
            await bot.idle()
            deal = pulya(live).deal
        assert deal is not None and computer.is_computer(live.deal_seats[deal.controller or 0])
        before = (live.row.deal_no, live.step)
    async with running_bot(tg, db, seed=8, **QUICK) as bot:
        live = _pulya_table(bot, alice.id)  # the move is made (its 30 s pause never ran out)
        await tg.wait_for(lambda: (live.row.deal_no, live.step) != before, timeout=10)
        await alice.send(alice.dm, "/stopgame")
        await bot.idle()
        assert bot.service.table_in(alice.id) is None
        balances = await bot.service.storage.money.balances(alice.id)
        chat = await bot.service.storage.chats.chat(alice.id)
        assert sum(balance for _, balance in balances) + chat.pot == 0
        _no_message_to_computers(tg)


async def test_an_away_preferans_player_is_played_by_the_rules_level(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """An away player at a pulya: two time-outs (the safe default: pass, the lowest card) mark the
    player away, and from then on the rules level decides for him on his seat's knowledge."""
    _, (alice,) = make_players(tg, 1, lang="en")
    settings: dict[str, Any] = {**QUICK, "turn_timeout": 1, "away_delay": 0}
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=9, **settings) as bot:
        await alice.start()
        await alice.send(alice.dm, "/newgame preferans")
        await bot.idle()
        lobby = bot_messages(tg, alice)[-1]
        await alice.press(lobby, data=_data(lobby, "s:"))
        await bot.idle()
        live = _pulya_table(bot, alice.id)
        await tg.wait_for(lambda: pulya(live).sheet.deals >= 2, timeout=30)
        assert alice.id in live.row.away
        seat = live.deal_seats.index(alice.id)
        deals = await bot.service.storage.tables.table_deals(live.row.table_id)
        await alice.send(alice.dm, "/stopgame")
        await bot.idle()
    hers = _pref_decisions(deals[:2], seat)
    _played_for_away(hers, pref_default, lambda before: pref_knowledge(before, seat))
