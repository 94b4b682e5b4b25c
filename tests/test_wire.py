"""The computer players' wire (bot/wire.py): a seat's knowledge of every game of the registry,
taken from random playouts, comes back from JSON equal, of the same types, and the strong level
decides the same on it; anything outside the wire's classes and shapes is refused."""

from __future__ import annotations

import json
import pickle
import random
from enum import Enum
from typing import Any

import pytest

from bot import wire
from bot.computer import decide
from engine.actions import Action, Do
from engine.cards import make_deck, shuffled
from engine.games import GAMES
from engine.tricks import Play


def _knowledge(game: str, seed: int) -> list[Any]:
    """Every seat's knowledge along a random playout of one deal."""
    entry = GAMES[game]
    rng = random.Random(seed)
    n = entry.default_players
    deck = shuffled(make_deck(entry.deck_size({}, n)), rng)
    deal = entry.new({}, tuple(f"p{i}" for i in range(n)), 0, deck)
    seen = []
    while (seat := entry.to_act(deal)) is not None:
        knowledge = entry.knowledge(deal, seat)
        seen.append(knowledge)
        deal, _ = deal.apply(rng.choice(knowledge.legal))
    return seen


@pytest.mark.parametrize("game", sorted(GAMES))
def test_knowledge_of_every_game_round_trips_and_decides_the_same(game: str) -> None:
    decisions = 0
    for seed in (1, 2):
        for i, knowledge in enumerate(_knowledge(game, seed)):
            back = wire.loads(wire.dumps(knowledge))
            assert back == knowledge
            assert repr(back) == repr(knowledge)  # the same classes: enums, not their values
            if len(knowledge.legal) > 1 and i % 3 == 0:
                move = decide(knowledge, "strong", i)
                assert decide(back, "strong", i) == move
                assert repr(wire.loads(wire.dumps(move))) == repr(move)
                decisions += 1
    assert decisions >= 2


def test_a_class_outside_the_allowlist_is_neither_sent_nor_made() -> None:
    with pytest.raises(wire.WireError):
        wire.dumps(random.Random(1))
    records = sum(1 for cls in wire.ALLOWED.values() if not issubclass(cls, Enum))
    members = sum(len(cls) for cls in wire.ALLOWED.values() if issubclass(cls, Enum))
    action = wire.encode(Action(1, Do.PASS))["O"]
    forged = {"O": "os.system", "f": {"command": "touch /tmp/owned"}}  # version 1's shape
    for data in (
        forged,
        {"O": "builtins.eval", "f": {}},
        {"O": ["os.system", "touch /tmp/owned"]},  # a record only by its number
        {"O": [records, 1]},  # no such record
        {"O": [-1, 1]},
        {"O": [True, *action[1:]]},
        {"O": []},
        {"O": action[:-1]},  # a field missing
        {"O": [*action, None]},  # one too many
        {"O": {"0": action}},
        {"E": members},
        {"E": -1},
        {"E": "PASS"},
        {"E": 1.0},
        {"E": "engine.actions.Do", "m": "PASS"},  # version 1's shape
        {"C": 52},
        {"C": -1},
        {"C": True},
        {"C": [1]},
        {"H": [1, 52]},
        {"H": [1, True]},
        {"H": [1, 2.0]},
        {"H": [[1]]},
        {"H": 1},
        {"T": [forged]},
        {"T": {"T": []}},
        {"S": [[1]]},  # unhashable
        {"D": [[{"T": []}, 1], [[1], 2]]},  # a list as a key
        {"D": [[1, 2, 3]]},
        {"D": [1]},
        {"T": [], "S": []},
        {"x": 1},
        {},
    ):
        with pytest.raises(wire.WireError):
            wire.loads(json.dumps(data).encode())


def test_every_tag_round_trips() -> None:
    cards = make_deck(52)
    value = [
        (cards[0], cards[51]),
        frozenset({1, cards[3]}),
        {1: (Do.PASS,), (2, 3): [None, 1.5, "x"]},
        (1, cards[2]),  # not cards only
        (),
        Play(2, cards[7], None),
    ]
    back = wire.loads(wire.dumps(value))
    assert back == value and repr(back) == repr(value)
    assert wire.encode(value[0]) == {"H": [cards[0].index, cards[51].index]}


def test_bytes_that_are_no_json_or_too_deep_are_refused() -> None:
    for body in (pickle.dumps({"a": 1}), b"[" * 100_000, b"\xff"):
        with pytest.raises(wire.WireError):
            wire.loads(body)
    nested: Any = 1
    for _ in range(wire.DEPTH + 2):
        nested = [nested]
    with pytest.raises(wire.WireError):
        wire.loads(json.dumps(nested).encode())
    tagged: Any = 1
    for _ in range(wire.DEPTH + 2):  # an action whose seat is an action whose seat is ...
        outer = wire.encode(Action(1, Do.PASS))
        outer["O"][1] = tagged
        tagged = outer
    with pytest.raises(wire.WireError, match="too deep"):
        wire.loads(json.dumps(tagged).encode())
