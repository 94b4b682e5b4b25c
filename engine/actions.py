"""Actions: one decision of one seat, as plain values the bot can turn into buttons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from .cards import Card, Suit, parse_cards


class Verb(StrEnum):
    """What an action does in some game of the family; the values are the `do` words of hand
    records. It has no members: Frap's words (`Do`, every family game's) and each game's own
    (in its package) are its subclasses, and a deal class names those its records say
    (`TrickDeal.VERBS`). Two games' words may be spelled alike ("khrap") and then compare
    equal, so a cache of actions tells them apart by class."""


class Do(Verb):
    """Frap's words (F5–F12), which every game of the family may say."""

    LOOK = "look"
    FRAP = "frap"
    DARK_FRAP = "dark_frap"
    WHIST = "whist"
    PASS = "pass"
    DARK_DISCARD = "dark_discard"
    DISCARD = "discard"
    CUT = "cut"
    NO_CUT = "no_cut"
    CUT_DISCARD = "cut_discard"
    PLAY = "play"


def words(verbs: Iterable[type[Verb]]) -> dict[str, Verb]:
    """A game's verbs by their record word; ValueError if two of them share one."""
    found: dict[str, Verb] = {}
    for verb in (member for kind in verbs for member in kind):
        if found.setdefault(verb.value, verb) is not verb:
            raise ValueError(f"two verbs say {verb.value!r}")
    return found


class Action(NamedTuple):
    """A seat's decision. The optional fields are set only where `do` needs them: `joker` says
    how the 7♠ is played in Student Khrap (SK2), `suit` the suit a led joker names, `tricks` the
    number of tricks a Napoleon bid names (N2). Immutable; a named tuple rather than a frozen
    dataclass because the engine builds many (every set of cards a seat may exchange is one) and
    a tuple is built several times faster."""

    seat: int
    do: Verb
    card: Card | None = None
    cards: tuple[Card, ...] | None = None
    turnup: bool | None = None
    joker: bool | None = None
    suit: Suit | None = None
    tricks: int | None = None

    def to_record(self) -> dict[str, Any]:
        """The action as a hand-record entry."""
        entry: dict[str, Any] = {"seat": self.seat, "do": self.do.value}
        if self.card is not None:
            entry["card"] = str(self.card)
        if self.cards is not None:
            entry["cards"] = [str(card) for card in self.cards]
        if self.turnup is not None:
            entry["turnup"] = self.turnup
        if self.joker is not None:
            entry["joker"] = self.joker
        if self.suit is not None:
            entry["suit"] = self.suit.value
        if self.tricks is not None:
            entry["tricks"] = self.tricks
        return entry

    @staticmethod
    def from_record(entry: dict[str, Any], verbs: Mapping[str, Verb]) -> Action:
        """An action from a hand-record entry of a game whose words are `verbs` (its deal's
        `WORDS`); raises ValueError on malformed input or a word the game does not have."""
        if not isinstance(entry, dict):
            raise ValueError(f"malformed action {entry!r}")
        try:
            seat = entry["seat"]
            do = verbs[entry["do"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed action {entry!r}") from exc
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError(f"malformed seat in {entry!r}")
        card = None
        if "card" in entry:
            if not isinstance(entry["card"], str):
                raise ValueError(f"malformed card in {entry!r}")
            card = Card.parse(entry["card"])
        cards = None
        if "cards" in entry:
            codes = entry["cards"]
            if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
                raise ValueError(f"malformed cards in {entry!r}")
            cards = parse_cards(codes)
        turnup, joker = entry.get("turnup"), entry.get("joker")
        for flag in (turnup, joker):
            if flag is not None and not isinstance(flag, bool):
                raise ValueError(f"malformed flag in {entry!r}")
        suit = Suit.parse(entry["suit"]) if "suit" in entry else None
        tricks = entry.get("tricks")
        if tricks is not None and (not isinstance(tricks, int) or isinstance(tricks, bool)):
            raise ValueError(f"malformed tricks in {entry!r}")
        return Action(seat, do, card, cards, turnup, joker, suit, tricks)
