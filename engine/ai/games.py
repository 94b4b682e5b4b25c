"""What the strong search (ai/search.py) needs of a Frap-family game: its rules level and the cards
that ignore voids. Each game's entry, with its parameters, is its line of the registry
(engine/games.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..actions import Action, Do
from ..cards import Card
from ..deal import TrickDeal
from ..knowledge import Knowledge
from .sample import sample_world


class Heuristic(Protocol):
    """A game's rules level, run on a world (a seat's knowledge, or an imagined deal)."""

    def choose(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """The heuristic's action for `seat`, reading only its own hand and the table."""
        ...

    def plausible(self, deal: TrickDeal, seat: int) -> bool:
        """Whether the seat's word in this round fits its (unchanged) hand."""
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
        """A deal consistent with the seat's knowledge (ai/sample.py) in which the others' words
        fit their hands as the rules level would bid (the first of a few tries that all fit, else
        the try that fits most): a frap shows a strong hand, a pass a weaker one."""
        judged = _judged(knowledge)
        best, fits_best = None, -1
        for _ in range(ATTEMPTS):
            world = sample_world(knowledge, rng, self.wild)
            fits = sum(self.heuristic.plausible(world, seat) for seat in judged)
            if fits == len(judged):
                return world
            if fits > fits_best:
                best, fits_best = world, fits
        assert best is not None
        return best

    def payoff(self, deal: TrickDeal, seat: int) -> float:
        """What a finished deal gave the seat: its chips over the deal, ante included, plus an
        equal share of what is left in the pot (F3, F8, F15: the pot is played for in later
        deals and redeals, so chips paid into it are not all lost)."""
        return deal.delta[seat] + deal.pot / deal.n


ATTEMPTS = 24  # imagined deals tried for one that fits every word


def _judged(knowledge: Knowledge) -> list[int]:
    """The other seats whose hands changed only by play since they spoke (the game's words that
    change a hand: F7, F9, F10, SK7–SK9)."""
    changes_hand = knowledge.world.CHANGES_HAND
    changed = {
        action.seat
        for action in knowledge.history
        if action.do in changes_hand and not (action.do is Do.DISCARD and action.cards == ())
    }
    return [s for s in knowledge.hidden_hands if s != knowledge.seat and s not in changed]
