"""The computer players' searches on remote workers (COMPUTER_BROKER, bot/remote.py), against a
real Redis (Debian's redis-server on a free port of 127.0.0.1) and real `python -m bot worker`
processes: a seeded practice deal plays the same as on the bot's own pool; a task carries the
seat's knowledge only; a worker SIGKILLed mid-call, the broker stopped and started again
mid-deal, and a call past its deadline leave the seat moving by the rules level, once, and play
goes back to the workers when they are back.

Skipped only outside CI when no redis-server is installed (.ci/run installs it); in CI a missing
one fails.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.installed import require
from tests.redis_helpers import REDIS, SECRET, RedisServer, Workers

require(REDIS, "redis-server", "redis-server", "remote")

from redis import Redis  # noqa: E402

from bot import computer, metrics, remote, wire  # noqa: E402
from bot.games.family.table import deal as deal_of  # noqa: E402
from engine.ai import rules_player  # noqa: E402
from engine.cards import make_deck, shuffled  # noqa: E402
from engine.games import GAMES  # noqa: E402
from tests.bot_harness import bot_messages, make_players, running_bot  # noqa: E402
from tests.fakebot import FakeTelegram  # noqa: E402
from tests.test_bot_computer import QUICK, _data, _lobby_id, _lobby_with_computers  # noqa: E402
from tests.test_bot_computer import _play_deal as play_deal  # noqa: E402

DEADLINE = 10.0  # long enough for a loaded machine: no stand-in move in the same-results test


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


@pytest.fixture
def workers(redis_server: RedisServer) -> Iterator[Workers]:
    with Workers(redis_server.url, 2) as running:
        yield running


def _count(state: str) -> float:
    return metrics.REMOTE_TASKS.labels(state)._value.get()


async def _ready(url: str, timeout: float = 60) -> None:
    """Until a worker answers (its processes import the bot first)."""
    client = remote.Remote(url, SECRET, computer.TASKS)
    knowledge = _master_position()
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                move = await client.call(
                    computer.decide, knowledge, "random", 1, seat=knowledge.seat, timeout=3
                )
                assert move == computer.decide(knowledge, "random", 1)
                return
            except remote.Failed:
                assert time.monotonic() < deadline, "no worker answered"
    finally:
        await client.close()


def _queued(url: str) -> int:
    with Redis.from_url(url) as redis:
        return int(redis.llen(remote.QUEUE))


async def _practice_deal(
    db: Path, *, seed: int, during: Any = None, then: Any = None, **settings: Any
) -> list[Any]:
    """A practice Frap table of Alice and three Masters, on a fake Bot API of its own: one
    seeded deal, Alice pressing seeded random moves; its actions. `during()` is called once
    eight actions are played, `then(bot)` awaited when the deal is over."""
    async with (
        FakeTelegram(bot_username="frapbot") as tg,
        running_bot(tg, db, seed=seed, **QUICK, **settings) as bot,
    ):
        _, (alice,) = make_players(tg, 1)
        await alice.start()
        await alice.send(alice.dm, "/newgame frap")
        await bot.idle()
        lobby = bot_messages(tg, alice)[-1]
        for _ in range(3):  # the Amateurs seated at a practice table stand up for Masters
            await alice.press(lobby, data=_data(lobby, f"m:{_lobby_id(lobby)}:-"))
            await bot.idle()
        lobby = await _lobby_with_computers(bot, alice.dm, alice, ["strong"] * 3)
        await alice.press(lobby, data=_data(lobby, "s:"))
        live = bot.service.table_in(alice.id)
        assert live is not None
        watcher = asyncio.create_task(_call_at(tg, live, 8, during))
        await play_deal(bot, live, [alice], random.Random(seed))
        await watcher
        assert await bot.service.storage.check() == []
        if then is not None:
            await then(bot)
        return list(deal_of(live).actions)


async def test_a_seeded_practice_deal_plays_the_same_on_local_and_remote_workers(
    tmp_path: Path, redis_server: RedisServer, workers: Workers
) -> None:
    """The task carries the seed: three Masters' deal is card for card the one the bot's own
    worker pool plays, and every Master decision was run by a worker."""
    local = await _practice_deal(tmp_path / "local.sqlite3", seed=12)
    await _ready(redis_server.url)
    run = _count("run")
    settings = {"computer_broker": redis_server.url, "computer_deadline": DEADLINE}
    settings["computer_secret"] = SECRET
    remote_deal = await _practice_deal(tmp_path / "remote.sqlite3", seed=12, **settings)
    assert remote_deal == local
    assert _count("run") - run >= 5  # the Masters' searches went to the workers


async def test_a_task_carries_only_what_the_seat_may_know(redis_server: RedisServer) -> None:
    """The call a Master's decision sends (no worker takes it here) is the same whichever way
    the other hands lie: the seat's knowledge (engine/knowledge.py), the level, the seed."""
    game = GAMES["frap"]
    names = ("p0", "p1", "p2", "p3")
    deck = shuffled(make_deck(game.deck_size({}, 4)), random.Random(4))
    deal = game.new({}, names, 0, deck)
    seat = game.to_act(deal)
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    swapped = deal.copy()  # two other players' hands change places
    hands = list(deal.hands)
    hands[others[0]], hands[others[1]] = hands[others[1]], hands[others[0]]
    swapped.hands = tuple(hands)
    assert swapped.hands != deal.hands
    client = remote.Remote(redis_server.url, SECRET, computer.TASKS)
    sent = []
    try:
        for position in (deal, swapped):
            knowledge = game.knowledge(position, seat)
            with pytest.raises(remote.Late):
                await client.call(computer.decide, knowledge, "strong", 7, seat=seat, timeout=0.2)
            with Redis.from_url(redis_server.url) as redis:
                body = redis.rpop(remote.QUEUE)
            task = json.loads(body.partition(b"\n")[2])  # what a worker would be given
            args = tuple(wire.decode(arg) for arg in task["args"])
            assert task["fn"] == "decide" and args == (knowledge, "strong", 7)
            assert task["seat"] == seat
            sent.append(args)
    finally:
        await client.close()
    assert sent[0] == sent[1]  # nothing of where the hidden cards lie


async def test_a_worker_killed_mid_call_leaves_the_rules_level_to_move_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGKILL to the worker process that took a call: no value by the deadline, the rules
    level's move instead, one line in the log; the killed process is replaced and the next
    decision is a worker's again."""
    with Workers(redis_server.url, 1) as workers:
        await _ready(redis_server.url)
        computers = computer.Computers(
            _no_apply, broker=redis_server.url, deadline=1.5, rng=random.Random(3), secret=SECRET
        )
        try:
            (pid,) = workers.children()
            os.kill(pid, signal.SIGSTOP)  # in its wait for a call: Redis still hands it one
            knowledge = _master_position()
            slow = asyncio.create_task(
                computers.call(computer.decide, knowledge, "strong", 1, seat=knowledge.seat)
            )
            started = time.monotonic()
            await _until(lambda: _queued(redis_server.url) == 0)  # the worker took it
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(computer.Unavailable) as late:
                await slow
            assert isinstance(late.value.__cause__, remote.Late)
            assert time.monotonic() - started < 3
            seed = random.Random(3).getrandbits(64)
            caplog.set_level(logging.WARNING, logger="bot.computer")
            await _until(lambda: workers.children() not in ([], [pid]), timeout=30)
            await _ready(redis_server.url)
            run = _count("run")
            move = await computers.choose(knowledge, "strong")
            assert move == computer.decide(knowledge, "strong", seed)
            assert _count("run") == run + 1
        finally:
            await computers.close()


async def test_more_calls_at_once_than_a_connection_pool_holds(workers: Workers) -> None:
    """150 calls in flight (a table each): each waits on a connection of its own, and redis-py's
    pool stops at 100 by default; every one is answered by the workers, none fails."""
    await _ready(workers.url)
    client = remote.Remote(workers.url, SECRET, computer.TASKS, queue_max=150)
    knowledge = _master_position()
    try:
        values = await asyncio.gather(
            *(
                client.call(
                    computer.decide, knowledge, "random", n, seat=knowledge.seat, timeout=DEADLINE
                )
                for n in range(150)
            )
        )
    finally:
        await client.close()
    assert values == [computer.decide(knowledge, "random", n) for n in range(150)]


async def test_a_call_past_its_deadline_is_made_by_the_rules_level_and_never_used(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The only worker is stopped (SIGSTOP): the Master's call waits out its deadline, the seat
    moves by the rules level, logged in one line; let go, the worker skips the stale call, and
    the next call is the workers' again, logged in one more line."""
    with Workers(redis_server.url, 1) as workers:
        await _ready(redis_server.url)
        (pid,) = workers.children()
        computers = computer.Computers(
            _no_apply, broker=redis_server.url, deadline=0.5, rng=random.Random(5), secret=SECRET
        )
        knowledge = _master_position()
        seeds = random.Random(5)
        caplog.set_level(logging.WARNING, logger="bot.computer")
        try:
            os.kill(pid, signal.SIGSTOP)
            late = _count("late")
            started = time.monotonic()
            move = await computers.choose(knowledge, "strong")
            assert time.monotonic() - started < 1.5
            assert move == rules_player(knowledge, random.Random(seeds.getrandbits(64)))
            assert _count("late") == late + 1
            assert [r.message for r in caplog.records] == [
                "the computer players' workers gave no move (no result in 0.5 s); "
                "the rules level moves until they do"
            ]
            os.kill(pid, signal.SIGCONT)
            await _until(lambda: _queued(redis_server.url) == 0)  # taken, and skipped
            computers.deadline = DEADLINE
            move = await computers.choose(knowledge, "strong")
            assert move == computer.decide(knowledge, "strong", seeds.getrandbits(64))
            assert len(caplog.records) == 2 and "answer again" in caplog.records[1].message
        finally:
            os.kill(pid, signal.SIGCONT)
            await computers.close()


async def test_the_broker_stopped_and_started_again_mid_deal(
    tmp_path: Path, redis_server: RedisServer, workers: Workers
) -> None:
    """Redis dies a quarter into a practice deal of three Masters: the Masters move by the rules
    level meanwhile, the deal never stalls and ends with the ledger sound; Redis back on the
    same port, the workers take the calls again."""
    await _ready(redis_server.url)
    failed = _count("failed")
    restarted: list[asyncio.Task[None]] = []

    def outage() -> None:
        redis_server.stop()
        restarted.append(asyncio.create_task(_start_after(redis_server, 1.5)))

    async def then(bot: Any) -> None:
        await restarted[0]
        await _ready(redis_server.url)
        run = _count("run")
        knowledge = _master_position()
        await bot.service.computers.choose(knowledge, "strong")
        assert _count("run") == run + 1  # the bot's own client is back on the broker

    settings = {"computer_broker": redis_server.url, "computer_deadline": DEADLINE}
    settings["computer_secret"] = SECRET
    actions = await _practice_deal(
        tmp_path / "db.sqlite3", seed=12, during=outage, then=then, **settings
    )
    assert len(actions) > 8
    assert _count("failed") > failed  # the calls the outage refused


async def _call_at(tg: FakeTelegram, live: Any, steps: int, during: Any) -> None:
    if during is not None:
        await tg.wait_for(lambda: len(getattr(deal_of(live), "actions", ())) >= steps, timeout=60)
        during()


async def _start_after(server: RedisServer, seconds: float) -> None:
    await asyncio.sleep(seconds)
    server.start()


async def _until(condition: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


async def _no_apply(*_: Any) -> None:
    raise AssertionError("not at a table")


def _master_position() -> Any:
    """A decision with a choice, of a Frap deal."""
    game = GAMES["frap"]
    rng = random.Random(9)
    deck = shuffled(make_deck(game.deck_size({}, 4)), rng)
    deal = game.new({}, ("p0", "p1", "p2", "p3"), 0, deck)
    while True:
        seat = game.to_act(deal)
        assert seat is not None
        knowledge = game.knowledge(deal, seat)
        if len(knowledge.legal) > 1:
            return knowledge
        deal, _ = deal.apply(knowledge.legal[0])


# ---- as an attacker who can write to Redis (but has no COMPUTER_SECRET) ---------------------


class _Touch:
    """A pickle that, read, creates a file (any code would run as well)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return os.system, (f"touch {self.path}",)


def _push(url: str, *messages: bytes) -> None:
    with Redis.from_url(url) as redis:
        redis.lpush(remote.QUEUE, *messages)


@pytest.fixture
def attacked(tmp_path: Path) -> Path:
    """The file a task that ran the attacker's code would create."""
    return tmp_path / "owned"


async def test_a_pickle_on_the_task_list_runs_nothing(workers: Workers, attacked: Path) -> None:
    """A pickle pushed on the calls' list, as taskiq's own message or bare, is dropped unread;
    the workers go on answering."""
    await _ready(workers.url)
    taskiq_shaped = {
        "task_id": "x",
        "task_name": remote.TASK,
        "labels": {},
        "args": ["os:system", (f"touch {attacked}",), time.time() + 60],
        "kwargs": {},
    }
    _push(workers.url, pickle.dumps(_Touch(attacked)), pickle.dumps(taskiq_shaped))
    await _until(lambda: _queued(workers.url) == 0)
    await _ready(workers.url, timeout=10)  # the workers keep serving, after both
    assert not attacked.exists()


async def test_a_task_naming_another_function_is_refused(workers: Workers, attacked: Path) -> None:
    """A task naming `os:system` (or anything but the workers' own tasks) runs nothing: unsigned,
    or signed with another key, it is dropped unanswered; even signed with the secret (a bot
    that names a task the workers lack) it is refused, and its caller gets an error at once,
    counted as failed, not a wait until the deadline."""
    await _ready(workers.url)
    data = {
        "v": remote.STAMP,
        "id": "forged",
        "fn": "os:system",
        "args": [f"touch {attacked}"],
        "expires": time.time() + 60,
        "seat": 1,
    }
    unsigned = json.dumps(data).encode()
    other_key = remote._sign(b"x" * 32, remote._FOR_TASK, data)
    _push(workers.url, unsigned, b"0" * 64 + b"\n" + unsigned, other_key)
    client = remote.Remote(workers.url, SECRET, {**computer.TASKS, "os:system": os.system})
    failed = _count("failed")
    try:
        started = time.monotonic()
        with pytest.raises(remote.Failed, match="no task 'os:system'"):
            await client.call(os.system, f"touch {attacked}", seat=1, timeout=DEADLINE)
        assert time.monotonic() - started < DEADLINE / 2
    finally:
        await client.close()
    assert _count("failed") == failed + 1
    assert _queued(workers.url) == 0
    with Redis.from_url(workers.url) as redis:
        assert not redis.exists(remote.RESULT + "forged")  # nothing answered the others
    await _ready(workers.url, timeout=10)
    assert not attacked.exists()


@pytest.mark.parametrize(
    "forgery",
    ["signature", "task", "seat", "version", "unsigned"],
    ids=["bad-signature", "another-task", "another-seat", "another-version", "a-pickle"],
)
async def test_a_forged_result_is_refused_and_the_rules_level_moves_at_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture, forgery: str
) -> None:
    """Someone takes each call off the list and answers it with a move of his own: signed with
    another key, signed for another call or another seat (a genuine answer replayed), or a
    pickle. Each is refused before its value is read, counted, logged once a minute however
    many come, and the seat moves by the rules level at once, long before the deadline. (So is
    one signed but of another version: a bot and workers of two versions, a line a minute.)"""
    knowledge = _master_position()
    computers = computer.Computers(
        _no_apply, broker=redis_server.url, deadline=5, rng=random.Random(8), secret=SECRET
    )
    seeds = random.Random(8)
    rules = rules_player(knowledge, random.Random(1))
    forged_move = next(a for a in knowledge.legal if a != rules)

    def answer(task: dict[str, Any]) -> bytes:
        data = {"v": remote.STAMP, "id": task["id"], "seat": task["seat"]}
        data["value"] = wire.encode(forged_move)
        if forgery == "unsigned":
            return pickle.dumps(forged_move)
        if forgery == "task":
            data["id"] = "another call"
        if forgery == "seat":
            data["seat"] = task["seat"] + 1
        if forgery == "version":
            data["v"] = 1  # a worker of version 1
        key = b"x" * 32 if forgery == "signature" else SECRET.encode()
        return remote._sign(key, remote._FOR_RESULT, data)

    async def forger() -> None:
        with Redis.from_url(redis_server.url) as redis:
            while True:
                got = await asyncio.to_thread(redis.brpop, [remote.QUEUE], 1)
                if got is not None:
                    task = json.loads(got[1].partition(b"\n")[2])
                    redis.rpush(remote.RESULT + task["id"], answer(task))

    caplog.set_level(logging.WARNING, logger="bot.remote")
    before = metrics.REMOTE_REFUSED.labels(forgery)._value.get()
    forging = asyncio.create_task(forger())
    try:
        for _ in range(3):
            started = time.monotonic()
            move = await computers.choose(knowledge, "strong")
            assert time.monotonic() - started < 2  # not the 5-s deadline
            assert move == rules_player(knowledge, random.Random(seeds.getrandbits(64)))
    finally:
        forging.cancel()
        await computers.close()
    assert metrics.REMOTE_REFUSED.labels(forgery)._value.get() == before + 3
    lines = [r.message for r in caplog.records if r.name == "bot.remote"]
    assert len(lines) == 1 and lines[0].startswith("refused result")


def test_a_message_of_another_version_or_other_classes_is_refused() -> None:
    """Signed with the secret but of version 1 (a record by its class's name), or of this
    version from a bot or worker whose wire classes differ (their numbers would mean other
    classes): refused as of another version, unread."""
    key = SECRET.encode()
    data = {"id": "a", "seat": 1, "value": wire.encode(("PASS",))}
    opened = remote._open(
        key, remote._FOR_RESULT, remote._sign(key, remote._FOR_RESULT, {"v": remote.STAMP, **data})
    )
    assert opened["value"] == {"T": ["PASS"]}
    for stamp in (1, "1", f"{remote.VERSION}.{'0' * 12}", f"{remote.VERSION}", None):
        body = remote._sign(key, remote._FOR_RESULT, {"v": stamp, **data})
        with pytest.raises(remote.Refused) as refused:
            remote._open(key, remote._FOR_RESULT, body)
        assert refused.value.reason == "version"


async def test_a_flooded_queue_makes_the_rules_level_move_at_once(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Thousands of stale calls on the list (a flood, or a backlog from an outage): a Master's
    call is not even sent, the rules level moves at once; the worker skips them all writing a
    line or two, not one a task, and then answers again."""
    stale = {"v": remote.STAMP, "fn": "decide", "args": [], "expires": time.time() - 1}
    flood = [
        remote._sign(SECRET.encode(), remote._FOR_TASK, {**stale, "id": str(i), "seat": 0})
        for i in range(3000)
    ]
    _push(redis_server.url, *flood)
    knowledge = _master_position()
    computers = computer.Computers(
        _no_apply, broker=redis_server.url, deadline=5, rng=random.Random(2), secret=SECRET
    )
    full = _count("full")
    try:
        started = time.monotonic()
        move = await computers.choose(knowledge, "strong")
        assert time.monotonic() - started < 1
        assert move == rules_player(knowledge, random.Random(random.Random(2).getrandbits(64)))
        assert _count("full") == full + 1
        assert _queued(redis_server.url) == len(flood)  # this call was not added to them
        log = tmp_path / "worker.log"
        with Workers(redis_server.url, 1, log=log):
            await _until(lambda: _queued(redis_server.url) == 0, timeout=120)
            await _ready(redis_server.url)
    finally:
        await computers.close()
    lines = log.read_text().splitlines()
    assert len(lines) <= 5, lines[:10]
    assert any("skipped a task taken" in line for line in lines)
