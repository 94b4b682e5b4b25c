"""Talon, contract, whisting and light or dark: RULES P5, P6, P7, P13 and P18's fine points."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.preferans.deal import Phase
from engine.preferans.events import TalonTaken
from engine.preferans.views import seat_view, table_view
from tests.engine_helpers import cards
from tests.pref_deal_helpers import HANDS, TALON, act, fresh, new, run, words

WON_6S = ["0: bid 6S", "1: pass", "2: pass"]


def named(contract: str) -> list[str]:
    """The script up to the contract `contract`, bid at its own level by seat 0."""
    return [
        f"0: bid {contract}",
        "1: pass",
        "2: pass",
        "0: discard 8S 8C",
        f"0: contract {contract}",
    ]


def test_P5_the_talon_is_shown_to_all_and_taken_by_a_trick_bid_winner() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: pass"])
    deal, events = deal.apply(act(2, "pass"))
    assert TalonTaken(0, cards(TALON)) in events
    assert len(deal.hands[0]) == 12 and deal.phase is Phase.DISCARD
    assert table_view(deal).talon == cards(TALON)
    assert seat_view(deal, 1).hand == cards(HANDS[1])  # the others' hands stay their own


def test_P5_a_misere_winner_takes_the_talon_unshown_and_plays_misere() -> None:
    deal = run(fresh(), ["0: misere", "1: pass"])
    deal, events = deal.apply(act(2, "pass"))
    assert TalonTaken(0, None) in events and table_view(deal).talon is None
    deal = run(deal, ["0: discard 8S 8C"])
    assert (deal.contract, deal.phase, deal.turn, deal.trump) == ("misere", Phase.PLAY, 0, None)


@pytest.mark.parametrize("discard", ["8S", "8S 8C 7S", "8S 8S", "8S AS"])
def test_P5_the_declarer_discards_exactly_two_of_his_cards(discard: str) -> None:
    deal = run(fresh(), WON_6S)
    with pytest.raises(IllegalAction, match="P5"):
        deal.apply(act(0, f"discard {discard}"))


def test_P5_the_discard_is_seen_by_the_declarer_only() -> None:
    deal = run(fresh(), [*WON_6S, "0: discard 8S 8C"])
    assert seat_view(deal, 0).discards == cards("8S 8C")
    assert seat_view(deal, 1).discards == ()


def test_P5_the_contract_is_at_least_the_bid_and_never_misere() -> None:
    deal = run(fresh(), ["0: bid 7D", "1: pass", "2: pass", "0: discard 8S 8C"])
    assert words(deal)[:2] == ["contract 7D", "contract 7H"] and "contract misere" not in words(
        deal
    )
    for contract in ("7C", "misere", "11S"):
        with pytest.raises(IllegalAction, match="P5"):
            deal.apply(act(0, f"contract {contract}"))
    deal = run(deal, ["0: contract 9NT"])
    assert (deal.contract, deal.trump) == ("9NT", None)


def test_P6_the_defender_at_the_declarers_left_speaks_first() -> None:
    deal = run(fresh(), named("6S"))
    assert (deal.phase, deal.turn, deal.defenders) == (Phase.WHISTING, 1, (1, 2))


def test_P18_the_first_defender_skips_the_sitting_out_dealer() -> None:
    deal = new(HANDS, TALON, players=4, dealer=1)  # order 2, 3, 0
    deal = run(deal, ["2: pass", "3: pass", "0: bid 6S", "0: discard 8S 8C", "0: contract 6S"])
    assert deal.defenders == (2, 3) and deal.turn == 2


def test_P6_both_defenders_pass_no_play_and_the_contract_is_made() -> None:
    deal = run(fresh(), [*named("7H"), "1: pass", "2: pass"])
    assert deal.finished and not deal.tricks_played
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.made, deal.outcome.tricks) == (
        "uncontested",
        True,
        None,
    )
    assert deal.outcome.defence == (None, "pass", "pass")


@pytest.mark.parametrize("contract", ["6S", "7NT"])
def test_P6_half_whist_on_6_and_7_by_the_second_defender_after_a_pass(contract: str) -> None:
    deal = run(fresh(), [*named(contract)])
    assert "half_whist" not in words(deal)  # not for the first defender
    assert "half_whist" in words(run(deal, ["1: pass"]))
    assert "half_whist" not in words(run(deal, ["1: whist"]))


def test_P6_no_half_whist_on_8() -> None:
    deal = run(fresh(), [*named("8S"), "1: pass"])
    assert words(deal) == ["whist", "pass"]
    with pytest.raises(IllegalAction, match="P6"):
        deal.apply(act(2, "half_whist"))


def test_P6_half_whist_unanswered_no_play_and_the_contract_is_made() -> None:
    deal = run(fresh(), [*named("7H"), "1: pass", "2: half_whist"])
    assert (deal.phase, deal.turn, words(deal)) == (Phase.WHISTING, 1, ["whist", "pass"])
    deal = run(deal, ["1: pass"])
    assert deal.finished and deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.defence) == ("half_whist", (None, "pass", "half_whist"))
    assert deal.entries is not None and deal.entries.whists[2][0] == 4  # V·O/2 = 4·2/2 on him
    assert deal.entries.pulya[0] == 4


def test_P6_the_returned_whist_makes_the_first_a_lone_whister() -> None:
    deal = run(fresh(), [*named("6S"), "1: pass", "2: half_whist", "1: whist"])
    assert (deal.phase, deal.turn, deal.whister) == (Phase.LIGHT_OR_DARK, 1, 1)
    assert deal.defence == (None, "whist", "pass")  # the half-whister counts as a passer


def test_P6_stalingrad_6S_is_whisted_by_both_closed_without_calls() -> None:
    deal = run(fresh(stalingrad=True), named("6S"))
    assert (deal.phase, deal.turn, deal.defence, deal.opened) == (
        Phase.PLAY, 0, (None, "whist", "whist"), ()
    )  # fmt: skip
    assert run(fresh(stalingrad=True), named("6C")).phase is Phase.WHISTING


def test_P13_the_ten_is_checked_not_whisted() -> None:
    deal = run(fresh(), named("10H"))
    assert (deal.phase, deal.opened, deal.defence) == (Phase.PLAY, (), (None, None, None))
    assert run(fresh(ten="whisted"), named("10H")).phase is Phase.WHISTING


def test_P7_two_whisters_play_closed_without_light_or_dark() -> None:
    deal = run(fresh(), [*named("6S"), "1: whist", "2: whist"])
    assert (deal.phase, deal.light, deal.opened) == (Phase.PLAY, None, ())


def test_P7_a_lone_whister_chooses_light_or_dark_before_the_first_lead() -> None:
    deal = run(fresh(), [*named("6S"), "1: pass", "2: whist"])
    assert (deal.phase, deal.turn, words(deal)) == (Phase.LIGHT_OR_DARK, 2, ["light", "dark"])


def test_P7_light_both_defenders_open_and_the_whister_plays_the_passers_cards() -> None:
    deal = run(fresh(), [*named("6S"), "1: pass", "2: whist", "2: light"])
    assert deal.opened == (1, 2)
    view = table_view(deal)
    assert view.seats[1].open_hand == cards(HANDS[1]) and view.seats[0].open_hand is None
    deal = run(deal, ["0: play AH"])
    assert (deal.turn, deal.controller) == (1, 2)  # seat 1's cards, seat 2 decides
    assert seat_view(deal, 1).legal == ()
    assert {a.seat for a in seat_view(deal, 2).legal} == {1}
    deal = run(deal, ["1: play 9S"])  # recorded under the passer's seat
    assert deal.controller == 2 and deal.actions[-1].seat == 1


def test_P7_dark_the_passer_plays_his_own_hand_closed() -> None:
    deal = run(fresh(), [*named("6S"), "1: pass", "2: whist", "2: dark", "0: play AH"])
    assert deal.opened == () and (deal.turn, deal.controller) == (1, 1)
    assert all(seat.open_hand is None for seat in table_view(deal).seats)
