"""Illegal actions in every phase of Khrap are refused naming their rule (K*, or the F* point
Khrap keeps from Frap), and change nothing: Khrap's cases, checked with every game's by
tests/test_illegal.py."""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action, Do
from engine.cards import Card, Suit
from engine.frap import FrapRules, KhrapDeal, KhrapDo
from engine.student import StudentDo
from tests.engine_helpers import cards
from tests.family_helpers import khrap_deal, run


def bidding() -> KhrapDeal:
    return khrap_deal(hands={0: "AS KS QS JS TS", 1: "AC KC QC JC TC"})


def bidding_after_look() -> KhrapDeal:
    return run(bidding(), "0 look")[0]


def whist() -> KhrapDeal:
    return run(bidding(), "0 khrap")[0]


def whist_must() -> KhrapDeal:
    return run(khrap_deal(rules=FrapRules(must_whist=True)), "0 khrap")[0]


def dark_discard() -> KhrapDeal:
    return run(bidding(), "0 dark_khrap; 1 whist; 2 pass; 3 pass")[0]


def buying() -> KhrapDeal:
    return run(bidding(), "0 khrap; 1 whist; 2 pass; 3 pass")[0]


def buying_small_stock() -> KhrapDeal:
    """10 players, 52 cards: one card in the stock."""
    deal = khrap_deal(10, hands={0: "AS KS QS JS TS"}, turnup="2H")
    script = "0 khrap; 1 whist; " + "; ".join(f"{seat} pass" for seat in range(2, 10))
    return run(deal, script)[0]


def cutting() -> KhrapDeal:
    return run(buying(), "0 discard; 1 discard")[0]


def cutting_turnup_gone() -> KhrapDeal:
    deal = run(cutting(), "2 cut turnup")[0]
    return run(deal, f"2 cut_discard {deal.hands[2][0]}")[0]


def cutting_stock_of_five() -> KhrapDeal:
    """After buying 5 + 1 the stock holds 5: only a cut with the turn-up."""
    deal = buying()
    deal = run(deal, "0 discard " + " ".join(map(str, deal.hands[0])))[0]
    return run(deal, f"1 discard {deal.hands[1][0]}")[0]


def cut_discard() -> KhrapDeal:
    return run(cutting(), "2 cut stock")[0]


def play() -> KhrapDeal:
    """Seat 0 led the ace of spades; seat 1 holds a spade; hearts are trump."""
    deal = khrap_deal(hands={0: "AS AC 7D 8D 9D", 1: "KS TD JD 9H QD"}, turnup="7H")
    script = "0 khrap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 no_cut; 3 no_cut"
    return run(deal, script + "; 0 play AS")[0]


def finished() -> KhrapDeal:
    return run(bidding(), "0 khrap; 1 pass; 2 pass; 3 pass")[0]


def _a(seat: int, do: Do, card: str | None = None, **kw: object) -> Action:
    return Action(seat, do, card=Card.parse(card) if card else None, **kw)  # type: ignore[arg-type]


CASES: list[tuple[Callable[[], KhrapDeal], Action, str, str]] = [
    # bidding (K2, F5, F7)
    (bidding, _a(0, Do.FRAP), "K2", "in Khrap the call is khrap"),
    (bidding, _a(0, Do.DARK_FRAP), "K2", "in Khrap the call is khrap"),
    (bidding, _a(2, KhrapDo.KHRAP), "F5", "it is seat 0's turn"),
    (bidding, _a(0, Do.WHIST), "F5", "whist is illegal before a khrap"),
    (bidding, _a(0, StudentDo.POMOGU), "F5", "no such action 'pomogu'"),  # another game's word
    (bidding, _a(0, StudentDo.VESELYU), "F5", "no such action 'veselyu'"),
    (bidding, _a(0, Do.DISCARD, cards=()), "F5", "cannot discard now"),
    (bidding, _a(0, Do.PLAY, "AS"), "F5", "cannot play now"),
    (bidding, _a(0, KhrapDo.KHRAP, "AS"), "F5", "khrap takes no card"),
    (bidding, _a(0, Do.PASS, cards=()), "F5", "pass takes no cards"),
    (bidding, _a(10, Do.PASS), "F2", "no seat 10"),
    (bidding_after_look, _a(0, KhrapDo.DARK_KHRAP), "F7", "dark khrap needs a hand not yet looked"),
    # the whist round (F5, F6, K6)
    (whist, _a(1, KhrapDo.KHRAP), "F5", "only one khrap per deal"),
    (whist, _a(1, KhrapDo.DARK_KHRAP), "F5", "only one khrap per deal"),
    (whist, _a(2, Do.WHIST), "F6", "it is seat 1's turn"),
    (whist, _a(1, Do.WHIST, turnup=True), "F6", "whist takes no turnup"),
    (whist_must, _a(1, Do.PASS), "K6", "after a khrap every other player must whist"),
    # the dark declarer's discard (F7)
    (dark_discard, _a(0, Do.DARK_DISCARD, "AD"), "F7", "AD is not in the hand"),
    (dark_discard, _a(0, Do.DARK_DISCARD), "F7", "say which card"),
    (dark_discard, _a(0, StudentDo.CALL_DISCARD, "AS"), "F7", "no such action 'call_discard'"),
    # buying (F9 with K1's five cards)
    (buying, _a(0, Do.DISCARD, cards=cards("AD")), "F9", "AD is not in the hand"),
    (buying, _a(0, Do.DISCARD, cards=cards("AS AS")), "F9", "a card is named twice"),
    (buying, _a(0, Do.DISCARD), "F9", "say which cards"),
    (buying, _a(1, Do.DISCARD, cards=()), "F9", "it is seat 0's turn"),
    (buying_small_stock, _a(0, Do.DISCARD, cards=cards("AS KS")), "F9", "holds only 1"),
    # cutting-in (F10 with K1: six cards, or the turn-up and five)
    (cutting, _a(2, Do.CUT), "F10", "say whether the turn-up is taken"),
    (cutting, _a(3, Do.CUT, turnup=False), "F10", "it is seat 2's turn"),
    (cutting, _a(2, Do.CUT, "AS", turnup=False), "F10", "cut takes no card"),
    (cutting_turnup_gone, _a(3, Do.CUT, turnup=True), "F10", "no longer on the table"),
    (cutting_stock_of_five, _a(2, Do.CUT, turnup=False), "F10", "holds only 5 cards"),
    (cut_discard, _a(2, Do.CUT_DISCARD, "AS"), "F10", "AS is not in the hand"),
    (cut_discard, _a(2, Do.CUT, turnup=False), "F10", "cannot cut now"),
    # play (F12)
    (play, _a(1, Do.PLAY, "TD"), "F12", "must follow suit ♠"),
    (play, _a(1, Do.PLAY, "AH"), "F12", "AH is not in the hand"),
    (play, _a(1, Do.PLAY), "F12", "say which card"),
    (play, _a(0, Do.PLAY, "AC"), "F12", "it is seat 1's turn"),
    (play, _a(1, Do.PLAY, "KS", joker=True), "F12", "play takes no joker"),
    (play, _a(1, Do.PLAY, "KS", suit=Suit.SPADES), "F12", "play takes no suit"),
    # after the deal (F15)
    (finished, _a(0, Do.PLAY, "AS"), "F15", "the deal is over"),
    (finished, _a(1, Do.PASS), "F15", "the deal is over"),
]
