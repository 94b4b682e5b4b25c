"""RULES F1–F4: players and deck, seats and dealer, the ante, the deal and the trump."""

from __future__ import annotations

import pytest

from engine.actions import Do
from engine.cards import Card, Rank, Suit, make_deck
from engine.events import ChipsMoved, Reason
from engine.frap import FrapDeal, FrapRules, Phase
from tests.engine_helpers import NAMES, new_deal, play_tricks, run, trick_plan

# ---- F1 players and deck -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "size", "lowest"),
    [
        (2, 32, Rank.SEVEN),
        (3, 32, Rank.SEVEN),
        (4, 32, Rank.SEVEN),
        (5, 36, Rank.SIX),
        (6, 36, Rank.SIX),
        (7, 52, Rank.TWO),
        (10, 52, Rank.TWO),
        (12, 52, Rank.TWO),
    ],
)
def test_F1_deck_by_number_of_players(n: int, size: int, lowest: Rank) -> None:
    assert FrapRules().deck_size_for(n) == size
    deck = make_deck(size)
    assert len(set(deck)) == size and min(card.rank for card in deck) is lowest
    deal, _ = FrapDeal.new(FrapRules(), NAMES[:n], 0, 10, 0, deck)
    assert len(deal.stock) == size - 4 * n - 1
    with pytest.raises(ValueError, match="F1"):
        FrapDeal.new(FrapRules(), NAMES[:n], 0, 10, 0, make_deck(52 if size != 52 else 32))


def test_F1_rank_order_two_lowest_ace_highest() -> None:
    codes = [card.rank.code for card in make_deck(52) if card.suit is Suit.SPADES]
    assert codes == list("23456789TJQKA")
    assert Rank.TEN < Rank.JACK < Rank.QUEEN < Rank.KING < Rank.ACE
    assert Card.parse("TH").label == "10♥" and Rank.parse("10") is Rank.TEN


@pytest.mark.parametrize("n", [0, 1, 13])
def test_F1_two_to_twelve_players(n: int) -> None:
    with pytest.raises(ValueError, match="F1"):
        FrapDeal.new(FrapRules(), [f"p{i}" for i in range(n)], 0, 10, 0, make_deck(52))


def test_F1_deck_must_hold_each_card_once() -> None:
    deck = list(make_deck(32))
    deck[0] = deck[1]
    with pytest.raises(ValueError, match="F1"):
        FrapDeal.new(FrapRules(), NAMES[:4], 0, 10, 0, deck)
    with pytest.raises(ValueError, match="F1"):
        FrapDeal.new(FrapRules(), NAMES[:4], 0, 10, 0, make_deck(32)[:-1])


def test_F1_option_fixed_deck_size() -> None:
    rules = FrapRules(deck_size=52)
    deal, _ = FrapDeal.new(rules, NAMES[:4], 0, 10, 0, make_deck(52))
    assert len(deal.stock) == 52 - 17
    # 7 players need 29 cards: a 32-card deck holds them; 8 players need 33, which it does not.
    seven = FrapRules(deck_size=32)
    deal, _ = FrapDeal.new(seven, NAMES[:7], 0, 10, 0, make_deck(32))
    assert len(deal.stock) == 3
    with pytest.raises(ValueError, match="F1: a deck of 32 cards is too small for 8"):
        FrapDeal.new(seven, NAMES[:8], 0, 10, 0, make_deck(32))
    with pytest.raises(ValueError, match="deck_size"):
        FrapRules.from_dict({"preset": "classic", "deck_size": 40})


def test_F1_option_fixed_deck_plays_to_the_end() -> None:
    rules = FrapRules(deck_size=36)
    hands, plan = trick_plan([0, 0, 1, 2], [0, 1, 2])
    deal = new_deal(4, hands=hands, rules=rules, turnup="6H")
    assert len(deal.deck) == 36 and deal.trump is Suit.HEARTS
    deal, _ = run(deal, "0 frap; 1 whist; 2 whist; 3 pass; 0 discard; 1 discard; 2 discard")
    deal, _ = run(deal, "3 no_cut")
    deal, _ = play_tricks(deal, plan)
    assert deal.finished and deal.tricks_won == (2, 1, 1, 0)


# ---- F2 seats and dealer -------------------------------------------------------------------------


def test_F2_everything_starts_left_of_the_dealer() -> None:
    deck = make_deck(32)
    deal, _ = FrapDeal.new(FrapRules(), NAMES[:4], 2, 10, 0, deck)
    assert deal.to_act == 3  # bidding starts at the dealer's left
    assert deal.hands[3][0] == deck[0] and deal.hands[0][0] == deck[1]  # so does the deal
    deal, _ = FrapDeal.new(FrapRules(), NAMES[:4], 3, 10, 0, deck)
    assert deal.to_act == 0 and deal.queue == (0, 1, 2, 3)


@pytest.mark.parametrize("dealer", [-1, 4, True, "0"])
def test_F2_dealer_must_be_a_seat(dealer: object) -> None:
    with pytest.raises(ValueError, match="F2"):
        FrapDeal.new(FrapRules(), NAMES[:4], dealer, 10, 0, make_deck(32))  # type: ignore[arg-type]


def test_F2_player_names_label_distinct_seats() -> None:
    with pytest.raises(ValueError, match="F2"):
        FrapDeal.new(FrapRules(), ["ann", "bob", "ann"], 0, 10, 0, make_deck(32))


# ---- F3 ante -------------------------------------------------------------------------------------


def test_F3_everyone_antes_at_the_start() -> None:
    deal, events = FrapDeal.new(FrapRules(), NAMES[:4], 1, 10, 5, make_deck(32))
    assert events == [ChipsMoved(seat, -10, Reason.ANTE) for seat in (2, 3, 0, 1)]
    assert deal.pot == 45 and deal.delta == (-10,) * 4


def test_F3_penalty_pot_is_played_as_it_stands() -> None:
    deal, events = FrapDeal.new(
        FrapRules(), NAMES[:4], 0, 10, 130, make_deck(32), pot_has_penalty=True
    )
    assert events == [] and deal.pot == 130 and deal.delta == (0,) * 4


def test_F3_option_ante_every_deal() -> None:
    rules = FrapRules(ante="every_deal")
    deal, events = FrapDeal.new(rules, NAMES[:4], 0, 10, 130, make_deck(32), pot_has_penalty=True)
    assert len(events) == 4 and deal.pot == 170


@pytest.mark.parametrize("ante_mode", ["penalty_carries", "every_deal"])
def test_F3_no_ante_at_a_redeal(ante_mode: str) -> None:
    rules = FrapRules.from_dict({"ante": ante_mode})
    deal, events = FrapDeal.new(rules, NAMES[:4], 0, 10, 80, make_deck(32), redeal=True)
    assert events == [] and deal.pot == 80


def test_F3_penalty_carries_to_the_next_deal_and_a_clean_pot_does_not() -> None:
    # E2's tricks: the declarer and a whister fail, so the pot holds penalty money.
    hands, plan = trick_plan([0, 1, 2, 2], [0, 1, 2, 3])
    deal = new_deal(hands=hands)
    deal, _ = run(deal, "0 frap; 1 whist; 2 whist; 3 whist; 0 discard; 1 discard")
    deal, _ = run(deal, "2 discard; 3 discard")
    deal, _ = play_tricks(deal, plan)
    assert (deal.pot, deal.pot_has_penalty) == (80, True)
    # The next deal is played on that pot without an ante; it ends with everyone making it.
    hands, plan = trick_plan([0, 0, 1, 2], [0, 1, 2])
    deal = new_deal(hands=hands, dealer=3, pot=80, pot_has_penalty=True)
    assert deal.pot == 80
    deal, _ = run(deal, "0 frap; 1 whist; 2 whist; 3 pass; 0 discard; 1 discard; 2 discard")
    deal, _ = run(deal, "3 no_cut")
    deal, _ = play_tricks(deal, plan)
    assert (deal.pot, deal.pot_has_penalty) == (0, False)
    assert deal.delta == (40, 20, 20, 0)
    # F3: a pot without penalty money is topped up by everyone's ante.
    deal = new_deal(pot=deal.pot, pot_has_penalty=deal.pot_has_penalty)
    assert deal.pot == 40


def test_F3_ante_and_pot_are_whole_chips() -> None:
    for ante, pot in [(-1, 0), (0, -5), (2.5, 0), (10, "0")]:
        with pytest.raises(ValueError, match="F3"):
            FrapDeal.new(FrapRules(), NAMES[:4], 0, ante, pot, make_deck(32))  # type: ignore[arg-type]


# ---- F4 deal and trump ---------------------------------------------------------------------------


def test_F4_four_cards_one_at_a_time_then_the_turnup_is_trump() -> None:
    deck = make_deck(32)
    deal, _ = FrapDeal.new(FrapRules(), NAMES[:3], 2, 10, 0, deck)
    assert deal.hands == (deck[0:12:3], deck[1:12:3], deck[2:12:3])
    assert deal.turnup == deck[12] and deal.trump is deck[12].suit
    assert deal.stock == deck[13:]
    assert deal.phase is Phase.BIDDING and deal.round == 1


def test_F4_turnup_belongs_to_no_one_until_taken() -> None:
    deal = new_deal(turnup="AD")
    assert deal.turnup == Card.parse("AD") and deal.trump is Suit.DIAMONDS
    assert all(Card.parse("AD") not in hand for hand in deal.hands)
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard")
    assert deal.turnup == Card.parse("AD")  # still on the table: only F7 or F10 take it
    assert deal.legal_actions(2)[-1].do is Do.CUT
