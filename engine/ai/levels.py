"""The three levels of computer player. A player maps one seat's knowledge and an injected
random generator to one of the seat's legal actions; it never sees the real deal."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import Action
from ..knowledge import Knowledge
from .games import AI_GAMES
from .search import search

Player = Callable[[Knowledge, random.Random], Action]


def random_player(knowledge: Knowledge, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(knowledge.legal)


def rules_player(knowledge: Knowledge, rng: random.Random) -> Action:
    """The game's readable heuristic (ai/family.py) on what the seat knows."""
    game = AI_GAMES[knowledge.world.game]
    return game.heuristic.choose(knowledge.world, knowledge.seat, knowledge.legal)


def strong_player(knowledge: Knowledge, rng: random.Random) -> Action:
    """A search over the hidden cards (ai/search.py)."""
    return search(knowledge, rng)


LEVELS: dict[str, Player] = {
    "random": random_player,
    "rules": rules_player,
    "strong": strong_player,
}
