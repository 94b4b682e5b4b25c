"""Khrap (храп, RULES.md K1–K6): Frap with five cards, khrap = three tricks, two trump rounds, and
the declarer's whole or half pot. Only what differs from Frap is written here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..actions import Do
from ..events import ChipsMoved, Event, Reason
from .settle import OPPONENT_NEEDS
from .state import FrapDeal


@dataclass
class KhrapDeal(FrapDeal):
    """One deal of Khrap; everything not named here is Frap's (F1–F15)."""

    game: ClassVar[str] = "khrap"
    MAX_PLAYERS: ClassVar[int] = 10  # K1: 5N + 1 cards, so 52 cards seat ten
    HAND_SIZE: ClassVar[int] = 5  # K1
    DECLARER_NEEDS: ClassVar[int] = 3  # K2
    MAX_ROUNDS: ClassVar[int] = 2  # K3
    BID: ClassVar[Do] = Do.KHRAP
    DARK_BID: ClassVar[Do] = Do.DARK_KHRAP

    def _settle(self, events: list[Event]) -> None:
        """K4: a khrap made takes the whole pot in round 1, half in round 2 (whisters who made
        their trick get nothing); K5: a failed khrap is settled as Frap with P0/5 a trick."""
        declarer = self._declarer
        if self.tricks_won[declarer] < self.DECLARER_NEEDS:
            super()._settle(events)
            return
        share = self.p0 if self.round == 1 else self.p0 // 2
        moves = [ChipsMoved(declarer, share, Reason.POT_TAKEN)]
        moves += [
            ChipsMoved(seat, -self.p0, Reason.PENALTY)  # F14: a whister or cutter with none
            for seat in sorted([*self.whisters, *self.cutters])
            if self.tricks_won[seat] < OPPONENT_NEEDS
        ]
        for move in moves:
            self._move(move, events)
        self.pot_has_penalty = len(moves) > 1 and self.p0 > 0
        self._finish(events)
