"""A sixth game is its engine state, its bot UI and kind of table, its catalog section and
one registry line. The toy trick game of `tests/toy_game.py` is registered here (nothing else is
touched) and a deal of it is played through the bot against the fake Bot API: the lobby names it,
each player gets his cards and buttons, the chips move, /history tells the deal."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.table.live import OpenTable
from tests import toy_game
from tests.bot_harness import (
    GROUP_ID,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    play_deal,
    running_bot,
)
from tests.fakebot import FakeTelegram


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game registered (its one line) with its catalog section, for this test only."""
    toy_game.register(monkeypatch)
    yield


async def test_a_toy_game_registered_from_tests_plays_a_deal_through_the_bot(
    toy: None, tg: FakeTelegram, tmp_path: Path
) -> None:
    group, users = make_players(tg, 2, lang="en")
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        await open_table(bot, group, users, "/newgame toy")
        lobby = bot_messages(tg, group)[0]
        assert "Toy tricks" in lobby.text and "Игра началась" not in lobby.text
        live = bot.service.table_in(GROUP_ID)
        assert live is not None and live.row.game == toy_game.GAME and live.in_deal
        hands = [control_message(tg, user) for user in users]  # each player's, in private
        assert all(hand is not None and "your cards" in hand.text for hand in hands)
        assert sum(bool(moves_now(hand)) for hand in hands) == 1  # the leader's buttons
        seen: list[tuple[int, int]] = []  # every change of the table passes one seam

        told: list[str] = []  # what each step showed, as every front end is told it

        class Watching:  # a front end registered beside the chat's
            async def shown(self, table: OpenTable, chat: object, what: object) -> None:
                told.append(type(what).__name__)

            def changed(self, table: OpenTable) -> None:
                seen.append((table.row.deal_no, table.step))

        bot.service.fronts.append(Watching())
        presses = await play_deal(bot, users, random.Random(1))
        assert presses == 4  # two tricks of two cards
        assert seen == [(1, 1), (1, 2), (1, 3), (1, 4)]
        assert told == ["DealShown"] * 4 + ["ResultShown"]  # the result offers the next deal
        deal = toy_game.toy_deal(live)
        assert deal.finished and not live.in_deal
        result = bot_messages(tg, group)[-1]
        assert result.text.startswith("Deal 1:")
        assert any(data and data.startswith("n:") for _, data in result.buttons)  # next deal
        balances = {u.user_id: b for u, b in await bot.service.storage.money.balances(GROUP_ID)}
        winner = toy_game._winner(deal)
        if winner is None:
            assert set(balances.values()) <= {0}
        else:
            assert balances[live.deal_seats[winner]] == 1
            assert balances[live.deal_seats[1 - winner]] == -1
        await users[0].send(group, "/history")
        await bot.idle()
        history = bot_messages(tg, group)[-1].text
        assert "#1" in history and ("takes a chip" in history or "no chip moves" in history)
        await users[0].press(result, data=next(d for _, d in result.buttons if d and "n:" in d))
        await bot.idle()
        assert live.row.deal_no == 2 and live.in_deal  # the next deal, from the result's button
        await users[0].send(group, "/stopgame")
        await bot.idle()
        assert seen[-2:] == [(2, 0), (2, 0)] and live.row.status == "closed"  # dealt, stopped


def test_the_toy_game_needed_only_its_own_file() -> None:
    """What a sixth game needed: its own file (its deal, words, UI and kind of table) and its one
    registry line, made at run time through public calls; no file of the bot, the engine or the
    catalogs names it, so nothing shared was edited for it."""
    root = Path(__file__).resolve().parent.parent
    names = re.compile(rf"\b(toy|{toy_game.GAME})\b", re.IGNORECASE)
    shared = [
        str(path.relative_to(root))
        for part in ("bot", "engine", "locales")
        for path in sorted((root / part).rglob("*"))
        if path.suffix in (".py", ".js", ".css", ".html", ".po", ".pot", ".json")
        and names.search(path.read_text(encoding="utf-8"))
    ]
    assert shared == []
    source = Path(toy_game.__file__).read_text(encoding="utf-8")
    assert source.count("games.register(") == 1
