"""Which card may go on a Preferans trick and who takes it (RULES P8, P9, P10)."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Suit
from ..tricks import Play


def legal_cards(hand: Sequence[Card], follow: Suit | None, trump: Suit | None) -> list[Card]:
    """P8: follow the suit `follow` (None: this card leads); if void, a trump; else any card.

    Raspasy's first two tricks pass the talon card's suit as `follow` for every hand (P10, P18).
    """
    if follow is None:
        return list(hand)
    following = [card for card in hand if card.suit is follow]
    if following:
        return following
    if trump is not None:
        trumps = [card for card in hand if card.suit is trump]
        if trumps:
            return trumps
    return list(hand)


def winner(plays: Sequence[Play], trump: Suit | None, follow: Suit | None = None) -> int:
    """The seat that takes the trick: P8's highest trump, else highest of the suit led; in
    raspasy's talon tricks (`follow` set) the highest card of the talon card's suit (P10)."""
    best = plays[0]
    suit = best.card.suit if follow is None else follow
    if trump is not None and any(play.card.suit is trump for play in plays):
        suit = trump
    found = best.card.suit is suit
    for play in plays[1:]:
        card = play.card
        if card.suit is suit and (not found or card.rank > best.card.rank):
            best, found = play, True
    # Someone always holds the talon suit (7 or 6 of its cards are in three hands of 10); if not,
    # the first hand, who played first, takes it.
    return best.seat
