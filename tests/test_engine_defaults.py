"""The action taken for a player whose turn timer ran out (engine/defaults.py)."""

from __future__ import annotations

import random

from engine.actions import Action, Do
from engine.cards import Card
from engine.defaults import default_action
from tests.engine_helpers import new_deal, random_action, random_deal, random_rules, run


def test_default_is_the_safest_choice_in_each_phase() -> None:
    deal = new_deal(hands={0: "AS 7H KD 8C", 1: "AC KC QC JC"}, turnup="9H")
    assert default_action(deal) == Action(0, Do.PASS)
    deal, _ = run(deal, "0 frap")
    assert default_action(deal) == Action(1, Do.PASS)
    deal, _ = run(deal, "1 whist; 2 pass; 3 pass")
    assert default_action(deal) == Action(0, Do.DISCARD, cards=())
    deal, _ = run(deal, "0 discard; 1 discard")
    assert default_action(deal) == Action(2, Do.NO_CUT)
    deal, _ = run(deal, "2 no_cut; 3 no_cut")
    # F12: the lowest card that is not a trump.
    assert default_action(deal) == Action(0, Do.PLAY, card=Card.parse("8C"))


def test_default_is_always_legal_and_none_when_over() -> None:
    rng = random.Random(11)
    for i in range(300):
        n = 2 + i % 11
        deal, _ = random_deal(rng, n, random_rules(rng, n))
        while not deal.finished:
            action = default_action(deal)
            assert action is not None and action in deal.legal_actions(action.seat)
            deal.apply(action)
            deal, _ = deal.apply(random_action(deal, rng))
        assert default_action(deal) is None
