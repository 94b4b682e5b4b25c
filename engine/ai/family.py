"""The rules level for the Frap family (Frap, Khrap, Student Khrap): a readable heuristic that
decides by the kind of action asked for, with each game's thresholds as plain numbers and its
words for declaring and standing against the declarer (Frap's unless it says its own).

It reads only the seat's own hand and what the table shows, so it can run on a seat's knowledge
(its world) and, inside the strong level's look-ahead, for every seat of an imagined deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import Action, Do, Verb
from ..cards import Card, Rank, Suit
from ..deal import TrickDeal
from .sense import is_master, keep_value, play_cost, played_cards, trick_estimate, wins_now

_KEEP = keep_value(Card(Rank.ACE, Suit.SPADES), Suit.HEARTS)  # a side ace: kept when buying


@dataclass(frozen=True, slots=True)
class FamilyRules:
    """Thresholds of one game, in expected tricks (sense.trick_estimate)."""

    declare: float  # say frap / khrap with at least this many
    stand: float  # whist / pomogu with at least this many
    cut_rank: Rank = Rank.KING  # F10: cut in with the turn-up from this rank up
    wild: frozenset[Card] = field(default_factory=frozenset)  # SK2: the joker
    declaring: tuple[Verb, ...] = (Do.FRAP,)  # F5, K2, SK4: the declarer's word
    standing: tuple[Verb, ...] = (Do.WHIST,)  # F6, SK4: standing against him for one trick
    taking_over: tuple[Verb, ...] = ()  # SK8: the declaration taken over, as strong a hand

    def choose(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """The heuristic's action for `seat` among `legal` (all of one phase)."""
        if len(legal) == 1:
            return legal[0]
        words = {action.do: action for action in legal}
        if Do.LOOK in words:
            return words[Do.LOOK]  # F7: the rules level never bids in the dark
        first = legal[0].do
        if first is Do.PLAY:
            return self.play(deal, seat, legal)
        if first is Do.DISCARD:
            return self.exchange(deal, seat, legal)
        if first in deal.FACE_DOWN:  # a discard of one card (F7, F10, SK7–SK9)
            return min(legal, key=lambda a: self._keep(deal, a.card))
        if Do.NO_CUT in words:
            return self.cut(deal, legal, words[Do.NO_CUT])
        return self.bid(deal, seat, words)

    def candidates(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> list[Action]:
        """The actions worth searching: all, except that an exchange is tried only as "drop the
        k weakest cards" for each k (F9, SK6), not every subset."""
        if Do.LOOK in {a.do for a in legal} or legal[0].do is not Do.DISCARD:
            return list(legal)
        by_cards = {frozenset(a.cards or ()): a for a in legal}
        ranked = sorted(deal.hands[seat], key=self._keeper(deal))
        options = [by_cards.get(frozenset(ranked[:k])) for k in range(len(ranked) + 1)]
        return [a for a in options if a is not None]

    def plausible(self, deal: TrickDeal, seat: int) -> bool:
        """Whether the seat's word in this bidding round fits its hand as this heuristic bids
        (F5, F6, SK4): a declarer is strong, a whister fair, a passer not strong. Only for a hand
        that has not changed since the word but by play (`deal.hands` plus its played cards)."""
        word = deal.bids[seat]
        if word is not Do.PASS and word not in self.declaring and word not in self.standing:
            return True
        hand = [*deal.hands[seat], *(p.card for p in deal.trick if p.seat == seat)]
        hand += [p.card for trick in deal.tricks_played for p in trick if p.seat == seat]
        tricks = trick_estimate(hand, deal.trump, self.wild)
        if word is Do.PASS:
            return tricks < self.declare
        return tricks >= (self.declare if word in self.declaring else self.stand)

    # ---- the kinds of decision --------------------------------------------------------------

    def bid(self, deal: TrickDeal, seat: int, words: dict[Verb, Action]) -> Action:
        """F5/F6, K2, SK4: declare with a strong hand, stand with a fair one, else pass; SK8:
        a hand strong enough to declare takes over a khrap with veselyu (it keeps the ace)."""
        tricks = trick_estimate(deal.hands[seat], deal.trump, self.wild)
        for word in (*self.declaring, *self.taking_over):
            if word in words and tricks >= self.declare:
                return words[word]
        for word in self.standing:
            if word in words and tricks >= self.stand:
                return words[word]
        return words.get(Do.PASS) or next(iter(words.values()))

    def exchange(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """F9, SK6: keep wild cards, trumps and aces; drop the rest, the weakest first, as many
        as the stock allows."""
        hand = deal.hands[seat]
        weak = sorted((c for c in hand if self._keep(deal, c) < _KEEP), key=self._keeper(deal))
        most = max(len(a.cards or ()) for a in legal)
        wanted = frozenset(weak[:most])
        for action in legal:
            if frozenset(action.cards or ()) == wanted:
                return action
        return legal[0]

    def cut(self, deal: TrickDeal, legal: Sequence[Action], no_cut: Action) -> Action:
        """F10: cut in only to take a high turn-up (a trump); a blind cut risks the ×1 penalty."""
        turnup = deal.turnup
        for action in legal:
            if action.do is Do.CUT and action.turnup and turnup and turnup.rank >= self.cut_rank:
                return action
        return no_cut

    def play(self, deal: TrickDeal, seat: int, legal: Sequence[Action]) -> Action:
        """F12: lead a card nobody can beat (a master trump first), else the cheapest card;
        following, win as cheaply as possible (with a master if not last), else throw the
        cheapest card."""
        trump = deal.trump
        hand = deal.hands[seat]
        gone = played_cards(deal)

        def cost(action: Action) -> int:
            return play_cost(action, trump)

        def master(action: Action) -> bool:
            card = action.card
            assert card is not None
            if action.joker:
                return True
            return is_master(card, hand, gone) and (card.suit is trump or not deal.trick)

        if not deal.trick:
            masters = [a for a in legal if master(a)]
            trumps = [a for a in masters if a.card is not None and a.card.suit is trump]
            if trumps or masters:
                return max(trumps or masters, key=cost)
            return min(legal, key=cost)
        winners = [a for a in legal if wins_now(deal, a)]
        if not winners:
            return min(legal, key=cost)
        last = len(deal.trick) == len(deal.participants) - 1
        safe = [a for a in winners if master(a)] if not last else winners
        return min(safe or winners, key=cost)

    def _keeper(self, deal: TrickDeal) -> Callable[[Card], int]:
        return lambda card: keep_value(card, deal.trump, self.wild)

    def _keep(self, deal: TrickDeal, card: Card | None) -> int:
        assert card is not None
        return keep_value(card, deal.trump, self.wild)
