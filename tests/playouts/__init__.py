"""Each game's random playouts beside the others: one module a game of the registry
(engine/games.py), named as the game (`frap.py`, `student_khrap.py`), whose `PLAYOUTS` says how
that game's deals are drawn and what they must reach, for the family's playout tests
(tests/test_playouts.py); or None for a game whose deal is its own type with its own invariants,
its docstring naming the test module that checks them. Every game's random deals are also
played through the registry's `Game` alone (tests/test_game_playouts.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hypothesis import strategies as st

from engine.deal import TrickDeal
from engine.events import Event

Table = tuple[int, Any]  # players, rules
Draw = Callable[[random.Random, int], Table]  # the i-th table of a run, drawn from its generator

CALLS = [0.05, 0.3, 0.6, 0.9]  # how often a Student or Napoleon bidder calls rather than pass


@dataclass(frozen=True)
class Playouts:
    """How one game's random playouts are drawn and what they must reach; each run's seed and
    number of deals are its own, so that every game is checked as deeply as its rules need."""

    new: Callable[[random.Random, int, Any], tuple[TrickDeal, list[Event]]]  # rng, players, rules
    max_actions: Callable[[int], int]  # a deal's actions are at most this many (it ends)
    phases: type[Enum]
    # every invariant: seed, deals, the i-th table and how often a bidder calls, every how many
    # deals each legal action is tried, what a deal shows and what the run must show (at least)
    kept: tuple[int, int, Callable[[random.Random, int], tuple[int, Any, float]], int]
    happened: Callable[[Any], Iterable[str]]
    everything: frozenset[str]
    only: bool  # the run shows exactly `everything`
    replayed: tuple[int, int, Draw]  # the record replays at every step: seed, deals, tables
    phased: tuple[int, int, Draw]  # every phase is reached: seed, deals, tables
    listed: tuple[int, int, Draw, float, int]  # seed, deals, tables, calls, at least checked
    drawn: tuple[int, st.SearchStrategy[Table], int]  # hypothesis: examples, tables, replay every
    replay_steps: Callable[[int], int] | None = None  # the bound for the replayed run, if other
    check: Callable[[Any], None] = field(default=lambda deal: None)  # of each finished deal


def players_first(table: tuple[Any, int]) -> Table:
    """A table drawn as rules and players (`frap_tables`), as players and rules."""
    rules, n = table
    return n, rules
