"""The strong level: imagine the hidden cards many times, consistently with what the seat knows,
and play each candidate action out on every imagined deal with the rules level for all seats;
choose the action that wins the most chips on average.

The same imagined deals and the same order serve every candidate (common random numbers), so the
comparison between actions is much sharper than the noise of the deals themselves.
"""

from __future__ import annotations

import random

from ..actions import Action
from ..deal import TrickDeal
from ..knowledge import Knowledge
from .games import AI_GAMES, GameAI

PLAYOUTS = 240  # per decision, shared among the candidates: bounds its time (bench/ai_strength)
MIN_SAMPLES = 12  # imagined deals per decision, however many candidates


def search(
    knowledge: Knowledge,
    rng: random.Random,
    playouts: int = PLAYOUTS,
    min_samples: int = MIN_SAMPLES,
) -> Action:
    """The candidate action with the best mean payoff over imagined deals (ties: the rules
    level's choice, then the first listed)."""
    game = AI_GAMES[knowledge.world.game]
    world, seat = knowledge.world, knowledge.seat
    candidates = game.heuristic.candidates(world, seat, knowledge.legal)
    if len(candidates) == 1:
        return candidates[0]
    default = game.heuristic.choose(world, seat, knowledge.legal)
    samples = max(min_samples, playouts // len(candidates))
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        imagined = game.sample(knowledge, rng)
        for i, action in enumerate(candidates):
            after, _ = imagined.apply(action)
            totals[i] += game.payoff(play_out(game, after), seat)
    best = max(
        range(len(candidates)),
        key=lambda i: (totals[i], candidates[i] == default, -i),
    )
    return candidates[best]


def play_out(game: GameAI, deal: TrickDeal) -> TrickDeal:
    """The deal played to its end by the rules level at every seat."""
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        action = game.heuristic.choose(deal, seat, deal.legal_actions(seat))
        deal, _ = deal.apply(action)
    return deal
