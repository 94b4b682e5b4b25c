"""A sixth game of the Frap family is its own word (a `Verb`), its deal class, its UI with the
word's button code, its catalog section and one registry line per layer. Toy frap
(`tests/toy_family.py`) is registered here (nothing else is touched) and a deal of it is played
through the bot against the fake Bot API, its own word pressed by a player."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games
from engine import games as engine_games
from engine.record import replay
from locales import t
from tests import toy_family
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.models import StoredMessage


@pytest.fixture
def toyfrap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Toy frap registered (a line per layer) with its catalog section, for this test only."""
    toy_family.register(monkeypatch)
    yield


def its_word(message: StoredMessage | None) -> str | None:
    """The callback data of Toy frap's own word's button on a control message, if it is on."""
    return next((d for d in moves_now(message) if d.endswith(":" + toy_family.CODE)), None)


async def play_saying_its_word(bot: RunningBot, users: list[FakeUser]) -> FakeUser:
    """Press the toy word's button the first time it is offered and random legal buttons
    otherwise, until the deal ends; returns who said it."""
    rng, said_by = random.Random(3), None
    for _ in range(400):
        movers = [(u, m) for u in users if moves_now(m := control_message(bot.tg, u))]
        if not movers:
            assert said_by is not None
            return said_by
        user, message = movers[0]
        assert message is not None
        word = its_word(message) if said_by is None else None
        if word is not None:
            said_by = user
        await user.press(message, data=word or rng.choice(moves_now(message)))
        await bot.idle()
    raise AssertionError("the deal did not end")


async def test_a_toy_family_game_plays_a_deal_with_its_own_word(
    toyfrap: None, tg: FakeTelegram, tmp_path: Path
) -> None:
    group = tg.group(GROUP_ID, "Friends")
    langs = ("ru", "en", "ru")
    users = [tg.user(1000 + i, n, language_code=lang) for i, (n, lang) in
             enumerate(zip(("Alice", "Bob", "Carol"), langs, strict=True))]  # fmt: skip
    for i, user in enumerate(users):
        group.add(user, creator=i == 0)
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5) as bot:
        await open_table(bot, group, users, "/newgame тойфрап")
        assert "Тойфрап" in bot_messages(tg, group)[0].text  # the lobby, in the group's Russian
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and live.row.game == toy_family.GAME and live.in_deal
        offered = []
        for user, lang in zip(users, langs, strict=True):  # each his hand, in his language
            hand = control_message(tg, user)
            assert hand is not None and t(lang, f"{toy_family.GAME}.name") in hand.text
            if its_word(hand) is not None:  # the first bidder's button says the toy word
                offered.append(user)
                button = t(lang, f"{toy_family.GAME}.btn.toyfrap")
                assert button in [text for text, _ in hand.buttons]
        assert len(offered) == 1
        said_by = await play_saying_its_word(bot, users)
        result = bot_messages(tg, group)[-1]
        assert "Итог сдачи" in result.text
        (deal,) = await bot.service.storage.history.recent_deals(GROUP_ID, 5)
        record = deal.record
        assert record["game"] == toy_family.GAME
        declared = [a for a in record["actions"] if a["do"] == "toyfrap"]
        assert [users[deal.seats[a["seat"]] - 1000] for a in declared] == [said_by]
        assert not any(a["do"] == "frap" for a in record["actions"])
        played = replay(record)
        assert isinstance(played, toy_family.ToyFrapDeal) and played.finished
        assert played.contract is toy_family.ToyDo.TOYFRAP
        balances = {u.user_id: b for u, b in await bot.service.storage.money.balances(GROUP_ID)}
        assert [balances.get(uid, 0) for uid in deal.seats] == list(played.delta)  # its chips
        await users[0].send(group, "/history")
        await bot.idle()
        assert "тойфрап" in bot_messages(tg, group)[-1].text  # the declarer's word, in Russian
        assert await bot.service.storage.check() == []
    assert tg.errors == []
    assert tg.unanswered_callbacks() == []


def test_the_toy_family_game_needed_only_its_own_file() -> None:
    """What a sixth family game needed: its own file (its word, deal, UI, codes and words) and a
    registry line per layer, made at run time through public calls; no file of the bot, the
    engine or the catalogs names it, so nothing shared was edited for it."""
    root = Path(__file__).resolve().parent.parent
    names = re.compile(rf"\b({toy_family.GAME}|тойфрап|ToyDo|ToyFrap\w*)\b", re.IGNORECASE)
    shared = [
        str(path.relative_to(root))
        for part in ("bot", "engine", "locales")
        for path in sorted((root / part).rglob("*"))
        if path.suffix in (".py", ".js", ".css", ".html", ".po", ".pot", ".json")
        and names.search(path.read_text(encoding="utf-8"))
    ]
    assert shared == []
    source = Path(toy_family.__file__).read_text(encoding="utf-8")
    assert source.count("games.register(") == 1  # the bot's
    assert source.count("engine_games.GAMES") == 1  # the engine's
    assert toy_family.GAME not in games.REGISTRY and toy_family.GAME not in engine_games.GAMES
