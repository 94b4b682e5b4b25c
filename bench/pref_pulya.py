"""How long scoring a whole 100-deal Preferans pulya takes (RULES P10–P16): a sheet built deal by
deal from random legal outcomes, then settled.

Run: `python bench/pref_pulya.py [--deals 100] [--repeat 200] [--seed 1] [--players 3]`.
Prints the median and the best time for scoring the outcomes (`Pulya.add` for each, then
`balances`), and for the whole `score` path from the parsed JSON record (`load` + `report`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.preferans.outcome import SUITS, Outcome, PrefRules
from engine.preferans.pulya import Pulya
from engine.preferans.pulya_record import load, report, to_record
from engine.preferans.scoring import active_seats, defenders, has_whisting

NAMES = ["ann", "bob", "cat", "dan"]


def split(rng: random.Random, seats: list[int], players: int) -> tuple[int | None, ...]:
    """10 tricks shared at random among `seats`; None for a seat that sits out."""
    counts: list[int | None] = [0 if seat in seats else None for seat in range(players)]
    for _ in range(10):
        seat = rng.choice(seats)
        counts[seat] = (counts[seat] or 0) + 1
    return tuple(counts)


def random_outcome(rng: random.Random, sheet: Pulya) -> Outcome:
    """A legal outcome for the next deal of `sheet`: raspasy, misère or a whisted contract."""
    n, dealer = sheet.players, sheet.dealer
    seats = active_seats(n, dealer)
    roll = rng.random()
    if roll < 0.2:
        return Outcome(raspasy=split(rng, seats, n))
    declarer = rng.choice(seats)
    if roll < 0.3:
        return Outcome(declarer, "misere", tricks=split(rng, seats, n))
    contract = f"{rng.randint(6, 10)}{rng.choice(SUITS)}"
    if not has_whisting(Outcome(declarer, contract), sheet.rules):
        return Outcome(declarer, contract, tricks=split(rng, seats, n))
    calls = rng.choice([("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass")])
    defence: list[str | None] = [None] * n
    first, second = defenders(declarer, n, dealer)
    defence[first], defence[second] = calls
    if calls == ("pass", "pass"):
        return Outcome(declarer, contract, tuple(defence))
    return Outcome(declarer, contract, tuple(defence), None, split(rng, seats, n))


def pulya_of(deals: int, players: int, rng: random.Random) -> list[Outcome]:
    """`deals` random outcomes that a pulya to 50 plays without ending."""
    while True:
        sheet = Pulya.new(players, 0, PrefRules(target=50))
        outcomes: list[Outcome] = []
        while len(outcomes) < deals and not sheet.finished:
            outcome = random_outcome(rng, sheet)
            sheet = sheet.add(outcome)
            outcomes.append(outcome)
        if len(outcomes) == deals:
            return outcomes


def timed(work: Callable[[], object], repeat: int) -> list[float]:
    """Seconds each of `repeat` runs of `work` took."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Run the benchmark and print the times in milliseconds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3, choices=(3, 4))
    args = parser.parse_args()
    outcomes = pulya_of(args.deals, args.players, random.Random(args.seed))
    rules = PrefRules(target=50)

    def score_outcomes() -> tuple[int, ...]:
        sheet = Pulya.new(args.players, 0, rules)
        for outcome in outcomes:
            sheet = sheet.add(outcome)
        return sheet.balances()

    record = to_record(Pulya.new(args.players, 0, rules), NAMES[: args.players])
    record["deals"] = [outcome.to_json() for outcome in outcomes]
    for name, work in (
        ("outcomes -> balances", score_outcomes),
        ("record -> score report", lambda: report(*load(record))),
    ):
        times = timed(work, args.repeat)
        print(
            f"{args.deals}-deal pulya, {args.players} players, {name}: "
            f"median {statistics.median(times) * 1000:.2f} ms, best {min(times) * 1000:.2f} ms"
            f" ({args.repeat} runs)"
        )


if __name__ == "__main__":
    main()
