"""Illegal actions in every phase of Student Khrap are refused naming their rule (SK*, or F12 for
following suit), and change nothing: Student Khrap's cases (checked with every game's by
tests/test_illegal.py) and the exchange's limit."""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action, Do
from engine.cards import Card, Suit
from engine.frap import KhrapDo
from engine.student import StudentDeal, StudentDo, StudentRules
from tests.engine_helpers import cards
from tests.family_helpers import refused, run, student_deal


def bidding() -> StudentDeal:
    return student_deal(hands={0: "AS KS QS JS", 1: "AC KC QC JC"}, turnup="KH")


def after_khrap() -> StudentDeal:
    return run(bidding(), "0 khrap")[0]


def round_three_small_stock() -> StudentDeal:
    """Round 3 (trump diamonds): seat 0 says veselyu, seats 1 and 2 take five; 3 cards left."""
    deal = student_deal(hands={0: "AD KS QS JS"}, turnup="6H", stock="6C 6D")
    deal = run(deal, "0 pass; 1 pass; 2 pass; 3 pass; 0 pass; 1 pass; 2 pass; 3 pass")[0]
    deal = run(deal, "0 veselyu")[0]
    deal = run(deal, f"0 call_discard {deal.hands[0][-1]}; 1 beru_pyat")[0]
    deal = run(deal, f"1 call_discard {deal.hands[1][-1]}; 2 beru_pyat")[0]
    deal = run(deal, f"2 call_discard {deal.hands[2][-1]}")[0]
    assert deal.stock_size == 3 and deal.to_act == 3
    return deal


def exchange_small_stock() -> StudentDeal:
    return run(round_three_small_stock(), "3 pass")[0]


def beru_discard() -> StudentDeal:
    return run(after_khrap(), "1 beru_pyat")[0]


def veselyu_discard() -> StudentDeal:
    deal = student_deal(hands={0: "AH KS QS JS"}, turnup="6H")
    return run(deal, "0 veselyu")[0]


def zavorachivayu_discard() -> StudentDeal:
    deal = student_deal(turnup="AH")
    return run(deal, "0 khrap; 1 pass; 2 pass; 3 zavorachivayu")[0]


def exchange() -> StudentDeal:
    return run(after_khrap(), "1 pomogu; 2 pass; 3 pass")[0]


def play() -> StudentDeal:
    """Seat 0 led the ace of spades; seat 1 holds a spade and the joker; hearts are trump."""
    deal = student_deal(hands={0: "AS AC 8D 9D", 1: "KS 7S TD 9H"}, turnup="6H")
    return run(deal, "0 khrap; 1 pomogu; 2 pass; 3 pass; 0 discard; 1 discard; 0 play AS")[0]


def play_joker_led() -> StudentDeal:
    deal = student_deal(hands={0: "7S AC 8D 9D", 1: "KS 8S TD 9H"}, turnup="6H")
    script = "0 khrap; 1 pomogu; 2 pass; 3 pass; 0 discard; 1 discard; 0 play 7S joker"
    return run(deal, script)[0]


def play_lead_named() -> StudentDeal:
    deal = student_deal(
        hands={0: "7S AC 8D 9D"}, turnup="6H", rules=StudentRules(joker_lead="named_suit")
    )
    return run(deal, "0 khrap; 1 pomogu; 2 pass; 3 pass; 0 discard; 1 discard")[0]


def finished() -> StudentDeal:
    return run(bidding(), "0 khrap; 1 pass; 2 pass; 3 pass")[0]


def _a(seat: int, do: Do, card: str | None = None, **kw: object) -> Action:
    return Action(seat, do, card=Card.parse(card) if card else None, **kw)  # type: ignore[arg-type]


CASES: list[tuple[Callable[[], StudentDeal], Action, str, str]] = [
    # bidding (SK4, SK7–SK9)
    (bidding, _a(0, StudentDo.POMOGU), "SK4", "pomogu answers a khrap; none is said"),
    (bidding, _a(0, StudentDo.BERU_PYAT), "SK7", "beru pyat' is said only after a khrap"),
    (bidding, _a(0, StudentDo.VESELYU), "SK8", "veselyu needs the trump ace A♥ in the hand"),
    (bidding, _a(0, StudentDo.ZAVORACHIVAYU), "SK9", "only the dealer may say zavorachivayu"),
    (bidding, _a(1, StudentDo.KHRAP), "SK4", "it is seat 0's turn"),
    (bidding, _a(0, Do.FRAP), "SK4", "cannot frap now"),
    (bidding, _a(0, Do.WHIST), "SK4", "cannot whist now"),
    (bidding, _a(0, Do.LOOK), "SK4", "cannot look now"),
    (bidding, _a(0, KhrapDo.DARK_KHRAP), "SK4", "no such action 'dark_khrap'"),  # Khrap's word
    (bidding, _a(0, Do.PLAY, "AS"), "SK4", "cannot play now"),
    (bidding, _a(0, StudentDo.KHRAP, "AS"), "SK4", "khrap takes no card"),
    (bidding, _a(0, Do.PASS, joker=True), "SK4", "pass takes no joker"),
    (bidding, _a(4, Do.PASS), "F2", "no seat 4"),
    (after_khrap, _a(1, StudentDo.KHRAP), "SK4", "only one khrap per deal"),
    (round_three_small_stock, _a(3, StudentDo.BERU_PYAT), "SK7", "the stock holds only 3 cards"),
    # the caller's discard (SK7, SK8, SK9)
    (beru_discard, _a(1, StudentDo.CALL_DISCARD, "AC"), "SK7", "AC is not in the hand"),
    (beru_discard, _a(1, StudentDo.CALL_DISCARD), "SK7", "say which card"),
    (beru_discard, _a(1, Do.PASS), "SK7", "cannot pass now"),
    (beru_discard, _a(2, StudentDo.POMOGU), "SK7", "cannot pomogu now"),
    (veselyu_discard, _a(0, StudentDo.CALL_DISCARD, "KS"), "SK8", "KS is not in the hand"),
    (veselyu_discard, _a(1, StudentDo.CALL_DISCARD, "AC"), "SK8", "it is seat 0's turn"),
    (zavorachivayu_discard, _a(3, StudentDo.CALL_DISCARD, "7S"), "SK9", "7S is not in the hand"),
    # the exchange (SK6)
    (exchange, _a(0, Do.DISCARD, cards=cards("AD")), "SK6", "AD is not in the hand"),
    (exchange, _a(0, Do.DISCARD, cards=cards("AS AS")), "SK6", "a card is named twice"),
    (exchange, _a(0, Do.DISCARD), "SK6", "say which cards"),
    (exchange, _a(1, Do.DISCARD, cards=()), "SK6", "it is seat 0's turn"),
    (exchange, _a(0, Do.CUT, turnup=True), "SK6", "cannot cut now"),
    # play (SK2, F12, SK11)
    (play, _a(1, Do.PLAY, "TD"), "F12", "must follow suit ♠"),
    (play, _a(1, Do.PLAY, "7S"), "SK2", "say whether the 7♠ is played as the joker"),
    (play, _a(1, Do.PLAY, "KS", joker=True), "SK2", "only the 7♠ is the joker"),
    (play, _a(1, Do.PLAY, "7S", joker=True, suit=Suit.SPADES), "SK2", "a suit is named only"),
    (play, _a(1, Do.PLAY, "AH"), "F12", "AH is not in the hand"),
    (play, _a(1, Do.PLAY), "F12", "say which card"),
    (play, _a(0, Do.PLAY, "AC"), "SK11", "it is seat 1's turn"),
    (play, _a(1, Do.PLAY, "KS", cards=()), "SK11", "play takes no cards"),
    (play_joker_led, _a(1, Do.PLAY, "KS"), "SK2", "the joker was led: play a trump ♥"),
    (play_lead_named, _a(0, Do.PLAY, "7S", joker=True), "SK2", "name the suit"),
    # after the deal (SK12)
    (finished, _a(1, Do.PLAY, "AC"), "SK12", "the deal is over"),
    (finished, _a(0, StudentDo.KHRAP), "SK12", "the deal is over"),
]


def test_SK6_the_exchange_is_limited_by_the_stock() -> None:
    deal = exchange_small_stock()
    assert deal.queue == (0,) and deal.stock_size == 3
    assert max(len(a.cards or ()) for a in deal.legal_actions(0)) == 3
    caught = refused(deal, Action(0, Do.DISCARD, cards=deal.hands[0]))
    assert (caught.rule, caught.reason) == ("SK6", "the stock holds only 3 cards")
