"""Preferans actions: the `do` words of HAND_FORMAT's Preferans records, as plain values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from ..cards import Card, parse_cards


class PrefDo(StrEnum):
    """What an action does; the values are the record's `do` words."""

    BID = "bid"
    MISERE = "misere"
    HERE = "here"
    PASS = "pass"
    DISCARD = "discard"
    CONTRACT = "contract"
    WHIST = "whist"
    HALF_WHIST = "half_whist"
    LIGHT = "light"
    DARK = "dark"
    PLAY = "play"


# The one field each word carries besides `seat` and `do` (HAND_FORMAT); any other is refused.
FIELDS: dict[PrefDo, str | None] = {
    PrefDo.BID: "bid",
    PrefDo.CONTRACT: "contract",
    PrefDo.DISCARD: "cards",
    PrefDo.PLAY: "card",
}


@dataclass(frozen=True, slots=True)
class PrefAction:
    """One decision: `seat` is the hand it concerns (in light play the whister plays the passer's
    cards under the passer's seat, P7); `bid` carries a bid or a contract ("7H", "10NT")."""

    seat: int
    do: PrefDo
    bid: str | None = None
    card: Card | None = None
    cards: tuple[Card, ...] | None = None

    def to_record(self) -> dict[str, Any]:
        """The action as a record entry, with only the field its word takes."""
        entry: dict[str, Any] = {"seat": self.seat, "do": self.do.value}
        name = FIELDS.get(self.do)
        if name == "card":
            entry["card"] = str(self.card)
        elif name == "cards":
            entry["cards"] = [str(card) for card in self.cards or ()]
        elif name is not None:
            entry[name] = self.bid
        return entry

    @staticmethod
    def from_record(entry: object) -> PrefAction:
        """An action from a record entry; ValueError when it is malformed."""
        if not isinstance(entry, dict):
            raise ValueError(f"malformed action {entry!r}")
        try:
            seat, do = entry["seat"], PrefDo(entry["do"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed action {entry!r}") from exc
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError(f"malformed seat in {entry!r}")
        name = FIELDS.get(do)
        extra = set(entry) - {"seat", "do"} - ({name} if name else set())
        if extra:
            raise ValueError(f"{do.value} takes no {', '.join(sorted(extra))}")
        if name is None:
            return PrefAction(seat, do)
        if name not in entry:
            raise ValueError(f"{do.value} needs {name}")
        value = entry[name]
        if name == "card":
            if not isinstance(value, str):
                raise ValueError(f"malformed card in {entry!r}")
            return PrefAction(seat, do, card=Card.parse(value))
        if name == "cards":
            if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
                raise ValueError(f"malformed cards in {entry!r}")
            return PrefAction(seat, do, cards=parse_cards(value))
        if not isinstance(value, str):
            raise ValueError(f"malformed {name} in {entry!r}")
        return PrefAction(seat, do, bid=value)


@cache
def word(seat: int, do: PrefDo, bid: str | None = None) -> PrefAction:
    """A shared action (immutable): legal-action lists offer the same few again and again."""
    return PrefAction(seat, do, bid=bid)
