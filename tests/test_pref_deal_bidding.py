"""The Preferans deal and auction: RULES P1, P3, P4 and P18's bidding fine points."""

from __future__ import annotations

import random

import pytest

from engine.cards import make_deck, shuffled
from engine.errors import IllegalAction, ReplayError
from engine.preferans.actions import PrefDo
from engine.preferans.bidding import LADDER
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.outcome import PrefRules
from engine.preferans.record import replay
from engine.record import read
from tests.engine_helpers import RECORDS, cards
from tests.pref_deal_helpers import HANDS, NAMES, TALON, act, fresh, new, run, words


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


def test_P4_the_junior_keeps_the_right_he_was_passed_at_every_later_turn() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: pass", "0: bid 6D", "1: bid 6H"])
    assert "here" not in words(deal)  # seat 0 let his first chance go: never again
    deal = run(deal, ["0: bid 6NT"])
    assert "here" in words(deal)  # seat 1 raised once and still holds the right


def test_P18_the_senior_who_used_here_keeps_it_after_raising_later() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: bid 6C", "2: pass", "0: here", "1: bid 6D", "0: bid 6H"])
    assert "here" not in words(deal)  # seat 1 never had the right
    deal = run(deal, ["1: bid 6NT"])
    assert "here" in words(deal)


@pytest.mark.parametrize(
    ("record", "at"),
    [("pref_illegal_p4_here_let_go", 6), ("pref_illegal_p4_here_never_his", 7)],
)
def test_P4_here_where_the_right_is_not_the_seats_is_refused(record: str, at: int) -> None:
    # Two deals the engine once played: the senior raised at his first chance and was offered
    # "here" later (three players); the junior was offered it after the senior had used it (four).
    data = read(RECORDS / f"{record}.json")
    assert data["actions"][at]["do"] == "here" and len(data["actions"]) == at + 1
    with pytest.raises(ReplayError, match=rf"action {at}: here by seat \d: P4"):
        replay(data)
    data["actions"] = data["actions"][:at]
    deal = replay(data)
    assert "here" not in words(deal)


def _here_offers(
    rng: random.Random, here_first: float
) -> tuple[PrefDeal, list[tuple[int, str]], list[int]]:
    """A random auction: each seat to speak with "here" among its calls and what it said, and
    the seats still bidding, in bidding order, when "here" was first offered (counted here from
    the passes said, not asked of the engine)."""
    deal, _ = PrefDeal.new(
        PrefRules(), NAMES[: rng.choice((3, 4))], rng.randrange(3), shuffled(make_deck(32), rng)
    )
    offers: list[tuple[int, str]] = []
    passed: set[int] = set()
    left_then: list[int] = []
    while deal.phase is Phase.BIDDING:
        legal = deal.legal_actions()
        here = [a for a in legal if a.do is PrefDo.HERE]
        raises = [a for a in legal if a.do is not PrefDo.PASS]
        pick = here[0] if here and rng.random() < here_first else rng.choice(raises or legal)
        if rng.random() < 0.15:
            pick = legal[0]  # a pass now and then, so that two bidders remain
        if here:
            if not offers:
                left_then = [seat for seat in deal.order if seat not in passed]
            offers.append((pick.seat, pick.do.value))
        if pick.do is PrefDo.PASS:
            passed.add(pick.seat)
        deal, _ = deal.apply(pick)
    return deal, offers, left_then


@pytest.mark.parametrize("here_first", [0.0, 0.5, 1.0])
def test_P4_here_is_offered_to_one_of_the_last_two_and_a_senior_who_raised_never_again(
    here_first: float,
) -> None:
    rng = random.Random(27)
    seen = 0
    for _ in range(1500):
        _, offers, left = _here_offers(rng, here_first)
        if not offers:
            continue
        seen += 1
        senior, first_word = offers[0]
        assert len(left) == 2 and senior == left[0]  # P18: the earlier hand of the last two
        later = [seat for seat, _ in offers[1:]]
        if first_word == "here":
            assert set(later) <= {senior}  # using it keeps it: the other never gets it
        else:
            assert senior not in later  # raised at his first chance: never offered again
            assert len(set(later)) <= 1
    assert seen > 300


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
