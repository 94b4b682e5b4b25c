"""What the bot's computer players cost its event loop.

Run: `nice -n 15 python bench/computer_moves.py [--positions 400] [--tables 8] [--seed 1]`.

Positions are collected from deals of every game of the engine's registry (engine/games.py; each
has computer players), played by the rules level at 4 seats (each decision with a choice). Then:

- the cheap levels on the loop: the CPU time of one decision as the bot makes it on its event
  loop (the seat's knowledge, then the random or rules level);
- the strong level as the bot runs it (`bot.computer.Computers.choose`: the seat's knowledge on
  the loop, the search in a pool of worker processes, one per core): `--tables` tables think at
  once, one decision after another, every position once; printed are the wall time of a
  decision from the loop's side (queueing for a worker included), the workers' CPU time per
  decision (measured around the search inside the worker), and how late a 5 ms ticker on the
  loop ran meanwhile (the loop's lag: what a press waits while the computers think), and before,
  with nothing to do (what the machine's other load costs the loop anyway).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from typing import Any

from bot import computer
from engine.ai import LEVELS, rules_player
from engine.cards import make_deck, shuffled
from engine.games import GAMES

NAMES = ("p0", "p1", "p2", "p3")
TICK = 0.005
IDLE = 3.0


def positions(count: int, seed: int) -> list[tuple[Any, int]]:
    """Decisions with a choice, from rules-level deals of each game in turn."""
    rng = random.Random(seed)
    found: list[tuple[Any, int]] = []
    games = list(GAMES.values())
    while len(found) < count:
        game = games[len(found) % len(games)]
        rules: dict[str, Any] = {}  # each game's default
        deck = shuffled(make_deck(game.deck_size(rules, len(NAMES))), rng)
        deal = game.new(rules, NAMES, rng.randrange(len(NAMES)), deck)
        while not deal.finished and len(found) < count:
            seat = game.to_act(deal)
            assert seat is not None
            knowledge = game.knowledge(deal, seat)
            if len(knowledge.legal) > 1:
                found.append((deal, seat))
            deal, _ = deal.apply(rules_player(knowledge, rng))
    return found


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1e3:.2f} ms, p99 {_pct(values, 0.99) * 1e3:.2f} ms,"
        f" max {max(values) * 1e3:.2f} ms"
    )


def knowledge_of(deal: Any, seat: int) -> Any:
    """The seat's knowledge of a deal of any game, as the bot's computer players get it."""
    return GAMES[deal.game].knowledge(deal, seat)


def cheap(found: list[tuple[Any, int]]) -> None:
    for level in ("random", "rules"):
        times = []
        rng = random.Random(0)
        for deal, seat in found:
            start = time.process_time()
            LEVELS[level](knowledge_of(deal, seat), rng)
            times.append(time.process_time() - start)
        print(f"{level} level on the loop (knowledge + decision), CPU: {_ms(times)}")


def _timed_think(knowledge: Any, level: str, seed: int) -> float:
    """In a worker: one decision's CPU time."""
    start = time.process_time()
    LEVELS[level](knowledge, random.Random(seed))
    return time.process_time() - start


class _Timed(computer.Computers):
    """The bot's computer players, with each search's CPU time measured in its worker."""

    async def search_cpu(self, knowledge: Any) -> float:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor(), _timed_think, knowledge, "strong", self.rng.getrandbits(64)
        )


async def strong(found: list[tuple[Any, int]], tables: int) -> None:
    async def nothing(table_id: int, deal: Any, action: object) -> None:
        return None

    computers = _Timed(nothing, pause=(0, 0), rng=random.Random(1))
    # start the workers first: their start-up is no decision's time
    await asyncio.gather(*(computers.search_cpu(knowledge_of(*found[0])) for _ in range(4)))
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    walls: list[float] = []
    cpus: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            due = loop.time() + TICK
            await asyncio.sleep(TICK)
            lags.append(max(0.0, loop.time() - due))

    async def table(share: list[tuple[Any, int]]) -> None:
        for deal, seat in share:
            start = loop.time()
            knowledge = knowledge_of(deal, seat)  # as Computers._move does, on the loop
            cpus.append(await computers.search_cpu(knowledge))
            walls.append(loop.time() - start)

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(IDLE)  # the machine's own lag first: the loop with nothing to do
    idle, lags[:] = list(lags), []
    started = time.perf_counter()
    await asyncio.gather(*(table(found[i::tables]) for i in range(tables)))
    elapsed = time.perf_counter() - started
    running = False
    await tick
    await computers.close()
    print(
        f"strong level, {tables} tables thinking at once, {computers.workers} workers, "
        f"{len(found)} decisions in {elapsed:.1f} s"
    )
    print(f"  a decision's wall time from the loop: {_ms(walls)}")
    print(f"  a search's CPU time in its worker:    {_ms(cpus)}")
    print(f"  the loop's lag meanwhile (5 ms ticker): {_ms(lags)}")
    print(f"  the loop's lag before, idle for {IDLE:.0f} s:   {_ms(idle)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = positions(args.positions, args.seed)
    print(f"{len(found)} positions from {', '.join(GAMES)}")
    cheap(found)
    asyncio.run(strong(found, args.tables))


if __name__ == "__main__":
    main()
