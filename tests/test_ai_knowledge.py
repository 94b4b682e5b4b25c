"""What one seat may know (engine/knowledge.py) and the deals it imagines (engine/ai/sample.py)."""

from __future__ import annotations

import random
from collections import Counter

from engine.actions import Action, Do
from engine.ai import seat_knowledge
from engine.ai.sample import sample_world, shown_voids
from engine.cards import Suit
from engine.tricks import legal_plays
from tests.engine_helpers import accounted, cards, new_deal, run

OPENING = "0 frap; 1 whist; 2 pass; 3 pass"


def test_the_world_holds_no_other_hand() -> None:
    deal, _ = run(new_deal(hands={0: "AH QH AD 8C", 1: "KH AS 9C 8D"}, turnup="7H"), "0 look")
    mine = seat_knowledge(deal, 0)
    assert mine.world.hands[0] == deal.hands[0]
    assert mine.hidden_hands == (1, 2, 3)
    # The hidden places hold the unseen cards in sorted order, whoever really has them.
    assert mine.world.hands[1] == mine.unseen[:4] == cards("7S 8S 9S TS")
    assert set(mine.unseen) == set(deal.deck) - set(deal.hands[0]) - {deal.turnup}


def test_an_imagined_deal_works_out_its_own_legal_actions() -> None:
    """A state keeps its legal actions once worked out; the world a seat imagines is a copy that
    must not inherit them, or it would offer another seat's real cards (no peeking)."""
    deal = new_deal(hands={0: "AH QH AD 8C", 1: "KC 9C 9S 8S"}, turnup="7H")
    deal, _ = run(deal, f"{OPENING}; 0 discard; 1 discard; 2 no_cut; 3 no_cut; 0 play AD")
    assert deal.legal_actions(1)  # worked out on the real deal first, as the bot's views do
    world = sample_world(seat_knowledge(deal, 0), random.Random(5))
    assert world.hands[1] != deal.hands[1]
    offered = [action.card for action in world.legal_actions(1)]
    assert offered == legal_plays(world.hands[1], Suit.DIAMONDS, Suit.HEARTS)  # F12


def test_f7_an_unopened_hand_is_hidden_from_its_owner_too() -> None:
    deal, _ = run(new_deal(hands={0: "AH QH AD 8C"}, turnup="7H"), "0 dark_frap; 1 whist")
    deal, _ = run(deal, "2 pass; 3 pass")
    mine = seat_knowledge(deal, 0)
    assert 0 in mine.hidden_hands
    assert mine.legal == (Action(0, Do.LOOK),)  # F7: the discard would show the hand
    assert mine.taken == ((0, cards("7H")[0]),)


def test_face_down_cards_only_the_seat_knows_its_own() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C", 1: "KH AS 9C 8D"}, turnup="7H")
    deal, _ = run(deal, f"{OPENING}; 0 discard 8C; 1 discard 9C 8D")
    mine = seat_knowledge(deal, 0)
    assert mine.world.discards[0] == cards("8C")[0]
    assert mine.hidden_discards == (1, 2)
    assert mine.history[-2] == Action(0, Do.DISCARD, cards=cards("8C"))
    assert mine.history[-1] == Action(1, Do.DISCARD)  # which cards: not said
    theirs = seat_knowledge(deal, 1)
    assert theirs.history[-1] == Action(1, Do.DISCARD, cards=cards("9C 8D"))


def test_f10_a_turnup_taken_by_a_cutter_is_known_to_be_his() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C"}, turnup="KH")
    deal, _ = run(deal, f"{OPENING}; 0 discard; 1 discard; 2 cut turnup")
    assert seat_knowledge(deal, 0).taken == ((2, cards("KH")[0]),)


def test_an_imagined_deal_keeps_what_the_seat_knows_and_every_card_once() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C", 1: "KC 9C 9S 8S"}, turnup="7H")
    script = f"{OPENING}; 0 discard; 1 discard; 2 no_cut; 3 no_cut; 0 play AD; 1 play 9S"
    deal, _ = run(deal, script)
    mine = seat_knowledge(deal, 0)
    rng = random.Random(3)
    holds: Counter[str] = Counter()
    for _ in range(200):
        world = sample_world(mine, rng)
        assert Counter(accounted(world)) == Counter(deal.deck)
        assert world.hands[0] == deal.hands[0]
        assert (world.trick, world.trump, world.turnup) == (deal.trick, deal.trump, deal.turnup)
        assert not any(card.suit in (Suit.DIAMONDS, Suit.HEARTS) for card in world.hands[1])
        holds.update(str(card) for card in world.hands[1])
    assert shown_voids(deal) == {1: {Suit.DIAMONDS, Suit.HEARTS}}
    assert len(holds) > 8  # seat 1's remaining cards really are re-dealt


def test_an_imagined_deal_gives_a_taken_turnup_to_its_taker() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C"}, turnup="KH")
    deal, _ = run(deal, f"{OPENING}; 0 discard; 1 discard; 2 cut turnup")
    mine = seat_knowledge(deal, 0)
    rng = random.Random(5)
    assert all(cards("KH")[0] in sample_world(mine, rng).hands[2] for _ in range(50))
