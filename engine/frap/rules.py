"""Frap's rules as a typed object: the defaults of RULES.md and every named house rule."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from ..cards import DECK_SIZES

Penalties = Literal["graded", "flat"]
AnteMode = Literal["penalty_carries", "every_deal"]
Lead = Literal["last_cutter", "first_cutter"]


@dataclass(frozen=True, slots=True)
class FrapRules:
    """House rules of a Frap table; the defaults are RULES.md's (preset `classic`)."""

    penalties: Penalties = "graded"  # F14
    failed_declarer_collects: bool = True  # F13
    ante: AnteMode = "penalty_carries"  # F3
    cut_when_uncontested: bool = False  # F6
    cutting_in: bool = True  # F10
    lead: Lead = "last_cutter"  # F11
    deck_size: int | None = None  # F1: None = by the number of players

    def deck_size_for(self, n_players: int) -> int:
        """The deck for `n_players` (F1), or the fixed size if it holds at least 4N + 1 cards."""
        if self.deck_size is not None:
            return self.deck_size
        if n_players <= 4:
            return 32
        return 36 if n_players <= 6 else 52

    def to_dict(self) -> dict[str, Any]:
        """The rules as a record's `rules` object: the closest preset plus its overrides."""
        preset = min(PRESETS, key=lambda name: len(_overrides(PRESETS[name], self)))
        return {"preset": preset, **_overrides(PRESETS[preset], self)}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> FrapRules:
        """Rules from a record's `rules` object: a preset plus option overrides."""
        options = dict(data)
        name = options.pop("preset", "classic")
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}")
        known = {f.name for f in fields(FrapRules)}
        unknown = set(options) - known
        if unknown:
            raise ValueError(f"unknown rule options: {sorted(unknown)}")
        rules = replace(PRESETS[name], **options)
        rules.validate()
        return rules

    def validate(self) -> None:
        """Raise ValueError when an option has a value RULES.md does not name."""
        allowed: dict[str, tuple[Any, ...]] = {
            "penalties": ("graded", "flat"),
            "failed_declarer_collects": (True, False),
            "ante": ("penalty_carries", "every_deal"),
            "cut_when_uncontested": (True, False),
            "cutting_in": (True, False),
            "lead": ("last_cutter", "first_cutter"),
            "deck_size": (None, *DECK_SIZES),
        }
        for name, values in allowed.items():
            value = getattr(self, name)
            if not any(value is v or (type(value) is type(v) and value == v) for v in values):
                raise ValueError(f"rule option {name}={value!r} is not one of {values}")


def _overrides(base: FrapRules, rules: FrapRules) -> dict[str, Any]:
    names = [f.name for f in fields(FrapRules)]
    return {
        name: getattr(rules, name) for name in names if getattr(base, name) != getattr(rules, name)
    }


PRESETS: dict[str, FrapRules] = {
    "classic": FrapRules(),
    # S0's book reading: flat penalties, a failed declarer's trick stays in the pot (F13, F14).
    "s0": FrapRules(penalties="flat", failed_declarer_collects=False),
}
