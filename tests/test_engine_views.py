"""What each player may see (F7: an unopened hand stays hidden, even from its owner)."""

from __future__ import annotations

import dataclasses
import random

from engine.actions import Action, Do
from engine.frap import FrapDeal, Phase, SeatInfo, TableView, seat_view, table_view
from tests.engine_helpers import cards, new_deal, random_action, random_deal, random_rules, run


def test_F7_unopened_hand_is_hidden_until_looked() -> None:
    deal = new_deal(hands={0: "AS KS QS JS"})
    view = seat_view(deal, 0)
    assert view.hand is None
    assert [a.do for a in view.legal] == [Do.LOOK, Do.FRAP, Do.DARK_FRAP, Do.PASS]
    deal, _ = run(deal, "0 look")
    view = seat_view(deal, 0)
    assert view.hand == cards("AS KS QS JS")
    assert [a.do for a in view.legal] == [Do.FRAP, Do.PASS]
    assert seat_view(deal, 1).hand is None  # another seat's hand stays closed
    assert seat_view(deal, 1).legal == (Action(1, Do.LOOK),)


def test_F7_bidding_opens_the_hand_in_the_view() -> None:
    deal, _ = run(new_deal(), "0 pass")
    assert seat_view(deal, 0).hand == deal.hands[0]


def test_F7_dark_declarer_sees_no_card_until_he_looks() -> None:
    deal = new_deal(hands={0: "AS KS QS JS"}, turnup="9H")
    deal, _ = run(deal, "0 dark_frap; 1 whist; 2 pass; 3 pass")
    view = seat_view(deal, 0)
    assert view.hand is None and view.legal == (Action(0, Do.LOOK),)
    assert "Card(" not in repr(view)  # neither the hand nor the turn-up he took shows
    deal, _ = run(deal, "0 look")
    view = seat_view(deal, 0)
    assert view.hand == cards("AS KS QS JS 9H")
    assert [a.card for a in view.legal] == list(cards("AS KS QS JS 9H"))


def test_seat_view_offers_what_the_engine_accepts_once_open() -> None:
    deal, _ = run(new_deal(), "0 frap; 1 whist; 2 pass; 3 pass")
    assert seat_view(deal, 0).legal == tuple(deal.legal_actions(0))
    assert seat_view(deal, 1).legal == ()


def test_table_view_has_no_hands_and_shows_roles() -> None:
    assert not {f.name for f in dataclasses.fields(TableView)} & {"hand", "hands", "deck"}
    assert not {f.name for f in dataclasses.fields(SeatInfo)} & {"hand", "hands"}
    deal, _ = run(new_deal(turnup="8H"), "0 pass; 1 frap; 2 whist; 3 pass")
    view = table_view(deal)
    assert view.phase is Phase.WHIST and view.to_act == 0 and view.declarer == 1
    assert [s.role for s in view.seats] == [None, "declarer", "whister", "out"]
    deal, _ = run(deal, "0 pass; 1 discard; 2 discard")
    deal, _ = run(deal, f"0 cut turnup; 0 cut_discard {deal.stock[0]}")
    view = table_view(deal)
    assert [s.role for s in view.seats] == ["cutter", "declarer", "whister", "out"]
    assert view.turnup is None and [s.cards for s in view.seats] == [4, 4, 4, 4]
    assert view.stock == 32 - 17 - 4 and view.pot == 40 and view.to_act == 3
    deal, _ = run(deal, "3 no_cut")
    view = table_view(deal)
    assert view.phase is Phase.PLAY and view.to_act == 0  # F11: the cutter leads
    assert [s.role for s in view.seats] == ["cutter", "declarer", "whister", "out"]


def _hidden_cards_never_shown(deal: FrapDeal) -> None:
    shown = repr(table_view(deal))
    for hand in deal.hands:
        for card in hand:
            assert repr(card) not in shown
    for seat in range(deal.n):
        view = seat_view(deal, seat)
        assert (view.hand is None) == (not deal.looked[seat])
        others = repr(view.table)
        assert all(repr(card) not in others for card in deal.hands[seat])
        if view.hand is None:
            assert all(a.card is None and not a.cards for a in view.legal)


def test_views_never_leak_a_hand_in_random_deals() -> None:
    rng = random.Random(20)
    for _ in range(150):
        n = rng.randint(2, 12)
        deal, _ = random_deal(rng, n, random_rules(rng, n))
        while not deal.finished:
            _hidden_cards_never_shown(deal)
            deal, _ = deal.apply(random_action(deal, rng))
        assert table_view(deal).finished and seat_view(deal, 0).legal == ()
