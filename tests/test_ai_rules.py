"""The rules level (engine/ai/family.py) on rigged deals: which hands declare or stand, what is
bought, which card is led or followed, in Frap, Khrap and Student Khrap."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, Do, Verb
from engine.ai import rules_player, seat_knowledge
from engine.deal import TrickDeal
from engine.frap import KhrapDo
from engine.student import StudentDo
from tests.engine_helpers import cards, new_deal, run
from tests.family_helpers import khrap_deal, student_deal


def rules(deal: TrickDeal) -> Action:
    """The rules level's action for the seat to act."""
    seat = deal.to_act
    assert seat is not None
    return rules_player(seat_knowledge(deal, seat), random.Random(0))


def test_f7_the_rules_level_looks_before_it_bids() -> None:
    deal = new_deal(hands={0: "AH KH AS 8C"})
    assert rules(deal) == Action(0, Do.LOOK)


@pytest.mark.parametrize(
    ("hand", "word"),
    [
        ("AH KH AS 8C", Do.FRAP),  # two top trumps and a side ace: about three tricks
        ("AH 9S 8C 7D", Do.PASS),  # one sure trick is not a frap
        ("QS JC 9D 8C", Do.PASS),
    ],
)
def test_f5_frap_with_a_strong_hand_only(hand: str, word: Do) -> None:
    deal, _ = run(new_deal(hands={0: hand}, turnup="7H"), "0 look")
    assert rules(deal) == Action(0, word)


@pytest.mark.parametrize(
    ("hand", "word"),
    [
        ("KH AS 8C 7D", Do.WHIST),  # the trump king and a side ace: a trick is likely
        ("QS JC 9D 8C", Do.PASS),  # no trump, no ace: the ×1 penalty is likely
    ],
)
def test_f6_whist_with_a_fair_hand(hand: str, word: Do) -> None:
    deal = new_deal(hands={0: "AH QH AD KD", 1: hand}, turnup="7H")
    deal, _ = run(deal, "0 frap; 1 look")
    assert rules(deal) == Action(1, word)


def test_f9_buying_keeps_trumps_and_aces_and_drops_the_rest() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C", 1: "KH AS 9C 8D"}, turnup="7H")
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass")
    assert rules(deal) == Action(0, Do.DISCARD, cards=cards("8C"))
    deal, _ = run(deal, "0 discard 8C")
    assert set(rules(deal).cards or ()) == set(cards("9C 8D"))


def test_f12_lead_the_master_trump_then_follow_as_cheaply_as_wins() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C", 1: "KH KC 9C 8D"}, turnup="7H")
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 no_cut; 3 no_cut")
    assert rules(deal) == Action(0, Do.PLAY, card=cards("AH")[0])
    deal, _ = run(deal, "0 play AH; 1 play KH; 0 play 8C")
    assert rules(deal) == Action(1, Do.PLAY, card=cards("9C")[0])  # 9♣ wins as well as K♣


def test_f12_throw_the_cheapest_card_when_the_trick_is_lost() -> None:
    deal = new_deal(hands={0: "AH QH AD 8C", 1: "KH KC 9S 8D"}, turnup="7H")
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 no_cut; 3 no_cut")
    deal, _ = run(deal, "0 play AD")
    assert rules(deal) == Action(1, Do.PLAY, card=cards("8D")[0])


@pytest.mark.parametrize(
    ("hand", "word"),
    [
        ("AH KH QH AS 8C", KhrapDo.KHRAP),  # three top trumps and an ace: three tricks
        ("AH KH AS 9C 8D", Do.PASS),  # two trumps and an ace fall short of three
    ],
)
def test_k2_khrap_needs_three_likely_tricks(hand: str, word: Verb) -> None:
    deal, _ = run(khrap_deal(hands={0: hand}, turnup="7H"), "0 look")
    assert rules(deal) == Action(0, word)


def test_sk2_the_joker_counts_as_a_trick_and_is_kept() -> None:
    deal = student_deal(hands={0: "7S AH 9C 8D", 1: "QC JC TD 9D"}, turnup="6H")
    assert rules(deal) == Action(0, StudentDo.KHRAP)  # joker + trump ace
    deal, _ = run(deal, "0 khrap; 1 pass; 2 pass; 3 pomogu")
    assert rules(deal) == Action(0, Do.DISCARD, cards=cards("9C 8D"))


def test_sk8_veselyu_takes_over_with_a_hand_fit_to_declare() -> None:
    deal = student_deal(hands={0: "KD QD JD TC", 1: "AH KH QH 8C"}, turnup="6H")
    deal, _ = run(deal, "0 khrap")
    assert rules(deal) == Action(1, StudentDo.VESELYU)
