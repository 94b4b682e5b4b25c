"""Napoleon with every hand in view (N4): the declarer's tricks from a moment of play when he
and the rest, as one side, each play their best over the tricks left; and the review of a
finished deal card by card (engine/review.py).

A plain alpha-beta on bit masks (card bit `suit * 16 + rank`), its table holding the bounds of
positions at a trick's start; the first lead names the trump (N4), so until it is played the
trump is the suit of the card led. Counts all five tricks: play that stopped early (N4, the
outcome certain) is reviewed up to its last card."""

from __future__ import annotations

from typing import Any

from ..actions import Action, Do
from ..cards import Card, Suit
from ..napoleon import NapoleonDeal
from ..napoleon.settle import ALL_TRICKS
from ..record import start
from ..review import Review, Step, build

_SUITS = tuple(Suit)
_SUIT_MASK = tuple(0xFFFF << (16 * i) for i in range(4))


def _bit(card: Card) -> int:
    return 1 << (_SUITS.index(card.suit) * 16 + int(card.rank))


def _suit(code: int) -> int:
    return (code.bit_length() - 1) >> 4


_COMPRESSED: dict[int, int] = {}


def _compressed(code: int) -> int:
    """For `live << 9 | cards` (cards within live, one suit's ranks 6..A): the cards numbered
    among the live ones (the lowest live card is bit 0)."""
    found = _COMPRESSED.get(code)
    if found is None:
        live, cards = code >> 9, code & 511
        found = at = 0
        for rank in range(9):
            if live >> rank & 1:
                if cards >> rank & 1:
                    found |= 1 << at
                at += 1
        _COMPRESSED[code] = found
    return found


class NapoleonSolver:
    """The declarer's tricks with best play by all, for the positions of one deal."""

    def __init__(self, n: int, declarer: int) -> None:
        self.n = n
        self.declarer = declarer
        self.table: dict[int, tuple[int, int]] = {}
        self.hands: list[int] = []
        self.trump = -1

    def counted(self, deal: NapoleonDeal, seat: int, card: Card) -> int:
        """The declarer's tricks from now (the trick on the table included) if `seat` plays
        `card` now and all play best from then on."""
        self.hands = [sum(_bit(c) for c in hand) for hand in deal.hands]
        self.trump = -1 if deal.trump is None else _SUITS.index(deal.trump)
        trick = [(p.seat, _bit(p.card)) for p in deal.trick]
        code = _bit(card)
        if not trick and not deal.tricks_played:
            self.trump = _suit(code)  # N4: the first card led names the trump
        self.hands[seat] ^= code
        trick.append((seat, code))
        return self._after(trick, 0, ALL_TRICKS + 1)

    def _key(self, leader: int) -> int:
        """The position at a trick's start with each suit's live cards numbered among
        themselves (the ranks close up as cards go), the trump and the player to lead."""
        hands = self.hands
        key = leader << 3 | (self.trump + 1)
        for shift in (6, 22, 38, 54):  # each suit's ranks 6..A
            parts = [(hand >> shift) & 511 for hand in hands]
            live = 0
            for part in parts:
                live |= part
            high = live << 9
            for part in parts:
                key = key << 9 | _compressed(high | part)
        return key

    def _after(self, trick: list[tuple[int, int]], alpha: int, beta: int) -> int:
        if len(trick) == self.n:
            taker = self._taker(trick)
            gain = taker == self.declarer
            return gain + self._play(taker, [], alpha - gain, beta - gain)
        return self._play((trick[-1][0] + 1) % self.n, trick, alpha, beta)

    def _taker(self, trick: list[tuple[int, int]]) -> int:
        best_seat, best = trick[0]
        best_suit = _suit(best)
        for seat, code in trick[1:]:
            suit = _suit(code)
            if suit == best_suit:
                if code > best:
                    best_seat, best = seat, code
            elif suit == self.trump:
                best_seat, best, best_suit = seat, code, suit
        return best_seat

    def _quick_tricks(self, leader: int) -> int:
        """Tricks the leader's side is sure to take on lead: in each suit his cards from the top
        of the live ones, at most as many rounds as every other hand that holds a trump can
        follow a side suit (a void one must ruff, N4)."""
        hands = self.hands
        mine = hands[leader]
        others = [hand for seat, hand in enumerate(hands) if seat != leader]
        rest = 0
        for hand in others:
            rest |= hand
        trump_mask = _SUIT_MASK[self.trump]
        ruffers = [hand for hand in others if hand & trump_mask]
        sure = 0
        for suit in range(4):
            shift = suit * 16
            own = (mine >> shift) & 0xFFFF
            if not own:
                continue
            theirs = (rest >> shift) & 0xFFFF
            run = 0
            b = 1 << 14
            while b:
                if own & b:
                    run += 1
                elif theirs & b:
                    break
                b >>= 1
            if suit != self.trump and ruffers:
                run = min(run, *(((h >> shift) & 0xFFFF).bit_count() for h in ruffers))
            sure += run
        return min(sure, mine.bit_count())

    def _order(
        self, turn: int, trick: list[tuple[int, int]], moves: list[int], maximising: bool
    ) -> list[int]:
        """A following hand's cards: those that leave the trick with its side first (the
        cheapest winner first, or the highest card that stays under), then the rest lowest
        first."""
        good: list[int] = []
        bad: list[int] = []
        for code in moves:
            trick.append((turn, code))
            ours = (self._taker(trick) == self.declarer) == maximising
            trick.pop()
            (good if ours else bad).append(code)
        return good + bad

    def _play(self, turn: int, trick: list[tuple[int, int]], alpha: int, beta: int) -> int:
        hands = self.hands
        hand = hands[turn]
        if not trick:
            left = hand.bit_count()
            if not left:
                return 0
            key = self._key(turn)
            low, high = self.table.get(key, (0, left))
            if low < beta and high > alpha and low < high and self.trump >= 0:
                sure = self._quick_tricks(turn)
                if turn == self.declarer:
                    low = max(low, sure)
                else:
                    high = min(high, left - sure)
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            a0, b0 = alpha, beta
            alpha, beta = max(alpha, low), min(beta, high)
            value = self._moves(turn, trick, hand, alpha, beta)
            if value <= max(a0, low):
                high = min(high, value)
            elif value >= min(b0, high):
                low = max(low, value)
            else:
                low = high = value
            self.table[key] = (low, high)
            return value
        led = _SUIT_MASK[_suit(trick[0][1])]
        legal = hand & led
        if not legal and self.trump >= 0:
            legal = hand & _SUIT_MASK[self.trump]
        return self._moves(turn, trick, legal or hand, alpha, beta)

    def _moves(
        self, turn: int, trick: list[tuple[int, int]], legal: int, alpha: int, beta: int
    ) -> int:
        maximising = turn == self.declarer
        best = -1 if maximising else 99
        hands = self.hands
        live = hands[0]
        for h in hands[1:]:
            live |= h
        for _, laid in trick:
            live |= laid
        previous = 0
        moves: list[int] = []
        while legal:
            code = legal & -legal
            legal ^= code
            # of touching cards (no live card of another hand between) one is tried
            between = live & (code - 1) & ~(previous * 2 - 1) & ~hands[turn]
            if previous and not between and _suit(previous) == _suit(code):
                previous = code
                continue
            previous = code
            moves.append(code)
        if trick and len(moves) > 1:
            moves = self._order(turn, trick, moves, maximising)
        for code in moves:
            hands[turn] ^= code
            trick.append((turn, code))
            value = self._after(trick, alpha, beta)
            trick.pop()
            hands[turn] |= code
            if maximising:
                if value > best:
                    best = value
                    alpha = max(alpha, best)
            elif value < best:
                best = value
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best


def review(record: dict[str, Any]) -> Review:
    """The review of a finished Napoleon deal's record: the declarer against the rest."""
    deal = start(record)
    assert isinstance(deal, NapoleonDeal)
    dealt = tuple(deal.hands)
    solver: NapoleonSolver | None = None
    steps: list[Step] = []
    for entry in record.get("actions", []):
        action = Action.from_record(entry, deal.WORDS)
        if action.do is Do.PLAY and deal.declarer is not None:
            solver = solver or NapoleonSolver(deal.n, deal.declarer)
            steps.append(_step(deal, solver, action))
        deal = deal.apply(action)[0]
    parts: dict[str, Any] = {"discard": deal.discards, "total": ALL_TRICKS}
    if not steps or deal.declarer is None:
        return build(deal.game, deal.players, dealt, declarer=deal.declarer, only_hands="no_play",
                     **parts)  # fmt: skip
    declarer = deal.declarer
    return build(
        deal.game, deal.players, dealt, declarer=declarer, steps=tuple(steps),
        start=steps[0].best, taken=deal.tricks_won[declarer], **parts,
    )  # fmt: skip


def _step(deal: NapoleonDeal, solver: NapoleonSolver, action: Action) -> Step:
    seat, declarer = action.seat, solver.declarer
    assert action.card is not None
    before = deal.tricks_won[declarer]
    values = []
    for legal in deal.legal_actions(seat):
        assert legal.card is not None
        counted = before + solver.counted(deal, seat, legal.card)
        values.append((legal.card, counted if seat == declarer else ALL_TRICKS - counted))
    return Step(len(deal.tricks_played) + 1, seat, seat, action.card, tuple(values))
