"""Computer players: every level plays only legal actions in random deals of every
game, and no level peeks — its decision is the same in any deal that differs only in cards its
seat cannot see (other hands, face-down discards, the stock's order), with the same seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai import seat_knowledge
from engine.games import GAMES
from tests.ai_helpers import PLAYERS, STARTS, hidden_twin
from tests.family_helpers import random_action

DEALS = 1000  # per game: 4,000 random deals in all
STRONG_EVERY = 25  # one deal in so many has a strong player (with a small budget, see PLAYERS)


def test_every_game_has_computer_players() -> None:
    # Preferans (not a TrickDeal, tests/test_ai_preferans.py) is the one game beyond `STARTS`.
    assert set(GAMES) == set(STARTS) | {"preferans"}


@pytest.mark.parametrize("game", sorted(STARTS))
def test_every_level_plays_only_legal_actions(game: str) -> None:
    """Seeded random deals with a random level at each seat; what each level chose is listed
    by the engine and applies."""
    rng = random.Random(f"legal/{game}")
    words: dict[str, Counter[str]] = {level: Counter() for level in PLAYERS}
    for i in range(DEALS):
        deal = STARTS[game](rng)
        levels = ["random", "rules", "strong"] if i % STRONG_EVERY == 0 else ["random", "rules"]
        seats = [rng.choice(levels) for _ in range(deal.n)]
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            knowledge = seat_knowledge(deal, seat)
            action = PLAYERS[seats[seat]](knowledge, rng)
            assert action in knowledge.legal
            assert action in deal.legal_actions(seat)
            words[seats[seat]][action.do.value] += 1
            deal, _ = deal.apply(action)
    for level, seen in words.items():
        assert {"play", "pass"} <= set(seen), (level, seen)


@pytest.mark.parametrize("game", sorted(STARTS))
def test_no_level_peeks_at_hidden_cards(game: str) -> None:
    """At random decision points of random deals: a twin deal with the seat's unseen cards
    renamed and the stock reshuffled gives the seat the same knowledge, and each level (seeded
    alike) the same action."""
    rng = random.Random(f"peek/{game}")
    checked: Counter[str] = Counter()
    changed = 0
    for i in range(200):
        deal = STARTS[game](rng)
        stop = rng.randrange(40 if i % 2 else 4)  # every other time, a decision of the bidding
        while not deal.finished and len(deal.actions) < stop:
            deal, _ = deal.apply(random_action(deal, rng, calls=0.8))
        if deal.finished:
            continue
        seat = deal.to_act
        assert seat is not None
        mine = seat_knowledge(deal, seat)
        twin = hidden_twin(deal, seat, mine, rng)
        hidden = (deal.hands, deal.discards, deal.stock)
        changed += (twin.hands, twin.discards, twin.stock) != hidden
        theirs = seat_knowledge(twin, seat)
        assert theirs == mine
        for player in PLAYERS.values():
            seed = rng.random()
            assert player(mine, random.Random(seed)) == player(theirs, random.Random(seed))
        checked[str(deal.phase)] += 1
    assert {"bidding", "play"} < set(checked), checked
    assert changed > 0.8 * checked.total(), (changed, checked)
