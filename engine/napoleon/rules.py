"""Napoleon's house rules (docs/rules.md N1–N8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .. import options

NapoleonFailed = Literal["treasure_doubles", "pay_each"]


@dataclass(frozen=True, slots=True)
class NapoleonRules:
    """Options of a Napoleon table; the defaults are docs/rules.md's."""

    # N7: a failed napoleon doubles the treasure; option: he pays each other player its amount.
    napoleon_failed: NapoleonFailed = "treasure_doubles"

    def to_dict(self) -> dict[str, Any]:
        """The rules as a record's `rules` object: only the options that differ from the
        defaults (HAND_FORMAT: Napoleon's `rules` needs no preset)."""
        return options.overrides(PRESETS["classic"], self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> NapoleonRules:
        """Rules from a record's `rules` object (a `preset` of "classic" is accepted)."""
        return options.from_dict(data, PRESETS, ALLOWED)


ALLOWED: dict[str, tuple[Any, ...]] = {"napoleon_failed": ("treasure_doubles", "pay_each")}
PRESETS: dict[str, NapoleonRules] = {"classic": NapoleonRules()}
