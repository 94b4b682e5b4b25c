"""The strong level (engine/ai/search.py) finds what the rules level misses, and keeps the rules
level's choice when no action is clearly better."""

from __future__ import annotations

import random

from engine.actions import Action, Do
from engine.ai import rules_player, seat_knowledge, strong_player
from engine.deal import TrickDeal
from engine.student import StudentDo
from tests.engine_helpers import new_deal, run
from tests.family_helpers import student_deal


def both(deal: TrickDeal) -> tuple[Action, Action]:
    """The rules and the strong level's actions for the seat to act."""
    seat = deal.to_act
    assert seat is not None
    knowledge = seat_knowledge(deal, seat)
    return rules_player(knowledge, random.Random(1)), strong_player(knowledge, random.Random(1))


def test_sk4_the_last_bidder_declares_when_everyone_passed() -> None:
    """Nobody is left to help or take five, so a declarer takes the bank without play (SK4; with
    an ace turned, zavorachivayu does the same, SK9): the strong level sees it, the rules level
    passes a weak hand."""
    deal = student_deal(hands={3: "9C 8D 6S TC"}, turnup="AH", pot=40)
    deal, _ = run(deal, "0 pass; 1 pass; 2 pass")
    rules, strong = both(deal)
    assert rules == Action(3, Do.PASS)
    assert strong.do in (StudentDo.KHRAP, StudentDo.ZAVORACHIVAYU)


def test_f6_the_strong_level_keeps_a_clear_rules_choice() -> None:
    """A frap with two top trumps and a side ace: no search finds better."""
    deal, _ = run(new_deal(hands={0: "AH KH AS 8C"}, turnup="7H"), "0 look")
    assert both(deal) == (Action(0, Do.FRAP), Action(0, Do.FRAP))
