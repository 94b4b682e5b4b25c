"""The three levels of computer player. A player maps one seat's knowledge and an injected
random generator to one of the seat's legal actions; it never sees the real deal. Preferans has
its own deal, knowledge and action types (engine/preferans), so each level takes either kind."""

from __future__ import annotations

import random
from typing import Protocol, overload

from ..actions import Action
from ..knowledge import Knowledge, PrefKnowledge
from ..preferans.actions import PrefAction
from .games import AI_GAMES, GameAI, PrefAI
from .pref_search import strong as pref_strong
from .search import search


class Player(Protocol):
    """A level: the seat's knowledge and a random generator to one of its legal actions."""

    @overload
    def __call__(self, knowledge: Knowledge, rng: random.Random, /) -> Action: ...
    @overload
    def __call__(self, knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...


@overload
def random_player(knowledge: Knowledge, rng: random.Random, /) -> Action: ...
@overload
def random_player(knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...
def random_player(
    knowledge: Knowledge | PrefKnowledge, rng: random.Random, /
) -> Action | PrefAction:
    """Any legal action, uniformly."""
    if isinstance(knowledge, PrefKnowledge):
        return rng.choice(knowledge.legal)
    return rng.choice(knowledge.legal)


@overload
def rules_player(knowledge: Knowledge, rng: random.Random, /) -> Action: ...
@overload
def rules_player(knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...
def rules_player(
    knowledge: Knowledge | PrefKnowledge, rng: random.Random, /
) -> Action | PrefAction:
    """The game's readable heuristic (ai/family.py, ai/preferans.py) on what the seat knows."""
    if isinstance(knowledge, PrefKnowledge):
        pref = AI_GAMES[knowledge.world.game]
        assert isinstance(pref, PrefAI)
        return pref.choose(knowledge.world, knowledge.seat, knowledge.legal)
    game = AI_GAMES[knowledge.world.game]
    assert isinstance(game, GameAI)
    return game.heuristic.choose(knowledge.world, knowledge.seat, knowledge.legal)


@overload
def strong_player(knowledge: Knowledge, rng: random.Random, /) -> Action: ...
@overload
def strong_player(knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...
def strong_player(
    knowledge: Knowledge | PrefKnowledge, rng: random.Random, /
) -> Action | PrefAction:
    """A search over the hidden cards (ai/search.py, ai/pref_search.py)."""
    if isinstance(knowledge, PrefKnowledge):
        return pref_strong(knowledge, rng)
    return search(knowledge, rng)


LEVELS: dict[str, Player] = {
    "random": random_player,
    "rules": rules_player,
    "strong": strong_player,
}
