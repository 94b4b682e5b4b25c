"""What one Preferans deal produced (an `Outcome`), the entries it writes, and the house rules.

This is the interface between the deal (engine/preferans/deal.py) and the scoring
(scoring.py, pulya.py). An `Outcome` mirrors one deal of a `pref-pulya/1` file (HAND_FORMAT.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import options

Kind = Literal["game", "misere", "raspasy", "uncontested", "half_whist"]
DefenceCall = Literal["whist", "pass", "half_whist"]
PlayMode = Literal["light", "dark"]

SUITS = ("S", "C", "D", "H", "NT")  # P2: the bidding order of the denominations
MISERE = "misere"
CONTRACTS = (*(f"{level}{suit}" for level in range(6, 11) for suit in SUITS), MISERE)
DEFENCE_CALLS: tuple[str, ...] = ("whist", "pass", "half_whist")
PLAY_MODES: tuple[str, ...] = ("light", "dark")
TRICKS = 10  # P8: all 10 tricks are played


def level(contract: str) -> int:
    """The number of tricks a trick contract ("7H", "10NT") promises (P4)."""
    return int(contract[:-2] if contract.endswith("NT") else contract[:-1])


@dataclass(frozen=True, slots=True)
class PrefRules:
    """Options of a Preferans table; the defaults are the Sochi convention (preset `sochi`)."""

    dealer_consolation: bool = True  # P1: the sitting-out dealer writes the consolation
    here: Literal["on", "off"] = "on"  # P4
    stalingrad: bool = False  # P6: 6♠ whisted by both, closed
    raspasy_progression: Literal["none", "123", "124"] = "123"  # P10
    raspasy_amnesty: bool = False  # P10: charge tricks minus the lowest count
    raspasy_exit: Literal[6, 7] = 6  # P10: the lowest bid after raspasy
    whist: Literal["greedy", "gentleman"] = "greedy"  # P11
    whist_liability: Literal["full", "capped"] = "full"  # P12
    ten: Literal["checked", "whisted"] = "checked"  # P13
    target: Literal[10, 20, 30, 50] = 10  # P14
    overflow: Literal["help", "gora"] = "help"  # P15

    def to_dict(self) -> dict[str, Any]:
        """The rules as a record's `rules` object: the preset plus its overrides."""
        return options.to_dict(self, PRESETS)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> PrefRules:
        """Rules from a record's `rules` object; raises ValueError for unknown names or values."""
        return options.from_dict({"preset": "sochi", **data}, PRESETS, ALLOWED)


ALLOWED: dict[str, tuple[Any, ...]] = {
    "dealer_consolation": (True, False),
    "here": ("on", "off"),
    "stalingrad": (True, False),
    "raspasy_progression": ("none", "123", "124"),
    "raspasy_amnesty": (True, False),
    "raspasy_exit": (6, 7),
    "whist": ("greedy", "gentleman"),
    "whist_liability": ("full", "capped"),
    "ten": ("checked", "whisted"),
    "target": (10, 20, 30, 50),
    "overflow": ("help", "gora"),
}

PRESETS: dict[str, PrefRules] = {"sochi": PrefRules()}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished deal as the pulya sheet needs it; arrays are by seat (HAND_FORMAT.md).

    `contract` None means raspasy (then `raspasy` holds each seat's tricks). `defence` is None for
    misère, a checked ten and a `stalingrad` 6♠ (no whisting calls, P18); a returned whist is
    ("whist", "pass"). `tricks` is None when there was no play. A sitting-out dealer's slots and
    the declarer's `defence` slot are None.
    """

    declarer: int | None = None
    contract: str | None = None
    defence: tuple[str | None, ...] | None = None
    play: str | None = None
    tricks: tuple[int | None, ...] | None = None
    raspasy: tuple[int | None, ...] | None = None

    @property
    def kind(self) -> Kind:
        """game, misere, raspasy, uncontested (both defenders passed) or half_whist (P6)."""
        if self.contract is None:
            return "raspasy"
        if self.contract == MISERE:
            return "misere"
        if self.defence is None or "whist" in self.defence:
            return "game"
        return "half_whist" if "half_whist" in self.defence else "uncontested"

    @property
    def made(self) -> bool | None:
        """Whether the declarer made his contract; None for raspasy (P9, P11)."""
        if self.contract is None or self.declarer is None:
            return None
        if self.kind in ("uncontested", "half_whist"):
            return True
        took = (self.tricks or ())[self.declarer] if self.tricks else None
        if took is None:
            return None
        return took == 0 if self.contract == MISERE else took >= level(self.contract)

    def to_json(self) -> dict[str, Any]:
        """The deal as a `pref-pulya/1` `deals` entry (absent fields left out)."""
        data: dict[str, Any] = {}
        if self.contract is None:
            data["raspasy"] = list(self.raspasy or ())
            return data
        data["declarer"] = self.declarer
        data["contract"] = self.contract
        if self.defence is not None:
            data["defence"] = list(self.defence)
        if self.play is not None:
            data["play"] = self.play
        if self.tricks is not None:
            data["tricks"] = list(self.tricks)
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Outcome:
        """An outcome from a `pref-pulya/1` `deals` entry; raises ValueError on a malformed one.

        Only the shape is checked here; scoring.check() checks it against the table and the rules.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a deal is a JSON object")
        known = {"declarer", "contract", "defence", "play", "tricks", "raspasy"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown deal fields: {sorted(unknown)}")
        if "raspasy" in data:
            if any(data[key] is not None for key in data if key != "raspasy"):
                raise ValueError("a raspasy deal has no declarer, contract, defence or tricks")
            return Outcome(raspasy=_seats(data["raspasy"], "raspasy", _is_count))
        declarer = data.get("declarer")
        if not isinstance(declarer, int) or isinstance(declarer, bool):
            raise ValueError("declarer must be a seat number")
        contract = data.get("contract")
        if contract not in CONTRACTS:
            raise ValueError(f"contract {contract!r} is not one of 6S … 10NT, misere")
        play = data.get("play")
        if play is not None and play not in PLAY_MODES:
            raise ValueError(f"play {play!r} is not light or dark")
        defence = data.get("defence")
        tricks = data.get("tricks")
        return Outcome(
            declarer=declarer,
            contract=contract,
            defence=None if defence is None else _seats(defence, "defence", _is_call),
            play=play,
            tricks=None if tricks is None else _seats(tricks, "tricks", _is_count),
        )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= TRICKS


def _is_call(value: Any) -> bool:
    return value in DEFENCE_CALLS


def _seats(values: Any, name: str, ok: Any) -> tuple[Any, ...]:
    """A per-seat array of 3 or 4 entries, each null or accepted by `ok`."""
    if not isinstance(values, list) or len(values) not in (3, 4):
        raise ValueError(f"{name} must be a list with one entry per seat")
    for value in values:
        if value is not None and not ok(value):
            raise ValueError(f"{name} has a bad entry {value!r}")
    return tuple(values)


@dataclass(frozen=True, slots=True)
class Entries:
    """What a deal writes on the sheet, by seat: pulya, gora, and whists[i][j] i writes on j."""

    pulya: tuple[int, ...]
    gora: tuple[int, ...]
    whists: tuple[tuple[int, ...], ...]

    @staticmethod
    def zero(players: int) -> Entries:
        """No entries at a table of `players`."""
        return Entries(
            (0,) * players, (0,) * players, tuple((0,) * players for _ in range(players))
        )

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The entries as `replay` prints them: per name, pulya, gora and whists on the others."""
        return {
            name: {
                "pulya": self.pulya[i],
                "gora": self.gora[i],
                "whists": {other: self.whists[i][j] for j, other in enumerate(names) if j != i},
            }
            for i, name in enumerate(names)
        }


Reason = Literal[
    "contract",  # P11: a contract made (pulya +V) or down by k (gora +V·k); P6: uncontested
    "misere",  # P9: clean (pulya +10) or 10 a trick taken (gora)
    "raspasy",  # P10: tricks × the price (gora), or the price into the pulya of a clean player
    "raspasy_amnesty",  # P10 option: only the tricks beyond the fewest count, × the price
    "whists",  # P11: a whister's whists, V × the tricks he writes
    "whists_shared",  # P11 `gentleman`: his share of V × the defence's tricks
    "half_whist",  # P6: V·O/2, as V × half the obligation's tricks
    "consolation",  # P11, P1: V × the tricks the declarer was down by
    "short",  # P12: a whister's shortfall of his share, V × the tricks short, to his gora
]
Column = Literal["pulya", "gora", "whists"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry a deal writes and why (before P15's overflow): `seat` writes `value` in
    `column` (whists: on the seat `on`), reckoned as `count` × `each` (tricks × their value or
    the raspasy price; 0 × 0 where it is a flat value, a clean misère or a contract made)."""

    seat: int
    reason: Reason
    column: Column
    value: int
    count: int = 0
    each: int = 0
    on: int | None = None


@dataclass(frozen=True, slots=True)
class Overflow:
    """P15: `seat`'s pulya was full and `points` more were due to it: with `to` a seat, they
    went into `to`'s pulya and `seat` wrote `whists` on `to`; with `to` None, nobody could take
    them and they came off `seat`'s gora."""

    seat: int
    points: int
    to: int | None = None
    whists: int = 0
