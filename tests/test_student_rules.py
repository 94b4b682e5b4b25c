"""RULES SK1–SK13: Student Khrap (студенческий храп), point by point on rigged decks."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, Do
from engine.cards import Card, Suit, make_deck, shuffled
from engine.events import (
    AllPassed,
    BidMade,
    ChipsMoved,
    Exchanged,
    Reason,
    TrickWon,
    TurnupTaken,
)
from engine.record import replay
from engine.student import JOKER, Phase, StudentDeal, StudentDo, StudentRules
from engine.views import table_view
from tests.engine_helpers import NAMES, cards
from tests.family_helpers import (
    chip_moves,
    play_tricks,
    random_action,
    random_student,
    refused,
    run,
    student_deal,
    trick_plan,
)

NAMED = StudentRules(joker_lead="named_suit")


def heads_up(hand0: str, hand1: str, *, rules: StudentRules | None = None) -> StudentDeal:
    """Seat 0 khraps, seat 1 helps, seats 2 and 3 pass, nobody exchanges; hearts are trump and
    seat 0 leads."""
    deal = student_deal(hands={0: hand0, 1: hand1}, turnup="6H", rules=rules)
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pass; 3 pass; 0 discard; 1 discard")
    assert deal.phase is Phase.PLAY and deal.queue == (0, 1)
    return deal


def plays(deal: StudentDeal, seat: int) -> list[str]:
    """The legal plays of `seat` as compact text: 'AH', '7S joker', '7S plain', '7S joker C'."""
    out = []
    for action in deal.legal_actions(seat):
        assert action.do is Do.PLAY and action.card is not None
        text = str(action.card)
        if action.joker is not None:
            text += " joker" if action.joker else " plain"
        if action.suit is not None:
            text += f" {action.suit.value}"
        out.append(text)
    return out


# ---- SK1 players and deck ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_SK1_36_cards_three_or_four_players_four_cards_each(n: int) -> None:
    deal = student_deal(n)
    assert len(deal.deck) == 36 and [len(hand) for hand in deal.hands] == [4] * n
    assert deal.stock_size == 36 - 4 * n - 1 and deal.turnup == Card.parse("6H")
    assert StudentDeal.deck_size_for({}, n) == 36


@pytest.mark.parametrize("n", [2, 5])
def test_SK1_not_for_two_or_five_players(n: int) -> None:
    deck = shuffled(make_deck(36), random.Random(1))
    with pytest.raises(ValueError, match=f"F1: student_khrap is for 3–4 players, not {n}"):
        StudentDeal.new(StudentRules(), NAMES[:n], 0, 10, 0, deck)


def test_SK1_only_the_36_card_deck() -> None:
    deck = shuffled(make_deck(32), random.Random(1))
    with pytest.raises(ValueError, match="F1: the deck must be the 36-card deck"):
        StudentDeal.new(StudentRules(), NAMES[:4], 0, 10, 0, deck)


# ---- SK2 the joker -----------------------------------------------------------------------------


def test_SK2_the_joker_is_the_highest_card_of_all_and_ignores_follow_suit() -> None:
    deal, _ = run(heads_up("AH KC QC JC", "7S 8H 9D TD"), "0 play AH")
    assert plays(deal, 1) == ["8H", "7S joker"]  # the plain 7♠ must follow hearts: not now
    deal, events = run(deal, "1 play 7S joker")
    assert TrickWon(1, 1, cards("AH 7S")) in events and deal.to_act == 1


def test_SK2_joker_led_makes_others_trump() -> None:
    deal, _ = run(heads_up("7S KC QC JC", "8H 9S 9D TD"), "0 play 7S joker")
    assert plays(deal, 1) == ["8H"]
    caught = refused(deal, Action(1, Do.PLAY, card=Card.parse("9S")))
    assert (caught.rule, caught.reason) == ("SK2", "the joker was led: play a trump ♥")
    deal, events = run(deal, "1 play 8H")
    assert TrickWon(1, 0, cards("7S 8H")) in events  # the joker beats the trump


def test_SK2_joker_led_and_no_trump_any_card() -> None:
    deal, _ = run(heads_up("7S KC QC JC", "8C 9S 9D TD"), "0 play 7S joker")
    assert plays(deal, 1) == ["8C", "9S", "9D", "TD"]


def test_SK2_the_7S_played_plain_is_a_low_spade_and_must_be_legal() -> None:
    deal, _ = run(heads_up("8S KC QC JC", "7S 9H 9D TD"), "0 play 8S")
    # The joker does not count as a spade for the duty to follow (it may always be played), so
    # the holder, void in spades otherwise, must trump, or plays the 7♠ either way.
    assert plays(deal, 1) == ["9H", "7S joker", "7S plain"]
    deal, events = run(deal, "1 play 7S plain")
    assert TrickWon(1, 0, cards("8S 7S")) in events
    deal, _ = run(heads_up("AH KC QC JC", "7S 8H 9D TD"), "0 play AH")
    caught = refused(deal, Action(1, Do.PLAY, card=JOKER, joker=False))
    assert (caught.rule, caught.reason) == ("F12", "must follow suit ♥")


def test_SK2_the_7S_led_plain_asks_for_spades() -> None:
    deal, _ = run(heads_up("7S KC QC JC", "8H 9S 9D TD"), "0 play 7S plain")
    assert plays(deal, 1) == ["9S"]
    deal, events = run(deal, "1 play 9S")
    assert TrickWon(1, 1, cards("7S 9S")) in events


def test_SK2_the_7S_says_how_it_is_played_and_no_other_card_is_a_joker() -> None:
    deal, _ = run(heads_up("AH KC QC JC", "7S 8H 9D TD"), "0 play AH")
    caught = refused(deal, Action(1, Do.PLAY, card=JOKER))
    assert (caught.rule, caught.reason) == ("SK2", "say whether the 7♠ is played as the joker")
    for flag in (True, False):
        caught = refused(deal, Action(1, Do.PLAY, card=Card.parse("8H"), joker=flag))
        assert (caught.rule, caught.reason) == ("SK2", "only the 7♠ is the joker")
    caught = refused(deal, Action(1, Do.PLAY, card=JOKER, joker=True, suit=Suit.CLUBS))
    assert caught.rule == "SK2" and "a suit is named only when leading the joker" in caught.reason


def test_SK2_named_suit_option_the_leader_names_the_suit_to_follow() -> None:
    deal = heads_up("7S KC QC JC", "8H 9C 9D TD", rules=NAMED)
    assert plays(deal, 0) == [
        "KC", "QC", "JC", "7S joker S", "7S joker C", "7S joker D", "7S joker H", "7S plain",
    ]  # fmt: skip
    caught = refused(deal, Action(0, Do.PLAY, card=JOKER, joker=True))
    assert (caught.rule, caught.reason) == ("SK2", "name the suit the others must follow")
    for suit, legal in (("C", ["9C"]), ("D", ["9D", "TD"]), ("S", ["8H"]), ("H", ["8H"])):
        led, _ = run(deal, f"0 play 7S joker {suit}")
        assert plays(led, 1) == legal, suit  # S: void in spades, so a trump
        assert led.led_suit is Suit.parse(suit)
    led, events = run(deal, "0 play 7S joker D; 1 play TD")
    assert TrickWon(1, 0, cards("7S TD")) in events and led.led_suit is None
    assert led.actions[-2] == Action(0, Do.PLAY, card=JOKER, joker=True, suit=Suit.DIAMONDS)
    assert replay(led.to_record()) == led


def test_SK2_named_suit_is_only_for_a_led_joker() -> None:
    deal = heads_up("7S KC QC JC", "8H 9C 9D TD", rules=NAMED)
    assert refused(deal, Action(0, Do.PLAY, card=Card.parse("KC"), suit=Suit.CLUBS)).rule == "SK2"
    assert refused(deal, Action(0, Do.PLAY, card=JOKER, joker=False, suit=Suit.CLUBS)).rule == "SK2"
    deal, _ = run(heads_up("KC QC JC TC", "7S 8H 9D TD", rules=NAMED), "0 play KC")
    assert plays(deal, 1) == ["8H", "7S joker"]  # not leading: the joker names nothing
    caught = refused(deal, Action(1, Do.PLAY, card=JOKER, joker=True, suit=Suit.DIAMONDS))
    assert caught.rule == "SK2"


# ---- SK3 the dealer ----------------------------------------------------------------------------


def test_SK3_the_last_khrap_declarer_deals_next() -> None:
    deal, _ = run(student_deal(), "0 pass; 1 khrap; 2 pass; 3 pass")
    assert deal.finished and deal.next_dealer == 1
    deal = student_deal(hands={3: "AH 8C 9C TC"})
    deal, _ = run(deal, "0 khrap; 1 pass; 2 pass; 3 veselyu")
    assert deal.declarer == 3 and deal.next_dealer == 3  # the veselyu caller declared (SK10)


def test_SK3_after_the_all_pass_redeal_the_same_dealer_deals() -> None:
    deal = student_deal(dealer=1)
    for _ in range(3):
        deal, _ = run(deal, "2 pass; 3 pass; 0 pass; 1 pass")
    assert deal.finished and deal.needs_redeal and deal.next_dealer == 1


# ---- SK4 bidding -------------------------------------------------------------------------------


def test_SK4_khrap_or_pass_and_pomogu_only_after_a_khrap() -> None:
    deal = student_deal()
    assert [a.do for a in deal.legal_actions(0)] == [StudentDo.KHRAP, Do.PASS]
    assert deal.legal_actions(1) == []
    caught = refused(deal, Action(0, StudentDo.POMOGU))
    assert (caught.rule, caught.reason) == ("SK4", "pomogu answers a khrap; none is said")
    assert refused(deal, Action(0, Do.WHIST)).rule == "SK4"
    deal, events = run(deal, "0 pass; 1 khrap")
    assert events == [BidMade(0, Do.PASS), BidMade(1, StudentDo.KHRAP)] and deal.declarer == 1
    assert [a.do for a in deal.legal_actions(2)] == [StudentDo.POMOGU, StudentDo.BERU_PYAT, Do.PASS]
    caught = refused(deal, Action(2, StudentDo.KHRAP))
    assert (caught.rule, caught.reason) == ("SK4", "only one khrap per deal: help or pass")


def test_SK4_only_later_players_answer_and_earlier_passers_are_out() -> None:
    deal, _ = run(student_deal(), "0 pass; 1 khrap; 2 pomogu")
    assert deal.queue == (3,)  # seat 0 passed before the khrap: not asked again
    deal, _ = run(deal, "3 pass")
    assert deal.phase is Phase.EXCHANGE and deal.participants == [1, 2]
    roles = [seat.role for seat in table_view(deal).seats]
    assert roles == ["out", "declarer", "helper", "out"]


def test_SK4_nobody_helps_the_declarer_takes_the_bank_without_play() -> None:
    deal, events = run(student_deal(), "0 pass; 1 khrap; 2 pass; 3 pass")
    assert deal.finished and not deal.tricks_played
    assert chip_moves(events) == [ChipsMoved(1, 40, Reason.POT_TAKEN)]
    assert deal.delta == (-10, 30, -10, -10) and deal.pot == 0


def test_SK4_a_passer_leaves_the_deal_and_the_bank() -> None:
    hands, plan = trick_plan([0, 0, 1, 1], [0, 1], "SCDC", ranks="AKQJT98")
    deal = student_deal(hands=hands, pot=40)
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pass; 3 pass; 0 discard; 1 discard")
    deal, events = play_tricks(deal, plan)
    assert {m.seat for m in chip_moves(events)} == {0, 1} and deal.delta == (20, 20, 0, 0)


# ---- SK5 all pass ------------------------------------------------------------------------------


def test_SK5_all_pass_turns_a_new_trump_over_the_old_without_an_ante() -> None:
    deal = student_deal(turnup="6H", stock="6C 6D")
    deal, events = run(deal, "0 pass; 1 pass; 2 pass; 3 pass")
    assert events[-1] == AllPassed(1, Card.parse("6H"), Card.parse("6C"))
    assert (deal.round, deal.trump, deal.pot, deal.queue) == (2, Suit.CLUBS, 40, (0, 1, 2, 3))
    assert chip_moves(events) == [] and deal.dead_turnups == cards("6H")
    deal, events = run(deal, "0 pass; 1 pass; 2 pass; 3 pass")
    assert events[-1] == AllPassed(2, Card.parse("6C"), Card.parse("6D"))
    assert (deal.round, deal.trump, deal.pot) == (3, Suit.DIAMONDS, 40)
    # A player may declare in a suit he passed before.
    assert [a.do for a in deal.legal_actions(0)] == [StudentDo.KHRAP, Do.PASS]


def test_SK5_after_the_third_all_pass_round_everyone_antes_and_the_cards_are_redealt() -> None:
    deal = student_deal(stock="6C 6D")
    for _ in range(2):
        deal, _ = run(deal, "0 pass; 1 pass; 2 pass; 3 pass")
    deal, events = run(deal, "0 pass; 1 pass; 2 pass; 3 pass")
    assert AllPassed(3, Card.parse("6D"), None) in events
    assert chip_moves(events) == [ChipsMoved(s, -10, Reason.ALL_PASS_ANTE) for s in range(4)]
    assert deal.finished and deal.needs_redeal and deal.pot == 80 and deal.delta == (-20,) * 4
    assert deal.dead_turnups == cards("6H 6C 6D") and deal.turnup is None
    # The redeal: a new record, "redeal": true, no ante (the bank is not empty either).
    again = StudentDeal.new(
        StudentRules(), NAMES[:4], deal.next_dealer, 10, deal.pot,
        shuffled(make_deck(36), random.Random(3)), redeal=True,
    )[0]  # fmt: skip
    assert again.pot == 80 and again.delta == (0,) * 4 and again.to_record()["redeal"] is True


# ---- SK6 exchange ------------------------------------------------------------------------------


def test_SK6_exchange_declarer_first_then_clockwise_helpers_included_takers_excluded() -> None:
    deal = student_deal(hands={3: "AH 8C 9C TC"})
    deal, _ = run(deal, "0 khrap; 1 beru_pyat")
    deal, _ = run(deal, f"1 call_discard {deal.hands[1][0]}; 2 pomogu; 3 veselyu")
    deal, _ = run(deal, f"3 call_discard {deal.hands[3][-1]}")
    # SK10: seat 3 declares, seat 0 helps; seat 1 took five and exchanges no more (SK7).
    assert (deal.declarer, deal.helpers, deal.takers) == (3, (2, 0), (1,))
    assert deal.phase is Phase.EXCHANGE and deal.queue == (3, 0, 2)


def test_SK6_any_number_of_cards_from_the_stock() -> None:
    deal = student_deal(hands={0: "AS KS QS JS"}, stock="AC KC QC JC")
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pass; 3 pass")
    options = [a.cards for a in deal.legal_actions(0)]
    assert len(options) == 16 and all(a.do is Do.DISCARD for a in deal.legal_actions(0))
    deal, events = run(deal, "0 discard KS JS")
    assert deal.hands[0] == cards("AS QS AC KC") and Exchanged(0, 2, 2) in events
    deal, _ = run(deal, "1 discard " + " ".join(map(str, deal.hands[1])))
    assert deal.hands[1] == cards("QC JC") + deal.deck[21:23] and deal.phase is Phase.PLAY


# ---- SK7 beru pyat' ----------------------------------------------------------------------------


def test_SK7_beru_pyat_drops_all_takes_five_discards_one_and_exchanges_no_more() -> None:
    deal = student_deal(hands={1: "AS KS QS JS"}, stock="AC KC QC JC TC")
    deal, events = run(deal, "0 khrap; 1 beru_pyat")
    assert Exchanged(1, 4, 5) in events and deal.phase is Phase.CALL_DISCARD
    assert deal.hands[1] == cards("AC KC QC JC TC") and deal.discards == cards("AS KS QS JS")
    assert [a.card for a in deal.legal_actions(1)] == list(cards("AC KC QC JC TC"))
    deal, _ = run(deal, "1 call_discard TC")
    assert deal.hands[1] == cards("AC KC QC JC") and deal.phase is Phase.BIDDING
    assert deal.queue == (2, 3) and table_view(deal).seats[1].role == "taker"
    deal, _ = run(deal, "2 pass; 3 pass")
    assert deal.phase is Phase.EXCHANGE and deal.queue == (0,)


def test_SK7_beru_pyat_only_after_a_khrap() -> None:
    caught = refused(student_deal(), Action(0, StudentDo.BERU_PYAT))
    assert (caught.rule, caught.reason) == ("SK7", "beru pyat' is said only after a khrap")


def test_SK7_a_taker_must_take_a_trick_or_pays_the_bank() -> None:
    # Seat 1 takes five: the stock gives him the cards of the plan plus 9D to discard.
    hands, plan = trick_plan([0, 0, 0, 0], [0, 1], "SCDC", ranks="AKQJT98")
    deal = student_deal(hands={0: hands[0]}, stock=[*hands[1], "9D"])
    deal, _ = run(deal, "0 khrap; 1 beru_pyat; 1 call_discard 9D; 2 pass; 3 pass; 0 discard")
    assert deal.leader == 1  # SK11
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events) == [
        ChipsMoved(0, 40, Reason.TRICKS),
        ChipsMoved(1, -40, Reason.PENALTY),
    ]


# ---- SK8 veselyu -------------------------------------------------------------------------------


def test_SK8_veselyu_keeps_the_trump_ace_drops_three_draws_four_discards_one() -> None:
    deal = student_deal(hands={0: "AH 8C 9C TC"}, stock="AS KS QS JS")
    assert [a.do for a in deal.legal_actions(0)] == [StudentDo.KHRAP, StudentDo.VESELYU, Do.PASS]
    deal, events = run(deal, "0 veselyu")
    assert deal.declarer == 0 and Exchanged(0, 3, 4) in events  # no khrap yet: he declares
    assert deal.hands[0] == cards("AH AS KS QS JS") and deal.discards == cards("8C 9C TC")
    deal, _ = run(deal, "0 call_discard JS")
    assert deal.hands[0] == cards("AH AS KS QS") and deal.queue == (1, 2, 3)
    assert [a.do for a in deal.legal_actions(1)] == [StudentDo.POMOGU, StudentDo.BERU_PYAT, Do.PASS]
    assert table_view(deal).contract is StudentDo.VESELYU


def test_SK8_veselyu_needs_the_trump_ace() -> None:
    caught = refused(student_deal(hands={0: "AS 8C 9C TC"}), Action(0, StudentDo.VESELYU))
    assert (caught.rule, caught.reason) == ("SK8", "veselyu needs the trump ace A♥ in the hand")


def test_SK8_veselyu_overrides_khrap_and_the_former_declarer_helps() -> None:
    deal = student_deal(hands={2: "AH 8C 9C TC"}, stock="AS KS QS JS")
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 veselyu; 2 call_discard JS; 3 pass")
    assert (deal.declarer, deal.helpers) == (2, (1, 0))
    assert [table_view(deal).seats[s].role for s in range(4)] == [
        "helper", "helper", "declarer", "out",
    ]  # fmt: skip
    assert deal.queue == (2, 0, 1)  # SK6: the new declarer exchanges first


# ---- SK9 zavorachivayu -------------------------------------------------------------------------


def test_SK9_zavorachivayu_the_dealer_takes_the_turned_ace_drops_four_draws_four() -> None:
    deal = student_deal(hands={3: "7C 8C 9C TC"}, turnup="AH", stock="AS KS QS JS")
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pass")
    assert [a.do for a in deal.legal_actions(3)] == [
        StudentDo.POMOGU, StudentDo.BERU_PYAT, StudentDo.ZAVORACHIVAYU, Do.PASS,
    ]  # fmt: skip
    deal, events = run(deal, "3 zavorachivayu")
    assert TurnupTaken(3, Card.parse("AH")) in events and Exchanged(3, 4, 4) in events
    assert deal.hands[3] == cards("AH AS KS QS JS") and deal.turnup is None
    assert deal.trump is Suit.HEARTS and deal.discards == cards("7C 8C 9C TC")
    deal, _ = run(deal, "3 call_discard JS")
    # SK10: the dealer declares, the khrap declarer helps; exchange from the declarer.
    assert (deal.declarer, deal.helpers, deal.queue) == (3, (1, 0), (3, 0, 1))


def test_SK9_only_the_dealer_and_only_on_a_turned_ace() -> None:
    deal = student_deal(turnup="AH")
    caught = refused(deal, Action(0, StudentDo.ZAVORACHIVAYU))
    assert (caught.rule, caught.reason) == ("SK9", "only the dealer may say zavorachivayu")
    deal, _ = run(student_deal(turnup="KH"), "0 pass; 1 pass; 2 pass")
    caught = refused(deal, Action(3, StudentDo.ZAVORACHIVAYU))
    assert (caught.rule, caught.reason) == ("SK9", "zavorachivayu needs an ace turned up")


def test_SK9_zavorachivayu_with_no_khrap_the_dealer_declares() -> None:
    deal = student_deal(turnup="AH")
    deal, _ = run(deal, "0 pass; 1 pass; 2 pass; 3 zavorachivayu")
    card = deal.hands[3][0]
    deal, events = run(deal, f"3 call_discard {card}")
    # Everyone before him has passed: nobody is left to help, so the bank is his (SK4).
    assert deal.finished and chip_moves(events) == [ChipsMoved(3, 40, Reason.POT_TAKEN)]


# ---- SK10 the override -------------------------------------------------------------------------


def test_SK10_and_SK12_the_caller_short_pays_twice_the_former_declarer_once() -> None:
    # Hearts are trump. Seat 2 says veselyu over seat 0's khrap and takes only trick 1; seat 1
    # helps and takes the rest; seat 0, now a helper, takes none.
    deal = student_deal(
        hands={0: "8S 8C 8D 9C", 1: "KS AC AD KC", 2: "AH 6C 6D 6S"},
        stock="AS 9S TS 7C 7D",
        pot=40,
    )
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 veselyu; 2 call_discard 9S; 3 pass")
    assert deal.hands[2] == cards("AH AS TS 7C") and deal.queue == (2, 0, 1)
    deal, _ = run(deal, "2 discard AH; 0 discard; 1 discard")
    assert deal.hands[2] == cards("AS TS 7C 7D") and deal.leader == 2
    deal, events = play_tricks(
        deal,
        [
            {2: "AS", 0: "8S", 1: "KS"},
            {2: "7C", 0: "8C", 1: "AC"},
            {1: "AD", 2: "7D", 0: "8D"},
            {1: "KC", 2: "TS", 0: "9C"},
        ],
    )
    assert deal.tricks_won == (0, 3, 1, 0)
    assert chip_moves(events) == [
        ChipsMoved(1, 30, Reason.TRICKS),
        ChipsMoved(2, 10, Reason.TRICKS),  # SK13: the failed declarer keeps his trick money
        ChipsMoved(2, -80, Reason.PENALTY),  # SK10: the caller promised two
        ChipsMoved(0, -40, Reason.PENALTY),  # SK10: the former declarer, now a helper, one
    ]
    assert deal.delta == (-40, 30, -70, 0) and deal.pot == 120 and deal.pot_has_penalty


# ---- SK11 lead ---------------------------------------------------------------------------------


def test_SK11_the_taker_nearest_the_declarers_left_leads() -> None:
    deal = student_deal(hands={3: "AH 8C 9C TC"})
    deal, _ = run(deal, "0 khrap; 1 beru_pyat")
    deal, _ = run(deal, f"1 call_discard {deal.hands[1][0]}; 2 beru_pyat")
    deal, _ = run(deal, f"2 call_discard {deal.hands[2][0]}; 3 veselyu")
    deal, _ = run(deal, f"3 call_discard {deal.hands[3][-1]}")
    assert (deal.declarer, deal.takers, deal.queue) == (3, (1, 2), (3, 0))
    deal, _ = run(deal, "3 discard; 0 discard")
    # Declarer 3: seat 0 is at his left but helps; seat 1 is the nearest taker.
    assert deal.phase is Phase.PLAY and deal.leader == 1 and deal.queue == (1, 2, 3, 0)


def test_SK11_without_a_taker_the_declarer_leads() -> None:
    deal, _ = run(student_deal(), "0 pass; 1 khrap; 2 pomogu")
    deal, _ = run(deal, "3 pomogu; 1 discard; 2 discard; 3 discard")
    assert deal.leader == 1 and deal.queue == (1, 2, 3)


# ---- SK12 the bank -----------------------------------------------------------------------------


def test_SK12_a_quarter_of_the_bank_per_trick_the_remainder_stays() -> None:
    hands, plan = trick_plan([0, 0, 1, 2], [0, 1, 2], "SCDC", ranks="AKQJT98")
    deal = student_deal(hands=hands, pot=42)
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pomogu; 3 pass; 0 discard; 1 discard; 2 discard")
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events) == [
        ChipsMoved(0, 20, Reason.TRICKS),
        ChipsMoved(1, 10, Reason.TRICKS),
        ChipsMoved(2, 10, Reason.TRICKS),
    ]
    assert deal.pot == 2 and not deal.pot_has_penalty


@pytest.mark.parametrize(("declarer_tricks", "winners"), [(1, [0, 1, 1, 1]), (0, [1, 1, 1, 1])])
def test_SK12_declarer_short_of_two_pays_twice_the_bank(
    declarer_tricks: int, winners: list[int]
) -> None:
    hands, plan = trick_plan(winners, [0, 1], "SCDC", ranks="AKQJT98")
    deal = student_deal(hands=hands, pot=40)
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pass; 3 pass; 0 discard; 1 discard")
    deal, events = play_tricks(deal, plan)
    assert deal.tricks_won[0] == declarer_tricks
    assert ChipsMoved(0, -80, Reason.PENALTY) in chip_moves(events)
    assert deal.delta[0] == 10 * declarer_tricks - 80  # SK13: his trick money all the same


def test_SK12_a_helper_with_no_trick_pays_the_bank() -> None:
    hands, plan = trick_plan([0, 0, 1, 0], [0, 1, 2], "SCDC", ranks="AKQJT98")
    deal = student_deal(hands=hands, pot=40)
    deal, _ = run(deal, "0 khrap; 1 pomogu; 2 pomogu; 3 pass; 0 discard; 1 discard; 2 discard")
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events)[-1] == ChipsMoved(2, -40, Reason.PENALTY)
    assert deal.delta == (30, 10, -40, 0) and deal.pot == 40


def test_SK12_a_bank_is_not_topped_up_an_empty_one_is_formed_by_antes() -> None:
    full = student_deal(pot=40)
    assert full.pot == 40 and full.delta == (0, 0, 0, 0)
    empty = student_deal(pot=0)
    assert empty.pot == 40 and empty.delta == (-10,) * 4


def test_SK12_the_declarer_taking_the_bank_empties_it_for_antes() -> None:
    deal, _ = run(student_deal(pot=70), "0 khrap; 1 pass; 2 pass; 3 pass")
    assert deal.pot == 0 and deal.delta == (70, 0, 0, 0)


# The playouts' own properties (every game's invariants: tests/test_playouts.py).
JOKER_LEAD_RULES = (StudentRules(), StudentRules(joker_lead="named_suit"))


def test_legal_plays_offer_the_joker_both_ways_when_both_are_legal() -> None:
    rng = random.Random(12)
    both = 0
    for i in range(300):
        deal, _ = random_student(rng, 3 + i % 2, JOKER_LEAD_RULES[i % 2])
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            legal = deal.legal_actions(seat)
            flags = {a.joker for a in legal if a.do is Do.PLAY and a.card == JOKER}
            if JOKER in deal.hands[seat] and deal.phase is Phase.PLAY:
                assert True in flags  # SK2: the joker may be played at any time
                both += flags == {True, False}
            deal, _ = deal.apply(random_action(deal, rng, calls=0.8))
    assert both > 20
