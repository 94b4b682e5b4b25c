"""The review of a finished deal (docs/playing.md "The review"): what every card played cost
against the best card with every hand in view (double dummy), per player the tricks given away
and the costliest card, and, where the game has a contract to weigh, the contract against what
the declarer's cards could make. Each game builds its own (engine/games.py, `Game.review`);
the shapes are here, with their JSON for the host's cache.

Where a deal does not have two sides (raspasy, the Frap family's several declarers and
whisters), double-dummy values have no meaning and the review holds the hands only, with the
reason (`Review.only_hands`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Card, parse_cards

FORMAT = "deal-review/1"


@dataclass(frozen=True)
class Step:
    """One card played. `values` are every legal card at that moment (the one played among
    them) with the tricks the player's side ends the deal with if that card is played and all
    play best from then on; in misère every side counts the declarer's tricks. `more`: whether
    the player wants that number high (all but the misère declarer). `by` is the seat that chose
    the card (in light play the whister chooses the passer's)."""

    trick: int  # from 1
    seat: int
    by: int
    card: Card
    values: tuple[tuple[Card, int], ...]
    more: bool = True

    @property
    def value(self) -> int:
        """What the card played keeps."""
        return dict(self.values)[self.card]

    @property
    def best(self) -> int:
        """What the best card keeps."""
        numbers = [value for _, value in self.values]
        return max(numbers) if self.more else min(numbers)

    @property
    def cost(self) -> int:
        """The tricks the card played gave away against the best card."""
        return abs(self.best - self.value)

    @property
    def best_cards(self) -> tuple[Card, ...]:
        """The cards that keep the most."""
        best = self.best
        return tuple(card for card, value in self.values if value == best)


@dataclass(frozen=True)
class Slip:
    """One player's play over the deal: the tricks given away and the costliest card (None when
    every card was best)."""

    seat: int
    given: int
    worst: Step | None


@dataclass(frozen=True)
class Contract:
    """Preferans: the contract against what the declarer's twelve cards, with the discard he
    made, take with best play by all: a trick contract's `tricks` by trump ("NT": no trumps)
    and `best`, the highest contract those tricks make (None: none of six or more); misère's
    `misere`, the declarer's fewest tricks. `defence` the defenders' tricks with best play in
    the contract named and `obligation` what the whisting owes (both None without whisting)."""

    named: str
    tricks: tuple[tuple[str, int], ...]  # trump letter or "NT" → the declarer's tricks
    misere: int | None
    best: str | None
    defence: int | None = None
    obligation: int | None = None


@dataclass(frozen=True)
class Review:
    """The review of one finished deal. `hands` are every seat's cards as dealt (empty for a
    seat out of the deal), `talon` and `discard` the cards set aside (empty where the game has
    none). With `only_hands` set (a reason: "raspasy", "sides", "no_play") the double-dummy
    parts are empty."""

    game: str
    players: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    declarer: int | None = None
    only_hands: str | None = None
    steps: tuple[Step, ...] = ()
    start: int | None = None  # the declarer's tricks with best play by all from the first lead
    taken: int | None = None  # the tricks the declarer took
    total: int = 0  # the tricks of a deal
    contract: Contract | None = None
    slips: tuple[Slip, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The review as JSON (what the host caches with the deal)."""
        contract = self.contract
        return {
            "format": FORMAT,
            "game": self.game,
            "players": list(self.players),
            "hands": [_codes(hand) for hand in self.hands],
            "talon": _codes(self.talon),
            "discard": _codes(self.discard),
            "declarer": self.declarer,
            "only_hands": self.only_hands,
            "start": self.start,
            "taken": self.taken,
            "total": self.total,
            "steps": [
                [s.trick, s.seat, s.by, str(s.card), [[str(c), v] for c, v in s.values], s.more]
                for s in self.steps
            ],
            "contract": None
            if contract is None
            else {
                "named": contract.named,
                "tricks": [list(pair) for pair in contract.tricks],
                "misere": contract.misere,
                "best": contract.best,
                "defence": contract.defence,
                "obligation": contract.obligation,
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """The review back from `to_json` (the slips are worked out again)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"a review has format {FORMAT!r}")
        steps = tuple(
            Step(trick, seat, by, _card(card), tuple((_card(c), v) for c, v in values), more)
            for trick, seat, by, card, values, more in data["steps"]
        )
        named = data.get("contract")
        contract = None
        if named is not None:
            contract = Contract(
                named["named"], tuple((t, n) for t, n in named["tricks"]), named["misere"],
                named["best"], named["defence"], named["obligation"],
            )  # fmt: skip
        return build(
            data["game"], tuple(data["players"]),
            tuple(tuple(parse_cards(hand)) for hand in data["hands"]),
            talon=tuple(parse_cards(data["talon"])), discard=tuple(parse_cards(data["discard"])),
            declarer=data["declarer"], only_hands=data["only_hands"], steps=steps,
            start=data["start"], taken=data["taken"], total=data["total"], contract=contract,
        )  # fmt: skip


def build(
    game: str, players: tuple[str, ...], hands: tuple[tuple[Card, ...], ...], **parts: Any
) -> Review:
    """A review with each player's slips worked out from its steps (every seat that chose a
    card, in seat order)."""
    steps: tuple[Step, ...] = parts.get("steps", ())
    slips = []
    for seat in sorted({step.by for step in steps}):
        mine = [step for step in steps if step.by == seat]
        costly = [step for step in mine if step.cost]
        worst = max(costly, key=lambda step: step.cost) if costly else None
        slips.append(Slip(seat, sum(step.cost for step in mine), worst))
    return Review(game, players, hands, slips=tuple(slips), **parts)


def _card(code: str) -> Card:
    return parse_cards([code])[0]


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]
