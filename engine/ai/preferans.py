"""The rules level for Preferans (RULES P4–P12): a readable heuristic that bids by a count of sure
tricks, bids misère only with a hand that cannot be made to take a trick, discards to keep its
tops and void a suit, whists when the defenders can take their obligation, and plays by the old
maxims (cash masters and draw trumps, second hand low, win as cheaply as possible; in misère and
raspasy duck under the trick with the highest card that still loses).

It reads only the deciding seat's own hand, the hands laid open and the table, so it can run on a
seat's knowledge (its world) and, inside the strong level's look-ahead, at every seat of an
imagined deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations

from ..cards import BY_INDEX, Card, Rank, Suit, make_deck
from ..preferans.actions import PrefAction, PrefDo
from ..preferans.bidding import RANK, trump_of
from ..preferans.deal import Phase, PrefDeal
from ..preferans.outcome import level
from ..preferans.play import winner
from ..preferans.scoring import VALUE
from ..tricks import Play

SUITS = tuple(Suit)
SUIT_CARDS = 8  # P2: 7 … A in each suit
TALON_GAIN = 0.7  # tricks two unseen talon cards add to a bidder's count, on average (P5)
RUFF = 0.5  # a side card left after the defenders run out of the suit: they may ruff it
GUARDED = 0.5  # a king with a guard, a queen among three trumps: a defender's half trick
WHIST_SHARE = {6: 2.0, 7: 1.0, 8: 1.0, 9: 1.0, 10: 1.0}  # P6, P12: a whister's share of O
LONE_WHIST = {6: 3.5, 7: 2.0, 8: 1.0, 9: 1.0, 10: 1.0}  # tricks to whist alone after a pass
RETURN_WHIST = {6: 3.5, 7: 2.0}  # P6: tricks to take back a half-whist and play alone
DENOMINATIONS = tuple((d, trump_of(f"6{d}")) for d in ("S", "C", "D", "H", "NT"))  # P2
ALL_32 = frozenset(make_deck(32))
DISCARD_POOL = 6  # cards weighed in pairs for the discard (P5)
MISERE_RISK = 0  # unsafe cards a misère bidder may hold (P9: one trick costs 10 gora)


# ---- what a hand is worth ----------------------------------------------------------------------


@cache
def suit_tricks(ranks: tuple[int, ...], trump: bool, no_trump: bool) -> float:
    """Tricks a suit of these ranks (highest first) takes when played from the top against the
    other 8 − n cards of the suit held by two opponents, each following low and covering with its
    highest card: a card wins once the higher cards out have fallen. When the opponents run out,
    trumps and no-trump long cards win; side cards may be ruffed (worth `RUFF`)."""
    out = sorted((r for r in range(Rank.SEVEN, Rank.ACE + 1) if r not in ranks), reverse=True)
    tricks = 0.0
    for rank in ranks:
        if not out:
            tricks += 1.0 if trump or no_trump else RUFF
            continue
        if out[0] > rank:
            out.pop(0)  # they win it with their highest card; the other follows low
            out = out[:-1]
        else:
            tricks += 1.0
            out = out[:-2]  # both follow low
    return tricks


Hand = tuple[tuple[int, ...], ...]  # ranks per suit (in `SUITS` order), highest first


def by_suit(hand: Sequence[Card]) -> Hand:
    """The hand's ranks per suit, highest first."""
    ranks: dict[Suit, list[int]] = {suit: [] for suit in SUITS}
    for card in hand:
        ranks[card.suit].append(card.rank)
    return tuple(tuple(sorted(ranks[suit], reverse=True)) for suit in SUITS)


def tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    """The tricks a declarer's hand should take with `trump` (None: no trump): each suit played
    from the top (`suit_tricks`)."""
    return suits_tricks(by_suit(hand), trump)


@lru_cache(maxsize=1 << 16)
def suits_tricks(suits: Hand, trump: Suit | None) -> float:
    """`tricks` of a hand given by suit (the suits in `SUITS` order)."""
    at = SUITS.index(trump) if trump is not None else -1
    return sum(suit_tricks(ranks, i == at, at < 0) for i, ranks in enumerate(suits))


def defence_tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    """The tricks a defender's hand should take against `trump`: side suits for two rounds at
    most (then the declarer ruffs), trumps played from the top, half a trick for a guarded king
    (or a queen among three trumps) that the count leaves out."""
    total = 0.0
    for suit, ranks in zip(SUITS, by_suit(hand), strict=True):
        is_trump = suit is trump
        count = suit_tricks(ranks, is_trump, trump is None)
        total += count if is_trump or trump is None else min(count, 2.0)
        if not count and len(ranks) >= 2 and ranks[0] == Rank.KING:
            total += GUARDED
        if is_trump and not count and len(ranks) >= 3 and ranks[0] == Rank.QUEEN:
            total += GUARDED
    return total


def unsafe_cards(hand: Sequence[Card]) -> int:
    """P9: the cards that may be forced to take a trick in misère (`suits_unsafe`)."""
    return suits_unsafe(by_suit(hand))


@lru_cache(maxsize=1 << 14)
def suits_unsafe(suits: Hand) -> int:
    """In each suit the i-th lowest card (from 0) is safe if at most 2·i cards of the suit lie
    below it (the others lead low, and each round uses up two of theirs), or once the others have
    run out of the suit."""
    bad = 0
    for ranks in suits:
        low_first = sorted(ranks)
        out = SUIT_CARDS - len(low_first)
        for i, rank in enumerate(low_first):
            below = rank - Rank.SEVEN
            if below > 2 * i and 2 * i < out:
                bad += 1
    return bad


def affordable(hand: Sequence[Card], gain: float) -> int:
    """The highest ladder place of a trick bid whose level the hand counts in its denomination."""
    suits = by_suit(hand)
    best = -1
    for suffix, trump in DENOMINATIONS:
        count = int(suits_tricks(suits, trump) + gain)
        if count >= 6:
            best = max(best, RANK[f"{min(count, 10)}{suffix}"])
    return best


# ---- the heuristic ------------------------------------------------------------------------------


def choose(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    """The rules level's action among `legal` for the controller `seat` (all of one phase)."""
    if len(legal) == 1:
        return legal[0]
    phase = deal.phase
    if phase is Phase.PLAY:
        return play(deal, legal)
    if phase is Phase.BIDDING:
        return bid(deal, seat, legal)
    if phase is Phase.DISCARD:
        return discard_candidates(deal, seat, legal, 1)[0]
    if phase is Phase.CONTRACT:
        return max(legal, key=lambda a: contract_value(deal, seat, a))
    if phase is Phase.WHISTING:
        return whist(deal, seat, legal)
    return next(a for a in legal if a.do is PrefDo.LIGHT)  # P7: play open, both hands in one head


def bid(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    """P4: misère with a hand that has no unsafe card; else the lowest bid (or "here") up to the
    highest contract the hand counts with an average talon; else pass."""
    hand = deal.hands[seat]
    words = {a.do: a for a in legal}
    if PrefDo.MISERE in words and unsafe_cards(hand) <= MISERE_RISK:
        return words[PrefDo.MISERE]
    top = affordable(hand, TALON_GAIN)
    standing = deal.auction.top
    if PrefDo.HERE in words and standing <= top:
        return words[PrefDo.HERE]
    bids = [a for a in legal if a.do is PrefDo.BID and a.bid is not None]
    if bids and RANK[bids[0].bid or ""] <= top:
        return bids[0]
    return words[PrefDo.PASS]


def discard_value(deal: PrefDeal, seat: int, thrown: Sequence[Card]) -> tuple[float, int, int]:
    """P5: a trick declarer keeps the hand that counts most tricks, then the one with more voids,
    then throws the lowest cards; a misère declarer throws his most dangerous cards."""
    low = -sum(int(c.rank) for c in thrown)
    suits = list(by_suit(deal.hands[seat]))
    for card in thrown:
        at = SUITS.index(card.suit)
        suits[at] = tuple(r for r in suits[at] if r != card.rank)
    kept = tuple(suits)
    if deal.bid == "misere":
        return -suits_unsafe(kept), -low, 0
    voids = sum(1 for ranks in kept if not ranks)
    return max(suits_tricks(kept, trump) for _, trump in DENOMINATIONS), voids, low


def discard_candidates(
    deal: PrefDeal, seat: int, legal: Sequence[PrefAction], keep: int
) -> list[PrefAction]:
    """The `keep` best discards by `discard_value`, best first, among the pairs of the six cards
    the hand misses least one at a time (15 pairs weighed, not 66)."""
    hand = deal.hands[seat]
    cheap = sorted(hand, key=lambda c: discard_value(deal, seat, (c,)), reverse=True)[:DISCARD_POOL]
    by_cards = {frozenset(a.cards or ()): a for a in legal}
    pairs = [by_cards[frozenset(pair)] for pair in combinations(cheap, 2)]
    pairs.sort(key=lambda a: discard_value(deal, seat, a.cards or ()), reverse=True)
    return pairs[:keep]


def contract_value(deal: PrefDeal, seat: int, action: PrefAction) -> float:
    """P5, P11: V for a contract the hand counts, less V for each trick it falls short."""
    contract = action.bid or ""
    need = level(contract)
    short = need - tricks(deal.hands[seat], trump_of(contract))
    value = VALUE[need]
    return float(value) if short <= 0 else -value * short * 1.5


def whist(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    """P6, P12: whist when this hand can take its share of the obligation; after a pass, whist
    alone only with most of it, else half-whist on 6 and 7 (free whists); take back a half-whist
    only with a hand that can play alone."""
    assert deal.contract is not None
    words = {a.do: a for a in legal}
    contract_level = level(deal.contract)
    mine = defence_tricks(deal.hands[seat], deal.trump)
    first, _ = deal.defenders
    if deal.half_whist:  # the first defender answers the half-whist
        if mine >= RETURN_WHIST.get(contract_level, 1.0):
            return words[PrefDo.WHIST]
        return words[PrefDo.PASS]
    if seat == first or deal.defence[first] == "whist":
        share = WHIST_SHARE[contract_level]
        if seat == first and contract_level >= 8:
            share = 0.5  # P12: on 8 and 9 the second defender answers for the shortfall
        return words[PrefDo.WHIST] if mine >= share else words[PrefDo.PASS]
    if mine >= LONE_WHIST[contract_level]:
        return words[PrefDo.WHIST]
    return words.get(PrefDo.HALF_WHIST) or words[PrefDo.PASS]


# ---- card play ----------------------------------------------------------------------------------


def out_cards(deal: PrefDeal, seat: int) -> int:
    """Cards not in `seat`'s hand and not yet played (held by others, in a talon or discard), as
    a mask of their `Card.index` bits (the play below asks it for every card of every playout)."""
    gone = _mask(p.card for t in (*deal.tricks_played, deal.trick) for p in t)
    return ALL_MASK & ~gone & ~_mask(deal.hands[seat])


def _mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


ALL_MASK = _mask(ALL_32)
_SUIT_MASK = {suit: _mask(c for c in ALL_32 if c.suit is suit) for suit in SUITS}
# The cards of each card's suit above it: it is a master while none of them is out.
_ABOVE = [  # by `Card.index`
    _mask(c for c in ALL_32 if c.suit is card.suit and c.rank > card.rank) for card in BY_INDEX
]


def is_master(card: Card, out: int) -> bool:
    """No card of its suit higher than it is out (`out_cards`)."""
    return not out & _ABOVE[card.index]


def play(deal: PrefDeal, legal: Sequence[PrefAction]) -> PrefAction:
    """P8–P10: the card for the hand due (`legal` is for `deal.turn`)."""
    seat = legal[0].seat
    if deal.raspasy or (deal.contract == "misere" and seat == deal.declarer):
        return _duck(deal, seat, legal)
    if deal.contract == "misere":
        return _catch(deal, seat, legal)
    return _contract_play(deal, seat, legal)


def _cost(action: PrefAction, trump: Suit | None) -> int:
    card = action.card
    assert card is not None
    return (20 if card.suit is trump else 0) + card.rank


def _trick_winner(deal: PrefDeal, extra: PrefAction | None = None) -> int:
    trick = list(deal.trick)
    if extra is not None and extra.card is not None:
        trick.append(Play(extra.seat, extra.card))
    done = len(deal.tricks_played)
    follow = deal.talon[done].suit if deal.raspasy and done < 2 else None
    return winner(trick, deal.trump, follow)


def _partners(deal: PrefDeal, seat: int, other: int) -> bool:
    """P11: declarer against the two defenders (the same seat is its own partner)."""
    return other == seat or (seat != deal.declarer and other != deal.declarer)


def _contract_play(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    trump = deal.trump
    out = out_cards(deal, seat)
    hand = deal.hands[seat]

    def cost(action: PrefAction) -> int:
        return _cost(action, trump)

    def master(action: PrefAction) -> bool:
        assert action.card is not None
        return is_master(action.card, out)

    if not deal.trick:
        trumps_out = trump is not None and bool(out & _SUIT_MASK[trump])
        if seat == deal.declarer and trumps_out:
            lead_trumps = [a for a in legal if a.card and a.card.suit is trump and master(a)]
            if lead_trumps:
                return max(lead_trumps, key=cost)  # draw trumps with a master
        cash = [a for a in legal if master(a) and a.card and a.card.suit is not trump]
        if cash:
            return max(cash, key=cost)
        side = [a for a in legal if a.card and a.card.suit is not trump] or list(legal)

        def length(action: PrefAction) -> tuple[int, int]:
            assert action.card is not None
            return sum(1 for c in hand if c.suit is action.card.suit), -action.card.rank

        return max(side, key=length)  # low from the longest side suit
    leader = _trick_winner(deal)
    last = len(deal.trick) == 2
    if _partners(deal, seat, leader):
        best = next(p for p in deal.trick if p.seat == leader).card
        if last or is_master(best, out):
            return min(legal, key=cost)  # the partner has it
    winners = [a for a in legal if _trick_winner(deal, a) == seat]
    if winners:
        if last:
            return min(winners, key=cost)
        safe = [a for a in winners if master(a)]
        if safe:
            return min(safe, key=cost)
        if any(a.card and a.card.suit is trump for a in winners) and trump not in {
            p.card.suit for p in deal.trick
        }:
            return min(winners, key=cost)  # ruff it: a trump the next hand must beat
    return min(legal, key=cost)  # second hand low, or nothing wins: the cheapest card


def _duck(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    """P9 declarer, P10: take no trick. Lead the lowest card that someone can beat; follow with
    the highest card that still loses; when void, throw the highest card; when forced to win,
    the highest card if last, else the lowest (a later hand may still go over)."""
    out = out_cards(deal, seat)

    def rank(action: PrefAction) -> int:
        assert action.card is not None
        return int(action.card.rank)

    if not deal.trick and not (deal.raspasy and len(deal.tricks_played) < 2):
        beatable = [a for a in legal if a.card and not is_master(a.card, out)]
        return min(beatable or legal, key=rank)
    losers = [a for a in legal if _trick_winner(deal, a) != seat]
    if losers:
        return max(losers, key=rank)
    last = len(deal.trick) == 2
    return max(legal, key=rank) if last else min(legal, key=rank)


def _catch(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    """P9 defenders: make the declarer take a trick. Lead low; once the declarer is winning the
    trick, stay under him with the highest card that does; before he plays, play low."""
    declarer = deal.declarer

    def rank(action: PrefAction) -> int:
        assert action.card is not None
        return int(action.card.rank)

    if deal.trick and _trick_winner(deal) == declarer:
        under = [a for a in legal if _trick_winner(deal, a) == declarer]
        if under:
            return max(under, key=rank)
    return min(legal, key=rank)
