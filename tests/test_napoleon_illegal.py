"""Illegal actions in every phase of Napoleon are refused naming their rule (N2–N4), and change
nothing: Napoleon's cases, checked with every game's by tests/test_illegal.py."""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action, Do
from engine.cards import Card
from engine.napoleon import NapoleonDeal, NapoleonDo
from tests.engine_helpers import cards
from tests.family_helpers import napoleon_deal, run

HANDS = {1: "AS KS 6D 7D 8D", 2: "6S 9D TD JD QD", 3: "7S 8S 6H 7H 8H", 0: "6C 7C 8C 9C TC"}


def bidding() -> NapoleonDeal:
    return napoleon_deal(hands=HANDS)


def after_bid_3() -> NapoleonDeal:
    return run(bidding(), "0 pass; 1 bid 3")[0]


def after_napoleon() -> NapoleonDeal:
    return run(bidding(), "0 bid 2; 1 napoleon")[0]


def dealers_turn() -> NapoleonDeal:
    return run(bidding(), "0 bid 1; 1 bid 2; 2 pass; 3 pass")[0]


def exchange() -> NapoleonDeal:
    return run(after_bid_3(), "2 pass; 3 pass")[0]


def play_led() -> NapoleonDeal:
    """Seat 1 led the ace of spades (trump); seat 2 holds one spade."""
    return run(exchange(), "1 discard; 1 play AS")[0]


def play_diamond_led() -> NapoleonDeal:
    """Trump spades; seat 1 leads a diamond after the first trick."""
    deal = run(play_led(), "2 play 6S; 3 play 7S; 0 play 6C")[0]
    return run(deal, "1 play 6D")[0]


def play_void_in_diamonds() -> NapoleonDeal:
    """Seat 3, void in diamonds, still holds the 8♠ (trump)."""
    return run(play_diamond_led(), "2 play 9D")[0]


def finished() -> NapoleonDeal:
    return run(bidding(), "0 pass; 1 pass; 2 pass; 3 pass")[0]


def _a(seat: int, do: Do, card: str | None = None, **kw: object) -> Action:
    return Action(seat, do, card=Card.parse(card) if card else None, **kw)  # type: ignore[arg-type]


CASES: list[tuple[Callable[[], NapoleonDeal], Action, str, str]] = [
    # bidding (N2)
    (bidding, _a(0, NapoleonDo.HERE), "N2", "here takes over a bid; none is made"),
    (bidding, _a(0, NapoleonDo.BID), "N2", "say how many tricks"),
    (bidding, _a(0, NapoleonDo.BID, tricks=0), "N2", "a bid is 1–5 tricks"),
    (bidding, _a(0, NapoleonDo.BID, tricks=6), "N2", "a bid is 1–5 tricks (above that, napoleon)"),
    (bidding, _a(1, NapoleonDo.BID, tricks=1), "N2", "it is seat 0's turn"),
    (bidding, _a(0, Do.FRAP), "N2", "cannot frap now"),
    (bidding, _a(0, Do.WHIST), "N2", "cannot whist now"),
    (bidding, _a(0, Do.LOOK), "N2", "cannot look now"),
    (bidding, _a(0, Do.PLAY, "6C"), "N2", "cannot play now"),
    (bidding, _a(0, Do.DISCARD, cards=()), "N2", "cannot discard now"),
    (bidding, _a(0, Do.PASS, tricks=1), "N2", "pass takes no tricks"),
    (bidding, _a(0, NapoleonDo.NAPOLEON, "6C"), "N2", "napoleon takes no card"),
    (bidding, _a(0, NapoleonDo.BID, tricks=2, cards=()), "N2", "bid takes no cards"),
    (bidding, _a(4, Do.PASS), "F2", "no seat 4"),
    (after_bid_3, _a(2, NapoleonDo.BID, tricks=3), "N2", "bid higher than 3"),
    (after_bid_3, _a(2, NapoleonDo.BID, tricks=1), "N2", "bid higher than 3"),
    (after_bid_3, _a(2, NapoleonDo.HERE), "N2", "only the dealer may say here"),
    (after_napoleon, _a(2, NapoleonDo.NAPOLEON), "N2", "nobody can go above napoleon"),
    (after_napoleon, _a(2, NapoleonDo.BID, tricks=5), "N2", "nobody can go above napoleon"),
    (dealers_turn, _a(0, NapoleonDo.BID, tricks=2), "N2", "bid higher than 2"),
    # the exchange (N3)
    (exchange, _a(1, Do.DISCARD, cards=cards("AS KS")), "N3", "exchange one card, or keep"),
    (exchange, _a(1, Do.DISCARD, cards=cards("AH")), "N3", "AH is not in the hand"),
    (exchange, _a(1, Do.DISCARD), "N3", "say which cards"),
    (exchange, _a(2, Do.DISCARD, cards=()), "N3", "it is seat 1's turn"),
    (exchange, _a(1, Do.PLAY, "AS"), "N3", "cannot play now"),
    (exchange, _a(1, Do.PASS), "N3", "cannot pass now"),
    # play (N4)
    (play_led, _a(2, Do.PLAY, "9D"), "N4", "must follow suit ♠"),
    (play_led, _a(2, Do.PLAY, "AH"), "N4", "AH is not in the hand"),
    (play_led, _a(2, Do.PLAY), "N4", "say which card"),
    (play_led, _a(3, Do.PLAY, "6H"), "N4", "it is seat 2's turn"),
    (play_led, _a(2, Do.PLAY, "6S", joker=False), "N4", "play takes no joker"),
    (play_diamond_led, _a(0, Do.PLAY, "7C"), "N4", "it is seat 2's turn"),
    (play_diamond_led, _a(2, Do.PLAY, "KS"), "N4", "KS is not in the hand"),
    (play_void_in_diamonds, _a(3, Do.PLAY, "6H"), "N4", "must play a trump ♠"),
    (play_void_in_diamonds, _a(3, Do.PLAY, "7S"), "N4", "7S is not in the hand"),
    # after the deal (N2: everyone passed)
    (finished, _a(1, NapoleonDo.BID, tricks=1), "N2", "the deal is over"),
    (finished, _a(0, Do.PLAY, "6C"), "N2", "the deal is over"),
]
