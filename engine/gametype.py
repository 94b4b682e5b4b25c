"""What the engine knows of one game (OpenSpiel's `GameType` with its factory): everything that
replay, `engine play`, seat knowledge, the computer players and the benches ask of a game, so
that none of them names one. The entries are in engine/games.py, the registry."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .cards import Card
from .review import Review

Record = dict[str, Any]
# A level's move: a seat's knowledge (of the game's own kind) and a generator to a legal action.
Choice = Callable[[Any, random.Random], Any]


@dataclass(frozen=True)
class Computer:
    """A game's computer player at the levels that know its rules (engine/ai)."""

    choose: Callable[[Any, int, Sequence[Any]], Any]  # the rules level: world, seat, legal → action
    strong: Choice  # the strong level: a search over the hidden cards
    wild: frozenset[Card] = field(default_factory=frozenset)  # cards that follow no suit (SK2)


@dataclass(frozen=True)
class Game:
    """One game by the name its records use. A state is the game's own deal type; an action, its
    own action type; `knowledge` gives one seat's view of a state as its computer player reads it.
    """

    name: str
    seats: range  # the table sizes it is played at (F1, K1, SK1, N1, P1)
    default_players: int  # the table the benches seat where none is asked for
    unit: str  # what `payoff` counts: chips, whists
    deck_size: Callable[[Record, int], int]  # rules, players → the deck's size
    # A first deal at a table: rules (as a record writes them), names, the dealer, the deck.
    new: Callable[[Record, Sequence[str], int, Sequence[Card]], Any]
    to_act: Callable[[Any], int | None]  # the seat that decides now; None once it is over
    legal: Callable[[Any], Sequence[Any]]  # that seat's legal actions
    replay: Callable[[Record], Any]  # a record's state after its actions; ReplayError
    summary: Callable[[Record], Record]  # what `python -m engine replay` prints for a record
    to_record: Callable[[Any], Record]
    knowledge: Callable[[Any, int], Any]  # what a seat may know of a state (engine/knowledge.py)
    computer: Computer
    payoff: Callable[[Any], list[float]]  # what a finished deal gave each seat, in `unit`
    # `python -m engine play`: players, a level's move, seed, deals, input, output → exit status.
    terminal: Callable[[int, Choice, int | None, int, Callable[[], str], TextIO], int]
    # A finished deal's record → its review (engine/review.py), double dummy where it has sides.
    review: Callable[[Record], Review]
    # A finished deal's record → the hands as dealt, the talon and the discard (no search).
    hands: Callable[[Record], Review]
