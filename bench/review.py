"""The review of a finished deal (engine/review.py): CPU time per deal.

Run: `nice -n 19 python bench/review.py [--deals 100] [--seed 1] [--napoleon-players 3,4,6]`.

Preferans: seeded deals played by the rules level at every seat, the first `--deals` of them
that were played out as a contract or misère (raspasy and unwhisted contracts are not searched
card by card and cost nothing); each is reviewed from its record by a fresh review (the contract
in every trump, then every legal card of every card played) and the bench prints the median, the
90th percentile and the worst CPU time (process time). Napoleon: the same for `--deals` deals at
each table size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games import GAMES
from tests.engine_helpers import rules_played


def timed(game: str, records: list[dict[str, Any]]) -> list[float]:
    """CPU seconds of each record's review, sorted."""
    review = GAMES[game].review
    times = []
    for record in records:
        start = time.process_time()
        review(record)
        times.append(time.process_time() - start)
    return sorted(times)


def report(label: str, times: list[float]) -> None:
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(
        f"{label}: {len(times)} deals, median {statistics.median(times):.3f} s, "
        f"p90 {p90:.3f} s, worst {times[-1]:.3f} s (CPU)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--napoleon-players", default="3,4,6")
    args = parser.parse_args()
    rng = random.Random(f"review/{args.seed}")
    records: list[dict[str, Any]] = []
    while len(records) < args.deals:
        record = rules_played("preferans", rng, 3)
        actions = record["actions"]
        played_out = sum(entry["do"] == "play" for entry in actions) == 30
        if played_out and any(entry["do"] == "bid" for entry in actions):  # not raspasy
            records.append(record)
    report("Preferans, a 10-trick deal played out", timed("preferans", records))
    for players in map(int, args.napoleon_players.split(",")):
        rng = random.Random(f"review/napoleon/{args.seed}/{players}")
        deals = [rules_played("napoleon", rng, players) for _ in range(args.deals)]
        report(f"Napoleon, {players} players", timed("napoleon", deals))


if __name__ == "__main__":
    main()
