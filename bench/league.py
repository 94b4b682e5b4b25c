"""What rating a result costs: the CPU time of a deal's last step with and without the league.

Run: `python bench/league.py [--deals 400] [--players 4]`.

A fresh database (a temporary file, WAL, as the bot opens it) gets `--deals` finished deals of
one table, each a start and a last step booking every player's chips; the last step rates its
players (`rated=`, bot/storage/league.py) on every other deal and not on the others, so the two
are timed by turns on the same machine at the same moment (it is shared and noisy). The figure
is the process's CPU time of the step (the transaction runs on aiosqlite's thread), its median
and p90 for each, and their difference: what a rated result adds to its step. The model's own
update (`bot.rating.rate`) is timed alone too, at 3, 4 and 7 seats.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bot import rating
from bot.rating import Rating
from bot.storage import Movement, Storage

CHAT = -1


async def steps(deals: int, players: int) -> tuple[list[float], list[float]]:
    """The CPU seconds of each last step: (without rating, with it), by turns."""
    plain: list[float] = []
    rated: list[float] = []
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(str(Path(tmp) / "db.sqlite3"))
        try:
            await storage.chats.chat(CHAT, "Bench")
            table = await storage.tables.create_table(CHAT, "frap", 1)
            assert table is not None
            seats = tuple(range(1, players + 1))
            table = replace(table, status="playing", seats=seats)
            for n in range(1, deals + 1):
                table = replace(table, deal_no=n)
                deal_id = await storage.tables.start_deal(table, {}, [])
                chips = [rng.randrange(-40, 41) for _ in seats]
                moves = [Movement(uid, c, "trick") for uid, c in zip(seats, chips, strict=True)]
                rate = n % 2 == 0
                started = time.process_time()
                await storage.tables.save_step(
                    table, deal_id, {}, moves, finished=True, rated=seats if rate else ()
                )
                (rated if rate else plain).append(time.process_time() - started)
        finally:
            await storage.close()
    return plain, rated


def model(players: int, runs: int = 2000) -> float:
    """The median CPU seconds of one update of `players` ratings."""
    rng = random.Random(players)
    before = [Rating()] * players
    times = []
    for _ in range(runs):
        chips = [rng.randrange(-40, 41) for _ in range(players)]
        started = time.process_time()
        before = rating.rate(before, chips)
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for n in (3, 4, 7):
        print(f"rating.rate, {n} seats: median {model(n) * 1e3:.3f} ms")
    plain, rated = asyncio.run(steps(args.deals, args.players))

    def p90(xs: list[float]) -> float:
        return statistics.quantiles(xs, n=10)[-1]

    for label, xs in (("last step, not rated", plain), ("last step, rated", rated)):
        print(f"{label}: median {statistics.median(xs) * 1e3:.3f} ms, p90 {p90(xs) * 1e3:.3f} ms")
    added = statistics.median(rated) - statistics.median(plain)
    print(f"a rated result adds (median): {added * 1e3:.3f} ms CPU to its step")


if __name__ == "__main__":
    main()
