"""The league in storage: a rated result moves its players' ratings in its step's transaction;
the check finds ratings or results that are not their history's, and the rebuild mends them; a
new season starts new ratings; a supergroup move takes the league along; the evening's change
is counted from before the last table of the game."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from bot import rating
from bot.rating import Rating
from bot.storage import Movement, Storage, TableRow

CHAT = -100
A, B, C = 1, 2, 3


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(str(tmp_path / "db.sqlite3"))
    await opened.chats.chat(CHAT, "Friends")
    yield opened
    await opened.close()


async def _table(storage: Storage, game: str = "frap") -> TableRow:
    table = await storage.tables.create_table(CHAT, game, A)
    assert table is not None
    return replace(table, status="playing", seats=(A, B, C))


async def _result(storage: Storage, table: TableRow, chips: dict[int, int]) -> int:
    """A deal of `table` played to its end: each player's chips as given (the pot takes the
    rest), its players rated by them."""
    table = replace(table, deal_no=len(await storage.tables.table_deals(table.table_id)) + 1)
    deal_id = await storage.tables.start_deal(table, {}, [])
    moves = [Movement(uid, amount, "trick") for uid, amount in chips.items()]
    await storage.tables.save_step(table, deal_id, {}, moves, finished=True, rated=list(chips))
    return deal_id


def _ratings(rows: list[tuple[int, int, str, int, str, Rating]]) -> dict[int, Rating]:
    return {uid: r for _, _, _, uid, _, r in rows}


async def test_a_result_rates_its_players_by_the_chips_of_its_deal(storage: Storage) -> None:
    table = await _table(storage)
    await _result(storage, table, {A: 30, B: -10, C: -10})
    first = rating.rate([Rating()] * 3, [30, -10, -10])
    await _result(storage, table, {A: -10, B: -10, C: 20})
    want = rating.rate(first, [-10, -10, 20])
    got = _ratings(await storage.league.ratings())
    for uid, expected in zip((A, B, C), want, strict=True):
        assert math.isclose(got[uid].mu, expected.mu) and got[uid].deals == 2
    step = replace(table, deal_no=3)  # a step of a deal in play rates nobody
    deal_id = await storage.tables.start_deal(step, {}, [])
    await storage.tables.save_step(step, deal_id, {}, [Movement(A, -10, "ante")])  # not finished
    assert len(await storage.league.results(CHAT)) == 2
    assert await storage.league.rating_problems() == []


async def test_the_check_finds_a_rating_or_a_result_off_its_history(
    storage: Storage, tmp_path: Path
) -> None:
    table = await _table(storage)
    deal_id = await _result(storage, table, {A: 30, B: -10, C: -10})
    with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as db, db:
        db.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = ?", (B,))
    (problem,) = await storage.league.rating_problems()
    assert problem.chat_id == CHAT and problem.check == "league" and str(B) in problem.what
    assert await storage.league.rebuild_ratings() == 1
    assert await storage.league.rating_problems() == []
    with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as db, db:
        db.execute(
            "UPDATE rated SET players = REPLACE(players, '[1, 30,', '[1, 40,') WHERE deal_id = ?",
            (deal_id,),
        )
    problems = [p.what for p in await storage.league.rating_problems()]
    assert problems[0].startswith(f"deal {deal_id}"), problems


async def test_a_new_season_starts_new_ratings(storage: Storage) -> None:
    table = await _table(storage)
    await _result(storage, table, {A: 30, B: -10, C: -10})
    await storage.tables.save_table(replace(table, status="closed"))
    assert await storage.money.new_season(CHAT, 0) is not None
    assert await storage.league.standings(CHAT, "frap") == []  # the new season's league is empty
    table = await _table(storage)
    await _result(storage, table, {A: -10, B: 30, C: -10})
    now = {s.user_id: s.now for s in await storage.league.standings(CHAT, "frap")}
    assert now[B] == rating.rate([Rating()] * 3, [-10, 30, -10])[1]  # from a fresh start
    seasons = {(season, uid) for _, season, _, uid, _, _ in await storage.league.ratings()}
    assert seasons == {(s, uid) for s in (0, 1) for uid in (A, B, C)}  # the first one kept
    past = {s.user_id: s.now for s in await storage.league.standings(CHAT, "frap", season=0)}
    assert past[A] == rating.rate([Rating()] * 3, [30, -10, -10])[0]  # as the season ended
    assert await storage.money.season_balances(CHAT, 0) == {A: 30, B: -10, C: -10}
    assert await storage.league.rating_problems() == []


async def test_a_supergroup_move_takes_the_league_along(storage: Storage) -> None:
    table = await _table(storage)
    await _result(storage, table, {A: 30, B: -10, C: -10})
    before = _ratings(await storage.league.ratings())
    assert await storage.chats.migrate_chat(CHAT, CHAT - 1)
    assert await storage.league.standings(CHAT, "frap") == []
    moved = {s.user_id: s.now for s in await storage.league.standings(CHAT - 1, "frap")}
    assert moved == before
    assert await storage.league.rating_problems() == []


async def test_the_evenings_change_is_since_the_last_table_of_the_game(storage: Storage) -> None:
    first = await _table(storage)
    await _result(storage, first, {A: 30, B: -10, C: -10})
    await storage.tables.save_table(replace(first, status="closed"))
    second = await _table(storage)
    await _result(storage, second, {A: -10, B: -10, C: 20})
    await _result(storage, second, {A: -10, B: 20, C: -10})
    after_first = rating.rate([Rating()] * 3, [30, -10, -10])
    standings = {s.user_id: s for s in await storage.league.standings(CHAT, "frap")}
    for uid, was in zip((A, B, C), after_first, strict=True):
        assert standings[uid].before == was and standings[uid].now.deals == 3
    other = await storage.league.standings(CHAT, "khrap")
    assert other == []  # each game apart
