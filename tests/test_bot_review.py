"""A deal's review and the hands shown at its end, through the real bot and the fake Bot API:
a rigged Preferans deal where a defender's card gives a trick away and a rigged Napoleon deal
the same way, each read back from the review in both languages (the "Review" button under the
result and /review); the hands as dealt under the result with the house option on, and not with
it off; a stranger's press refused; a review worked out once and kept with the deal."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import computer
from bot.chat.review import message as review_text
from bot.format import card_label
from bot.games import preferans as pref
from bot.games.family.napoleon import UI as NAPOLEON_UI
from bot.handlers import Answer, Handlers, Pressed
from bot.table.live import Person
from engine.actions import Action
from engine.cards import Card, parse_cards
from engine.games import GAMES
from engine.napoleon import NapoleonDeal
from engine.preferans.actions import PrefAction
from engine.preferans.deal import PrefDeal
from engine.preferans.outcome import PrefRules
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    open_table,
    running_bot,
    with_button,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage
from tests.test_review import RIGGED_ACTIONS, RIGGED_DECK, rigged_record

# N2–N4: Alice deals and bids 3, the others pass, she keeps her hand and leads 10♦ (trumps);
# Bob drops 6♦ under it where K♦ wins: best play gives her 2 tricks, she takes 3.
NAPOLEON_DECK = (  # noqa: SIM905
    "9C AC JH 6D QH TD 9S KH TS KD QS QD 6C 7D 9D TH JD 8C KS AH 7C 7H KC 7S JS 8D AS 8H QC AD "
    "JC TC 6S 9H 6H 8S"
).split()
NAPOLEON_ACTIONS: list[dict[str, Any]] = [
    {"seat": 0, "do": "bid", "tricks": 3}, {"seat": 1, "do": "pass"}, {"seat": 2, "do": "pass"},
    {"seat": 0, "do": "discard", "cards": []},
    *(
        {"seat": int(seat), "do": "play", "card": card}
        for seat, card in (
            p.split(":")
            for p in (  # noqa: SIM905
                "0:TD 1:6D 2:7D 0:JH 1:KD 2:QH 1:9C 2:AC 0:QD 0:TS 1:9S 2:QS 2:KH 0:9D 1:6C"
            ).split()
        )
    ),
]  # fmt: skip

NAMES = {"ru": ("Alice", "Bob", "Carol"), "en": ("Alice", "Bob", "Carol")}


class Rigged(random.Random):
    """The bot's chance, scripted: the next shuffle lays out the given deck (top card first),
    and the first dealer is seat `dealer`."""

    def __init__(self, deck: Sequence[Card], dealer: int) -> None:
        super().__init__(0)
        self.deck: list[Card] | None = list(deck)
        self.dealer = dealer

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if self.deck is not None:
            x[:] = self.deck
            self.deck = None
        else:
            super().shuffle(x)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return self.dealer


async def _settled(bot: RunningBot) -> None:
    """Idle, given time for a review worked out on a worker process of a busy machine."""
    for _ in range(12):
        try:
            await bot.idle()
            return
        except AssertionError:
            await asyncio.sleep(0.5)
    await bot.idle()


async def _play(
    bot: RunningBot,
    users: list[FakeUser],
    actions: list[dict[str, Any]],
    code: Callable[[dict[str, Any]], str],
    lang: str,
) -> None:
    """Each scripted action pressed by its seat on his control message (a discard's cards
    picked first); a move the bot makes itself (the last trick's card, P8) has no button."""
    for entry in actions:
        user = users[entry["seat"]]
        for card in parse_cards(entry.get("cards", [])):
            message = control_message(bot.tg, user)
            assert message is not None
            label = card_label(card, lang)
            data = next(d for t, d in message.buttons if d and d[:2] == "t:" and label in t)
            await user.press(message, data=data)
            await bot.idle()
        message = control_message(bot.tg, user)
        wanted = ":" + code(entry)
        data = None
        if message is not None:
            found = (d for _, d in message.buttons if d and d[:2] == "a:" and d.endswith(wanted))
            data = next(found, None)
        if data is None:
            assert entry["do"] == "play", entry  # only a forced card is played by the bot
            continue
        await user.press(message, data=data)
        await bot.idle()


def _result(tg: FakeTelegram) -> StoredMessage:
    """The group's message with the review button (the deal's result)."""
    group = tg.world.chats[GROUP_ID]
    return next(
        m
        for m in reversed(bot_messages(tg, group))
        if any(d and d[:2] == "r:" for _, d in m.buttons)
    )


async def _review(bot: RunningBot, user: FakeUser) -> str:
    """The review the user gets by pressing the button under the result."""
    result = _result(bot.tg)
    data = next(d for _, d in result.buttons if d and d[:2] == "r:")
    await user.press(result, data=data)
    await _settled(bot)
    group = bot.tg.world.chats[GROUP_ID]
    return bot_messages(bot.tg, group)[-1].text


async def _preferans(bot: RunningBot, lang: str) -> list[FakeUser]:
    group, users = make_players(bot.tg, 3, lang)
    bot.service.rng = Rigged(parse_cards(RIGGED_DECK), dealer=2)
    await open_table(bot, group, users, "/newgame preferans")

    def code(entry: dict[str, Any]) -> str:
        return pref.action_code(PrefAction.from_record(entry))

    await _play(bot, users, RIGGED_ACTIONS, code, lang)
    return users


async def _napoleon(bot: RunningBot, lang: str) -> list[FakeUser]:
    """The rigged Napoleon deal played out (its result waits for the next deal)."""
    group, users = make_players(bot.tg, 3, lang)
    bot.service.rng = Rigged(parse_cards(NAPOLEON_DECK), dealer=0)
    await open_table(bot, group, users, "/newgame napoleon")

    def code(entry: dict[str, Any]) -> str:
        return NAPOLEON_UI.codes.action_code(Action.from_record(entry, NapoleonDeal.WORDS))

    await _play(bot, users, NAPOLEON_ACTIONS, code, lang)
    return users


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_p8_a_defenders_costly_card_is_read_back_from_the_review(
    tmp_path: Path, lang: str
) -> None:
    """The rigged Preferans deal: the review names Bob's A♥ on the first trick as the card that
    cost a trick, the contract's figure with best play (7) and the whist; /review says the
    same."""
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3") as bot:
        users = await _preferans(bot, lang)
        text = await _review(bot, users[2])
        ace = card_label(Card.parse("AH"), lang)
        if lang == "en":
            assert f"Costliest: trick 1, Bob's {ace} cost 1 trick" in text
            assert "6♠: with best play by all the declarer takes 7 tricks. He took 8." in text
            assert "Bob gave away 1 trick" in text and "Alice: every card was the best one" in text
            assert "A whist did not pay: best defence takes 3 with 4 needed." in text
        else:
            assert f"1-я взятка, ход {ace} (Bob) — минус 1 взятка" in text
            assert "6♠: при лучшей игре всех у разыгрывающего 7 взяток. Взято 8." in text
            assert "Bob: отдана 1 взятка" in text
        await users[1].send(bot.tg.world.chats[GROUP_ID], "/review 1")
        await _settled(bot)
        again = bot_messages(bot.tg, bot.tg.world.chats[GROUP_ID])[-1].text
        assert again == text  # the kept review, the chat's deal number 1
        kept = await bot.service.storage.history.deal_review(1)
        assert kept is not None and '"start":7' in kept.replace(" ", "")
        # a record that no longer replays: said so, nothing kept
        sql = "UPDATE deals SET record = ?, review = NULL WHERE deal_id = 1"
        await bot.service.storage.jobs.connection.execute(sql, ('{"game": "preferans"}',))
        await bot.service.storage.jobs.connection.commit()
        await users[1].send(bot.tg.world.chats[GROUP_ID], "/review 1")
        await _settled(bot)
        said = bot_messages(bot.tg, bot.tg.world.chats[GROUP_ID])[-1].text
        assert said.startswith(("This deal's record can no longer", "Запись этой сдачи уже"))


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_n4_napoleon_a_costly_card_is_read_back_from_the_review(
    tmp_path: Path, lang: str
) -> None:
    """The rigged Napoleon deal: Bob's 6♦ under the declarer's 10♦ lead cost a trick."""
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3") as bot:
        users = await _napoleon(bot, lang)
        text = await _review(bot, users[0])
        six = card_label(Card.parse("6D"), lang)
        if lang == "en":
            assert f"Costliest: trick 1, Bob's {six} cost 1 trick" in text
            assert "With best play from the first lead Alice takes 2 tricks." in text
        else:
            assert f"1-я взятка, ход {six} (Bob) — минус 1 взятка" in text
            assert "При лучшей игре с первого хода у игрока Alice 2 взятки." in text


async def test_a_stranger_and_another_chat_are_refused_the_review(tmp_path: Path) -> None:
    """The review button's press handed over as a page hands its presses: from someone
    neither at the deal nor in its chat, and from another chat the button was carried to,
    refused with a clear line and nothing posted; a player's press still works."""
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3") as bot:
        users = await _preferans(bot, "en")
        handlers: Handlers = bot.app.bot_data["handlers"]
        data = next(d for _, d in _result(tg).buttons if d and d[:2] == "r:")
        before = len(bot_messages(tg, tg.world.chats[GROUP_ID]))
        stranger = Person(4242, "Mallory", language_code="en")
        other = tg.group(-100600, "Elsewhere")
        other.add(tg.user(4242, "Mallory", language_code="en"))
        refused = Answer("Only the players of this deal and the members of its chat can see "
                         "its review.", alert=True)  # fmt: skip
        for chat_id in (GROUP_ID, other.id):
            pressed = Pressed(stranger, chat_id, data, 0)
            assert await handlers.handle_press(pressed) == refused
        bob = Person(users[1].id, "Bob", language_code="en")
        other.add(users[1])
        assert await handlers.handle_press(Pressed(bob, other.id, data, 0)) == refused
        await _settled(bot)
        assert len(bot_messages(tg, tg.world.chats[GROUP_ID])) == before
        assert await handlers.handle_press(Pressed(bob, GROUP_ID, data, 0)) == Answer()
        await _settled(bot)
        assert "Review of deal #1" in bot_messages(tg, tg.world.chats[GROUP_ID])[-1].text


@pytest.mark.parametrize("shown", [True, False])
async def test_the_hands_are_shown_at_the_end_unless_the_chat_turns_it_off(
    tmp_path: Path, shown: bool
) -> None:
    """With the house option on (the default) the result shows every hand as dealt, the talon
    and the discard; turned off in /settings, none of them."""
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3") as bot:
        group, users = make_players(tg, 3, "en")
        for user in users:
            await user.start()
        await bot.idle()
        if not shown:
            await users[0].send(group, "/settings")
            await bot.idle()
            menu = bot_messages(tg, group)[-1]
            await users[0].press(menu, data=next(d for _, d in menu.buttons if d == "c:hands"))
            await bot.idle()
        bot.service.rng = Rigged(parse_cards(RIGGED_DECK), dealer=2)
        await users[0].send(group, "/newgame preferans")
        await bot.idle()
        for user, kind in ((users[1], "j:"), (users[2], "j:"), (users[0], "s:")):
            lobby = with_button(bot_messages(tg, group), kind)
            assert lobby is not None
            await user.press(lobby, data=next(d for _, d in lobby.buttons if d and d[:2] == kind))
            await bot.idle()

        def code(entry: dict[str, Any]) -> str:
            return pref.action_code(PrefAction.from_record(entry))

        await _play(bot, users, RIGGED_ACTIONS, code, "en")
        text = _result(tg).text
        # (the chat speaks Russian when /settings came before its first table)
        heads = ("The hands as dealt", "Расклад")
        assert any(head in text for head in heads) is shown, text
        assert ("8♣ 10♣" in text) is shown, text  # the discard, never shown before the end


async def test_play_this_deal_again_opens_a_practice_table_with_the_same_hand(
    tmp_path: Path,
) -> None:
    """From the review, Bob plays the deal again against Masters: a practice table in his
    private chat, he in the first seat with the cards he was dealt, the same talon, computer
    players of that level in the other seats; a member who did not play is refused."""
    tg = FakeTelegram()
    async with tg, running_bot(tg, tmp_path / "db.sqlite3") as bot:
        users = await _preferans(bot, "en")
        await _review(bot, users[0])
        shown = bot_messages(tg, tg.world.chats[GROUP_ID])[-1]
        assert "Play this deal again from your seat" in shown.text
        data = next(d for _, d in shown.buttons if d and d[:2] == "p:" and d.endswith(":2"))
        handlers: Handlers = bot.app.bot_data["handlers"]
        dave = tg.user(4243, "Dave", language_code="en")
        tg.world.chats[GROUP_ID].add(dave)
        pressed = Pressed(Person(dave.id, "Dave", language_code="en"), GROUP_ID, data, 0)
        refused = await handlers.handle_press(pressed)
        assert refused.text is not None and refused.text.startswith("Only a player of this deal")
        await users[1].press(shown, data=data)
        await _settled(bot)
        live = bot.service.table_in(users[1].id)
        assert live is not None and live.row.chat_id == users[1].id  # his private chat
        assert live.row.seats[0] == users[1].id
        assert [computer.level_of(uid) for uid in live.row.seats[1:]] == ["strong", "strong"]
        first = (await bot.service.storage.tables.table_deals(live.row.table_id))[0].record
        again = PrefDeal.new(
            PrefRules(), first["players"], first["dealer"], parse_cards(first["deck"])
        )[0]
        dealt = PrefDeal.new(PrefRules(), NAMES["en"], 2, parse_cards(RIGGED_DECK))[0]
        assert set(again.hands[0]) == set(dealt.hands[1]) and again.talon == dealt.talon
        assert set(again.hands[1]) == set(dealt.hands[2])  # every seat its own cards again
        mine = control_message(tg, users[1])
        assert mine is not None and all(
            card_label(card, "en") in mine.text for card in dealt.hands[1]
        )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_p6_an_unplayed_contract_is_still_weighed(lang: str) -> None:
    """Both defenders pass the rigged 6♠: no card to weigh, but the contract and the whist
    are (a whist would not have paid: best defence takes 3 of the 4 owed)."""
    record = rigged_record()
    record["actions"] = [*record["actions"][:5], *({"seat": s, "do": "pass"} for s in (1, 2))]
    text = review_text(lang, GAMES["preferans"].review(record), 3)
    expected = {
        "en": ("there is no card to weigh", "takes 7 tricks.", "best defence takes 3 with 4"),
        "ru": ("взвешивать нечего", "7 взяток.", "у вистующих 3 при норме 4"),
    }
    assert all(part in text for part in expected[lang]), text
    assert "Boris" in text and "10♠ 8♥" in text  # the hands and the talon
