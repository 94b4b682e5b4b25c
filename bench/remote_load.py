"""The computer players' searches on the bot's own pool against remote workers (COMPUTER_BROKER).

Run: `python bench/remote_load.py [--tables 20] [--seconds 20] [--workers 1 2 4]`
(needs Debian's redis-server and the `remote` extra).

1. The remote path's overhead per decision: one worker process, Master decisions one after
   another (positions as bench/computer_moves.py collects them); a decision's wait less the
   worker's own run of it (`frap_remote_queue_seconds`: the queue and the broker's round trips).
2. Load: `--tables` practice tables think at once, each a deal after another of the engine's
   games in turn, one seat played by the rules level at once (the person) and the others by
   Masters through `bot.computer.Computers.choose`, as the bot does; between two moves of a
   table the bot's pause (`--pause`, drawn evenly: 1-2 s, its thinking included). For the bot's
   own pool (`COMPUTER_WORKERS`, one process per core) and then for 1, 2, 4 remote worker
   processes (`python -m bot worker --processes N`, on this machine at the pool's niceness),
   printed: the Master decisions a second, and the median and p99 of a decision's wait (from
   the move passing to the seat to its action: queueing for a worker included). The deadline is
   a minute here, so that every decision is a worker's and the waits compare (the bot's 5 s
   would cut the remote waits short with the rules level's moves; their count is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.computer_moves import positions
from bot import computer, metrics
from engine.ai import rules_player
from engine.cards import make_deck, shuffled
from engine.games import GAMES
from tests.redis_helpers import SECRET, RedisServer, Workers

NAMES = ("p0", "p1", "p2", "p3")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:.2f} ms, p99 {_pct(values, 0.99) * 1e3:.2f} ms"


class _Recorder:
    """Stands in for a histogram: keeps every value observed."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def observe(self, value: float) -> None:
        self.values.append(value)


def timed(knowledge: Any, level: str, seed: int) -> tuple[Any, float]:
    """A decision and its run time, in the bot's own pool (the remote path reports its own)."""
    started = time.perf_counter()
    return computer.decide(knowledge, level, seed), time.perf_counter() - started


async def overhead(url: str, count: int, seed: int) -> None:
    found = positions(count, seed)
    recorder = _Recorder()
    metrics.REMOTE_QUEUE_SECONDS = recorder  # type: ignore[assignment]
    remote = computer.Computers(_no_apply, broker=url, deadline=30, secret=SECRET)
    local = computer.Computers(_no_apply, workers=1)
    own: list[float] = []
    try:
        await remote.call(computer.decide, *_decision(found[0]), seat=found[0][1])  # connections up
        await local.call(timed, *_decision(found[0]), seat=found[0][1])  # the process up
        recorder.values.clear()
        for position in found:
            await remote.call(computer.decide, *_decision(position), seat=position[1])
            started = time.perf_counter()
            _, ran = await local.call(timed, *_decision(position), seat=position[1])
            own.append(time.perf_counter() - started - ran)
    finally:
        await remote.close()
        await local.close()
    print(f"overhead per Master decision ({count} one after another, 1 worker process):")
    print(f"  remote (wait less the worker's run): {_ms(recorder.values)}")
    print(f"  the bot's own pool, the same way: {_ms(own)}")


def _decision(position: tuple[Any, int]) -> tuple[Any, str, int]:
    deal, seat = position
    return GAMES[deal.game].knowledge(deal, seat), "strong", 1


async def _no_apply(*_: Any) -> None:
    raise AssertionError


async def table(
    computers: computer.Computers,
    number: int,
    stop: float,
    pause: tuple[float, float],
    waits: list[float],
) -> None:
    """Deals of each game in turn at one practice table until `stop` (the loop's clock)."""
    loop = asyncio.get_running_loop()
    rng = random.Random(number)
    games = list(GAMES.values())
    deals = 0
    while loop.time() < stop:
        game = games[(number + deals) % len(games)]
        deals += 1
        deck = shuffled(make_deck(game.deck_size({}, len(NAMES))), rng)
        deal = game.new({}, NAMES, rng.randrange(len(NAMES)), deck)
        while not deal.finished and loop.time() < stop:
            seat = game.to_act(deal)
            assert seat is not None
            knowledge = game.knowledge(deal, seat)
            if seat == 0 or len(knowledge.legal) == 1:  # the person, or no choice
                action = rules_player(knowledge, rng)
            else:
                started = loop.time()
                action = await computers.choose(knowledge, "strong")
                waited = loop.time() - started
                if loop.time() < stop:
                    waits.append(waited)
                await asyncio.sleep(max(0.0, rng.uniform(*pause) - waited))
            deal, _ = deal.apply(action)


async def load(tables: int, seconds: float, pause: tuple[float, float], broker: str | None) -> str:
    computers = computer.Computers(
        _no_apply, broker=broker, rng=random.Random(1), deadline=60, secret=SECRET
    )
    waits: list[float] = []
    loop = asyncio.get_running_loop()
    try:
        await _ready(computers)
        missed = _missed()
        stop = loop.time() + seconds
        await asyncio.gather(*(table(computers, n, stop, pause, waits) for n in range(tables)))
        missed = _missed() - missed
    finally:
        await computers.close()
    rate = len(waits) / seconds
    return f"{rate:.1f} decisions/s, wait {_ms(waits)}; by the rules level instead: {missed:g}"


async def _ready(computers: computer.Computers) -> None:
    """Until every worker process answers (each imports the bot first)."""
    knowledge, _, seed = _decision(positions(1, 1)[0])
    for _ in range(60):
        try:
            calls = [
                computers.call(computer.decide, knowledge, "random", seed, seat=knowledge.seat)
                for _ in range(8)
            ]
            await asyncio.gather(*calls)
            return
        except computer.Unavailable:
            continue
    raise SystemExit("the workers did not answer")


def _missed() -> float:
    return sum(metrics.REMOTE_TASKS.labels(s)._value.get() for s in ("late", "failed", "full"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--pause", type=float, nargs=2, default=(1.0, 2.0))
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--decisions", type=int, default=200, help="for the overhead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--overhead-only", action="store_true", help="no load")
    options = parser.parse_args()
    pause = (options.pause[0], options.pause[1])
    with RedisServer() as redis:
        with Workers(redis.url, 1):
            asyncio.run(overhead(redis.url, options.decisions, options.seed))
        if options.overhead_only:
            return
        print(
            f"{options.tables} practice tables of Masters for {options.seconds:g} s, "
            f"pause {pause[0]:g}-{pause[1]:g} s:"
        )
        local = asyncio.run(load(options.tables, options.seconds, pause, None))
        print(f"  the bot's own pool ({computer.cores()} processes): {local}")
        for count in options.workers:
            with Workers(redis.url, count, nice=computer.WORKER_NICENESS):  # as the pool's
                result = asyncio.run(load(options.tables, options.seconds, pause, redis.url))
            print(f"  {count} remote worker process{'es' if count > 1 else ''}: {result}")


if __name__ == "__main__":
    main()
