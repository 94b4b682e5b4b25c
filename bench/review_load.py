"""The bot's responsiveness while deals' reviews run: the p50/p99 of a press with reviews being
worked out on the computer players' workers, against the same presses without.

Run: `nice -n 19 python bench/review_load.py [--presses 300] [--reviews 4] [--seed 1]`.

The real bot on the fake Bot API (tests/bot_harness.py), in this process. A press is a move of a
Frap deal played by random legal presses in the players' private chats, timed from the press to
the bot being idle again (handled, every message edited); each phase is a fresh bot with the same
seed, so both time the same presses. "With reviews": `--reviews` loops keep
asking the workers for the review of the rigged Preferans deal of tests/test_review.py (a full
10-trick double-dummy review each time, as /review or the page's Review asks for a new deal),
so the workers are never idle while the presses are timed. The goal: p99 with reviews at most
1.5× p99 without.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games import review as compute
from tests.bot_harness import (
    RunningBot,
    bot_messages,
    control_message,
    make_players,
    moves_now,
    open_table,
    running_bot,
    with_button,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser
from tests.test_review import rigged_record


async def presses(
    bot: RunningBot, group: FakeChat, users: list[FakeUser], count: int, rng: random.Random
) -> list[float]:
    """`count` timed presses of the group's Frap deals (the next deal when one ends)."""
    times: list[float] = []
    tg = bot.tg
    while len(times) < count:
        movers = [(u, m) for u in users if (m := control_message(tg, u)) and moves_now(m)]
        if not movers:  # the deal is over: its result's "next deal" button
            result = with_button(bot_messages(tg, group), "n:")
            assert result is not None
            data = next(d for _, d in result.buttons if d and d[:2] == "n:")
            await users[0].press(result, data=data)
            await bot.idle()
            continue
        user, message = movers[0]
        assert message is not None
        start = time.perf_counter()
        await user.press(message, data=rng.choice(moves_now(message)))
        await bot.idle()
        times.append(time.perf_counter() - start)
        if times[-1] > 1:  # a press held up: say which
            print(f"  press {len(times)} took {times[-1]:.1f} s", flush=True)
    return times


async def reviewing(bot: RunningBot, done: list[int]) -> None:
    """Reviews of the rigged deal, one after another, until cancelled."""
    record = rigged_record()
    while True:
        await bot.service.computers.work(compute, record)
        done[0] += 1


def report(label: str, times: list[float]) -> float:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(
        f"{label}: {len(times)} presses, p50 {statistics.median(ordered) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, worst {ordered[-1] * 1000:.1f} ms",
        flush=True,
    )
    return p99


async def phase(args: argparse.Namespace, reviews: int) -> list[float]:
    """The timed presses of a fresh bot with `reviews` loops of reviews running: the same
    seed, so the same deals and the same presses in each phase."""
    with tempfile.TemporaryDirectory() as where:
        tg = FakeTelegram()
        async with tg, running_bot(tg, Path(where) / "db.sqlite3", seed=args.seed) as bot:
            await bot.service.computers.work(compute, rigged_record())  # the workers started
            rng = random.Random(args.seed)
            group, users = make_players(tg, 3)
            await open_table(bot, group, users, "/newgame frap")
            await presses(bot, group, users, 20, rng)  # warm up
            done = [0]
            loops = [asyncio.create_task(reviewing(bot, done)) for _ in range(reviews)]
            started = time.perf_counter()
            times = await presses(bot, group, users, args.presses, rng)
            took = time.perf_counter() - started
            for loop in loops:
                loop.cancel()
            for loop in loops:
                with contextlib.suppress(asyncio.CancelledError):
                    await loop
            if reviews:
                print(
                    f"reviews done meanwhile: {done[0]} ({done[0] / took:.2f}/s) on "
                    f"{bot.service.computers.workers} workers"
                )
            return times


async def run(args: argparse.Namespace) -> None:
    alone = report("without reviews", await phase(args, 0))
    busy = report(f"with {args.reviews} reviews running", await phase(args, args.reviews))
    print(f"p99 with / without: {busy / alone:.2f}× (goal ≤ 1.5×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--reviews", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
