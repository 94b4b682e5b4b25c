"""What a Preferans deal tells the table as it goes (events), seats' roles and the public view."""

from __future__ import annotations

import pytest

from engine.cards import make_deck
from engine.events import CardPlayed, TrickWon
from engine.preferans.deal import PrefDeal
from engine.preferans.events import (
    AuctionWon,
    Called,
    ContractNamed,
    DealOver,
    Discarded,
    HandsOpened,
    PlayChosen,
    RaspasyStarted,
    TalonTaken,
    TalonTurned,
)
from engine.preferans.outcome import PrefRules
from engine.preferans.views import seat_view, table_view
from tests.engine_helpers import cards
from tests.pref_deal_helpers import HANDS, act, fresh, new, run

SCRIPT = ["0: bid 6S", "1: pass", "2: pass", "0: discard 8S 8C", "0: contract 6S", "1: pass",
          "2: whist", "2: light"]  # fmt: skip


def events_of(deal: object, script: list[str]) -> list[object]:
    """Every event of applying the script to the deal, then the first legal action to the end."""
    seen: list[object] = []
    for step in script:
        seat, text = step.split(":", 1)
        deal, events = deal.apply(act(int(seat), text.strip()))  # type: ignore[attr-defined]
        seen += events
    while not deal.finished:  # type: ignore[attr-defined]
        deal, events = deal.apply(deal.legal_actions()[0])  # type: ignore[attr-defined]
        seen += events
    return seen


def test_P4_to_P8_a_light_game_reports_each_step() -> None:
    seen = events_of(fresh(), SCRIPT)
    assert seen[:11] == [
        Called(0, "6S"), Called(1, "pass"), Called(2, "pass"), AuctionWon(0, "6S"),
        TalonTaken(0, cards("8S 8C")), Discarded(0), ContractNamed(0, "6S"),
        Called(1, "pass"), Called(2, "whist"), PlayChosen(2, True), HandsOpened((1, 2)),
    ]  # fmt: skip
    assert sum(isinstance(e, CardPlayed) for e in seen) == 30
    assert [e.number for e in seen if isinstance(e, TrickWon)] == list(range(1, 11))
    assert isinstance(seen[-1], DealOver) and seen[-1].kind == "game"


def test_P10_raspasy_turns_the_talon_cards_one_per_trick() -> None:
    seen = events_of(fresh(), ["0: pass", "1: pass", "2: pass"])
    assert RaspasyStarted() in seen
    turned = [e.card for e in seen if isinstance(e, TalonTurned)]
    assert turned == list(cards("8S 8C"))
    first_trick = next(i for i, e in enumerate(seen) if isinstance(e, TrickWon))
    second = [i for i, e in enumerate(seen) if isinstance(e, TalonTurned)][1]
    assert second > first_trick  # the second card is turned for the second trick


def test_P5_the_talon_is_hidden_during_the_auction() -> None:
    deal = run(fresh(), ["0: bid 6S"])
    assert table_view(deal).talon is None
    assert seat_view(deal, 1).hand == cards(HANDS[1])
    assert all(seat.open_hand is None for seat in table_view(deal).seats)


def test_P1_roles_declarer_whister_passer_and_the_sitting_out_dealer() -> None:
    deal = run(new(HANDS, "8S 8C", players=4, dealer=3),
               [s for s in SCRIPT if not s.endswith("light")])  # fmt: skip
    assert [deal.role(seat) for seat in range(4)] == ["declarer", "passer", "whister", "out"]


def test_P9_both_misere_defenders_are_defenders() -> None:
    deal = run(fresh(), ["0: misere", "1: pass", "2: pass", "0: discard 8S 8C"])
    assert [deal.role(seat) for seat in range(3)] == ["declarer", "defender", "defender"]


def test_P2_the_deck_is_the_32_cards_7_to_ace() -> None:
    with pytest.raises(ValueError, match="P2"):
        PrefDeal.new(PrefRules(), ("a", "b", "c"), 0, make_deck(36)[:32])
