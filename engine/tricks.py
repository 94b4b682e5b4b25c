"""The trick-taking core shared by Frap and its relatives: seating, dealing, following, winning."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, Suit


def clockwise(start: int, n_seats: int) -> tuple[int, ...]:
    """All seats clockwise beginning with `start` (F2: "in order" = from the dealer's left)."""
    start %= n_seats
    return (*range(start, n_seats), *range(start))


def in_order(seats: Iterable[int], start: int, n_seats: int) -> tuple[int, ...]:
    """The given seats (each in 0..n_seats-1) sorted clockwise beginning at `start`."""
    ordered = sorted(seats)
    at = bisect_left(ordered, start % n_seats)
    return (*ordered[at:], *ordered[:at])


def deal_round_robin(
    deck: Sequence[Card], first: int, n_seats: int, per_seat: int
) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """Deal `per_seat` cards one at a time from the top, starting at seat `first` (F4).

    Returns the hands by seat and how many cards were taken from the deck.
    """
    taken = n_seats * per_seat
    dealt = tuple(deck[:taken])
    # The seat dealt j-th gets every n-th card from the j-th.
    return tuple(dealt[(seat - first) % n_seats :: n_seats] for seat in range(n_seats)), taken


@dataclass(frozen=True, slots=True)
class Play:
    """One card put on a trick by a seat; `joker`: Student Khrap's 7♠ played as the joker (SK2)."""

    seat: int
    card: Card
    joker: bool = False


def legal_plays(
    hand: Sequence[Card], led: Suit | None, trump: Suit | None, *, must_trump: bool = True
) -> list[Card]:
    """Cards of `hand` that may go on a trick led in `led` (None: this card leads).

    Follow suit; if void and `must_trump`, play a trump; otherwise anything (F12, N4, P).
    """
    if led is None:
        return list(hand)
    following = [card for card in hand if card.suit is led]
    if following:
        return following
    if must_trump and trump is not None:
        trumps = [card for card in hand if card.suit is trump]
        if trumps:
            return trumps
    return list(hand)


def why_illegal(
    card: Card,
    hand: Sequence[Card],
    led: Suit | None,
    trump: Suit | None,
    *,
    must_trump: bool = True,
) -> str | None:
    """Why `card` may not be played now (without the rule number), or None if it may."""
    if card not in hand:
        return f"{card} is not in the hand"
    if card in legal_plays(hand, led, trump, must_trump=must_trump):
        return None
    if led is not None and any(c.suit is led for c in hand):
        return f"must follow suit {led.symbol}"
    assert trump is not None
    return f"must play a trump {trump.symbol}"


def trick_winner(plays: Sequence[Play], trump: Suit | None) -> int:
    """The seat that wins: the joker (SK2), else the highest trump, else the highest card of the
    suit led (F12)."""
    for play in plays:
        if play.joker:
            return play.seat
    best = plays[0]
    for play in plays[1:]:
        card, top = play.card, best.card
        if card.suit is top.suit:
            if card.rank > top.rank:
                best = play  # higher in the suit that is winning so far
        elif card.suit is trump:
            best = play  # the first trump on a trick led in another suit
    return best.seat
