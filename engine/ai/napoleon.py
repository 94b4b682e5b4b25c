"""The rules level for Napoleon (docs/rules.md N1–N8): a readable heuristic that bids by a count of
likely tricks with the hand's best suit as the trump-to-be, lets the dealer say "here" when his
count matches the bid, exchanges one weak card, names trump with the longest strong suit, and then
plays as the Frap family does (win as cheaply as possible, else throw the cheapest card).

Like the family's heuristic it reads only the seat's own hand and the table, so the strong level
can run it for every seat of an imagined deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, Do
from ..cards import Card, Rank, Suit, suit_order
from ..deal import TrickDeal
from ..napoleon import NAPOLEON, NapoleonDeal, NapoleonDo
from ..tricks import trick_winner
from .family import FamilyRules
from .sense import keep_value, play_cost, trick_estimate

_ALL_TRICKS = 5  # N1: five cards each
_WEAK_RANK = Rank.QUEEN  # N3: a side card below this (not an ace, not a trump) is exchanged
_PLAY = FamilyRules(declare=0.0, stand=0.0)  # F12 card play, shared with the family (N4 as F12)


def best_suit(hand: Sequence[Card]) -> Suit:
    """The trump-to-be: the suit that makes the hand's trick count highest (the longest strong
    suit; ties go to the longer suit, then the higher cards)."""
    suits = {card.suit for card in hand} or set(Suit)

    def strength(suit: Suit) -> tuple[float, int, int]:
        mine = [card.rank for card in hand if card.suit is suit]
        return trick_estimate(hand, suit), len(mine), sum(mine)

    return max(sorted(suits, key=suit_order), key=strength)


def trick_count(hand: Sequence[Card]) -> float:
    """The tricks the hand may expect with its best suit as trump (aces, high trumps-to-be)."""
    return trick_estimate(hand, best_suit(hand)) if hand else 0.0


@dataclass(frozen=True, slots=True)
class NapoleonHeuristic:
    """Napoleon's thresholds, in expected tricks (sense.trick_estimate)."""

    napoleon: float = 4.6  # N2, N6, N7: all five tricks, only with a near-certain hand
    slack: float = 1.0  # how far below its bid a bidder's count may be in an imagined deal
    boldness: float = 1.0  # tricks added to the count: the declarer chooses trump and leads (N4)

    def choose(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """The heuristic's action for `seat` among `legal` (all of one phase)."""
        if len(legal) == 1:
            return legal[0]
        first = legal[0].do
        if first is Do.PLAY:
            return self.play(deal, seat, legal)
        if first is Do.DISCARD:
            return self.exchange(deal, seat, legal)
        return self.bid(deal, seat, legal)

    def candidates(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> list[Action]:
        """Every legal action: Napoleon's option sets are small (at most eight words, six
        exchanges, five cards)."""
        return list(legal)

    def plausible(self, deal: TrickDeal, seat: int) -> bool:
        """Whether the seat's bid fits its hand as this heuristic bids (N2): a bidder's count
        is near its level; a pass says little (the bid may just have been too high)."""
        assert isinstance(deal, NapoleonDeal)
        level = deal.bid_level(seat)
        if level is None:
            return True
        hand = [*deal.hands[seat], *(p.card for p in deal.trick if p.seat == seat)]
        hand += [p.card for trick in deal.tricks_played for p in trick if p.seat == seat]
        return trick_count(hand) + self.boldness >= min(level, _ALL_TRICKS) - self.slack

    # ---- the kinds of decision --------------------------------------------------------------

    def bid(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """N2: napoleon with a near-certain hand; the dealer's "here" when his count reaches the
        bid; else bid the whole count (a bid of b earns b·u from each, N5) if it is higher than
        the bid standing; else pass (a failed bid costs more than a made one earns, N5)."""
        count = trick_count(deal.hands[seat])
        can = min(int(count + self.boldness), _ALL_TRICKS)
        words = {action.do: action for action in legal}
        if NapoleonDo.NAPOLEON in words and count >= self.napoleon:
            return words[NapoleonDo.NAPOLEON]
        bids = {a.tricks: a for a in legal if a.do is NapoleonDo.BID}
        standing = min((k for k in bids if k is not None), default=NAPOLEON) - 1
        if NapoleonDo.HERE in words and can >= standing:
            return words[NapoleonDo.HERE]
        if can in bids:
            return bids[can]
        return words.get(Do.PASS) or legal[-1]

    def exchange(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """N3: give up the weakest card if it is weak (a low side card), else keep the hand."""
        hand = deal.hands[seat]
        trump = best_suit(hand)
        weakest = min(hand, key=lambda card: keep_value(card, trump))
        weak = weakest.suit is not trump and weakest.rank < _WEAK_RANK
        wanted = (weakest,) if weak else ()
        for action in legal:
            if tuple(action.cards or ()) == wanted:
                return action
        return legal[0]

    def play(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """N4: the declarer's first lead is the top card of his best suit (it names the trump);
        an opponent does not overtake a partner who is already beating the declarer; else as
        F12 (win as cheaply as possible, else throw the cheapest card)."""
        if not deal.trump_named:
            trump = best_suit(deal.hands[seat])
            return max(
                (a for a in legal if a.card is not None and a.card.suit is trump),
                key=lambda a: play_cost(a, trump),
            )
        declarer = deal.declarer
        if deal.trick and declarer is not None and seat != declarer:
            winner = trick_winner(list(deal.trick), deal.trump)
            if winner != declarer and any(p.seat == declarer for p in deal.trick):
                return min(legal, key=lambda a: play_cost(a, deal.trump))  # partners win it
        return _PLAY.play(deal, seat, legal)
