"""Khrap (храп, docs/rules.md K1–K6): Frap with five cards, khrap = three tricks, two trump rounds,
and the declarer's whole or half pot. Only what differs from Frap is written here.

K1: five cards each (F1's deck by N holds 5N + 1 cards up to ten players; a fixed deck must too),
so buying is 0–5 cards, a cutter drops five and takes six (or the turn-up and five) and discards
one, and five tricks are played. K2: khrap and dark khrap are Frap's frap and dark frap (F5, F7).
K3: two trump rounds, each all-pass round antes as F8, then the redeal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, Do, Verb
from ..errors import IllegalAction
from ..events import ChipsMoved, Event, Reason
from .settle import OPPONENT_NEEDS
from .state import FrapDeal, Phase


class KhrapDo(Verb):
    """Khrap's own words (K2): Frap's frap and dark frap under their own names."""

    KHRAP = "khrap"
    DARK_KHRAP = "dark_khrap"


@dataclass
class KhrapDeal(FrapDeal):
    """One deal of Khrap; everything not named here is Frap's (F1–F15)."""

    game: ClassVar[str] = "khrap"
    MAX_PLAYERS: ClassVar[int] = 10  # K1: 5N + 1 cards, so 52 cards seat ten
    HAND_SIZE: ClassVar[int] = 5  # K1
    DECLARER_NEEDS: ClassVar[int] = 3  # K2
    MAX_ROUNDS: ClassVar[int] = 2  # K3
    VERBS: ClassVar[tuple[type[Verb], ...]] = (Do, KhrapDo)
    BID: ClassVar[Verb] = KhrapDo.KHRAP
    DARK_BID: ClassVar[Verb] = KhrapDo.DARK_KHRAP
    CHANGES_HAND: ClassVar[frozenset[Verb]] = frozenset({Do.DISCARD, KhrapDo.DARK_KHRAP, Do.CUT})

    def _check_turn(self, action: Action) -> None:
        if not self.finished and 0 <= action.seat < self.n:
            if action.do in (Do.FRAP, Do.DARK_FRAP):
                raise IllegalAction("K2", "in Khrap the call is khrap (or dark khrap)")
            if action.do is Do.PASS and self.phase is Phase.WHIST and self.rules.must_whist:
                raise IllegalAction("K6", "after a khrap every other player must whist")
        super()._check_turn(action)

    def _khrap_share(self, pot: int) -> int:
        """K4: a khrap made in the first trump round takes the whole pot, in the second half of it
        (rounded down; the odd chip stays in the pot)."""
        return pot if self.round == 1 else pot // 2

    def _declarer_takes_pot(self, events: list[Event]) -> None:
        """F6 with K4: nobody whists (or, under `cut_when_uncontested`, nobody cuts in), so the
        khrap is made without play, and in the second round that is half the pot."""
        self._move(
            ChipsMoved(self._declarer, self._khrap_share(self.pot), Reason.POT_TAKEN), events
        )
        self.pot_has_penalty = False
        self._finish(events)

    def _settle(self, events: list[Event]) -> None:
        """K4: a khrap made takes the whole pot in round 1, half in round 2; the whisters and
        cutters who made their trick get nothing, one with none pays ×1 (F14).
        K5: a failed khrap is settled as Frap with P0 // 5 a trick (F13) and F14's penalties,
        "one short" being two tricks of three (`settle_play` with needs = 3, five tricks)."""
        declarer = self._declarer
        if self.tricks_won[declarer] < self.DECLARER_NEEDS:
            super()._settle(events)  # K5
            return
        moves = [ChipsMoved(declarer, self._khrap_share(self.p0), Reason.POT_TAKEN)]
        moves += [
            ChipsMoved(seat, -self.p0, Reason.PENALTY)  # F14: a whister or cutter with none
            for seat in sorted([*self.whisters, *self.cutters])
            if self.tricks_won[seat] < OPPONENT_NEEDS
        ]
        for move in moves:
            self._move(move, events)
        self.pot_has_penalty = any(m.reason is Reason.PENALTY and m.amount for m in moves)
        self._finish(events)
