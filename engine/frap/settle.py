"""Frap's money at the end of play: trick money (F13) and penalties (F14)."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Rank, Suit
from ..events import ChipsMoved, Reason
from .rules import FrapRules

DECLARER_NEEDS = 2  # F5: frap = at least two tricks
OPPONENT_NEEDS = 1  # F6, F10: whist or cut-in = at least one trick
TRICKS = 4


def declarer_penalty(
    rules: FrapRules,
    tricks: int,
    *,
    dark: bool,
    taken_turnup: Card | None,
    trump: Suit,
    needs: int = DECLARER_NEEDS,
) -> int:
    """How many times P0 a declarer with `tricks` of `needs` tricks pays into the pot (F14;
    K5: in Khrap one trick short counts as F14's "one short", more as "none taken")."""
    if tricks >= needs:
        return 0
    if rules.penalties == "flat":
        return 4 if dark else 2
    one_short = tricks == needs - 1
    if not dark:
        return 1 if one_short else 2
    if not one_short:
        return 4
    trump_ace = taken_turnup is not None and taken_turnup == Card(Rank.ACE, trump)
    return 3 if trump_ace else 2


def settle_play(
    rules: FrapRules,
    *,
    p0: int,
    declarer: int,
    dark: bool,
    taken_turnup: Card | None,
    trump: Suit,
    opponents: Sequence[int],
    tricks: Sequence[int],
    needs: int = DECLARER_NEEDS,
    tricks_in_deal: int = TRICKS,
) -> list[ChipsMoved]:
    """The chip movements after the last trick: trick money first, then penalties (F13, F14;
    K5: a fifth of the pot per trick in Khrap)."""
    q = p0 // tricks_in_deal  # F13: the remainder P0 − 4q stays in the pot
    failed = tricks[declarer] < needs
    moves: list[ChipsMoved] = []
    for seat in sorted([declarer, *opponents]):
        collects = seat != declarer or not failed or rules.failed_declarer_collects
        if collects and tricks[seat]:
            moves.append(ChipsMoved(seat, q * tricks[seat], Reason.TRICKS))
    times = declarer_penalty(
        rules, tricks[declarer], dark=dark, taken_turnup=taken_turnup, trump=trump, needs=needs
    )
    if times:
        moves.append(ChipsMoved(declarer, -times * p0, Reason.PENALTY))
    for seat in sorted(opponents):
        if tricks[seat] < OPPONENT_NEEDS:
            moves.append(ChipsMoved(seat, -p0, Reason.PENALTY))
    return moves
