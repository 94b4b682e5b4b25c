"""What a move costs the bot: which messages it edits, what it keeps, what it reads."""

from __future__ import annotations

import random
from pathlib import Path

from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    action_buttons,
    bot_messages,
    control_message,
    make_players,
    open_table,
    play_deal,
    running_bot,
    table_of,
)
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.models import StoredMessage

WAIT = "Ждите своего хода"


def _movers(tg: FakeTelegram, users: list[FakeUser]) -> list[FakeUser]:
    """The players whose control message asks for a move."""
    return [
        user
        for user in users
        if (message := control_message(tg, user)) is not None
        and (
            any(not data.endswith(":L") for _, data in action_buttons(message))
            or "Ваш ход" in message.text  # F7: the dark declarer looks first
        )
    ]


def _moves(message: StoredMessage) -> list[tuple[str, str]]:
    buttons = action_buttons(message)
    return [b for b in buttons if not b[1].endswith(":L")] or buttons


def _edits(messages: list[StoredMessage]) -> list[int]:
    return [message.edits for message in messages]


async def test_a_move_edits_the_table_and_only_the_movers_private_messages(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 4)
    rng = random.Random(5)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5) as bot:
        await open_table(bot, group, users)
        table = bot_messages(tg, group)[-1]
        hands = [control_message(tg, user) for user in users]
        assert all(hand is not None for hand in hands)
        moves = waiting_edits = 0
        seen_trick = False
        while movers := _movers(tg, users):
            (mover,) = movers
            before = _edits(hands)  # type: ignore[arg-type]
            table_before = table.edits
            message = control_message(tg, mover)
            assert message is not None and WAIT not in message.text
            seen_trick |= "Взятка" in message.text  # the player to move sees the trick
            _, data = rng.choice(_moves(message))
            await mover.press(message, data=data)
            await bot.idle()
            moves += 1
            if "сдача №1" not in table.text or "Сдача окончена" in table.text:
                break  # the deal ended (a result, or F8's redeal)
            private = data.startswith("t:") or data.endswith(":L")  # marking cards, looking
            assert table.edits - table_before <= (0 if private else 1)  # one edit, if any
            after = _edits(hands)  # type: ignore[arg-type]
            for user, hand, was, now in zip(users, hands, before, after, strict=True):
                assert hand is not None
                if user is mover or user in _movers(tg, users) or "Сдача окончена" in table.text:
                    continue
                assert WAIT in hand.text and "Взятка" not in hand.text, hand.text
                waiting_edits += now - was
        assert moves > 10 and seen_trick
        # A waiting player's message changes only with what he holds: the turn-up taken, the
        # play beginning (his trick count), a trick he wins; never with each move of the others.
        assert waiting_edits <= 3 * len(users), (waiting_edits, moves)


async def test_a_look_button_stays_valid_while_others_move(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """F7: looking does not depend on the position, so a waiting player's message is not
    edited as others bid, and its look button still works."""
    async with table_of(tg, tmp_path, 4, seed=3) as (bot, _group, users):
        (mover,) = _movers(tg, users)
        waiting = next(u for u in users if u is not mover)
        hand = control_message(tg, waiting)
        assert hand is not None and "Ваши карты закрыты" in hand.text
        look = next(data for _, data in action_buttons(hand) if data.endswith(":L"))
        edits = hand.edits
        message = control_message(tg, mover)
        assert message is not None
        pass_ = next(data for _, data in action_buttons(message) if data.endswith(":P"))
        await mover.press(message, data=pass_)
        await bot.idle()
        assert hand.edits == edits or waiting in _movers(tg, users)
        await waiting.press(hand, data=look)
        await bot.idle()
        assert "Ваши карты:" in hand.text


async def _slot_names(bot: RunningBot) -> set[str]:
    presenter = bot.service.presenter
    await presenter.save()
    stored = set(await bot.service.storage.messages.message_slots())
    assert stored == set(presenter._slots), "the database and memory disagree"
    return stored


async def test_finished_deals_leave_no_message_slots_behind(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    rng = random.Random(4)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        await open_table(bot, group, users)
        for _ in range(3):
            await play_deal(bot, users, rng)
            result = bot_messages(tg, group)[-1]
            next_button = next(d for _, d in result.buttons if d and d.startswith("n:"))
            await users[0].press(result, data=next_button)
            await bot.idle()
        deal_no = bot.service.find(1).row.deal_no  # type: ignore[union-attr]
        assert deal_no >= 4
        names = await _slot_names(bot)
        assert names == {f"table:1:{deal_no}"} | {f"hand:1:{u.id}" for u in users}
        # one control message per player for all the deals: each deal edits it
        assert [len([m for m in bot_messages(tg, u) if "🃏" in m.text]) for u in users] == [1] * 3
        await users[0].send(group, "/stopgame")
        await bot.idle()
        assert await _slot_names(bot) == set()
        # the stopped deal's messages still show it stopped, and nothing was posted twice
        assert "Игра остановлена" in control_message(tg, users[0]).text  # type: ignore[union-attr]


async def test_the_chat_row_is_cached_and_follows_every_write(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 3)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=6) as bot:
        storage = bot.service.storage
        await open_table(bot, group, users)
        reads = 0
        original = storage.jobs.query_one

        async def counted(*args: object) -> object:
            nonlocal reads
            reads += 1
            return await original(*args)  # type: ignore[arg-type]

        storage.jobs.query_one = counted  # type: ignore[method-assign]
        presses = await play_deal(bot, users, random.Random(6))
        # the chat row is read again only after chips moved (the settlement), not per press
        assert reads <= 1 < presses
        storage.jobs.query_one = original  # type: ignore[method-assign]

        async def fresh() -> object:
            storage.jobs.forget_chats()
            return await storage.chats.chat(GROUP_ID)

        cached = await storage.chats.chat(GROUP_ID)
        assert cached == await fresh()  # the pot after the deal's chips moved
        await storage.chats.set_chat(GROUP_ID, ante=7)
        assert (await storage.chats.chat(GROUP_ID)).ante == 7
        assert await storage.chats.chat(GROUP_ID) == await fresh()
