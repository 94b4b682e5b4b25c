"""Random legal deals of each game of the registry (engine/games.py) on one core: how many deals
(and actions) per second.

Run: `python bench/engine_playouts.py [--game all|<a game>] [--seconds 5] [--seed 1] [--players 4]
[--profile] [--floor]`. The table is clamped to the sizes the game is played at. The policy
picks uniformly among the legal actions of the seat that decides, skipping a `look` half the
time where one is listed first (so that the Frap family's dark fraps happen too). The time
includes the policy and the shuffles; the CPU-time figure is the one to trust when other work
shares the cores.

`--floor` plays the same deals again with the engine replaced by a recording of them, whose
legal actions and next state cost a lookup: what is left is the loop, the policy and the
shuffles, the most the bench could show with an engine that cost nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from dataclasses import replace
from itertools import pairwise
from typing import Any

from engine.actions import Do
from engine.cards import make_deck, shuffled
from engine.games import GAMES
from engine.gametype import Game


def play_one(
    game: Game, rules: dict[str, Any], players: tuple[str, ...], rng: random.Random,
    trace: list[tuple[Any, list[Any]]] | None = None,
) -> int:  # fmt: skip
    """Play one random legal deal of `game` (or of its recording, `floor`); returns the number of
    actions applied. `trace` collects each state and its legal actions."""
    deck = make_deck(game.deck_size(rules, len(players)))
    dealer = rng.randrange(len(players))
    deal = game.new(rules, players, dealer, shuffled(deck, rng))
    actions = 0
    while not deal.finished:
        legal = game.legal(deal)
        if trace is not None:
            trace.append((deal, legal))
        if len(legal) > 1 and legal[0].do is Do.LOOK and rng.random() < 0.5:
            legal = legal[1:]
        deal, _ = deal.apply(rng.choice(legal))
        actions += 1
    if trace is not None:
        trace.append((deal, []))
    return actions


class _Replayed:
    """One recorded state for `--floor`: its legal actions and next state cost a lookup."""

    __slots__ = ("after", "finished", "legal", "to_act")

    def __init__(self, game: Game, deal: Any, legal: list[Any]) -> None:
        self.finished, self.to_act, self.legal = deal.finished, game.to_act(deal), legal
        self.after: _Replayed | None = None

    def legal_actions(self, *seat: int) -> list[Any]:
        return self.legal

    def apply(self, action: Any) -> tuple[_Replayed | None, list[Any]]:
        return self.after, []


def floor(deals: int, seed: int, n_players: int, game: Game) -> tuple[float, float]:
    """Record `deals` random deals of `game`, then time the same loop over the recording;
    returns the time taken and the CPU time of the second pass."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(n_players))
    rules = dict[str, Any]()
    recorded = []
    for _ in range(deals):
        trace: list[tuple[Any, list[Any]]] = []
        play_one(game, rules, players, rng, trace)
        steps = [_Replayed(game, deal, legal) for deal, legal in trace]
        for step, after in pairwise(steps):
            step.after = after
        recorded.append(steps[0])
    dealt = iter(recorded)
    stand_in = replace(game, new=lambda *args: next(dealt))  # the recorded deals in turn
    rng = random.Random(seed)  # the same draws again, so the policy takes the recorded path
    cpu, start = time.process_time(), time.perf_counter()
    for _ in range(deals):
        play_one(stand_in, rules, players, rng)
    return time.perf_counter() - start, time.process_time() - cpu


def run(seconds: float, seed: int, n_players: int, game: Game) -> tuple[int, int, float, float]:
    """Play deals of `game` for about `seconds`; returns deals, actions, the time taken and the
    process's CPU time."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(n_players))
    rules: dict[str, Any] = {}
    deals = actions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            actions += play_one(game, rules, players, rng)
        deals += 100
        now = time.perf_counter()
        if now >= deadline:
            return deals, actions, now - start, time.process_time() - cpu


def main() -> None:
    """Run the benchmark and print deals and actions per second for each game asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("all", *GAMES), default="all")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile run")
    parser.add_argument("--floor", action="store_true", help="also time the loop without engine")
    args = parser.parse_args()
    for game in GAMES.values() if args.game == "all" else (GAMES[args.game],):
        n_players = min(max(args.players, game.seats.start), game.seats.stop - 1)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
        deals, actions, elapsed, cpu = run(args.seconds, args.seed, n_players, game)
        if args.profile:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        print(
            f"{game.name}, {n_players} players: {deals} deals, {actions} actions in "
            f"{elapsed:.2f} s: "
            f"{deals / elapsed:,.0f} deals/s, {actions / elapsed:,.0f} actions/s "
            f"({deals / cpu:,.0f} deals/s of CPU time)"
        )
        if args.floor:
            elapsed, cpu = floor(deals, args.seed, n_players, game)
            print(
                f"{game.name}, {n_players} players, the loop, policy and shuffles alone (--floor): "
                f"{deals / elapsed:,.0f} deals/s ({deals / cpu:,.0f} deals/s of CPU time)"
            )


if __name__ == "__main__":
    main()
