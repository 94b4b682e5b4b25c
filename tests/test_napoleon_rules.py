"""RULES N1–N7: Napoleon (Клад Наполеона), point by point on rigged decks (N8's examples are
whole records: test_napoleon_records.py)."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, Do
from engine.cards import Card, Suit, make_deck, shuffled
from engine.defaults import default_action
from engine.events import BidMade, ChipsMoved, Reason
from engine.napoleon import NAPOLEON, NapoleonDeal, NapoleonDo, NapoleonRules, Phase
from engine.views import seat_view, table_view
from tests.engine_helpers import NAMES, cards
from tests.family_helpers import (
    chip_moves,
    napoleon_deal,
    play_tricks,
    random_action,
    random_napoleon,
    run,
)


def words(deal: NapoleonDeal, seat: int) -> list[str]:
    """The seat's legal bidding words as compact text: 'bid 3', 'napoleon', 'here', 'pass'."""
    out = []
    for action in deal.legal_actions(seat):
        out.append(f"bid {action.tricks}" if action.do is NapoleonDo.BID else action.do.value)
    return out


def plays(deal: NapoleonDeal, seat: int) -> list[str]:
    return [str(action.card) for action in deal.legal_actions(seat)]


# Seat 1 bids `tricks` over the dealer's pass and the others pass; seat 1 keeps his hand and
# leads. Seat 1 holds the top spades, the others no spade, so he takes what he leads.
STRONG = {1: "AS KS QS JS TS", 0: "6C 7C 8C 9C TC", 2: "6D 7D 8D 9D TD", 3: "6H 7H 8H 9H TH"}


def seat1_declares(word: str, **kw: object) -> NapoleonDeal:
    deal = napoleon_deal(hands=kw.pop("hands", STRONG), **kw)  # type: ignore[arg-type]
    deal, _ = run(deal, f"0 pass; 1 {word}; 2 pass; 3 pass; 1 discard")
    assert deal.phase is Phase.PLAY and deal.to_act == 1
    return deal


# ---- N1 players, deck, treasure --------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_N1_two_to_six_players_36_cards_five_each_no_turnup(n: int) -> None:
    deal = napoleon_deal(n, contribution=7, treasure=30)
    assert len(deal.deck) == 36 and [len(hand) for hand in deal.hands] == [5] * n
    assert deal.stock == deal.deck[5 * n :] and deal.turnup is None
    assert NapoleonDeal.deck_size_for({}, n) == 36
    # N1: every player pays c into the treasure at the start of the deal
    assert deal.delta == (-7,) * n and deal.pot == 30 + 7 * n


@pytest.mark.parametrize("n", [1, 7])
def test_N1_not_for_one_or_seven_players(n: int) -> None:
    deck = shuffled(make_deck(36), random.Random(1))
    with pytest.raises(ValueError, match=f"napoleon is for 2–6 players, not {n}"):
        NapoleonDeal.new(NapoleonRules(), NAMES[:n], 0, 10, 0, deck)


def test_N1_only_the_36_card_deck() -> None:
    deck = shuffled(make_deck(32), random.Random(1))
    with pytest.raises(ValueError, match="the deck must be the 36-card deck"):
        NapoleonDeal.new(NapoleonRules(), NAMES[:4], 0, 10, 0, deck)


def test_N1_dealt_one_at_a_time_from_the_dealers_left() -> None:
    deck = make_deck(36)
    deal, events = NapoleonDeal.new(NapoleonRules(), NAMES[:3], 1, 5, 0, deck)
    assert deal.hands[2] == deck[0:15:3] and deal.hands[0] == deck[1:15:3]
    assert deal.hands[1] == deck[2:15:3]
    # the contributions, in order from the dealer's left, into the treasure
    assert events == [ChipsMoved(seat, -5, Reason.CONTRIBUTION) for seat in (2, 0, 1)]


def test_N1_the_treasure_carries_and_a_zero_contribution_moves_nothing() -> None:
    deal = napoleon_deal(contribution=0, treasure=60, stake=10)
    assert deal.pot == 60 and deal.delta == (0, 0, 0, 0) and deal.stake == 10


def test_N1_the_stake_defaults_to_the_contribution() -> None:
    assert napoleon_deal(contribution=4).stake == 4
    assert napoleon_deal(contribution=4, stake=9).stake == 9
    with pytest.raises(ValueError, match="N5: the stake"):
        napoleon_deal(stake=-1)
    deck = make_deck(36)
    created, _ = NapoleonDeal.create({}, NAMES[:3], 0, 5, 0, deck, stake=2)
    assert (created.ante, created.stake) == (5, 2) and created.to_record()["stake"] == 2


# ---- N2 bidding --------------------------------------------------------------------------------


def test_N2_the_dealer_speaks_first_and_cannot_say_here_without_a_bid() -> None:
    deal = napoleon_deal(dealer=2)
    assert deal.to_act == 2 and deal.phase is Phase.BIDDING
    assert words(deal, 2) == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5", "napoleon", "pass"]
    assert all(deal.legal_actions(seat) == [] for seat in (0, 1, 3))


def test_N2_each_bid_goes_higher_and_the_order_is_clockwise() -> None:
    deal, events = run(napoleon_deal(), "0 bid 2; 1 bid 3")
    assert deal.to_act == 2 and words(deal, 2) == ["bid 4", "bid 5", "napoleon", "pass"]
    assert events == [BidMade(0, NapoleonDo.BID, 2), BidMade(1, NapoleonDo.BID, 3)]
    assert (deal.level, deal.holder, deal.declarer) == (3, 1, None)
    assert [deal.bid_level(seat) for seat in range(4)] == [2, 3, None, None]


def test_N2_a_player_who_passed_is_out_of_the_bidding() -> None:
    deal, _ = run(napoleon_deal(), "0 bid 1; 1 pass; 2 bid 2; 3 pass; 0 bid 3")
    assert deal.to_act == 2  # seat 1 is skipped
    deal, _ = run(deal, "2 bid 4")
    assert deal.to_act == 0 and deal.bid_level(1) is None and deal.bids[1] is Do.PASS


def test_N2_the_dealer_says_here_at_the_same_level_and_the_others_must_go_higher() -> None:
    deal, events = run(napoleon_deal(), "0 pass; 1 bid 2; 2 pass; 3 pass")
    assert deal.declarer == 1  # the dealer passed: out, and seat 1 is the last one standing
    deal, events = run(napoleon_deal(), "0 bid 1; 1 bid 2; 2 pass; 3 pass")
    assert deal.to_act == 0 and words(deal, 0) == [
        "bid 3", "bid 4", "bid 5", "napoleon", "here", "pass",
    ]  # fmt: skip
    deal, events = run(deal, "0 here")
    assert events == [BidMade(0, NapoleonDo.HERE, 2)] and (deal.level, deal.holder) == (2, 0)
    assert words(deal, 1) == ["bid 3", "bid 4", "bid 5", "napoleon", "pass"]
    # here again, each time his turn comes
    deal, _ = run(deal, "1 bid 3; 0 here; 1 bid 4; 0 here; 1 pass")
    assert (deal.declarer, deal.level, deal.contract) == (0, 4, NapoleonDo.BID)
    assert deal.declarer_needs == 4 and deal.phase is Phase.EXCHANGE


def test_N2_only_the_dealer_may_say_here() -> None:
    deal, _ = run(napoleon_deal(dealer=3), "3 bid 1; 0 bid 2")
    assert "here" not in words(deal, 1)
    deal, _ = run(deal, "1 pass; 2 pass")
    assert "here" in words(deal, 3)


def test_N2_napoleon_ranks_above_five_and_later_speakers_only_pass_one_by_one() -> None:
    deal, events = run(napoleon_deal(), "0 bid 5; 1 napoleon")
    assert events == [BidMade(0, NapoleonDo.BID, 5), BidMade(1, NapoleonDo.NAPOLEON, NAPOLEON)]
    assert words(deal, 2) == ["pass"]
    deal, _ = run(deal, "2 pass; 3 pass")
    assert words(deal, 0) == ["here", "pass"]  # the dealer may take napoleon over
    deal, _ = run(deal, "0 here")
    assert words(deal, 1) == ["pass"] and deal.declarer is None  # spoken, not skipped
    deal, _ = run(deal, "1 pass")
    assert (deal.declarer, deal.contract, deal.declarer_needs) == (0, NapoleonDo.NAPOLEON, 5)


def test_N2_the_last_speaker_after_all_passes_declares_at_once() -> None:
    deal, _ = run(napoleon_deal(), "0 pass; 1 pass; 2 pass; 3 bid 1")
    assert (deal.declarer, deal.level, deal.phase) == (3, 1, Phase.EXCHANGE)
    assert deal.queue == (3,)


def test_N2_everyone_passes_without_a_bid_the_deal_is_over() -> None:
    deal, events = run(napoleon_deal(dealer=1, treasure=60), "1 pass; 2 pass; 3 pass; 0 pass")
    assert deal.finished and deal.declarer is None and not deal.tricks_played
    assert deal.pot == 100 and deal.delta == (-10,) * 4  # the contributions stay
    assert chip_moves(events) == [] and deal.next_dealer == 2


# ---- N3 exchange -------------------------------------------------------------------------------


def test_N3_the_declarer_exchanges_one_card_or_keeps() -> None:
    deal, _ = run(napoleon_deal(hands={1: "AS KS QS JS 6D"}, stock="AH"), "0 pass; 1 bid 4")
    deal, _ = run(deal, "2 pass; 3 pass")
    assert deal.phase is Phase.EXCHANGE and deal.to_act == 1
    legal = deal.legal_actions(1)
    assert legal[0] == Action(1, Do.DISCARD, cards=())
    assert [a.cards for a in legal[1:]] == [(card,) for card in cards("AS KS QS JS 6D")]
    kept, _ = run(deal, "1 discard")
    assert kept.hands[1] == deal.hands[1] and kept.stock_size == deal.stock_size
    swapped, _ = run(deal, "1 discard 6D")
    assert swapped.hands[1] == cards("AS KS QS JS AH") and swapped.discards == (Card.parse("6D"),)
    assert swapped.stock_size == deal.stock_size - 1 and swapped.phase is Phase.PLAY


# ---- N4 play -----------------------------------------------------------------------------------


def test_N4_the_declarer_leads_and_his_first_card_names_the_trump() -> None:
    deal = seat1_declares("bid 2")
    assert deal.leader == 1 and not deal.trump_named
    assert not table_view(deal).trump_named
    assert plays(deal, 1) == ["AS", "KS", "QS", "JS", "TS"]  # N4: lead any card
    deal, _ = run(deal, "1 play KS")
    assert deal.trump is Suit.SPADES and deal.trump_named and table_view(deal).trump_named


def test_N4_everyone_plays_passers_included_follow_suit_else_trump_else_any() -> None:
    hands = {1: "AD KS QS JS TS", 2: "6D 7D 6S 8H 9H", 3: "6H 7H 8C 9C AH", 0: "7S 8S 6C 7C TC"}
    deal = seat1_declares("bid 3", hands=hands)
    deal, _ = run(deal, "1 play KS")  # spades trump
    assert deal.queue == (2, 3, 0)  # every seat, clockwise from the declarer
    deal, _ = run(deal, "2 play 6S; 3 play 8C; 0 play 7S")  # seat 3 has no spade: anything
    assert deal.tricks_won[1] == 1 and deal.to_act == 1  # the winner leads next
    deal, _ = run(deal, "1 play AD")
    assert plays(deal, 2) == ["6D", "7D"]  # follow suit
    deal, _ = run(deal, "2 play 6D")
    assert plays(deal, 3) == ["6H", "7H", "9C", "AH"]  # void in diamonds and trumps
    deal, _ = run(deal, "3 play 9C")
    assert plays(deal, 0) == ["8S"]  # void in diamonds: must trump
    deal, _ = run(deal, "0 play 8S")
    assert deal.tricks_won == (1, 1, 0, 0) and deal.to_act == 0


@pytest.mark.parametrize(("word", "tricks_played"), [("bid 1", 1), ("bid 2", 2), ("bid 5", 5)])
def test_N4_play_stops_as_soon_as_the_bid_is_taken(word: str, tricks_played: int) -> None:
    deal = seat1_declares(word)
    plan = [{1: f"{rank}S", 2: f"{low}D", 3: f"{low}H", 0: f"{low}C"}
            for rank, low in zip("AKQJT", "6789T", strict=True)][:tricks_played]  # fmt: skip
    deal, _ = play_tricks(deal, plan)
    assert deal.finished and deal.tricks_won[1] == tricks_played
    assert [len(hand) for hand in deal.hands] == [5 - tricks_played] * 4


def test_N4_play_stops_when_the_tricks_left_cannot_make_the_bid() -> None:
    # Seat 1 bids 4, wins the first trick and loses the second: 1 + 3 left ≥ 4, play goes on;
    # he loses the third: 1 + 2 < 4, play stops with two tricks still in the hands.
    hands = {1: "AS AD AH 6C 7C", 2: "6S 6D 6H 8C 9C", 3: "7D 7H TC JC QC", 0: "7S 8D 8H KC AC"}
    deal = seat1_declares("bid 4", hands=hands)
    deal, _ = run(deal, "1 play AS; 2 play 6S; 3 play 7D; 0 play 7S")
    deal, _ = run(deal, "1 play 6C; 2 play 8C; 3 play TC; 0 play AC")
    assert not deal.finished and deal.tricks_won == (1, 1, 0, 0)
    deal, _ = run(deal, "0 play KC; 1 play 7C; 2 play 9C; 3 play QC")
    assert deal.finished and len(deal.tricks_played) == 3 and deal.tricks_won == (2, 1, 0, 0)


def test_N4_napoleon_stops_at_the_first_trick_lost() -> None:
    hands = {1: "AS KS QS JS 6C", 0: "7C 8C 9C TC JC", 2: "6D 7D 8D 9D TD", 3: "6H 7H 8H 9H TH"}
    deal = seat1_declares("napoleon", hands=hands)
    deal, _ = run(deal, "1 play 6C; 2 play 6D; 3 play 6H; 0 play 7C")
    assert deal.finished and deal.tricks_won == (1, 0, 0, 0)


# ---- N5–N7 money -------------------------------------------------------------------------------


def test_N5_numbered_bid_made_each_other_player_pays_b_u() -> None:
    deal = seat1_declares("bid 2", contribution=5, stake=3, treasure=11)
    plan = [{1: "AS", 2: "6D", 3: "6H", 0: "6C"}, {1: "KS", 2: "7D", 3: "7H", 0: "7C"}]
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events) == [
        move
        for other in (2, 3, 0)
        for move in (ChipsMoved(other, -6, Reason.STAKE, 1), ChipsMoved(1, 6, Reason.STAKE, other))
    ]
    assert deal.delta == (-11, 13, -11, -11) and deal.pot == 31  # the treasure untouched


def test_N5_numbered_bid_failed_pays_each_and_the_treasure() -> None:
    hands = {1: "AS KS 6C 7C 8C", 0: "9C TC JC QC KC", 2: "6D 7D 8D 9D TD", 3: "6H 7H 8H 9H TH"}
    deal = seat1_declares("bid 4", hands=hands, contribution=5, stake=3, treasure=11)
    deal, events = run(deal, "1 play 6C; 2 play 6D; 3 play 6H; 0 play 9C")
    deal, events = run(deal, "0 play TC; 1 play 7C; 2 play 7D; 3 play 7H")
    assert deal.finished and deal.tricks_won == (2, 0, 0, 0)  # 0 + 3 left < 4
    assert chip_moves(events)[-1] == ChipsMoved(1, -12, Reason.PENALTY)  # b·u into the treasure
    assert deal.delta == (7, -53, 7, 7) and deal.pot == 11 + 20 + 12


def test_N6_napoleon_made_takes_the_treasure_after_the_contributions() -> None:
    deal = seat1_declares("napoleon", contribution=5, stake=2, treasure=11)
    plan = [{1: f"{rank}S", 2: f"{low}D", 3: f"{low}H", 0: f"{low}C"}
            for rank, low in zip("AKQJT", "6789T", strict=True)]  # fmt: skip
    deal, events = play_tricks(deal, plan)
    assert chip_moves(events)[-1] == ChipsMoved(1, 31, Reason.POT_TAKEN)
    assert deal.delta == (-15, -5 + 30 + 31, -15, -15) and deal.pot == 0


@pytest.mark.parametrize(
    ("option", "delta", "pot"),
    [
        # N7: 5u to each, and as much as the treasure holds into it (it doubles).
        ("treasure_doubles", [5, -5 - 30 - 31, 5, 5], 62),
        # N7 option: 5u + T to each, the treasure unchanged.
        ("pay_each", [5 + 31, -5 - 30 - 93, 5 + 31, 5 + 31], 31),
    ],
)
def test_N7_napoleon_failed(option: str, delta: list[int], pot: int) -> None:
    hands = {1: "AS KS QS JS 6C", 0: "7C 8C 9C TC JC", 2: "6D 7D 8D 9D TD", 3: "6H 7H 8H 9H TH"}
    rules = NapoleonRules.from_dict({"napoleon_failed": option})
    deal = seat1_declares(
        "napoleon", hands=hands, contribution=5, stake=2, treasure=11, rules=rules
    )
    deal, _ = run(deal, "1 play 6C; 2 play 6D; 3 play 6H; 0 play 7C")
    assert deal.finished and list(deal.delta) == delta and deal.pot == pot


def test_N5_a_zero_stake_moves_no_chips_between_players() -> None:
    deal = seat1_declares("bid 1", stake=0)
    deal, events = run(deal, "1 play AS; 2 play 6D; 3 play 6H; 0 play 6C")
    assert deal.finished and chip_moves(events) == []


# ---- what the table sees -----------------------------------------------------------------------


def test_the_view_shows_bids_contract_and_roles() -> None:
    deal, _ = run(napoleon_deal(), "0 bid 1; 1 bid 3; 2 pass")
    table = table_view(deal)
    assert [(s.bid, s.level, s.role) for s in table.seats] == [
        (NapoleonDo.BID, 1, None), (NapoleonDo.BID, 3, None), (Do.PASS, None, None),
        (None, None, None),
    ]  # fmt: skip
    assert table.contract is None and table.turnup is None and table.game == "napoleon"
    deal, _ = run(deal, "3 pass; 0 pass")
    table = table_view(deal)
    assert (table.declarer, table.contract, table.declarer_needs) == (1, NapoleonDo.BID, 3)
    assert [s.role for s in table.seats] == ["opponent", "declarer", "opponent", "opponent"]
    assert seat_view(deal, 1).hand == deal.hands[1] and seat_view(deal, 0).legal == ()


# ---- the timer's default move ------------------------------------------------------------------


def test_default_moves_pass_keep_and_the_lowest_card_before_the_trump_is_named() -> None:
    deal = napoleon_deal(hands={1: "6S AS 7D 8H 9C", 2: "7S 8S 6D 6H 6C"})
    assert default_action(deal) == Action(0, Do.PASS)  # N2: the default in bidding is pass
    deal, _ = run(deal, "0 pass; 1 bid 1; 2 pass; 3 pass")
    assert default_action(deal) == Action(1, Do.DISCARD, cards=())  # N3: keep the hand
    deal, _ = run(deal, "1 discard")
    # N4: no trump yet, so the 6♠ is just the lowest card (the engine's placeholder trump is ♠)
    assert deal.trump is Suit.SPADES and default_action(deal) == Action(
        1, Do.PLAY, card=cards("6S")[0]
    )
    deal, _ = run(deal, "1 play 9C")  # clubs trump now
    assert default_action(deal) == Action(2, Do.PLAY, card=Card.parse("6C"))  # must follow


# The playouts' own properties (every game's invariants: tests/test_playouts.py).
def test_bidding_offers_here_only_to_the_dealer_over_another_bid() -> None:
    rng = random.Random(13)
    offered = 0
    for i in range(500):
        deal, _ = random_napoleon(rng, 2 + i % 5, NapoleonRules())
        while deal.phase is Phase.BIDDING:
            seat = deal.to_act
            assert seat is not None
            here = any(a.do is NapoleonDo.HERE for a in deal.legal_actions(seat))
            assert here == (seat == deal.dealer and deal.holder is not None)
            offered += here
            deal, _ = deal.apply(random_action(deal, rng, calls=0.7))
    assert offered > 50
