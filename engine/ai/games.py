"""The computer players' side of each game, by the name hand records use: one entry per game,
so a new game (Napoleon, Preferans) plugs in by registering its own `GameAI`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..actions import Action
from ..cards import Card
from ..deal import TrickDeal
from ..knowledge import Knowledge
from ..student import JOKER
from .family import FamilyRules
from .sample import sample_world


class Heuristic(Protocol):
    """A game's rules level, run on a world (a seat's knowledge, or an imagined deal)."""

    def choose(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """The heuristic's action for `seat`, reading only its own hand and the table."""
        ...

    def candidates(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> list[Action]:
        """The legal actions worth a search (large option sets pruned)."""
        ...


@dataclass(frozen=True)
class GameAI:
    """What the levels need of one game: its heuristic and the cards that ignore voids."""

    heuristic: Heuristic
    wild: frozenset[Card] = field(default_factory=frozenset)

    def sample(self, knowledge: Knowledge, rng: random.Random) -> TrickDeal:
        """A deal consistent with the seat's knowledge (ai/sample.py)."""
        return sample_world(knowledge, rng, self.wild)

    def payoff(self, deal: TrickDeal, seat: int) -> float:
        """What a finished deal gave the seat: its chips over the deal, ante included."""
        return float(deal.delta[seat])


_JOKER = frozenset({JOKER})

AI_GAMES: dict[str, GameAI] = {
    # F5: frap = 2 of 4 tricks; F6: whist = 1 and a ×1 penalty with none.
    "frap": GameAI(FamilyRules(declare=1.9, stand=1.0)),
    # K2, K4: khrap = 3 of 5 for the whole pot; whisters gain only when it fails.
    "khrap": GameAI(FamilyRules(declare=2.7, stand=1.1)),
    # SK4: khrap = 2 of 4, pomogu = 1; SK2: the joker is a sure trick and follows no suit.
    "student_khrap": GameAI(FamilyRules(declare=1.9, stand=1.0, wild=_JOKER), wild=_JOKER),
}
