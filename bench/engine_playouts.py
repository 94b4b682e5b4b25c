"""Random legal deals of each game on one core: how many deals (and actions) per second.

Run: `python bench/engine_playouts.py [--game all|frap|khrap|student_khrap|napoleon|preferans]
[--seconds 5] [--seed 1] [--players 4] [--profile] [--floor]`. For the Frap family the policy
picks uniformly among the legal actions of the seat to act, skipping `look` half the time so that
dark fraps happen too; for Preferans (3 or 4 players, P1) it picks uniformly among the legal
actions. The time includes the policy and the shuffles; the CPU-time figure is the one to trust
when other work shares the cores.

`--floor` (Frap family) plays the same deals again with the engine replaced by a recording of
them, whose legal actions and next state cost a lookup: what is left is the loop, the policy and
the shuffles, the most the bench could show with an engine that cost nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from engine.actions import Action, Do
from engine.cards import make_deck, shuffled
from engine.deal import TrickDeal
from engine.games import GAMES
from engine.preferans.deal import PrefDeal
from engine.preferans.outcome import PrefRules

DECK32 = make_deck(32)


def play_one(
    game: Any, rules: dict[str, Any], players: tuple[str, ...], rng: random.Random,
    trace: list[tuple[Any, list[Action]]] | None = None,
) -> int:  # fmt: skip
    """Play one random legal deal of a Frap-family game (a TrickDeal class, or `_Recording`);
    returns the number of actions applied. `trace` collects each state and its legal actions."""
    deck = make_deck(game.deck_size_for(rules, len(players)))
    dealer = rng.randrange(len(players))
    deal, _ = game.create(rules, players, dealer, 10, 0, shuffled(deck, rng))
    actions = 0
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions(seat)
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

    def __init__(self, deal: TrickDeal, legal: list[Action]) -> None:
        self.finished, self.to_act, self.legal = deal.finished, deal.to_act, legal
        self.after: _Replayed | None = None

    def legal_actions(self, seat: int) -> list[Action]:
        return self.legal

    def apply(self, action: Action) -> tuple[_Replayed | None, list[Any]]:
        return self.after, []


class _Recording:
    """A stand-in game for `--floor`: `create` hands out the recorded deals in turn."""

    def __init__(self, game: type[TrickDeal], deals: list[_Replayed]) -> None:
        self.game, self.deals = game, iter(deals)

    def deck_size_for(self, rules: dict[str, Any], n_players: int) -> int:
        return self.game.deck_size_for(rules, n_players)

    def create(self, *args: Any) -> tuple[_Replayed, list[Any]]:
        return next(self.deals), []


def floor(deals: int, seed: int, n_players: int, game: str) -> tuple[float, float]:
    """Record `deals` random deals of `game`, then time the same loop over the recording;
    returns the time taken and the CPU time of the second pass."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(n_players))
    deal_class, rules = GAMES[game], dict[str, Any]()
    recorded = []
    for _ in range(deals):
        trace: list[tuple[Any, list[Action]]] = []
        play_one(deal_class, rules, players, rng, trace)
        steps = [_Replayed(deal, legal) for deal, legal in trace]
        for step, after in pairwise(steps):
            step.after = after
        recorded.append(steps[0])
    stand_in = _Recording(deal_class, recorded)
    rng = random.Random(seed)  # the same draws again, so the policy takes the recorded path
    cpu, start = time.process_time(), time.perf_counter()
    for _ in range(deals):
        play_one(stand_in, rules, players, rng)
    return time.perf_counter() - start, time.process_time() - cpu


def play_preferans(rules: PrefRules, players: tuple[str, ...], rng: random.Random) -> int:
    """Play one random legal Preferans deal to its end; returns the number of actions applied."""
    deal, _ = PrefDeal.new(rules, players, rng.randrange(len(players)), shuffled(DECK32, rng))
    actions = 0
    while not deal.finished:
        deal, _ = deal.apply(rng.choice(deal.legal_actions()))
        actions += 1
    return actions


def run(
    seconds: float, seed: int, n_players: int, game: str = "frap"
) -> tuple[int, int, float, float]:
    """Play deals of `game` for about `seconds`; returns deals, actions, the time taken and the
    process's CPU time."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(n_players))
    one: Callable[[], int]
    if game == "preferans":
        pref_rules = PrefRules()
        one = lambda: play_preferans(pref_rules, players, rng)  # noqa: E731
    else:
        deal_class, rules = GAMES[game], {}
        one = lambda: play_one(deal_class, rules, players, rng)  # noqa: E731
    deals = actions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            actions += one()
        deals += 100
        now = time.perf_counter()
        if now >= deadline:
            return deals, actions, now - start, time.process_time() - cpu


def main() -> None:
    """Run the benchmark and print deals and actions per second for each game asked."""
    names = (*GAMES, "preferans")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("all", *names), default="all")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile run")
    parser.add_argument("--floor", action="store_true", help="also time the loop without engine")
    args = parser.parse_args()
    for game in names if args.game == "all" else (args.game,):
        # Preferans is for 3 or 4 (P1), Student Khrap 3-4, Napoleon 2-6: clamp the table.
        n_players = args.players
        if game in ("preferans", "student_khrap"):
            n_players = min(max(n_players, 3), 4)
        elif game == "napoleon":
            n_players = min(n_players, 6)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
        deals, actions, elapsed, cpu = run(args.seconds, args.seed, n_players, game)
        if args.profile:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        print(
            f"{game}, {n_players} players: {deals} deals, {actions} actions in {elapsed:.2f} s: "
            f"{deals / elapsed:,.0f} deals/s, {actions / elapsed:,.0f} actions/s "
            f"({deals / cpu:,.0f} deals/s of CPU time)"
        )
        if args.floor and game != "preferans":
            elapsed, cpu = floor(deals, args.seed, n_players, game)
            print(
                f"{game}, {n_players} players, the loop, policy and shuffles alone (--floor): "
                f"{deals / elapsed:,.0f} deals/s ({deals / cpu:,.0f} deals/s of CPU time)"
            )


if __name__ == "__main__":
    main()
