"""Preferans's entry in the engine's registry (engine/games.py): its own deal, records,
knowledge, computer player and terminal table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ai import pref_review, pref_search, preferans
from ..cards import Card
from ..gametype import Computer, Game
from . import record, terminal
from .deal import PrefDeal
from .knowledge import pref_knowledge
from .outcome import PrefRules
from .pulya import deal_value


def _new(
    rules: dict[str, Any], players: Sequence[str], dealer: int, deck: Sequence[Card]
) -> PrefDeal:
    """A first deal of a pulya (no raspasy before it, P10)."""
    return PrefDeal.new(PrefRules.from_dict(rules), players, dealer, deck)[0]


def _payoff(deal: PrefDeal) -> list[float]:
    """A finished deal's value to each seat in whists (P16, pulya.deal_value)."""
    assert deal.entries is not None
    return deal_value(deal.entries, deal.n)


GAME = Game(
    name=PrefDeal.game,
    seats=range(PrefDeal.MIN_PLAYERS, PrefDeal.MAX_PLAYERS + 1),
    default_players=3,  # P1: three at the table; a fourth deals and sits out
    unit="whists",
    deck_size=lambda rules, players: 32,  # P2: 7..A
    new=_new,
    to_act=lambda deal: deal.controller,  # P7: the lone whister decides the passer's cards
    legal=lambda deal: deal.legal_actions(),
    replay=record.replay,
    summary=record.summary,
    to_record=record.to_record,
    knowledge=pref_knowledge,
    # P4–P12: bid by sure tricks, whist for the obligation; the strong level solves late play.
    computer=Computer(preferans.choose, pref_search.strong),
    payoff=_payoff,
    terminal=terminal.play,
    review=pref_review.review,
    hands=pref_review.hands,
)
