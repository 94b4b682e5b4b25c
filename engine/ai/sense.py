"""Card sense shared by the heuristics: what a card is worth keeping, how many tricks a hand is
likely to take, which cards are still out, and whether a card wins the trick now."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..actions import Action
from ..cards import Card, Rank, Suit
from ..deal import TrickDeal
from ..tricks import Play, trick_winner

# Likely tricks from one card: a trump by rank, a side card by rank (F12: trumps beat any side
# card, and with four-card hands a side king is often trumped or beaten by the ace).
_TRUMP_TRICKS = {Rank.ACE: 0.95, Rank.KING: 0.8, Rank.QUEEN: 0.6, Rank.JACK: 0.45, Rank.TEN: 0.4}
_LOW_TRUMP = 0.3
_SIDE_TRICKS = {Rank.ACE: 0.7, Rank.KING: 0.3, Rank.QUEEN: 0.1}
_WILD_TRICKS = 1.0  # SK2: the joker beats everything
_LONG_TRUMPS = 0.2  # each trump past the second: the others run out of trumps first


def keep_value(card: Card, trump: Suit, wild: Collection[Card] = ()) -> int:
    """How much a card is worth keeping: wild cards, then trumps, then aces, then by rank."""
    if card in wild:
        return 100
    if card.suit is trump:
        return 40 + card.rank
    if card.rank is Rank.ACE:
        return 30
    return card.rank


def play_cost(action: Action, trump: Suit) -> int:
    """What playing this card gives up: a joker played as the joker most, then trumps, then rank."""
    card = action.card
    assert card is not None
    if action.joker:
        return 100
    return (40 if card.suit is trump else 0) + card.rank


def trick_estimate(hand: Sequence[Card], trump: Suit, wild: Collection[Card] = ()) -> float:
    """The tricks a hand may expect to take (a rough count, at most the hand's size)."""
    total, trumps = 0.0, 0
    for card in hand:
        if card in wild:
            total += _WILD_TRICKS
        elif card.suit is trump:
            trumps += 1
            total += _TRUMP_TRICKS.get(card.rank, _LOW_TRUMP)
        else:
            total += _SIDE_TRICKS.get(card.rank, 0.0)
    total += _LONG_TRUMPS * max(0, trumps - 2)
    return min(total, float(len(hand)))


def played_cards(deal: TrickDeal) -> set[Card]:
    """Every card already on the table in this deal's tricks."""
    cards = {play.card for trick in deal.tricks_played for play in trick}
    cards.update(play.card for play in deal.trick)
    return cards


def is_master(card: Card, hand: Collection[Card], gone: Collection[Card]) -> bool:
    """No card of its suit higher than it is still out (in another hand or the stock)."""
    return all(
        Card(rank, card.suit) in hand or Card(rank, card.suit) in gone
        for rank in Rank
        if rank > card.rank
    )


def wins_now(deal: TrickDeal, action: Action) -> bool:
    """Whether this card would win the trick as it stands (later cards may still beat it)."""
    assert action.card is not None
    play = Play(action.seat, action.card, joker=bool(action.joker))
    return trick_winner([*deal.trick, play], deal.trump) == action.seat
