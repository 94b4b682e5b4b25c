"""The money part of storage (bot/storage/money.py): /stats's sums count as taken from the pot
only the reasons the caller names, and chips moved outside a game (a season's close) belong to
no game's pot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.chat.stats_view import FROM_POT
from bot.storage import Movement, Storage

CHAT, ALICE, BOB = -1, 7, 8


async def _one_khrap_deal(storage: Storage) -> None:
    """A finished Khrap deal: both ante 10, Alice takes 15 for tricks and 5 from the pot, Bob
    pays a penalty of 20 into it."""
    await storage.chats.chat(CHAT, "Friends")
    table = await storage.tables.create_table(CHAT, "khrap", ALICE)
    assert table is not None
    table = replace(table, status="playing", seats=(ALICE, BOB), deal_no=1)
    antes = [Movement(ALICE, -10, "ante"), Movement(BOB, -10, "ante")]
    deal_id = await storage.tables.start_deal(table, {}, antes)
    won = [
        Movement(ALICE, 15, "tricks"),
        Movement(ALICE, 5, "pot_taken"),
        Movement(BOB, -20, "penalty"),
    ]
    await storage.tables.save_step(table, deal_id, {}, won, finished=True)


async def test_deal_sums_count_as_taken_only_the_reasons_asked_for(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    try:
        await _one_khrap_deal(storage)
        ((_, game, deltas, taken, closed),) = await storage.money.deal_sums(CHAT, FROM_POT)
        assert (game, deltas, taken, closed) == ("khrap", {ALICE: 10, BOB: -30}, {ALICE: 20}, False)
        ((*_, tricks_only, _),) = await storage.money.deal_sums(CHAT, ("tricks",))
        assert tricks_only == {ALICE: 15}
        ((*_, nothing, _),) = await storage.money.deal_sums(CHAT, ())
        assert nothing == {}
    finally:
        await storage.close()


async def test_a_season_moves_no_chips_into_a_game_it_was_not_played_at(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    try:
        await _one_khrap_deal(storage)
        assert (await storage.chats.chat(CHAT)).pots == (("khrap", 20, False),)
        assert await storage.money.new_season(CHAT, closed=0) == {ALICE: 10, BOB: -30}
        chat = await storage.chats.chat(CHAT)
        assert chat.pot == 0 and chat.pots == (("khrap", 0, False),)  # no Frap pot made up
        assert await storage.check() == []
    finally:
        await storage.close()
