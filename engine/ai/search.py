"""The strong level: imagine the hidden cards many times, consistently with what the seat knows,
and play each candidate action out on every imagined deal with the rules level for all seats;
choose the action that wins the most chips on average.

The same imagined deals and the same order serve every candidate (common random numbers), so the
comparison between actions is much sharper than the noise of the deals themselves. The search
stops early once no candidate can plausibly beat the rules level's choice (most decisions).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from typing import TypeVar

from ..actions import Action, Do
from ..deal import TrickDeal
from ..knowledge import Knowledge
from .games import GameAI

PLAYOUTS = 160  # per decision, shared among the candidates: bounds its time (bench/ai_strength)
MIN_SAMPLES = 12  # imagined deals per decision, however many candidates
CONFIDENCE = 2.0  # standard errors by which a gain must beat the rules level's choice
BATCH = 4  # imagined deals between looks at whether the answer is already clear
STOP = 2.0  # stop early when no gain's mean plus this many standard errors is above zero
T = TypeVar("T")


def search(
    knowledge: Knowledge,
    rng: random.Random,
    playouts: int = PLAYOUTS,
    min_samples: int = MIN_SAMPLES,
    *,
    game: GameAI,
) -> Action:
    """The candidate action with the best mean payoff over imagined deals of `game`, if it beats
    the rules level's choice by more than the noise; else that choice."""
    world, seat = knowledge.world, knowledge.seat
    legal = knowledge.legal
    if any(action.do is Do.LOOK for action in legal):
        return next(action for action in legal if action.do is Do.LOOK)  # F7: look, never dark
    candidates = game.heuristic.candidates(world, seat, legal)
    if len(candidates) == 1:
        return candidates[0]
    default = game.heuristic.choose(world, seat, legal)
    if default not in candidates:
        candidates.append(default)
    most = max(min_samples, playouts // len(candidates))

    def row() -> list[float]:
        imagined = game.sample(knowledge, rng)
        return [
            game.payoff(play_out(game, imagined.apply(action)[0]), seat) for action in candidates
        ]

    return best_of(candidates, default, row, most, min_samples)


def best_of(
    candidates: list[T], default: T, row: Callable[[], list[float]], most: int, least: int
) -> T:
    """The candidate with the best mean payoff over up to `most` imagined deals (`row` gives
    every candidate's payoff on one new deal), if it beats `default` by more than the noise; else
    `default`. After `least` deals, it stops once no candidate can plausibly beat `default`."""
    values: list[list[float]] = [[] for _ in candidates]
    at = candidates.index(default)
    gains = [(0.0, 0.0)] * len(candidates)
    while len(values[0]) < most:
        for _ in range(BATCH):
            for i, value in enumerate(row()):
                values[i].append(value)
        gains = [_gain(line, values[at]) for line in values]
        if len(values[0]) >= least and all(
            mean + STOP * error <= 0 for i, (mean, error) in enumerate(gains) if i != at
        ):
            break  # no other action can be worth more than the rules level's choice
    best, best_gain = default, 0.0
    for action, (mean, error) in zip(candidates, gains, strict=True):
        # Leave the rules level's choice only for a gain clear of the sampling noise.
        if mean > best_gain and mean > CONFIDENCE * error:
            best, best_gain = action, mean
    return best


def _gain(row: list[float], base: list[float]) -> tuple[float, float]:
    """The mean gain of a row of payoffs over the base row, and its standard error."""
    gains = [value - other for value, other in zip(row, base, strict=True)]
    return statistics.fmean(gains), statistics.stdev(gains) / math.sqrt(len(gains))


def play_out(game: GameAI, deal: TrickDeal) -> TrickDeal:
    """The deal played to its end by the rules level at every seat."""
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        action = game.heuristic.choose(deal, seat, deal.legal_actions(seat))
        deal, _ = deal.apply(action)
    return deal
