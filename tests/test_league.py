"""The chat's league through the bot: a rated result of every game (a deal played to its end, a
pulya when it is settled) moves its players' ratings in the transaction of its chips; /top
shows them by game; `python -m bot ratings --rebuild` replays the results to the same figures
and `check` holds the stored ratings to them; a practice table is not rated; a group's move to a
supergroup takes its league along."""

from __future__ import annotations

import asyncio
import json
import math
import random
import sqlite3
from pathlib import Path

import pytest

from bot import cli, rating
from bot.games import REGISTRY
from bot.rating import Rating
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser


async def _rated_evening(
    bot: RunningBot, group: FakeChat, users: list[FakeUser], game: str
) -> None:
    """A table of `game` opened and one rated result played: a deal to its end, and a match
    (a pulya) stopped after it, which settles it."""
    await open_table(bot, group, users, f"/newgame {REGISTRY[game].aliases[0]}")
    live = bot.service.table_in(GROUP_ID)
    assert live is not None
    rng = random.Random(5)
    while await bot.service.storage.history.last_finished(live.row.table_id) is None:
        mover = next(u for u in users if moves_now(control_message(bot.tg, u)))
        message = control_message(bot.tg, mover)
        assert message is not None
        await mover.press(message, data=rng.choice(moves_now(message)))
        await bot.idle()
    if bot.service.game(live).keeps_players:  # a match: settled once stopped
        await users[0].send(group, "/stopgame")
        await bot.idle()


def _chips(db: Path, deal_id: int, players: list[int]) -> list[int]:
    with sqlite3.connect(db) as conn:
        rows = dict(
            conn.execute(
                "SELECT user_id, SUM(amount) FROM ledger WHERE deal_id = ? GROUP BY user_id",
                (deal_id,),
            ).fetchall()
        )
    return [int(rows.get(uid, 0)) for uid in players]


@pytest.mark.parametrize("game", list(REGISTRY))
async def test_a_rated_result_of_each_game_reaches_top_and_survives_a_rebuild(
    tg: FakeTelegram, tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    group, users = make_players(tg, 3)
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=5) as bot:
        await _rated_evening(bot, group, users, game)
        storage = bot.service.storage
        (result,) = await storage.league.results(GROUP_ID)
        players = [uid for uid, _, _ in result.players]
        assert sorted(players) == sorted(u.id for u in users) and result.game == game
        chips = _chips(db, result.deal_id, players)
        assert [c for _, c, _ in result.players] == chips  # the deal's ledger rows
        want = rating.rate([Rating()] * 3, chips)
        got = {uid: r for _, _, g, uid, _, r in await storage.league.ratings() if g == game}
        for uid, expected in zip(players, want, strict=True):
            assert math.isclose(got[uid].mu, expected.mu) and got[uid].deals == 1
        await users[1].send(group, "/top")
        await bot.idle()
        text = bot_messages(tg, group)[-1].text or ""
        assert REGISTRY[game].title("ru") in text.splitlines()[0]
        named = {u.id: u.first_name for u in users}
        for uid, r in zip(players, want, strict=True):
            line = next(x for x in text.splitlines() if x.endswith(named[uid]))
            assert f" {r.shown}? " in line  # provisional after one result
        other = next(g for g in REGISTRY.values() if g.game != game)
        await users[1].send(group, f"/top {other.aliases[0]}")  # a game named: its own league
        await bot.idle()
        text = bot_messages(tg, group)[-1].text or ""
        assert other.title("ru") in text.splitlines()[0] and "нет рейтинга" in text
    before = json.loads(await _run_ratings(db, capsys, rebuild=False))
    after = json.loads(await _run_ratings(db, capsys, rebuild=True))
    assert [(p["player"], p["rating"], p["rated"]) for p in after] == [
        (p["player"], p["rating"], p["rated"]) for p in before
    ]
    assert all(math.isclose(a["mu"], b["mu"]) for a, b in zip(after, before, strict=True))
    assert await asyncio.to_thread(cli.check, str(db)) == 0


async def _run_ratings(db: Path, capsys: pytest.CaptureFixture[str], *, rebuild: bool) -> str:
    """`python -m bot ratings --json [--rebuild]`'s output (the command runs its own loop)."""
    capsys.readouterr()
    assert await asyncio.to_thread(cli.ratings, str(db), rebuild=rebuild, as_json=True) == 0
    return capsys.readouterr().out
