"""Napoleon's money when play stops (docs/rules.md N5–N7): the stake between the declarer and each
other player, and what goes into or out of the treasure."""

from __future__ import annotations

from ..events import ChipsMoved, Reason
from ..tricks import clockwise
from .rules import NapoleonRules

NAPOLEON = 6  # N2: the napoleon bid ranks above a bid of 5 tricks
ALL_TRICKS = 5  # N1: five cards each, so a napoleon needs all five tricks


def settle(
    rules: NapoleonRules, *, n: int, declarer: int, level: int, made: bool, stake: int,
    treasure: int,
) -> list[ChipsMoved]:  # fmt: skip
    """The chip movements of a finished deal: `level` is the bid (1–5, or NAPOLEON), `stake` u,
    `treasure` T after this deal's contributions (N6). Payments between two players come as a
    pair (payer first) so the treasure only sees its own share; zero amounts are left out."""
    b = min(level, ALL_TRICKS)
    others = clockwise(declarer, n)[1:]
    moves: list[ChipsMoved] = []

    def pay(payer: int, payee: int, amount: int) -> None:
        if amount:
            moves.append(ChipsMoved(payer, -amount, Reason.STAKE, other=payee))
            moves.append(ChipsMoved(payee, amount, Reason.STAKE, other=payer))

    if made:
        for other in others:
            pay(other, declarer, b * stake)  # N5, N6: each other player pays b·u (5u)
        if level == NAPOLEON and treasure:
            moves.append(ChipsMoved(declarer, treasure, Reason.POT_TAKEN))  # N6
        return moves
    if level != NAPOLEON:
        for other in others:
            pay(declarer, other, b * stake)  # N5: he pays each other player b·u…
        if b * stake:
            moves.append(ChipsMoved(declarer, -b * stake, Reason.PENALTY))  # …and b·u in
    elif rules.napoleon_failed == "pay_each":
        for other in others:
            pay(declarer, other, ALL_TRICKS * stake + treasure)  # N7 option: 5u + T each
    else:
        for other in others:
            pay(declarer, other, ALL_TRICKS * stake)  # N7: 5u each…
        if treasure:
            moves.append(ChipsMoved(declarer, -treasure, Reason.PENALTY))  # …and T doubles
    return moves
