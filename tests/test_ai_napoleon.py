"""The rules level for Napoleon (engine/ai/napoleon.py) on rigged deals: what it bids, when the
dealer says here, what it exchanges, which card names the trump, and how opponents share tricks."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, Do
from engine.ai import rules_player, seat_knowledge
from engine.deal import TrickDeal
from engine.napoleon import NapoleonDo
from tests.engine_helpers import cards, run
from tests.family_helpers import napoleon_deal


def rules(deal: TrickDeal) -> Action:
    """The rules level's action for the seat to act."""
    seat = deal.to_act
    assert seat is not None
    return rules_player(seat_knowledge(deal, seat), random.Random(0))


@pytest.mark.parametrize(
    ("hand", "tricks"),
    [
        ("AH KH QH JH AS", 4),  # four top hearts and a side ace: about four, naming trump
        ("AH KH QH 9S 7C", 3),
        ("9S 7C 8D 6H TC", 1),  # nothing high, but the declarer chooses trump and leads
    ],
)
def test_n2_the_rules_level_bids_its_trick_count(hand: str, tricks: int) -> None:
    assert rules(napoleon_deal(hands={0: hand})) == Action(0, NapoleonDo.BID, tricks=tricks)


def test_n2_the_rules_level_passes_a_bid_above_its_count() -> None:
    deal, _ = run(napoleon_deal(hands={1: "9S 7C 8D 6H TC"}), "0 bid 2")
    assert rules(deal) == Action(1, Do.PASS)


@pytest.mark.parametrize(
    ("hand", "word"),
    [
        ("AH KH QH 9S 7C", NapoleonDo.HERE),  # about three tricks: he takes the bid of 3 over
        ("AH 9S 7C 8D 6H", Do.PASS),  # one ace and a low heart do not make three tricks
    ],
)
def test_n2_the_dealer_says_here_when_his_count_matches_the_bid(hand: str, word: Do) -> None:
    deal = napoleon_deal(hands={0: hand})
    deal, _ = run(deal, "0 bid 1; 1 bid 3; 2 pass; 3 pass")
    assert rules(deal) == Action(0, word)


@pytest.mark.parametrize(
    ("hand", "dropped"),
    [
        ("AH KH QH AS 6C", "6C"),  # a low side card goes
        ("AH KH QH JH AS", ""),  # nothing weak: the hand is kept
    ],
)
def test_n3_the_declarer_exchanges_only_a_weak_card(hand: str, dropped: str) -> None:
    deal = napoleon_deal(hands={1: hand})
    deal, _ = run(deal, "0 pass; 1 bid 2; 2 pass; 3 pass")
    assert rules(deal) == Action(1, Do.DISCARD, cards=cards(dropped) if dropped else ())


def test_n4_the_first_lead_names_the_best_suit_as_trump() -> None:
    """Three hearts outweigh the lone spade ace: the king of hearts leads (the ace is elsewhere)."""
    deal = napoleon_deal(hands={1: "AS KH QH JH 7C"})
    deal, _ = run(deal, "0 pass; 1 bid 2; 2 pass; 3 pass; 1 discard")
    assert rules(deal) == Action(1, Do.PLAY, card=cards("KH")[0])


def test_n4_an_opponent_does_not_overtake_a_partner_beating_the_declarer() -> None:
    """The opponents win or lose together (N5): the ace of hearts stays for a later trick."""
    hands = {1: "QH JH TH 7C 8C", 2: "KH 6S 7S 8S 9S", 3: "AH 7H 6D 7D 8D"}
    deal = napoleon_deal(hands=hands)
    deal, _ = run(deal, "0 pass; 1 bid 2; 2 pass; 3 pass; 1 discard; 1 play QH; 2 play KH")
    assert rules(deal) == Action(3, Do.PLAY, card=cards("7H")[0])
