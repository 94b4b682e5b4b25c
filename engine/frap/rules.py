"""Frap's (and Khrap's) rules as a typed object: the defaults of docs/rules.md and every
named option."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .. import options
from ..cards import DECK_SIZES

Penalties = Literal["graded", "flat"]
AnteMode = Literal["penalty_carries", "every_deal"]
Lead = Literal["last_cutter", "first_cutter"]


@dataclass(frozen=True, slots=True)
class FrapRules:
    """House rules of a Frap or Khrap table; the defaults are docs/rules.md's (preset `classic`)."""

    penalties: Penalties = "graded"  # F14
    failed_declarer_collects: bool = True  # F13
    ante: AnteMode = "penalty_carries"  # F3
    cut_when_uncontested: bool = False  # F6
    cutting_in: bool = True  # F10
    lead: Lead = "last_cutter"  # F11
    deck_size: int | None = None  # F1: None = by the number of players
    must_whist: bool = False  # K6 (Khrap): after a khrap every other player must whist

    def deck_size_for(self, n_players: int) -> int:
        """The deck for `n_players` (F1), or the fixed size of the option."""
        if self.deck_size is not None:
            return self.deck_size
        if n_players <= 4:
            return 32
        return 36 if n_players <= 6 else 52

    def to_dict(self) -> dict[str, Any]:
        """The rules as a record's `rules` object: the closest preset plus its overrides."""
        return options.to_dict(self, PRESETS)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> FrapRules:
        """Rules from a record's `rules` object: a preset plus option overrides."""
        return options.from_dict(data, PRESETS, ALLOWED)


ALLOWED: dict[str, tuple[Any, ...]] = {
    "penalties": ("graded", "flat"),
    "failed_declarer_collects": (True, False),
    "ante": ("penalty_carries", "every_deal"),
    "cut_when_uncontested": (True, False),
    "cutting_in": (True, False),
    "lead": ("last_cutter", "first_cutter"),
    "deck_size": (None, *DECK_SIZES),
    "must_whist": (True, False),
}

PRESETS: dict[str, FrapRules] = {
    "classic": FrapRules(),
    # S0's book reading: flat penalties, a failed declarer's trick stays in the pot (F13, F14).
    "s0": FrapRules(penalties="flat", failed_declarer_collects=False),
}
