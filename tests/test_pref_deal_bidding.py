"""The Preferans deal and auction: RULES P1, P3, P4 and P18's bidding fine points."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.preferans.bidding import LADDER
from engine.preferans.deal import Phase
from tests.engine_helpers import cards
from tests.pref_deal_helpers import HANDS, TALON, act, fresh, new, run, words


def test_P3_packets_of_two_from_the_first_hand_then_the_talon() -> None:
    deal = fresh()
    assert deal.first_hand == 0 and deal.order == (0, 1, 2)
    assert [set(deal.hands[seat]) for seat in range(3)] == [set(cards(h)) for h in HANDS]
    assert deal.talon == cards(TALON)
    assert deal.deck[6:8] == deal.talon  # one round of packets (6 cards), then the talon


def test_P1_at_four_the_dealer_sits_out_and_the_first_hand_is_his_left() -> None:
    deal = new(HANDS, TALON, players=4, dealer=1)
    assert deal.order == (2, 3, 0) and deal.sitting_out == 1
    assert deal.hands[1] == () and deal.turn == 2
    assert sorted(len(deal.hands[seat]) for seat in (0, 2, 3)) == [10, 10, 10]


def test_P4_the_ladder_has_26_steps_with_misere_between_8NT_and_9S() -> None:
    assert len(LADDER) == 26
    assert LADDER[14:17] == ("8NT", "misere", "9S")
    assert LADDER[:5] == ("6S", "6C", "6D", "6H", "6NT")


def test_P4_first_hand_speaks_first_with_every_bid_misere_and_pass() -> None:
    deal = fresh()
    assert deal.turn == 0
    assert words(deal) == ["pass", "misere", *(f"bid {b}" for b in LADDER if b != "misere")]


def test_P4_a_call_must_be_higher_and_a_pass_is_final() -> None:
    deal = run(fresh(), ["0: bid 7S", "1: pass"])
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(2, "bid 6NT"))
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(2, "bid 7S"))
    deal = run(deal, ["2: bid 7C"])
    assert deal.turn == 0  # seat 1 passed and is skipped


def test_P4_three_passes_start_raspasy_at_once() -> None:
    deal = run(fresh(), ["0: pass", "1: pass", "2: pass"])
    assert deal.raspasy and deal.phase is Phase.PLAY and deal.turn == 0
    assert deal.declarer is None


def test_P4_after_two_passes_the_third_may_bid_and_wins_at_once() -> None:
    deal = run(fresh(), ["0: pass", "1: pass", "2: bid 6S"])
    assert (deal.declarer, deal.bid, deal.phase) == (2, "6S", Phase.DISCARD)


def test_P18_the_auction_ends_the_moment_two_have_passed_and_the_third_holds_a_bid() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: pass", "2: pass"])
    assert (deal.declarer, deal.bid, deal.turn) == (0, "6S", 0)
    assert deal.phase is Phase.DISCARD


def test_P4_misere_only_as_a_first_call() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: pass"])
    assert "misere" not in words(deal)
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(0, "misere"))


def test_P18_misere_only_while_the_top_bid_is_8NT_or_lower() -> None:
    assert "misere" in words(run(fresh(), ["0: bid 8NT"]))
    deal = run(fresh(), ["0: bid 9S"])
    assert "misere" not in words(deal)
    with pytest.raises(IllegalAction, match="P18"):
        deal.apply(act(1, "misere"))


def test_P4_after_misere_the_only_call_is_pass_and_it_is_recorded() -> None:
    deal = run(fresh(), ["0: misere", "1: bid 9S", "2: pass"])
    assert words(deal) == ["pass"]
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(0, "bid 10S"))
    deal = run(deal, ["0: pass"])
    assert (deal.declarer, deal.bid) == (1, "9S")
    assert [a.do.value for a in deal.actions] == ["misere", "bid", "pass", "pass"]


def test_P4_misere_is_overcalled_by_9S_and_up_only() -> None:
    deal = run(fresh(), ["0: misere"])
    assert words(deal)[:3] == ["pass", "bid 9S", "bid 9C"]
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(1, "bid 8NT"))


def test_P18_a_forced_pass_when_nothing_higher_exists() -> None:
    deal = run(fresh(), ["0: bid 10NT"])
    assert words(deal) == ["pass"]


def test_P4_here_earlier_hand_takes_the_other_bid_at_its_level() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: pass"])
    assert "here" in words(deal)  # seat 0 is the earlier hand of the last two
    deal = run(deal, ["0: here"])
    assert (deal.auction.top_bid, deal.auction.holder) == ("6C", 0)
    assert "here" not in words(deal)  # the later hand must raise or pass
    deal = run(deal, ["1: pass"])
    assert (deal.declarer, deal.bid) == (0, "6C")  # P18: the level to match is the one taken


def test_P18_using_here_keeps_the_right() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: pass", "0: here", "1: bid 6D"])
    assert "here" in words(deal)


def test_P4_here_not_used_at_the_first_chance_passes_to_the_other() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: pass", "0: bid 6D"])
    assert "here" in words(deal)  # seat 1 now holds the right
    deal = run(deal, ["1: here", "0: bid 6H"])
    assert "here" in words(deal)
    assert (deal.auction.holder, deal.auction.top_bid) == (0, "6H")


def test_P18_here_belongs_to_the_earlier_hand_of_the_last_two_only() -> None:
    deal = run(fresh(), ["0: pass", "1: bid 6S", "2: bid 6C"])
    assert "here" in words(deal)  # seat 1 is earlier than seat 2
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: bid 6D"])
    assert "here" not in words(deal)  # three bidders: no here
    deal = run(fresh(), ["0: bid 6S", "1: pass"])
    assert "here" not in words(deal)  # seat 2 is the later hand
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(2, "here"))


def test_P4_no_here_on_misere() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: misere", "2: pass"])
    assert "here" not in words(deal)


def test_P4_option_here_off() -> None:
    deal = run(fresh(here="off"), ["0: bid 6S", "1: bid 6C", "2: pass"])
    assert "here" not in words(deal)
    with pytest.raises(IllegalAction, match="P4"):
        deal.apply(act(0, "here"))


def test_P10_raspasy_exit_7_refuses_the_sixes_after_raspasy_but_not_misere() -> None:
    deal = fresh(raspasy_exit=7, streak=1)
    assert "bid 6NT" not in words(deal) and "bid 7S" in words(deal)
    assert "misere" in words(deal)
    with pytest.raises(IllegalAction, match="P10"):
        deal.apply(act(0, "bid 6S"))
    assert "bid 6S" in words(fresh(raspasy_exit=7, streak=0))


def test_P4_only_the_seat_to_speak_may_call() -> None:
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        fresh().apply(act(1, "pass"))
