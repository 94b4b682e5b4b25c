"""The exact Preferans solvers' speed per tricks left.

Run: `nice -n 19 python bench/pref_solver.py [--positions 30] [--left 4,6,8,10] [--seed 1]
[--solvers old,new]`.

Positions come from seeded deals played by the rules level at every seat (trick contracts,
misère, raspasy as they fall), stopped with the player to move holding `left` cards; each solver
scores every legal card of that player (one solver a position, its table shared by the cards),
and the bench prints the median and p90 of the CPU time (process time) a position per solver.
`old` is the alpha-beta solver the strong level used before ai/pref_dd.py (kept in tests/ as the
reference); it knows no raspasy talon trick, so both are timed on the positions without one,
and `new` once more on all of them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai import preferans as rules
from engine.ai.pref_dd import DDSolver
from engine.cards import make_deck, shuffled
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.outcome import PrefRules
from tests.pref_solver_reference import Solver

NAMES = ("p0", "p1", "p2")
SOLVERS: dict[str, Callable[[PrefDeal], object]] = {"old": Solver, "new": DDSolver}


def position(rng: random.Random, left: int) -> PrefDeal:
    """A deal played by the rules level until the player to move holds `left` cards."""
    while True:
        deck = shuffled(make_deck(32), rng)
        deal, _ = PrefDeal.new(PrefRules(), NAMES, rng.randrange(3), deck)
        while not deal.finished:
            at_left = deal.phase is Phase.PLAY and len(deal.hands[deal.turn or 0]) == left
            if at_left and len(deal.legal_actions()) > 1:
                return deal
            seat = deal.controller
            assert seat is not None
            deal, _ = deal.apply(rules.choose(deal, seat, deal.legal_actions()))


def timed(make: Callable[[PrefDeal], object], deal: PrefDeal) -> float:
    """CPU seconds to score every legal card of the player to move."""
    start = time.process_time()
    solver = make(deal)
    for action in deal.legal_actions():
        solver.after(action.seat, action.card)  # type: ignore[attr-defined]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--left", default="4,6,8,10")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solvers", default="old,new")
    args = parser.parse_args()
    for left in map(int, args.left.split(",")):
        rng = random.Random(f"{args.seed}/{left}")
        deals = [position(rng, left) for _ in range(args.positions)]
        common = [d for d in deals if not (d.raspasy and len(d.tricks_played) < 2)]
        for name in args.solvers.split(","):
            sets = (
                [("", common)] if name == "old" else [("", common), (" (talon tricks too)", deals)]
            )
            for note, chosen in sets:
                if note and len(chosen) == len(common):
                    continue
                times = sorted(timed(SOLVERS[name], d) for d in chosen)
                p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
                print(
                    f"{left} tricks left, {name}{note}: {len(times)} positions, median "
                    f"{1000 * statistics.median(times):.1f} ms, p90 {1000 * p90:.1f} ms (CPU)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
