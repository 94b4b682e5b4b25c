"""Napoleon through the bot and the fake Bot API: scripted hands for napoleon made and
failed, a dealer's "here", the exchange; random deals of 2–6 players; a restart mid-deal; the
treasure kept apart from the other games' pots (docs/rules.md N1–N7). What every game goes
through (a restart, /stopgame, forged presses, the lobby): tests/test_every_game.py."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.chat import lines as render
from bot.games.family import render as family_render
from bot.storage import DealRow
from engine.actions import Action, Do
from engine.cards import Card, make_deck
from engine.napoleon import NapoleonDeal
from engine.record import replay
from engine.views import table_view
from locales import SEPARATOR
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
from tests.fakebot import FakeTelegram, FakeUser

ANTE = 10  # the chat's default ante: c and u unless /settings says otherwise (N1, N5)


class Rigged(random.Random):
    """The bot's only chance, scripted: each shuffle lays out the next given deck (top card
    first) and the first dealer is the first seat."""

    def __init__(self, decks: Sequence[Sequence[Card]]) -> None:
        super().__init__(0)
        self.decks = [list(deck) for deck in decks]

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """The next scripted deck (a real shuffle once they are used up)."""
        if self.decks:
            x[:] = self.decks.pop(0)
        else:
            super().shuffle(x)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        """F2's first dealer: seat 0."""
        return 0


def deck_for(hands: Sequence[str], dealer: int, stock: Sequence[str] = ()) -> list[Card]:
    """A 36-card deck that deals `hands` (seat by seat, five codes each) from the dealer's left
    one card at a time (N1); the stock starts with `stock`, then the rest."""
    parsed = [[Card.parse(code) for code in hand.split()] for hand in hands]
    n = len(parsed)
    deck = [parsed[(dealer + 1 + k) % n][r] for r in range(5) for k in range(n)]
    top = [Card.parse(code) for code in stock]
    used = set(deck) | set(top)
    return deck + top + [card for card in make_deck(36) if card not in used]


def labels(tg: FakeTelegram, user: FakeUser) -> list[str]:
    """The labels of the action buttons on the user's control message."""
    message = control_message(tg, user)
    assert message is not None
    return [text for text, _ in action_buttons(message)]


async def press(bot: RunningBot, user: FakeUser, label: str) -> None:
    """Press the action button labelled `label` in the user's private chat."""
    message = control_message(bot.tg, user)
    assert message is not None
    data = next((d for text, d in action_buttons(message) if text == label), None)
    assert data is not None, (label, labels(bot.tg, user))
    await user.press(message, data=data)
    await bot.idle()


def mover(tg: FakeTelegram, users: Sequence[FakeUser]) -> FakeUser | None:
    """The one player who has action buttons now, if any."""
    movers = [u for u in users if control_message(tg, u) and labels(tg, u)]
    assert len(movers) <= 1
    return movers[0] if movers else None


async def play_out(
    bot: RunningBot, users: Sequence[FakeUser], script: dict[int, list[str]], rng: random.Random
) -> None:
    """Play to the end: a scripted player presses his next label, the others a random card."""
    for _ in range(60):
        user = mover(bot.tg, users)
        if user is None:
            return
        planned = script.get(users.index(user))
        label = planned.pop(0) if planned else rng.choice(labels(bot.tg, user))
        await press(bot, user, label)
    raise AssertionError("the deal did not end")


def group_text(tg: FakeTelegram, needle: str) -> str:
    """The latest group message containing `needle`."""
    group = tg.world.chats[GROUP_ID]
    return next(m.text for m in reversed(bot_messages(tg, group)) if needle in m.text)


async def open_lobby(bot: RunningBot, users: Sequence[FakeUser], command: str) -> None:
    """The first user opens a table after other messages in the group; all join; it starts."""
    group = bot.tg.world.chats[GROUP_ID]
    for user in users:
        await user.start()
    await bot.idle()
    await users[0].send(group, command)
    await bot.idle()

    def lobby_button(kind: str) -> tuple[Any, str]:
        for message in reversed(bot_messages(bot.tg, group)):
            data = next((d for _, d in message.buttons if d and d.startswith(kind)), None)
            if data is not None:
                return message, data
        raise AssertionError("no lobby")

    for user in users[1:]:
        message, data = lobby_button("j:")
        await user.press(message, data=data)
        await bot.idle()
    message, data = lobby_button("s:")
    await users[0].press(message, data=data)
    await bot.idle()


async def balances(bot: RunningBot) -> dict[str, int]:
    """Each player's chips in the group."""
    return {u.name: b for u, b in await bot.service.storage.money.balances(GROUP_ID)}


async def test_two_players_napoleon_made_then_failed_with_an_exchange(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """N2: after napoleon the other player may only pass; N6: napoleon made takes 5u from each
    and the treasure; N7: a failed one pays 5u to each and doubles the treasure; N3: one card
    exchanged from the stock."""
    group, users = make_players(tg, 2)
    alice, bob = users
    made = deck_for(["AS KS QS JS TS", "6C 7C 8C 9C TC"], dealer=0)
    failed = deck_for(["AS KS QS AC KC", "6S 7S 8S 6C 7C"], dealer=1, stock=["8C"])
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        bot.service.rng = Rigged([made, failed])
        await open_table(bot, group, users, "/newgame наполеон")
        table = group_text(tg, "Клад Наполеона")
        assert "Козырь: назовёт первый ход" in table and "Клад: 20" in table  # N1: 2 × c
        assert labels(tg, alice) == [
            *("1 взятка", "2 взятки", "3 взятки", "4 взятки", "5 взяток"),
            *("Наполеон", "Пас"),
        ]  # N2: the dealer speaks first; no "here" without a bid to take over
        await press(bot, alice, "Наполеон")
        assert labels(tg, bob) == ["Пас"]  # N2: nobody goes above napoleon
        asked = control_message(tg, bob).text  # type: ignore[union-attr]
        assert "выше заявить нельзя, остаётся пас" in asked and "здесь" not in asked
        await press(bot, bob, "Пас")
        assert "Оставить все карты" in labels(tg, alice)  # N3: exchange one card or keep
        await press(bot, alice, "Оставить все карты")
        await play_out(bot, users, {0: ["Т♠", "К♠", "Д♠", "В♠", "10♠"]}, random.Random(1))
        table = group_text(tg, "сдача №1")
        assert "Козырь ♠" in table and "взято 5 взяток — сыграно" in table  # N4
        result = group_text(tg, "Итог сдачи №1")
        assert "Alice +60" in result and "Bob −60" in result  # N6: −10 + 50 + 20
        assert "← Bob +50" in result and "клад +20" in result and "Клад: 0" in result
        assert await balances(bot) == {"Alice": 60, "Bob": -60}
        chat = await bot.service.storage.chats.chat(GROUP_ID)
        assert chat.pot_of("napoleon") == 0

        next_deal = next(d for _, d in bot_messages(tg, group)[-1].buttons if d.startswith("n:"))
        await bob.press(bot_messages(tg, group)[-1], data=next_deal)
        await bot.idle()
        await press(bot, bob, "Наполеон")  # deal 2: Bob deals and speaks first
        assert labels(tg, alice) == ["Пас"]
        await press(bot, alice, "Пас")
        message = control_message(tg, bob)
        assert message is not None
        toggle = next(d for text, d in message.buttons if text == "7♣")
        await bob.press(message, data=toggle)
        await bot.idle()
        await press(bot, bob, "Сбросить 1 карту и прикупить")
        assert "8♣" in (control_message(tg, bob) or message).text  # the top of the stock
        await play_out(bot, users, {}, random.Random(2))
        table = group_text(tg, "сдача №2")
        assert "отдана взятка — наполеон не сыгран" in table  # N4: stops at the first loss
        result = group_text(tg, "Итог сдачи №2")
        assert "Bob −80" in result and "Alice +40" in result and "Клад: 40" in result  # N7
        assert "→ Alice −50" in result
        assert await balances(bot) == {"Alice": 100, "Bob": -140}
        storage = bot.service.storage
        assert (await storage.chats.chat(GROUP_ID)).pot_of("napoleon") == 40
        assert await storage.check() == []
        for deal in await storage.history.recent_deals(GROUP_ID, 5):
            assert deal.record["game"] == "napoleon" and replay(deal.record).finished
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


async def test_four_players_the_dealer_says_here_twice_and_makes_three(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """N2: the dealer takes bids over with "here"; N5 with u = 5 set in /settings: made 3, each
    other player pays 3u; N4: play stops once the third trick is taken."""
    group, users = make_players(tg, 4)
    alice, bob, carol, dave = users
    hands = ["AS KS QS 6H 6D", "7H 8H 9H TH JH", "6C 7C 8C 9C TC", "7D 8D 9D TD JD"]
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        bot.service.rng = Rigged([deck_for(hands, dealer=0)])
        await alice.send(group, "/settings")
        await bot.idle()
        settings = bot_messages(tg, group)[-1]
        for code in ("c:p:napoleon", "c:o:napoleon:u", "c:o:napoleon:u", "c:o:napoleon:u"):
            await alice.press(bot_messages(tg, group)[-1], data=code)
            await bot.idle()
        page = bot_messages(tg, group)[-1]
        assert page.message_id == settings.message_id
        assert "Ставка за взятку u: 5" in [text for text, _ in page.buttons]
        await open_lobby(bot, users, "/newgame napoleon")
        assert f"Взнос в клад c: 10{SEPARATOR}ставка за взятку u: 5" in group_text(
            tg, "собираем стол"
        )
        await press(bot, alice, "1 взятка")
        await press(bot, bob, "2 взятки")
        await press(bot, carol, "Пас")
        await press(bot, dave, "Пас")
        assert labels(tg, alice) == [
            *("3 взятки", "4 взятки", "5 взяток", "Наполеон", "Здесь", "Пас")
        ]  # N2: higher, napoleon, here (the dealer only), pass
        assert "Заявите больше, скажите «здесь»" in control_message(tg, alice).text  # type: ignore[union-attr]
        await press(bot, alice, "Здесь")
        assert "здесь (2 взятки)" in group_text(tg, "сдача №1")
        assert "Здесь" not in labels(tg, bob)
        await press(bot, bob, "3 взятки")
        await press(bot, alice, "Здесь")
        await press(bot, bob, "Пас")
        table = group_text(tg, "сдача №1")
        assert "📜 Alice играет 3 взятки: взято 0, нужно 3" in table
        await press(bot, alice, "Оставить все карты")
        await play_out(bot, users, {0: ["Т♠", "К♠", "Д♠"]}, random.Random(3))
        table = group_text(tg, "сдача №1")
        assert "взяты 3 взятки — сыграно" in table and "Взятка 3:" in table
        result = group_text(tg, "Итог сдачи №1")
        assert "✅" in result and "Alice +35" in result  # −10 + 3 × 15
        for name in ("Bob", "Carol", "Dave"):
            assert f"{name} −25" in result and "→ Alice −15" in result
        assert "Клад: 40" in result
        assert await balances(bot) == {"Alice": 35, "Bob": -25, "Carol": -25, "Dave": -25}
        assert await bot.service.storage.check() == []
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


@pytest.mark.parametrize(("n_players", "seed"), [(2, 31), (4, 32), (6, 33)])
async def test_random_deals_of_two_four_and_six_players(
    tg: FakeTelegram, tmp_path: Path, n_players: int, seed: int
) -> None:
    """N1: 2–6 players; two whole deals pressed at random, the ledger and the treasure agree."""
    async with table_of(tg, tmp_path, n_players, "/newgame napoleon", seed=seed) as (
        bot,
        group,
        users,
    ):
        for deal_no in (1, 2):
            await play_deal(bot, users, random.Random(seed + deal_no))
            result = bot_messages(tg, group)[-1]
            assert f"Итог сдачи №{deal_no}" in result.text
            if deal_no == 1:
                next_deal = next(d for _, d in result.buttons if d.startswith("n:"))
                await users[1].press(result, data=next_deal)
                await bot.idle()
        storage = bot.service.storage
        assert await storage.check() == []
        chat = await storage.chats.chat(GROUP_ID)
        assert chat.pot == chat.pot_of("napoleon")
        assert sum((await balances(bot)).values()) + chat.pot == 0
        deals = await storage.history.recent_deals(GROUP_ID, 5)
        assert [len(d.seats) for d in deals] == [n_players, n_players]
        for deal in deals:
            assert replay(deal.record).finished
    assert tg.errors == []


async def test_a_restart_mid_deal_then_the_deal_goes_on(tg: FakeTelegram, tmp_path: Path) -> None:
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    hands = ["AS KS QS JS TS", "6C 7C 8C 9C TC", "6H 7H 8H 9H TH"]
    async with running_bot(tg, db) as bot:
        bot.service.rng = Rigged([deck_for(hands, dealer=0)])
        await open_table(bot, group, users, "/newgame napoleon")
        await press(bot, users[0], "2 взятки")
        await press(bot, users[1], "Пас")
    posted = len(tg.calls("sendMessage"))
    async with running_bot(tg, db) as bot:
        await bot.idle()
        assert len(tg.calls("sendMessage")) == posted  # nothing re-posted: the buttons work
        await press(bot, users[2], "Пас")
        await press(bot, users[0], "Оставить все карты")
        await play_out(bot, users, {0: ["Т♠", "К♠"]}, random.Random(4))
        result = group_text(tg, "Итог сдачи №1")
        assert "Alice +30" in result  # −10 + 2 × 2u: made (N5)
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_n1_the_first_deal_shows_the_treasure_of_everyones_contribution(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """N1: three players put c = 10 each into the treasure (the stop that voids it, as every
    game's: tests/test_every_game.py)."""
    async with table_of(tg, tmp_path, 3, "/newgame napoleon", seed=5) as (bot, _, _):
        assert "Клад: 30" in group_text(tg, "сдача №1")
        assert (await bot.service.storage.chats.chat(GROUP_ID)).pot_of("napoleon") == 30
    assert tg.errors == []


async def test_each_game_keeps_its_own_pot(tg: FakeTelegram, tmp_path: Path) -> None:
    """Frap's pot is not Napoleon's treasure; /pot lists each non-empty one."""
    async with table_of(tg, tmp_path, 3, "/newgame frap", seed=7) as (bot, group, users):
        await play_deal(bot, users, random.Random(7))
        storage = bot.service.storage
        frap_pot = (await storage.chats.chat(GROUP_ID)).pot_of("frap")
        await users[0].send(group, "/stopgame")
        await bot.idle()
        await open_lobby(bot, users, "/newgame napoleon")
        assert "Клад: 30" in group_text(tg, "Клад Наполеона")  # N1: not Frap's pot
        await play_deal(bot, users, random.Random(8))
        chat = await storage.chats.chat(GROUP_ID)
        assert chat.pot_of("frap") == frap_pot
        assert chat.pot == frap_pot + chat.pot_of("napoleon")
        await users[1].send(group, "/pot")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text
        treasure = chat.pot_of("napoleon")
        assert (f"Фрап: {frap_pot}" in text) == bool(frap_pot)
        assert (f"Клад Наполеона: {treasure}" in text) == bool(treasure)
        assert await storage.check() == []
    assert tg.errors == []


async def test_timers_pass_in_bidding_then_play_for_the_away(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Time-outs at Napoleon: a silent player passes when bidding (the default move) and, after
    two time-outs, is away and plays his lowest card at once; the deal ends."""
    group, users = make_players(tg, 3)
    alice = users[0]
    hands = ["AS KS QS JS TS", "6C 7C 8C 9C TC", "6H 7H 8H 9H TH"]
    async with running_bot(tg, tmp_path / "db.sqlite3", turn_timeout=1, away_delay=0.05) as bot:
        bot.service.rng = Rigged([deck_for(hands, dealer=0)])
        await open_table(bot, group, users, "/newgame napoleon")
        await press(bot, alice, "3 взятки")
        for _ in range(150):
            if "Итог сдачи №1" in bot_messages(tg, group)[-1].text:
                break
            if mover(tg, users) is alice:
                await press(bot, alice, labels(tg, alice)[0])
            await asyncio.sleep(0.05)
            await bot.idle()
        result = group_text(tg, "Итог сдачи №1")
        assert "Alice +50" in result  # −10 + 2 × 3u: the others passed by time-out (N2, N5)
        texts = "\n".join(t for m in bot_messages(tg, group) for t in (*m.history, m.text))
        assert "⏰ Bob" in texts and "💤 Carol" in texts
        deal = (await bot.service.storage.history.recent_deals(GROUP_ID, 1))[0]
        words = [(a["seat"], a["do"]) for a in deal.record["actions"][:3]]
        assert words == [(0, "bid"), (1, "pass"), (2, "pass")]
        assert await bot.service.storage.check() == []
    assert tg.errors == []


async def test_forged_bid_presses_are_refused(tg: FakeTelegram, tmp_path: Path) -> None:
    """N2 through forged callback data: a bid out of range, a bid below the current one, or
    "here" from a player who is not the dealer changes nothing."""
    group, users = make_players(tg, 3)
    alice, bob = users[:2]
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        bot.service.rng = Rigged([])
        await open_table(bot, group, users, "/newgame napoleon")
        await press(bot, alice, "2 взятки")
        message = control_message(tg, bob)
        assert message is not None
        prefix = action_buttons(message)[0][1].rsplit(":", 1)[0]
        for code in ("t9", "t1", "t2", "E", "tx"):
            query = push_callback(tg, bob, message, f"{prefix}:{code}")
            await bot.idle()
            answer = tg.callback_answer(query)
            assert answer is not None and answer["text"], code  # refused (stale: a toast)
        deal = await bot.service.storage.tables.current_deal(1)
        assert deal is not None and len(deal.record["actions"]) == 1
        await press(bot, bob, "3 взятки")
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


async def test_the_lobby_button_cycles_to_napoleon_and_rules_explain_it(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 1)
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        await users[0].start()
        await bot.idle()
        await users[0].send(group, "/newgame")
        await bot.idle()
        lobby = next(m for m in bot_messages(tg, group) if any(d == "g:1" for _, d in m.buttons))
        assert "Фрап" in lobby.text
        for _ in range(3):  # Frap → Khrap → Student Khrap → Napoleon
            await users[0].press(lobby, data="g:1")
            await bot.idle()
        assert "Клад Наполеона" in lobby.text and "от 2 до 6" in lobby.text  # N1
        await users[0].send(group, "/rules")
        await bot.idle()
        rules = bot_messages(tg, group)[-1].text
        assert "2–6 игроков" in rules and "«здесь»" in rules and "удваивает клад" in rules
        assert "Ставка за взятку u: как анте" in rules
        await users[0].press(lobby, data="g:1")
        await bot.idle()
        assert "Преферанс" in lobby.text  # the next game of the registry's cycle
    assert tg.errors == []


def test_everyone_passing_is_said_and_the_contributions_stay() -> None:
    """N2: nobody bids: the deal is over, the result says why, the treasure keeps the
    contributions; /history N tells it without a turn-up (N1 turns none up)."""
    deal, _ = NapoleonDeal.create({}, ["A", "B", "C"], 0, 10, 30, make_deck(36))
    while not deal.finished:
        assert deal.to_act is not None
        deal, _ = deal.apply(Action(deal.to_act, Do.PASS))
    table = table_view(deal)
    record = deal.to_record()
    text = family_render.result_message(
        "ru",
        games.ui("napoleon"),
        table,
        list(deal.players),
        1,
        {},
        1,
        pot_has_penalty=False,
        offer_next=True,
        record=record,
    ).text
    assert "Все спасовали: взносы остаются в кладе." in text and "Клад: 60" in text
    row = DealRow(1, 1, 1, 1, (1, 2, 3), record, "finished", 0.0)
    history = render.history_line("en", row, 1, "01.12 20:00")
    assert "Everyone passed" in history
    account = render.deal_account("en", DealRow(1, 1, 1, 1, (1, 2, 3), record, "finished", 0.0))
    assert account is not None and "treasure before the deal: 30" in account
    assert "turn-up" not in account.lower()
