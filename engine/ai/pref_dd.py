"""The exact (double-dummy) solver for Preferans: every card known, each side playing its best
over the tricks left (P8, P9; P10's talon tricks too), in pure Python on bit masks.

What makes it fast, the techniques of the skat and bridge solvers:
- relative-rank transposition keys: at a trick's start a suit's live cards are numbered among
  themselves (after a card is played the ranks close up), so positions that differ only in the
  cards already gone are one entry; the entry keeps the value's bounds and the best lead;
- zero-window probes (MTD(f)): the value is found by a few searches of a null window, each
  cutting far more than one wide search, the bounds of each kept for the next;
- touching cards merged: of a player's cards with no live card between them one is tried;
- move order: the stored best lead first; a following hand tries first the cards that leave
  the trick where its side wants it (the cheapest winner, or the highest card that stays under);
- bounds: a position's value lies between 0 and the tricks left, so a window outside them is
  answered at once; in a trick contract the leader's quick tricks (his top cards in a suit, as
  many rounds as no hand with a trump can ruff) bound it before any card is tried;
- the first guess of each search is the value last found (MTD(f) needs few probes then).

Cards are bits `suit * 8 + rank` (suits in `ai/preferans.SUITS` order, rank 0 the seven).
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import Card
from ..preferans.deal import TRICKS, PrefDeal
from .preferans import SUITS

SUIT_MASK = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
_RUNS: dict[int, tuple[int, ...]] = {}  # (live << 8 | legal) -> one card bit of each run


def bit(card: Card) -> int:
    return 1 << (SUITS.index(card.suit) * 8 + int(card.rank) - 7)


def _compress_table() -> list[int]:
    """For `live << 8 | cards` (cards within live, one suit's byte): the cards numbered among
    the live ones (the lowest live card is bit 0)."""
    table = [0] * (1 << 16)
    for live in range(256):
        bits = [1 << i for i in range(8) if live >> i & 1]
        sub = live
        while True:  # every subset of live
            table[live << 8 | sub] = sum(1 << j for j, b in enumerate(bits) if sub & b)
            if not sub:
                break
            sub = (sub - 1) & live
    return table


_COMPRESS = _compress_table()


def _nth(live: int, index: int) -> int:
    """The bit of the `index`-th lowest card of `live` (0 if there is none)."""
    b = 1
    while b < 256:
        if live & b:
            if not index:
                return b
            index -= 1
        b <<= 1
    return 0


def _runs(live: int, legal: int) -> tuple[int, ...]:
    """One card of each run of `legal` touching among `live` (one suit's byte), lowest first."""
    key = live << 8 | legal
    found = _RUNS.get(key)
    if found is None:
        kept: list[int] = []
        previous_legal = False
        b = 1
        while b < 256:
            if live & b:
                mine = bool(legal & b)
                if mine and not previous_legal:
                    kept.append(b)
                previous_legal = mine
            b <<= 1
        found = _RUNS[key] = tuple(kept)
    return found


class OverBudget(Exception):
    """The solver searched more positions than its limit."""


class DDSolver:
    """Exact search over the tricks left of a deal whose cards are all known. The `target`
    seat's tricks are counted: in a contract the declarer's (he wants more, the defenders
    fewer); in misère the declarer's (he wants none, the others want him to take some); in
    raspasy the seat to play's own (or `target`'s), the other two taken as playing against it.
    With a `limit`, a search past that many positions at a trick's start raises OverBudget."""

    def __init__(self, deal: PrefDeal, target: int | None = None, limit: int | None = None) -> None:
        self.deal = deal
        self.order = deal.order
        self.trump = -1 if deal.trump is None else SUITS.index(deal.trump)
        self.hands = [sum(bit(c) for c in deal.hands[s]) for s in self.order]
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0  # positions searched at a trick's start
        self.limit = limit  # raise OverBudget past so many
        self.guess = 0
        mover = self.order.index(deal.turn if deal.turn is not None else self.order[0])
        if deal.raspasy or deal.contract == "misere":
            self.target = mover if deal.raspasy else self.order.index(deal.declarer or 0)
            if deal.raspasy and target is not None:
                self.target = self.order.index(target)
            self.maximisers = tuple(p != self.target for p in range(3))
        else:
            self.target = self.order.index(deal.declarer or 0)
            self.maximisers = tuple(p == self.target for p in range(3))
        self.raspasy = deal.raspasy
        self.quick = not deal.raspasy and deal.contract != "misere"  # trick contracts only
        self.first = self.order.index(deal.first_hand) if deal.raspasy else 0
        self.talon_suits = (
            tuple(SUITS.index(c.suit) for c in deal.talon[:2]) if deal.raspasy else ()
        )

    # ---- the interface ------------------------------------------------------------------------

    def rebase(self, deal: PrefDeal) -> None:
        """Move on to a later moment of the same play (the same contract and sides): the hands
        and the trick of `deal`, the transposition table kept, as its entries are positions at a
        trick's start whatever moment they were met at (a review solves every card of a deal)."""
        self.deal = deal
        self.hands = [sum(bit(c) for c in deal.hands[s]) for s in self.order]

    def counted(self, seat: int, card: Card) -> int:
        """The target's tricks from now (the trick on the table included) if `seat` plays `card`
        now and all play best from then on."""
        position = self.order.index(seat)
        trick = [(self.order.index(p.seat), bit(p.card)) for p in self.deal.trick]
        code = bit(card)
        assert self.hands[position] & code
        self.hands[position] ^= code
        trick.append((position, code))
        try:
            return self._after_play(position, trick)
        finally:
            self.hands[position] |= code

    def after(self, seat: int, card: Card) -> tuple[int, ...]:
        """Every seat's tricks at the end of the deal if `seat` plays `card` now and all play
        best from then on; the tricks the solver does not count are shared out evenly."""
        return self._ends(self.counted(seat, card))

    def ends(self) -> tuple[int, ...]:
        """Every seat's tricks at the end of the deal, no card on the table, if all play best
        from this trick's start (the tricks not counted shared out as by `after`)."""
        assert not self.deal.trick
        leader = self.order.index(self.deal.turn if self.deal.turn is not None else self.order[0])
        return self._ends(self._mtd(leader))

    def _ends(self, counted: int) -> tuple[int, ...]:
        deal = self.deal
        left = TRICKS - len(deal.tricks_played)
        won = list(deal.won)
        won[self.order[self.target]] += counted
        others = [self.order[p] for p in range(3) if p != self.target]
        rest = left - counted
        for i, other in enumerate(others):
            won[other] += rest // 2 + (i < rest % 2)
        return tuple(won)

    # ---- the search ---------------------------------------------------------------------------

    def _after_play(self, position: int, trick: list[tuple[int, int]]) -> int:
        """The target's tricks once `trick` (its last card just played) is on the table."""
        if len(trick) == 3:
            taker = self._taker(trick, TRICKS - 1 - self.hands[position].bit_count())
            gain = taker == self.target
            return gain + self._mtd(self._next_leader(taker))
        lo, hi = 0, self._left() + 1
        return self._exact(lambda a, b: self._play((position + 1) % 3, trick, a, b), lo, hi)

    def _left(self) -> int:
        """Tricks left after the one on the table."""
        return min(self.hands[p].bit_count() for p in range(3))

    def _mtd(self, leader: int) -> int:
        """The target's tricks from a trick's start, by zero-window probes."""
        left = self.hands[leader].bit_count()
        if not left:
            return 0
        return self._exact(lambda a, b: self._lead(leader, a, b), 0, left)

    def _exact(self, probe: Callable[[int, int], int], low: int, high: int) -> int:
        """MTD(f) between the bounds `low` … `high`: null-window probes until they meet, the
        first guess the value last found (the cards of one position are often worth alike)."""
        guess = min(max(self.guess, low), high)
        while low < high:
            beta = guess + 1 if guess == low else guess
            value = probe(beta - 1, beta)
            if value < beta:
                high = value
            else:
                low = value
            guess = value
        self.guess = low
        return low

    def _next_leader(self, taker: int) -> int:
        # P10: the first hand leads raspasy's first three tricks
        if self.raspasy and self.hands[0].bit_count() > TRICKS - 3:
            return self.first
        return taker

    def _taker(self, trick: list[tuple[int, int]], done: int) -> int:
        """Who takes the complete `trick`, the trick number `done` (from 0; P8, P10)."""
        trump = self.trump
        first_position, first = trick[0]
        suit = (first.bit_length() - 1) >> 3
        if self.raspasy and done < 2:
            suit = self.talon_suits[done]
        best_position, best = -1, 0
        best_suit = suit
        for position, code in trick:
            card_suit = (code.bit_length() - 1) >> 3
            if card_suit == best_suit:
                if code > best:
                    best_position, best = position, code
            elif card_suit == trump and best_suit != trump:
                best_position, best, best_suit = position, code, trump
        return first_position if best_position < 0 else best_position

    def _key(self, leader: int) -> int:
        """The position at a trick's start with each suit's live cards numbered among
        themselves (the ranks close up as cards go), and the player to lead."""
        h0, h1, h2 = self.hands
        key = leader
        compress = _COMPRESS
        for s in (0, 8, 16, 24):
            a, b = (h0 >> s) & 255, (h1 >> s) & 255
            live = a | b | (h2 >> s) & 255
            high = live << 8
            key = key << 20 | live.bit_count() << 16 | compress[high | a] << 8 | compress[high | b]
        return key

    def _lead(self, leader: int, alpha: int, beta: int) -> int:
        """The target's tricks from a trick's start led by `leader`, failing soft outside the
        window (alpha, beta)."""
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise OverBudget
        hands = self.hands
        left = hands[leader].bit_count()
        if beta <= 0:
            return 0
        if alpha >= left:
            return left
        key = self._key(leader)
        low, high, best_move = self.table.get(key, (0, left, -1))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        if self.quick and low < beta and high > alpha:
            sure = self._quick_tricks(leader)
            if sure:
                if leader == self.target:
                    low = max(low, sure)
                    if low >= beta:
                        self.table[key] = (low, high, best_move)
                        return low
                else:
                    high = min(high, left - sure)
                    if high <= alpha:
                        self.table[key] = (low, high, best_move)
                        return high
        moves = self._moves(leader, [])
        live = hands[0] | hands[1] | hands[2]
        if best_move >= 0:
            shift = (best_move >> 3) * 8
            first = _nth((live >> shift) & 255, best_move & 7) << shift
            if first in moves:
                moves.remove(first)
                moves.insert(0, first)
        maximising = self.maximisers[leader]
        best = -1 if maximising else 99
        chosen = 0
        a0 = a = max(alpha, low)
        b0 = b = min(beta, high)
        trick = [(leader, 0)]
        for code in moves:
            hands[leader] ^= code
            trick[0] = (leader, code)
            value = self._play((leader + 1) % 3, trick, a, b)
            hands[leader] |= code
            if maximising:
                if value > best:
                    best, chosen = value, code
                    if best > a:
                        a = best
            elif value < best:
                best, chosen = value, code
                if best < b:
                    b = best
            if a >= b:
                break
        if best <= a0:
            high = min(high, best)
        elif best >= b0:
            low = max(low, best)
        else:
            low = high = best
        suit = (chosen.bit_length() - 1) >> 3
        below = (live >> (suit * 8)) & ((chosen >> (suit * 8)) - 1)
        self.table[key] = (low, high, suit << 3 | below.bit_count())
        return best

    def _quick_tricks(self, leader: int) -> int:
        """Tricks the leader is sure to take in a trick contract on lead: in each suit his
        cards from the top of the live ones, at most as many rounds as every other hand that
        holds a trump can follow a side suit (a void one must ruff, P8)."""
        hands = self.hands
        mine = hands[leader]
        others = [hands[p] for p in range(3) if p != leader]
        trump = self.trump
        ruffers = [h for h in others if trump >= 0 and h & SUIT_MASK[trump]]
        sure = 0
        for suit in range(4):
            shift = suit * 8
            own = (mine >> shift) & 255
            if not own:
                continue
            rest = ((others[0] | others[1]) >> shift) & 255
            run = 0
            b = 128
            while b:
                if own & b:
                    run += 1
                elif rest & b:
                    break
                b >>= 1
            if suit != trump and ruffers:
                run = min(run, *(((h >> shift) & 255).bit_count() for h in ruffers))
            sure += run
        return sure

    def _play(self, turn: int, trick: list[tuple[int, int]], alpha: int, beta: int) -> int:
        """The target's tricks with `trick` (not complete) on the table and `turn` to play."""
        hands = self.hands
        maximising = self.maximisers[turn]
        best = -1 if maximising else 99
        moves = self._moves(turn, trick)
        last = len(trick) == 2
        done = TRICKS - hands[turn].bit_count()
        if len(moves) > 1:
            moves = self._order(turn, trick, moves, done)
        for code in moves:
            hands[turn] ^= code
            trick.append((turn, code))
            if last:
                taker = self._taker(trick, done)
                gain = 1 if taker == self.target else 0
                rest_alpha, rest_beta = alpha - gain, beta - gain
                leader = self._next_leader(taker)
                if not hands[leader]:
                    value = gain
                else:
                    value = gain + self._lead(leader, rest_alpha, rest_beta)
            else:
                value = self._play((turn + 1) % 3, trick, alpha, beta)
            trick.pop()
            hands[turn] |= code
            if maximising:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _order(
        self, turn: int, trick: list[tuple[int, int]], moves: list[int], done: int
    ) -> list[int]:
        """A following hand's cards, those that leave the trick so far where its side wants it
        first (the cheapest winner first, or the highest card that stays under), then the rest
        lowest first."""
        wants = self.maximisers[turn]
        good: list[int] = []
        bad: list[int] = []
        for code in moves:
            trick.append((turn, code))
            taken = self._taker(trick, done) == self.target
            trick.pop()
            (good if taken == wants else bad).append(code)
        if wants != (turn == self.target):
            good.reverse()
        return good + bad

    def _moves(self, turn: int, trick: list[tuple[int, int]]) -> list[int]:
        """The legal cards (P8, P10), one of each run of touching cards, lowest first by suit."""
        hand = self.hands[turn]
        follow = -1
        if self.raspasy:
            done = TRICKS - hand.bit_count()  # the hand to play has not played to this trick
            if done < 2:
                follow = self.talon_suits[done]
        if follow < 0 and trick:
            follow = (trick[0][1].bit_length() - 1) >> 3
        legal = hand
        if follow >= 0:
            legal = hand & SUIT_MASK[follow]
            if not legal and self.trump >= 0:
                legal = hand & SUIT_MASK[self.trump]
            if not legal:
                legal = hand
        live = self.hands[0] | self.hands[1] | self.hands[2]
        for _, code in trick:
            live |= code
        moves: list[int] = []
        for s in (0, 8, 16, 24):
            suit_legal = (legal >> s) & 255
            if suit_legal:
                moves += [b << s for b in _runs((live >> s) & 255, suit_legal)]
        return moves
