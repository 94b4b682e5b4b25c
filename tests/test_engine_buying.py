"""RULES F9–F11: buying, cutting-in, and who leads."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Action, Do
from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import CutDecided, Event, Exchanged, TurnupTaken
from engine.frap import FrapDeal, FrapRules, Phase
from tests.engine_helpers import cards, new_deal, run

# ---- F9 buying -----------------------------------------------------------------------------------


def test_F9_declarer_and_whisters_buy_in_order_the_dealer_last() -> None:
    deal = new_deal(
        hands={1: "7S 8S AS KS", 2: "7C 8C AC KC", 3: "AD KD QD JD"},
        stock="8D 9D TD JH QH KH",
    )  # dealer 3
    deal, _ = run(deal, "0 pass; 1 frap; 2 whist; 3 whist; 0 pass")
    assert deal.phase is Phase.BUYING and deal.queue == (1, 2, 3)
    deal, events = run(deal, "1 discard 7S 8S")
    assert deal.hands[1] == cards("AS KS 8D 9D") and events == [Exchanged(1, 2, 2)]
    assert deal.discards == cards("7S 8S")
    deal, _ = run(deal, "2 discard 8C; 3 discard")
    assert deal.hands[2] == cards("7C AC KC TD") and deal.hands[3] == cards("AD KD QD JD")
    assert deal.stock[:3] == cards("JH QH KH") and deal.phase is Phase.CUTTING


def test_F9_any_number_from_none_to_four() -> None:
    deal, _ = run(new_deal(), "0 frap; 1 whist; 2 pass; 3 pass")
    discards = [a.cards for a in deal.legal_actions(0) if a.do is Do.DISCARD]
    assert [len(c or ()) for c in discards] == [0] + [1] * 4 + [2] * 6 + [3] * 4 + [4]
    deal, _ = run(deal, f"0 discard {' '.join(map(str, deal.hands[0]))}")
    assert len(deal.hands[0]) == 4 and len(deal.discards) == 4


def test_F9_cannot_discard_more_than_the_stock_holds() -> None:
    # 12 players on 52 cards: 49 dealt and turned, 3 left in the stock (S0: the last buyer may
    # get fewer than he wants).
    deal = new_deal(12)
    assert len(deal.stock) == 3
    deal, _ = run(deal, "0 frap; 1 whist; 2 whist; " + "; ".join(f"{s} pass" for s in range(3, 12)))
    assert deal.queue == (0, 1, 2)
    assert max(len(a.cards or ()) for a in deal.legal_actions(0)) == 3
    too_many = Action(0, Do.DISCARD, cards=deal.hands[0])
    with pytest.raises(IllegalAction, match="F9: the stock holds only 3 cards"):
        deal.apply(too_many)
    deal, _ = run(deal, f"0 discard {deal.hands[0][0]} {deal.hands[0][1]}")
    assert max(len(a.cards or ()) for a in deal.legal_actions(1)) == 1
    deal, _ = run(deal, f"1 discard {deal.hands[1][0]}")
    assert deal.legal_actions(2) == [Action(2, Do.DISCARD, cards=())]
    deal, _ = run(deal, "2 discard")
    # F10: with no stock left no passer can cut in, so play starts at once.
    assert deal.phase is Phase.PLAY and deal.to_act == 0


def test_F9_each_card_once_and_from_the_hand() -> None:
    deal, _ = run(new_deal(hands={0: "AS KS QS JS"}), "0 frap; 1 whist; 2 pass; 3 pass")
    for bad in ("AS AS", "AD", ""):
        action = Action(0, Do.DISCARD, cards=cards(bad)) if bad else Action(0, Do.DISCARD)
        with pytest.raises(IllegalAction, match="F9"):
            deal.apply(action)


# ---- F10 cutting-in ------------------------------------------------------------------------------


def _bought(rules: FrapRules | None = None, **kwargs: Any) -> tuple[FrapDeal, list[Event]]:
    """Seat 0 fraps, seat 1 whists, seats 2 and 3 pass; both buy nothing."""
    deal = new_deal(rules=rules, **kwargs)
    return run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard")


def test_F10_passers_are_asked_in_order_after_buying() -> None:
    deal, _ = _bought()
    assert deal.phase is Phase.CUTTING and deal.queue == (2, 3)
    assert deal.legal_actions(2) == [
        Action(2, Do.NO_CUT),
        Action(2, Do.CUT, turnup=True),
        Action(2, Do.CUT, turnup=False),
    ]


def test_F10_cutter_drops_four_takes_five_and_discards_one() -> None:
    deal, _ = _bought(hands={2: "7S 8S 9S TS"}, stock="AS AC AD KS KC 9D")
    deal, events = run(deal, "2 cut stock")
    assert events == [CutDecided(2, cut=True, turnup=False), Exchanged(2, 4, 5)]
    assert deal.hands[2] == cards("AS AC AD KS KC") and deal.phase is Phase.CUT_DISCARD
    assert set(cards("7S 8S 9S TS")) <= set(deal.discards)
    deal, _ = run(deal, "2 cut_discard KC")
    assert deal.hands[2] == cards("AS AC AD KS") and deal.cutters == (2,)
    assert deal.queue == (3,) and deal.stock[0] == Card.parse("9D")


def test_F10_first_cutter_has_the_first_claim_on_the_turnup() -> None:
    deal, _ = _bought(turnup="AH", stock="AS AC AD KS KC QC QD")
    deal, events = run(deal, "2 cut turnup")
    assert TurnupTaken(2, Card.parse("AH")) in events
    assert deal.hands[2] == cards("AH AS AC AD KS") and deal.turnup is None
    deal, _ = run(deal, "2 cut_discard KS")
    assert Action(3, Do.CUT, turnup=True) not in deal.legal_actions(3)
    with pytest.raises(IllegalAction, match="F10: the turn-up is no longer on the table"):
        deal.apply(Action(3, Do.CUT, turnup=True))
    deal, _ = run(deal, "3 cut stock")
    assert deal.hands[3] == cards("KC QC QD") + deal.hands[3][3:]


def test_F10_first_cutter_may_leave_the_turnup_to_the_next() -> None:
    deal, _ = _bought(turnup="AH")
    deal, _ = run(deal, f"2 cut stock; 2 cut_discard {deal.stock[0]}; 3 cut turnup")
    assert Card.parse("AH") in deal.hands[3]


def test_F10_cut_needs_five_cards_or_four_with_the_turnup() -> None:
    # 5 players on 36 cards: 15 in the stock; buying 4 + 4 + 3 leaves 4.
    deal = new_deal(5)
    deal, _ = run(deal, "0 frap; 1 whist; 2 whist; 3 pass; 4 pass")
    for seat, k in ((0, 4), (1, 4), (2, 3)):
        deal, _ = run(deal, f"{seat} discard {' '.join(map(str, deal.hands[seat][:k]))}")
    assert len(deal.stock) == 4 and deal.queue == (3, 4)
    assert Action(3, Do.CUT, turnup=False) not in deal.legal_actions(3)
    with pytest.raises(IllegalAction, match="F10: the stock holds only 4 cards"):
        deal.apply(Action(3, Do.CUT, turnup=False))
    deal, _ = run(deal, f"3 cut turnup; 3 cut_discard {deal.turnup}")
    # F10: nothing left for seat 4, who is skipped; play starts.
    assert deal.phase is Phase.PLAY and 4 not in deal.participants


def test_F10_passer_is_skipped_when_the_stock_allows_no_cut() -> None:
    deal = new_deal()
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass")
    deal, _ = run(deal, f"0 discard {' '.join(map(str, deal.hands[0]))}")
    deal, _ = run(deal, f"1 discard {' '.join(map(str, deal.hands[1]))}")
    assert len(deal.stock) == 7
    deal, _ = run(deal, f"2 cut stock; 2 cut_discard {deal.stock[0]}")
    assert len(deal.stock) == 2 and deal.turnup is not None
    assert deal.phase is Phase.PLAY and deal.cutters == (2,)  # seat 3 was never asked
    assert deal.bids[3] is Do.PASS


def test_F10_option_cutting_in_off() -> None:
    deal, _ = _bought(rules=FrapRules(cutting_in=False))
    assert deal.phase is Phase.PLAY and deal.to_act == 0
    with pytest.raises(IllegalAction, match="F12"):
        deal.apply(Action(2, Do.CUT, turnup=True))


def test_F10_cut_must_say_whether_the_turnup_is_taken() -> None:
    deal, _ = _bought()
    with pytest.raises(IllegalAction, match="F10"):
        deal.apply(Action(2, Do.CUT))


# ---- F11 lead ------------------------------------------------------------------------------------


def test_F11_the_last_cutter_leads() -> None:
    deal, _ = _bought()
    deal, _ = run(deal, f"2 cut turnup; 2 cut_discard {deal.stock[0]}")
    deal, _ = run(deal, f"3 cut stock; 3 cut_discard {deal.stock[0]}")
    assert deal.phase is Phase.PLAY and deal.leader == 3 and deal.queue == (3, 0, 1, 2)


def test_F11_option_first_cutter_leads() -> None:
    deal, _ = _bought(rules=FrapRules(lead="first_cutter"))
    deal, _ = run(deal, f"2 cut turnup; 2 cut_discard {deal.stock[0]}")
    deal, _ = run(deal, f"3 cut stock; 3 cut_discard {deal.stock[0]}")
    assert deal.leader == 2 and deal.queue == (2, 3, 0, 1)


def test_F11_the_declarer_leads_when_nobody_cut_in() -> None:
    deal, _ = run(new_deal(dealer=0), "1 pass; 2 pass; 3 frap; 0 whist; 1 pass; 2 pass")
    deal, _ = run(deal, "3 discard; 0 discard; 1 no_cut; 2 no_cut")
    assert deal.leader == 3 and deal.queue == (3, 0)


def test_F11_the_winner_of_a_trick_leads_the_next() -> None:
    deal = new_deal(hands={0: "7S 8S 9S TS", 1: "AS KS QS JS"})
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 no_cut")
    deal, _ = run(deal, "3 no_cut; 0 play 7S; 1 play AS")
    assert deal.leader == 1 and deal.to_act == 1
