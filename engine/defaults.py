"""The action taken for a player whose turn timer ran out: the safest legal choice, in any game."""

from __future__ import annotations

from .actions import Action, Do
from .deal import TrickDeal

_SAFE_WORDS = (Do.PASS, Do.NO_CUT)


def default_action(deal: TrickDeal) -> Action | None:
    """Pass when bidding, keep every card when buying or exchanging, no cut-in; else the lowest
    legal card (a non-trump before a trump; Student Khrap's 7♠ as a plain card when it may be)."""
    seat = deal.to_act
    if seat is None:
        return None
    legal = [action for action in deal.legal_actions(seat) if action.do is not Do.LOOK]
    for word in _SAFE_WORDS:
        for action in legal:
            if action.do is word:
                return action
    for action in legal:
        if action.do is Do.DISCARD and action.cards == ():
            return action
    with_card = [action for action in legal if action.card is not None]
    if not with_card:
        return legal[0] if legal else None

    def lowest(action: Action) -> tuple[bool, bool, int, str]:
        card = action.card
        assert card is not None
        trump = deal.trump_named and card.suit is deal.trump  # N4: no trump before the lead
        return (bool(action.joker), trump, card.rank, card.suit.value)

    return min(with_card, key=lowest)
