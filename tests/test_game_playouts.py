"""Random legal deals of every game of the registry (engine/games.py), played through what its
`Game` (engine/gametype.py) offers and nothing of the game's own: a deck of its `deck_size`,
shuffled and dealt by `new` at each table size it is played at; the seat `to_act` names chooses
among its `legal` actions, applied by the state's own `apply` (as the benches and the search
drive any game). A game joins here with its registry line; its deeper invariants are in its
module of tests/playouts/ or the tests it names."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.cards import make_deck, shuffled
from engine.games import GAMES
from engine.gametype import Game

DEALS = 60  # a game's deals, its table sizes in turn
# A deal ends within so many actions a card of its deck: every game plays each card once, and
# its words (bids, whists, exchanges) are fewer than three a card; a deal still going past it is
# stuck. The family's tight bounds are its specs' (tests/playouts/).
ACTIONS_PER_CARD = 4


def check_replays(game: Game, state: Any) -> None:
    """The state's record replays, directly and through JSON text, to an equal state whose
    record is the same."""
    record = game.to_record(state)
    assert game.replay(record) == state
    again = game.replay(json.loads(json.dumps(record)))
    assert again == state and game.to_record(again) == record


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_deals_end_and_replay_at_every_step(name: str) -> None:
    """Each deal ends within its bound; until then the seat to act has legal actions and one of
    them applies, leaving the state it was given as it was; after each action the record
    replays; a finished deal lists no action and pays each seat."""
    game = GAMES[name]
    rng = random.Random(f"game-playouts-{name}")
    sizes = list(game.seats)
    for number in range(DEALS):
        n = sizes[number % len(sizes)]
        size = game.deck_size({}, n)
        players = [f"p{seat}" for seat in range(n)]
        state = game.new({}, players, rng.randrange(n), shuffled(make_deck(size), rng))
        actions = 0
        check_replays(game, state)
        while game.to_act(state) is not None:
            assert actions < ACTIONS_PER_CARD * size, (name, n, actions)
            legal = list(game.legal(state))
            assert legal, (name, n, actions)
            record = game.to_record(state)
            state_after, _ = state.apply(rng.choice(legal))
            assert game.to_record(state) == record
            state = state_after
            actions += 1
            check_replays(game, state)
        assert list(game.legal(state)) == []
        assert len(game.payoff(state)) == n
