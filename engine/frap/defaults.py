"""The action taken for a player whose turn timer ran out: the safest legal choice."""

from __future__ import annotations

from ..actions import Action, Do
from ..cards import Card
from .state import FrapDeal, Phase


def default_action(deal: FrapDeal) -> Action | None:
    """Pass in bidding, keep every card when buying, no cut-in, the lowest legal card otherwise."""
    seat = deal.to_act
    if seat is None:
        return None
    legal = [a for a in deal.legal_actions(seat) if a.do is not Do.LOOK]
    if deal.phase in (Phase.BIDDING, Phase.WHIST):
        return next(a for a in legal if a.do is Do.PASS)
    if deal.phase is Phase.BUYING:
        return next(a for a in legal if a.cards == ())
    if deal.phase is Phase.CUTTING:
        return next(a for a in legal if a.do is Do.NO_CUT)

    def lowest(action: Action) -> tuple[bool, int, str]:
        card: Card | None = action.card
        assert card is not None
        return (card.suit is deal.trump, card.rank, card.suit.value)

    return min(legal, key=lowest)
