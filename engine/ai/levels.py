"""The three levels of computer player. A player maps one seat's knowledge and an injected
random generator to one of the seat's legal actions; it never sees the real deal. Each game's
knowledge is its own kind (engine/knowledge.py, engine/preferans/knowledge.py) and its rules and
strong levels are its registry entry's (engine/games.py `Computer`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar, overload

from ..actions import Action
from ..gametype import Computer
from ..knowledge import Knowledge
from ..preferans.actions import PrefAction
from ..preferans.knowledge import PrefKnowledge

A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)


class _World(Protocol):
    @property
    def game(self) -> str: ...


class Seen(Protocol[A_co]):
    """What any game's seat knowledge gives a player: the seat, its world, its legal actions."""

    @property
    def seat(self) -> int: ...
    @property
    def world(self) -> _World: ...
    @property
    def legal(self) -> Sequence[A_co]: ...


class Player(Protocol):
    """A level: the seat's knowledge and a random generator to one of its legal actions."""

    @overload
    def __call__(self, knowledge: Knowledge, rng: random.Random, /) -> Action: ...
    @overload
    def __call__(self, knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...


# The overloads keep callers' types exact for today's kinds of knowledge; the bodies read only
# `Seen` and the registry, so they serve any game's.
@overload
def random_player(knowledge: Knowledge, rng: random.Random, /) -> Action: ...
@overload
def random_player(knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...
def random_player(knowledge: Seen[A], rng: random.Random, /) -> A:
    """Any legal action, uniformly."""
    return rng.choice(knowledge.legal)


@overload
def rules_player(knowledge: Knowledge, rng: random.Random, /) -> Action: ...
@overload
def rules_player(knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...
def rules_player(knowledge: Seen[A], rng: random.Random, /) -> A:
    """The game's readable heuristic (ai/family.py, ai/preferans.py) on what the seat knows."""
    action: A = _computer(knowledge).choose(knowledge.world, knowledge.seat, knowledge.legal)
    return action


@overload
def strong_player(knowledge: Knowledge, rng: random.Random, /) -> Action: ...
@overload
def strong_player(knowledge: PrefKnowledge, rng: random.Random, /) -> PrefAction: ...
def strong_player(knowledge: Seen[A], rng: random.Random, /) -> A:
    """A search over the hidden cards (ai/search.py, ai/pref_search.py)."""
    action: A = _computer(knowledge).strong(knowledge, rng)
    return action


def _computer(knowledge: Seen[object]) -> Computer:
    """The computer player of the knowledge's game. (The registry names every game's player from
    this package, so it is read at the first move, not when this module loads.)"""
    from ..games import GAMES

    return GAMES[knowledge.world.game].computer


LEVELS: dict[str, Player] = {
    "random": random_player,
    "rules": rules_player,
    "strong": strong_player,
}
