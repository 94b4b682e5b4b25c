"""Student Khrap's house rules (docs/rules.md SK1–SK13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .. import options

JokerLead = Literal["trumps", "named_suit"]


@dataclass(frozen=True, slots=True)
class StudentRules:
    """Options of a Student Khrap table; the defaults are docs/rules.md's (preset `classic`)."""

    # SK2: a joker led as the joker makes the others play trumps; option: the leader names a suit.
    joker_lead: JokerLead = "trumps"

    def to_dict(self) -> dict[str, Any]:
        """The rules as a record's `rules` object."""
        return options.to_dict(self, PRESETS)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> StudentRules:
        """Rules from a record's `rules` object."""
        return options.from_dict(data, PRESETS, {"joker_lead": ("trumps", "named_suit")})


PRESETS: dict[str, StudentRules] = {"classic": StudentRules()}
