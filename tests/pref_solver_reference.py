"""The alpha-beta solver the strong level used before the exact one of engine/ai/pref_dd.py, kept
as a reference: the new one must agree with it, and bench/pref_solver.py times both."""

from __future__ import annotations

import random

from engine.ai import preferans as rules
from engine.cards import Card, make_deck, shuffled
from engine.preferans.actions import PrefDo
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.outcome import PrefRules
from engine.preferans.play import legal_cards, winner
from engine.tricks import Play
from tests.pref_deal_helpers import NAMES


class Solver:
    """Alpha-beta over the tricks left of a deal whose cards are all known (P8, P9; after
    raspasy's talon tricks, P10). The `target` seat's tricks are counted: in a contract the
    declarer's (he wants more, the defenders fewer); in misère the declarer's (he wants none); in
    raspasy the seat to play's own, the other two taken as playing against it."""

    def __init__(self, deal: PrefDeal) -> None:
        self.deal = deal
        self.order = deal.order
        self.trump = -1 if deal.trump is None else rules.SUITS.index(deal.trump)
        self.hands = [sorted(_code(c) for c in deal.hands[s]) for s in self.order]
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        mover = self.order.index(deal.turn if deal.turn is not None else self.order[0])
        if deal.raspasy or deal.contract == "misere":
            target = mover if deal.raspasy else self.order.index(deal.declarer or 0)
            self.targets = {target}
            self.maximisers = {p for p in range(3) if p != target}
        else:
            self.targets = self.maximisers = {self.order.index(deal.declarer or 0)}

    def after(self, seat: int, card: Card) -> tuple[int, ...]:
        """Every seat's tricks at the end of the deal if `seat` plays `card` now and all play
        best from then on; the tricks the solver does not count are shared out evenly."""
        deal = self.deal
        position = self.order.index(seat)
        trick = [(self.order.index(p.seat), _code(p.card)) for p in deal.trick]
        code = _code(card)
        self.hands[position].remove(code)
        trick.append((position, code))
        left = len(self.hands[position]) + 1
        if len(trick) == 3:
            taker = _taker(trick, self.trump)
            counted = (taker in self.targets) + self._value(taker, [], 0, left)
        else:
            counted = self._value((position + 1) % 3, trick, 0, left)
        self.hands[position].append(code)
        self.hands[position].sort()
        won = list(deal.won)
        target = next(iter(self.targets))
        won[self.order[target]] += counted
        others = [self.order[p] for p in range(3) if p not in self.targets]
        rest = left - counted
        for i, other in enumerate(others):
            won[other] += rest // 2 + (i < rest % 2)
        return tuple(won)

    def _value(self, turn: int, trick: list[tuple[int, int]], alpha: int, beta: int) -> int:
        """The target's tricks from here (the trick on the table included), within alpha-beta."""
        hands = self.hands
        key: tuple[object, ...] | None = None
        if not trick:
            if not hands[turn]:
                return 0
            key = (turn, *map(tuple, hands))
            low, high = self.table.get(key, (0, len(hands[turn])))
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        start_alpha, start_beta = alpha, beta
        maximising = turn in self.maximisers
        best = -1 if maximising else 99
        for code in self._moves(turn, trick):
            hand = hands[turn]
            at = hand.index(code)
            del hand[at]
            trick.append((turn, code))
            if len(trick) == 3:
                taker = _taker(trick, self.trump)
                gain = 1 if taker in self.targets else 0
                value = gain + self._value(taker, [], alpha - gain, beta - gain)
            else:
                value = self._value((turn + 1) % 3, trick, alpha, beta)
            trick.pop()
            hand.insert(at, code)
            if maximising:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            low, high = self.table.get(key, (0, 10))
            if best <= start_alpha:
                high = min(high, best)
            elif best >= start_beta:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high)
        return best

    def _moves(self, turn: int, trick: list[tuple[int, int]]) -> list[int]:
        """The legal cards (P8), one of each run of touching cards, highest first."""
        hand = self.hands[turn]
        if trick:
            suit = trick[0][1] >> 4
            legal = [c for c in hand if c >> 4 == suit]
            if not legal and self.trump >= 0:
                legal = [c for c in hand if c >> 4 == self.trump]
            legal = legal or hand
        else:
            legal = hand
        live = {c for h in self.hands for c in h} | {c for _, c in trick}
        moves: list[int] = []
        above = -1
        for code in sorted(legal, reverse=True):
            touching = above >> 4 == code >> 4 and not any(code < c < above for c in live)
            above = code
            if not touching:  # a card touching the one above it is the same for every purpose
                moves.append(code)
        return moves


def _code(card: Card) -> int:
    return rules.SUITS.index(card.suit) << 4 | int(card.rank)


def _taker(trick: list[tuple[int, int]], trump: int) -> int:
    best_position, best = trick[0]
    for position, code in trick[1:]:
        if code >> 4 == best >> 4:
            if code > best:
                best_position, best = position, code
        elif code >> 4 == trump:
            best_position, best = position, code
    return best_position


# ---- a brute force and random positions for the solvers' tests ----------------------------------


def brute_force(deal: PrefDeal, counted: int, maximisers: frozenset[int]) -> int:
    """The counted seat's tricks to the end by plain minimax over P8/P10's legal cards and
    takers (`engine.preferans.play`), no pruning, no table, no merged cards."""
    return _brute(
        deal, [list(deal.hands[s]) for s in range(deal.n)], list(deal.trick),
        deal.turn or 0, len(deal.tricks_played), counted, maximisers,
    )  # fmt: skip


def _brute(
    deal: PrefDeal, hands: list[list[Card]], trick: list[Play], turn: int, done: int,
    counted: int, maximisers: frozenset[int],
) -> int:  # fmt: skip
    if not hands[turn]:
        return 0
    talon_trick = deal.raspasy and done < 2
    follow = deal.talon[done].suit if talon_trick else (trick[0].card.suit if trick else None)
    results = []
    for card in legal_cards(hands[turn], follow, None if talon_trick else deal.trump):
        hands[turn].remove(card)
        trick.append(Play(turn, card))
        if len(trick) == 3:
            taker = winner(trick, deal.trump, deal.talon[done].suit if talon_trick else None)
            leader = deal.first_hand if deal.raspasy and done + 1 < 3 else taker
            value = (taker == counted) + _brute(
                deal, hands, [], leader, done + 1, counted, maximisers
            )
        else:
            following = deal.order[(deal.order.index(turn) + 1) % 3]
            value = _brute(deal, hands, trick, following, done, counted, maximisers)
        trick.pop()
        hands[turn].append(card)
        results.append(value)
    return max(results) if turn in maximisers else min(results)


def random_start(rng: random.Random) -> PrefDeal:
    """A new deal of 3 or 4 players under random house rules (and a raspasy streak)."""
    players = rng.choice((3, 3, 4))
    rules_ = PrefRules(
        here=rng.choice(("on", "off")),
        stalingrad=rng.random() < 0.3,
        raspasy_exit=rng.choice((6, 7)),
        ten=rng.choice(("checked", "whisted")),
        whist=rng.choice(("greedy", "gentleman")),
    )
    deck = shuffled(make_deck(32), rng)
    deal, _ = PrefDeal.new(
        rules_, NAMES[:players], rng.randrange(players), deck, rng.choice((0, 1))
    )
    return deal


def random_position(rng: random.Random, left: int) -> PrefDeal:
    """A random deal played at random (misère and passes made likelier, so that every kind of
    deal comes up) until the hand to play holds `left` cards."""
    while True:
        deal = random_start(rng)
        while not deal.finished and not (
            deal.phase is Phase.PLAY and len(deal.hands[deal.turn or 0]) <= left
        ):
            legal = deal.legal_actions()
            words = {a.do: a for a in legal}
            if PrefDo.MISERE in words and rng.random() < 0.3:
                deal, _ = deal.apply(words[PrefDo.MISERE])
            elif PrefDo.PASS in words and rng.random() < 0.6:
                deal, _ = deal.apply(words[PrefDo.PASS])
            else:
                deal, _ = deal.apply(rng.choice(legal))
        if not deal.finished:
            return deal
