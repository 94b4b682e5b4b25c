"""Random legal 4-player deals of a game (Frap unless told) on one core: how many deals (and
actions) per second.

Run: `python bench/engine_playouts.py [--game frap|khrap|student_khrap|napoleon] [--seconds 5]
[--seed 1] [--players 4] [--profile]`.
The policy picks uniformly among the legal actions of the seat to act, skipping `look` half the
time so that dark fraps happen too; the time includes the policy and the shuffles.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from typing import Any

from engine.actions import Do
from engine.cards import make_deck, shuffled
from engine.deal import TrickDeal
from engine.games import GAMES


def play_one(
    game: type[TrickDeal], rules: dict[str, Any], players: tuple[str, ...], rng: random.Random
) -> int:
    """Play one random legal deal to its end; returns the number of actions applied."""
    deck = make_deck(game.deck_size_for(rules, len(players)))
    dealer = rng.randrange(len(players))
    deal, _ = game.create(rules, players, dealer, 10, 0, shuffled(deck, rng))
    actions = 0
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions(seat)
        if len(legal) > 1 and legal[0].do is Do.LOOK and rng.random() < 0.5:
            legal = legal[1:]
        deal, _ = deal.apply(rng.choice(legal))
        actions += 1
    return actions


def run(seconds: float, seed: int, n_players: int, game: str = "frap") -> tuple[int, int, float]:
    """Play deals for about `seconds`; returns deals, actions and the time taken."""
    rng = random.Random(seed)
    deal_class = GAMES[game]
    rules: dict[str, Any] = {}
    players = tuple(f"p{i}" for i in range(n_players))
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            actions += play_one(deal_class, rules, players, rng)
        deals += 100
        now = time.perf_counter()
        if now >= deadline:
            return deals, actions, now - start


def main() -> None:
    """Run the benchmark and print deals and actions per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="frap")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile run")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    deals, actions, elapsed = run(args.seconds, args.seed, args.players, args.game)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    print(
        f"{args.game}, {args.players} players: {deals} deals, {actions} actions "
        f"in {elapsed:.2f} s: "
        f"{deals / elapsed:,.0f} deals/s, {actions / elapsed:,.0f} actions/s"
    )


if __name__ == "__main__":
    main()
