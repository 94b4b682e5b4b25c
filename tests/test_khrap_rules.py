"""RULES K1–K6: Khrap (храп) is Frap with five cards, khrap = three tricks, two trump rounds, and
its own money. Each test rigs a deck and checks one point exactly."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, Do
from engine.cards import Card, Suit, make_deck, shuffled
from engine.errors import IllegalAction
from engine.events import AllPassed, ChipsMoved, Reason, TurnupTaken
from engine.frap import FrapRules, KhrapDeal, KhrapDo, Phase, table_view
from engine.frap.settle import declarer_penalty
from tests.engine_helpers import NAMES, cards
from tests.family_helpers import (
    chip_moves,
    khrap_deal,
    play_tricks,
    refused,
    run,
    trick_plan,
)

ALL_PASS = "0 pass; 1 pass; 2 pass; 3 pass"


def shuffled_khrap(n: int, rules: FrapRules | None = None) -> KhrapDeal:
    rules = rules or FrapRules()
    deck = shuffled(make_deck(rules.deck_size_for(n)), random.Random(n))
    deal, _ = KhrapDeal.new(rules, NAMES[:n], n - 1, 10, 0, deck)
    assert isinstance(deal, KhrapDeal)
    return deal


def three_handed(
    winners: list[int], *, turnup: str = "7H", rules: FrapRules | None = None, pot: int = 0
) -> tuple[KhrapDeal, list[dict[int, str]]]:
    """Seat 0 will khrap, seats 1 and 2 whist, seat 3 pass; trick k goes to `winners[k]`."""
    hands, plan = trick_plan(winners, [0, 1, 2], "SCDSC")
    return khrap_deal(hands=hands, turnup=turnup, rules=rules, pot=pot), plan


BUY_NOTHING = "0 discard; 1 discard; 2 discard; 3 no_cut"


# ---- K1 five cards -----------------------------------------------------------------------------


def test_K1_five_cards_each_one_at_a_time_then_the_turnup() -> None:
    deal = khrap_deal(hands={0: "AS KS QS JS TS", 2: "AC KC QC JC TC"}, turnup="9H")
    assert [len(hand) for hand in deal.hands] == [5, 5, 5, 5]
    assert deal.hands[0] == cards("AS KS QS JS TS") and deal.hands[2] == cards("AC KC QC JC TC")
    assert deal.deck[:4] == cards("AS") + deal.hands[1][:1] + cards("AC") + deal.hands[3][:1]
    assert (deal.turnup, deal.trump) == (Card.parse("9H"), Suit.HEARTS)
    assert deal.stock_size == 32 - 4 * 5 - 1 and deal.pot == 40


@pytest.mark.parametrize(("n", "size"), [(2, 32), (4, 32), (5, 36), (6, 36), (7, 52), (10, 52)])
def test_K1_the_deck_by_players_holds_5n_plus_1_cards(n: int, size: int) -> None:
    deal = shuffled_khrap(n)
    assert len(deal.deck) == size and deal.stock_size == size - 5 * n - 1 >= 0


def test_K1_at_most_ten_players() -> None:
    assert KhrapDeal.MAX_PLAYERS == 10
    with pytest.raises(ValueError, match="F1: khrap is for 2–10 players, not 11"):
        shuffled_khrap(11)


@pytest.mark.parametrize(("size", "most"), [(32, 6), (36, 7), (52, 10)])
def test_K1_a_fixed_deck_must_hold_5n_plus_1_cards(size: int, most: int) -> None:
    assert shuffled_khrap(most, FrapRules(deck_size=size)).stock_size == size - 5 * most - 1
    if most < 10:
        with pytest.raises(ValueError, match=f"F1: a deck of {size} cards is too small"):
            shuffled_khrap(most + 1, FrapRules(deck_size=size))


def test_K1_buying_is_zero_to_five_cards() -> None:
    deal, _ = run(khrap_deal(stock="AH KH QH JH TH"), "0 khrap; 1 whist; 2 pass; 3 pass")
    assert deal.phase is Phase.BUYING and deal.queue == (0, 1)
    options = [a.cards for a in deal.legal_actions(0) if a.do is Do.DISCARD]
    assert len(options) == 2**5 and max(len(c or ()) for c in options) == 5
    hand = deal.hands[0]
    deal, _ = run(deal, "0 discard " + " ".join(map(str, hand)))
    assert deal.hands[0] == cards("AH KH QH JH TH") and deal.discards == tuple(hand)


def test_K1_a_cutter_drops_five_and_takes_the_turnup_and_five_or_six_then_discards_one() -> None:
    stock = "AC KC QC JC TC 9C AD KD QD JD TD"
    deal = khrap_deal(hands={2: "7S 8S 9S TS JS"}, turnup="9H", stock=stock)
    deal, _ = run(deal, "0 khrap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard")
    assert deal.phase is Phase.CUTTING and deal.stock_size == 11
    assert {a.turnup for a in deal.legal_actions(2) if a.do is Do.CUT} == {True, False}
    deal, events = run(deal, "2 cut turnup")
    assert TurnupTaken(2, Card.parse("9H")) in events
    assert deal.hands[2] == cards("9H AC KC QC JC TC") and deal.phase is Phase.CUT_DISCARD
    deal, _ = run(deal, "2 cut_discard 9H")
    assert len(deal.hands[2]) == 5 and deal.stock_size == 6
    deal, _ = run(deal, "3 cut stock")
    assert deal.hands[3] == cards("9C AD KD QD JD TD") and deal.stock_size == 0
    deal, _ = run(deal, "3 cut_discard TD")
    # F11: the last cutter leads; five tricks between four players.
    assert deal.phase is Phase.PLAY and deal.leader == 3 and deal.cutters == (2, 3)
    assert deal.queue == (3, 0, 1, 2)


def test_K1_a_cut_needs_six_cards_or_the_turnup_and_five() -> None:
    # 10 players, 52 cards: 50 dealt, the turn-up, one card left: nobody can cut in.
    deal = khrap_deal(10, turnup="2H")
    script = "0 khrap; 1 whist; " + "; ".join(f"{seat} pass" for seat in range(2, 10))
    deal, _ = run(deal, script)
    assert deal.stock_size == 1
    assert max(len(a.cards or ()) for a in deal.legal_actions(0) if a.do is Do.DISCARD) == 1
    deal, _ = run(deal, "0 discard; 1 discard")
    assert deal.phase is Phase.PLAY and deal.cutters == ()
    # 4 players: after buying 5 + 1 the stock holds 5: only a cut with the turn-up.
    deal, _ = run(khrap_deal(), "0 khrap; 1 whist; 2 pass; 3 pass")
    deal, _ = run(deal, "0 discard " + " ".join(map(str, deal.hands[0])))
    deal, _ = run(deal, f"1 discard {deal.hands[1][0]}")
    assert deal.stock_size == 5
    assert [a.turnup for a in deal.legal_actions(2) if a.do is Do.CUT] == [True]
    assert refused(deal, Action(2, Do.CUT, turnup=False)).rule == "F10"


def test_K1_five_tricks_are_played() -> None:
    deal, plan = three_handed([0, 1, 2, 0, 1])
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    deal, _ = play_tricks(deal, plan[:4])
    assert not deal.finished and [len(hand) for hand in deal.hands] == [1, 1, 1, 5]
    deal, _ = play_tricks(deal, plan[4:])
    assert deal.finished and deal.tricks_won == (2, 2, 1, 0) and len(deal.tricks_played) == 5


# ---- K2 calls --------------------------------------------------------------------------------


def test_K2_the_calls_are_khrap_dark_khrap_and_pass_then_whist() -> None:
    deal = khrap_deal()
    words = [Do.LOOK, KhrapDo.KHRAP, KhrapDo.DARK_KHRAP, Do.PASS]
    assert [a.do for a in deal.legal_actions(0)] == words
    assert refused(deal, Action(0, Do.FRAP)).rule == "K2"
    assert refused(deal, Action(0, Do.DARK_FRAP)).rule == "K2"
    caught = refused(deal, Action(0, Do.WHIST))
    assert (caught.rule, caught.reason) == ("F5", "whist is illegal before a khrap")
    deal, _ = run(deal, "0 pass; 1 khrap")
    assert (deal.declarer, deal.phase, deal.queue) == (1, Phase.WHIST, (2, 3, 0))
    assert [a.do for a in deal.legal_actions(2) if a.do is not Do.LOOK] == [Do.WHIST, Do.PASS]
    caught = refused(deal, Action(2, KhrapDo.KHRAP))
    assert (caught.rule, caught.reason) == ("F5", "only one khrap per deal")
    assert table_view(deal).contract is KhrapDo.KHRAP and table_view(deal).declarer_needs == 3


def test_K2_dark_khrap_takes_the_turnup_and_discards_one() -> None:
    deal = khrap_deal(hands={0: "AS KS QS JS TS"}, turnup="AH")
    deal, _ = run(deal, "0 look")
    caught = refused(deal, Action(0, KhrapDo.DARK_KHRAP))
    assert (caught.rule, caught.reason) == ("F7", "dark khrap needs a hand not yet looked at")
    deal = khrap_deal(hands={0: "AS KS QS JS TS"}, turnup="AH")
    deal, events = run(deal, "0 dark_khrap; 1 whist; 2 pass; 3 pass")
    assert TurnupTaken(0, Card.parse("AH")) in events and deal.phase is Phase.DARK_DISCARD
    assert deal.hands[0] == cards("AS KS QS JS TS AH") and table_view(deal).dark
    deal, _ = run(deal, "0 dark_discard TS")
    assert deal.hands[0] == cards("AS KS QS JS AH") and deal.phase is Phase.BUYING


# ---- K3 two trump rounds -----------------------------------------------------------------------


def test_K3_two_trump_rounds_then_the_redeal() -> None:
    deal = khrap_deal(turnup="7H", stock="9C")
    deal, events = run(deal, ALL_PASS)
    assert AllPassed(1, Card.parse("7H"), Card.parse("9C")) in events
    assert (deal.round, deal.trump, deal.pot, deal.queue) == (2, Suit.CLUBS, 80, (0, 1, 2, 3))
    assert [m.reason for m in chip_moves(events)] == [Reason.ALL_PASS_ANTE] * 4  # F8
    deal, events = run(deal, ALL_PASS)
    assert AllPassed(2, Card.parse("9C"), None) in events
    assert deal.finished and deal.needs_redeal and deal.pot == 120
    assert deal.delta == (-30,) * 4 and deal.next_dealer == deal.dealer
    assert deal.dead_turnups == cards("7H 9C") and deal.turnup is None


def test_K3_a_khrap_in_round_two_plays_the_new_trump() -> None:
    deal, _ = run(khrap_deal(turnup="7H", stock="9C"), ALL_PASS + "; 0 pass; 1 khrap")
    assert (deal.round, deal.trump, deal.declarer, deal.turnup) == (
        2,
        Suit.CLUBS,
        1,
        cards("9C")[0],
    )


# ---- K4 khrap made ---------------------------------------------------------------------------


def test_K4_khrap_made_in_round_one_takes_the_whole_pot() -> None:
    deal, plan = three_handed([0, 0, 1, 2, 0])
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    assert deal.p0 == 40
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events) == [ChipsMoved(0, 40, Reason.POT_TAKEN)]  # whisters: nothing
    assert deal.tricks_won == (3, 1, 1, 0)
    assert deal.delta == (30, -10, -10, -10) and deal.pot == 0 and not deal.pot_has_penalty
    assert deal.next_dealer == 0  # F2


def test_K4_khrap_made_in_round_two_takes_half_the_pot() -> None:
    hands, plan = trick_plan([0, 1, 0, 0, 1], [0, 1, 2], "SCDSC")
    deal = khrap_deal(hands=hands, turnup="7H", stock="8H")
    deal, _ = run(deal, ALL_PASS + "; 0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    assert deal.round == 2 and deal.p0 == 80
    deal, events = play_tricks(deal, plan)
    assert deal.tricks_won == (3, 2, 0, 0)
    assert chip_moves(events) == [
        ChipsMoved(0, 40, Reason.POT_TAKEN),
        ChipsMoved(2, -80, Reason.PENALTY),  # F14: a whister with none pays the pot
    ]
    assert deal.delta == (20, -20, -100, -20) and deal.pot == 120 and deal.pot_has_penalty


def test_K4_whisters_who_made_their_trick_get_nothing_one_with_none_pays_the_pot() -> None:
    deal, plan = three_handed([0, 0, 1, 0, 0])
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    deal, events = play_tricks(deal, plan)
    assert deal.tricks_won == (4, 1, 0, 0)
    assert chip_moves(events) == [
        ChipsMoved(0, 40, Reason.POT_TAKEN),
        ChipsMoved(2, -40, Reason.PENALTY),
    ]
    assert deal.delta == (30, -10, -50, -10) and deal.pot == 40 and deal.pot_has_penalty


def test_K4_uncontested_khrap_takes_the_pot_in_round_one() -> None:
    deal, events = run(khrap_deal(), "0 khrap; 1 pass; 2 pass; 3 pass")
    assert deal.finished and not deal.tricks_played
    assert chip_moves(events) == [ChipsMoved(0, 40, Reason.POT_TAKEN)]
    assert deal.delta == (30, -10, -10, -10) and deal.pot == 0


def test_K4_uncontested_khrap_in_round_two_takes_half_the_pot_rounded_down() -> None:
    deal = khrap_deal(pot=1, stock="8H")  # 1 + 40 antes, + 40 after the all-pass round
    deal, events = run(deal, ALL_PASS + "; 0 pass; 1 khrap; 2 pass; 3 pass; 0 pass")
    assert deal.finished and chip_moves(events)[-1] == ChipsMoved(1, 40, Reason.POT_TAKEN)
    assert deal.pot == 41 and deal.delta == (-20, 20, -20, -20) and not deal.pot_has_penalty


def test_K4_uncontested_in_round_two_with_cut_when_uncontested_and_no_cutter() -> None:
    rules = FrapRules(cut_when_uncontested=True)
    deal = khrap_deal(stock="8H", rules=rules)
    deal, _ = run(deal, ALL_PASS + "; 0 khrap; 1 pass; 2 pass; 3 pass; 0 discard")
    assert deal.phase is Phase.CUTTING
    deal, events = run(deal, "1 no_cut; 2 no_cut; 3 no_cut")
    assert deal.finished and chip_moves(events) == [ChipsMoved(0, 40, Reason.POT_TAKEN)]
    assert deal.pot == 40


# ---- K5 khrap failed ---------------------------------------------------------------------------


def test_K5_failed_khrap_a_fifth_of_the_pot_per_trick_and_two_tricks_is_one_short() -> None:
    deal, plan = three_handed([0, 0, 1, 1, 2], pot=10)
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    assert deal.p0 == 50
    deal, events = play_tricks(deal, plan)
    assert deal.tricks_won == (2, 2, 1, 0)
    assert chip_moves(events) == [
        ChipsMoved(0, 20, Reason.TRICKS),  # K5: q = 50 // 5 = 10 (F13 collects)
        ChipsMoved(1, 20, Reason.TRICKS),
        ChipsMoved(2, 10, Reason.TRICKS),
        ChipsMoved(0, -50, Reason.PENALTY),  # F14 graded: one short = ×1
    ]
    assert deal.delta == (-40, 10, 0, -10) and deal.pot == 50 and deal.pot_has_penalty


@pytest.mark.parametrize(
    ("winners", "declarer_tricks"), [([0, 1, 1, 2, 2], 1), ([1, 1, 2, 2, 1], 0)]
)
def test_K5_failed_khrap_with_one_trick_or_none_pays_twice_the_pot(
    winners: list[int], declarer_tricks: int
) -> None:
    deal, plan = three_handed(winners, pot=10)
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    deal, events = play_tricks(deal, plan)
    assert deal.tricks_won[0] == declarer_tricks
    assert ChipsMoved(0, -100, Reason.PENALTY) in chip_moves(events)
    assert deal.delta[0] == -10 + 10 * declarer_tricks - 100 and deal.pot == 100


def test_K5_odd_pot_leaves_the_remainder_in_the_pot() -> None:
    deal, plan = three_handed([0, 0, 1, 1, 2], pot=2)
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    deal, _ = play_tricks(deal, plan)
    assert deal.p0 == 42 and deal.delta == (16 - 42 - 10, 6, -2, -10)
    assert deal.pot == 42 - 5 * 8 + 42


def test_K5_whister_with_no_trick_pays_the_pot_when_the_khrap_fails() -> None:
    deal, plan = three_handed([0, 0, 1, 1, 1])
    deal, events = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    deal, events = play_tricks(deal, plan)
    assert deal.tricks_won == (2, 3, 0, 0)
    assert chip_moves(events)[-2:] == [
        ChipsMoved(0, -40, Reason.PENALTY),
        ChipsMoved(2, -40, Reason.PENALTY),
    ]


def test_K5_flat_penalties_and_a_failed_declarer_who_does_not_collect() -> None:
    rules = FrapRules(penalties="flat", failed_declarer_collects=False)
    deal, plan = three_handed([0, 0, 1, 1, 2], rules=rules, pot=10)
    deal, _ = run(deal, "0 khrap; 1 whist; 2 whist; 3 pass; " + BUY_NOTHING)
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events) == [
        ChipsMoved(1, 20, Reason.TRICKS),
        ChipsMoved(2, 10, Reason.TRICKS),
        ChipsMoved(0, -100, Reason.PENALTY),  # F14 flat: ×2
    ]
    assert deal.delta == (-110, 10, 0, -10) and deal.pot == 120


@pytest.mark.parametrize(
    ("turnup", "winners", "times"),
    [
        ("9H", [0, 0, 1, 1, 2], 2),  # dark, one short: ×2
        ("AH", [0, 0, 1, 1, 2], 3),  # … ×3 when the turn-up he took was the trump ace
        ("AH", [0, 1, 1, 2, 2], 4),  # dark, two or more short: ×4
        ("9H", [1, 1, 2, 2, 1], 4),
    ],
)
def test_K5_failed_dark_khrap_pays_as_F14(turnup: str, winners: list[int], times: int) -> None:
    deal, plan = three_handed(winners, turnup=turnup, pot=10)
    deal, _ = run(deal, "0 dark_khrap; 1 whist; 2 whist; 3 pass")
    deal, _ = run(deal, f"0 dark_discard {turnup}; " + BUY_NOTHING)
    deal, events = play_tricks(deal, plan)
    tricks = deal.tricks_won[0]
    assert ChipsMoved(0, -times * 50, Reason.PENALTY) in chip_moves(events)
    assert deal.delta[0] == -10 + 10 * tricks - times * 50
    assert (
        declarer_penalty(
            FrapRules(),
            tricks,
            dark=True,
            taken_turnup=Card.parse(turnup),
            trump=Suit.HEARTS,
            needs=3,
        )
        == times
    )


def test_K5_made_dark_khrap_takes_the_pot_like_any_khrap() -> None:
    deal, plan = three_handed([0, 0, 0, 1, 2], turnup="AH")
    deal, _ = run(deal, "0 dark_khrap; 1 whist; 2 whist; 3 pass; 0 dark_discard AH; " + BUY_NOTHING)
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events) == [ChipsMoved(0, 40, Reason.POT_TAKEN)]


# ---- K6 passing after a khrap ------------------------------------------------------------------


def test_K6_by_default_passing_after_a_khrap_is_allowed() -> None:
    assert not FrapRules().must_whist
    deal, _ = run(khrap_deal(), "0 khrap; 1 pass; 2 whist; 3 pass")
    assert deal.whisters == (2,) and deal.phase is Phase.BUYING


def test_K6_must_whist_option_every_other_player_whists() -> None:
    rules = FrapRules.from_dict({"preset": "classic", "must_whist": True})
    deal, _ = run(khrap_deal(rules=rules), "0 pass; 1 khrap")
    assert [a.do for a in deal.legal_actions(2)] == [Do.LOOK, Do.WHIST]
    caught = refused(deal, Action(2, Do.PASS))
    assert (caught.rule, caught.reason) == ("K6", "after a khrap every other player must whist")
    deal, _ = run(deal, "2 whist; 3 whist; 0 whist")
    assert deal.whisters == (2, 3, 0) and deal.queue == (0, 1, 2, 3)
    deal, _ = run(deal, "0 discard; 1 discard; 2 discard; 3 discard")
    assert deal.phase is Phase.PLAY and deal.cutters == ()  # nobody passed: nobody cuts in
    assert deal.to_record()["rules"] == {"preset": "classic", "must_whist": True}


def test_K6_under_must_whist_no_seat_may_pass_in_the_whist_round() -> None:
    deal, _ = run(khrap_deal(rules=FrapRules(must_whist=True)), "0 khrap")
    assert refused(deal, Action(2, Do.PASS)).rule == "K6"
    assert refused(deal, Action(0, Do.PASS)).rule == "K6"
    with pytest.raises(IllegalAction, match="F6: it is seat 1's turn"):
        deal.apply(Action(2, Do.WHIST))
