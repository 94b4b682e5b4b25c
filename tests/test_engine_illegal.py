"""Every kind of illegal action of Frap, in every phase, is refused naming its rule and changes
nothing: Frap's cases (checked with every game's by tests/test_illegal.py) and how words are
read."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from engine.actions import Action, Do
from engine.cards import Card
from engine.errors import IllegalAction
from engine.frap import FrapDeal, Phase
from engine.record import replay
from tests.engine_helpers import cards, new_deal, run


def bidding() -> FrapDeal:
    return new_deal(hands={0: "AS KS QS JS", 1: "AC KC QC JC"})


def bidding_after_look() -> FrapDeal:
    return run(bidding(), "0 look")[0]


def whist() -> FrapDeal:
    return run(bidding(), "0 frap")[0]


def dark_discard() -> FrapDeal:
    return run(bidding(), "0 dark_frap; 1 whist; 2 pass; 3 pass")[0]


def buying() -> FrapDeal:
    return run(bidding(), "0 frap; 1 whist; 2 pass; 3 pass")[0]


def buying_small_stock() -> FrapDeal:
    """12 players: three cards in the stock."""
    deal = new_deal(12, hands={0: "AS KS QS JS"})
    script = "0 frap; 1 whist; " + "; ".join(f"{seat} pass" for seat in range(2, 12))
    return run(deal, script)[0]


def cutting() -> FrapDeal:
    return run(buying(), "0 discard; 1 discard")[0]


def cutting_turnup_gone() -> FrapDeal:
    deal = cutting()
    return run(deal, f"2 cut turnup; 2 cut_discard {deal.turnup}")[0]


def cutting_stock_of_four() -> FrapDeal:
    """5 players; after buying 4 + 4 + 3 the stock holds 4: only a cut with the turn-up."""
    deal = run(new_deal(5), "0 frap; 1 whist; 2 whist; 3 pass; 4 pass")[0]
    for seat, k in ((0, 4), (1, 4), (2, 3)):
        deal = run(deal, f"{seat} discard {' '.join(map(str, deal.hands[seat][:k]))}")[0]
    assert len(deal.stock) == 4
    return deal


def cut_discard() -> FrapDeal:
    return run(cutting(), "2 cut stock")[0]


def play() -> FrapDeal:
    """Seat 0 led the ace of spades; seat 1 holds a spade; hearts are trump."""
    deal = new_deal(hands={0: "AS AC 7D 8D", 1: "KS TD JD 9H"}, turnup="7H")
    script = "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 no_cut; 3 no_cut"
    return run(deal, script + "; 0 play AS")[0]


def play_void() -> FrapDeal:
    """Seat 1 has no clubs but a trump."""
    return run(play(), "1 play KS; 0 play AC")[0]


def finished() -> FrapDeal:
    return run(bidding(), "0 frap; 1 pass; 2 pass; 3 pass")[0]


def _a(seat: int, do: Do, card: str | None = None, **kw: object) -> Action:
    return Action(seat, do, card=Card.parse(card) if card else None, **kw)  # type: ignore[arg-type]


CASES: list[tuple[Callable[[], FrapDeal], Action, str, str]] = [
    # bidding (F5, F7)
    (bidding, _a(2, Do.FRAP), "F5", "it is seat 0's turn"),
    (bidding, _a(0, Do.WHIST), "F5", "whist is illegal before a frap"),
    (bidding, _a(0, Do.DISCARD, cards=()), "F5", "cannot discard now"),
    (bidding, _a(0, Do.DARK_DISCARD, "AS"), "F5", "cannot dark_discard now"),
    (bidding, _a(0, Do.CUT, turnup=True), "F5", "cannot cut now"),
    (bidding, _a(0, Do.NO_CUT), "F5", "cannot no_cut now"),
    (bidding, _a(0, Do.CUT_DISCARD, "AS"), "F5", "cannot cut_discard now"),
    (bidding, _a(0, Do.PLAY, "AS"), "F5", "cannot play now"),
    (bidding_after_look, _a(0, Do.DARK_FRAP), "F7", "dark frap needs a hand not yet looked at"),
    (bidding_after_look, _a(0, Do.LOOK), "F7", "already open"),
    (bidding, _a(4, Do.PASS), "F2", "no seat 4"),
    (bidding, _a(-1, Do.LOOK), "F2", "no seat -1"),
    # the whist round (F5, F6)
    (whist, _a(2, Do.WHIST), "F6", "it is seat 1's turn"),
    (whist, _a(0, Do.WHIST), "F6", "it is seat 1's turn"),
    (whist, _a(1, Do.FRAP), "F5", "only one frap per deal"),
    (whist, _a(1, Do.DARK_FRAP), "F5", "only one frap per deal"),
    (whist, _a(1, Do.PLAY, "AC"), "F6", "cannot play now"),
    (whist, _a(1, Do.DISCARD, cards=()), "F6", "cannot discard now"),
    # the dark declarer's discard (F7)
    (dark_discard, _a(0, Do.DARK_DISCARD, "AD"), "F7", "AD is not in the hand"),
    (dark_discard, _a(0, Do.DARK_DISCARD), "F7", "say which card"),
    (dark_discard, _a(1, Do.DARK_DISCARD, "AC"), "F7", "it is seat 0's turn"),
    (dark_discard, _a(0, Do.DISCARD, cards=()), "F7", "cannot discard now"),
    # buying (F9)
    (buying, _a(0, Do.DISCARD, cards=cards("AD")), "F9", "AD is not in the hand"),
    (buying, _a(0, Do.DISCARD, cards=cards("AS AS")), "F9", "a card is named twice"),
    (buying, _a(0, Do.DISCARD), "F9", "say which cards"),
    (buying, _a(1, Do.DISCARD, cards=()), "F9", "it is seat 0's turn"),
    (buying, _a(2, Do.DISCARD, cards=()), "F9", "it is seat 0's turn"),
    (buying, _a(0, Do.WHIST), "F9", "cannot whist now"),
    (buying, _a(0, Do.FRAP), "F5", "only one frap"),
    (buying_small_stock, _a(0, Do.DISCARD, cards=cards("AS KS QS JS")), "F9", "holds only 3"),
    # cutting-in (F10)
    (cutting, _a(3, Do.CUT, turnup=False), "F10", "it is seat 2's turn"),
    (cutting, _a(0, Do.CUT, turnup=False), "F10", "it is seat 2's turn"),
    (cutting, _a(2, Do.CUT), "F10", "say whether the turn-up is taken"),
    (cutting, _a(2, Do.DISCARD, cards=()), "F10", "cannot discard now"),
    (cutting, _a(2, Do.PLAY, "7S"), "F10", "cannot play now"),
    (cutting_turnup_gone, _a(3, Do.CUT, turnup=True), "F10", "no longer on the table"),
    (cutting_stock_of_four, _a(3, Do.CUT, turnup=False), "F10", "holds only 4 cards"),
    (cut_discard, _a(2, Do.CUT_DISCARD, "AD"), "F10", "AD is not in the hand"),
    (cut_discard, _a(2, Do.CUT_DISCARD), "F10", "say which card"),
    (cut_discard, _a(3, Do.CUT_DISCARD, "7S"), "F10", "it is seat 2's turn"),
    (cut_discard, _a(2, Do.CUT, turnup=False), "F10", "cannot cut now"),
    # play (F12)
    (play, _a(1, Do.PLAY, "TD"), "F12", "must follow suit ♠"),
    (play_void, _a(1, Do.PLAY, "TD"), "F12", "must play a trump ♥"),
    (play, _a(1, Do.PLAY, "AH"), "F12", "AH is not in the hand"),
    (play, _a(1, Do.PLAY), "F12", "say which card"),
    (play, _a(0, Do.PLAY, "AC"), "F12", "it is seat 1's turn"),
    (play, _a(2, Do.PLAY, "7S"), "F12", "it is seat 1's turn"),
    (play, _a(1, Do.WHIST), "F12", "cannot whist now"),
    (play, _a(1, Do.DARK_FRAP), "F5", "only one frap"),
    # after the deal (F15)
    (finished, _a(0, Do.PLAY, "AS"), "F15", "the deal is over"),
    (finished, _a(1, Do.LOOK), "F15", "the deal is over"),
    (finished, _a(7, Do.PASS), "F15", "the deal is over"),
]


def test_each_setup_is_in_the_phase_it_is_named_for() -> None:
    # (every case refused as it says, every phase covered: tests/test_illegal.py)
    phases = {setup.__name__: setup().phase for setup, *_ in CASES}
    assert phases["whist"] is Phase.WHIST and phases["dark_discard"] is Phase.DARK_DISCARD
    assert phases["buying"] is Phase.BUYING and phases["cutting"] is Phase.CUTTING
    assert phases["cut_discard"] is Phase.CUT_DISCARD and phases["play"] is Phase.PLAY
    assert phases["finished"] is Phase.FINISHED and set(phases.values()) == set(Phase)


def test_a_plain_word_is_read_as_that_action_never_as_another() -> None:
    deal = bidding()
    passed, _ = deal.apply(Action(0, "pass"))  # type: ignore[arg-type]
    assert passed.declarer is None and passed.actions == (Action(0, Do.PASS),)
    assert type(passed.actions[0].do) is Do  # an Action is a tuple: "pass" == Do.PASS alone
    before = copy.deepcopy(deal)
    with pytest.raises(IllegalAction, match="F5: no such action 'bet'"):
        deal.apply(Action(0, "bet"))  # type: ignore[arg-type]
    assert deal == before


def test_discarded_cards_given_as_a_list_are_kept_as_a_tuple() -> None:
    deal = buying()
    bought, _ = deal.apply(Action(0, Do.DISCARD, cards=list(cards("AS KS"))))  # type: ignore[arg-type]
    assert bought.actions[-1] == Action(0, Do.DISCARD, cards=cards("AS KS"))
    assert replay(bought.to_record()) == bought
