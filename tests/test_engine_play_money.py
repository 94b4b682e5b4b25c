"""RULES F12–F15: play, trick money, penalties and the pot."""

from __future__ import annotations

import pytest

from engine.actions import Action, Do
from engine.cards import Card, Suit
from engine.errors import IllegalAction
from engine.events import ChipsMoved, DealSettled, Reason, TrickWon
from engine.frap import FrapDeal, FrapRules, Phase
from engine.frap.settle import declarer_penalty, settle_play
from engine.tricks import Play, legal_plays, trick_winner
from tests.engine_helpers import cards, chip_moves, new_deal, play_tricks, run, trick_plan

# ---- F12 play ------------------------------------------------------------------------------------


def _heads_up() -> FrapDeal:
    """Seat 0 fraps against seat 1; hearts are trump."""
    deal = new_deal(hands={0: "AS 7C 8C TD", 1: "8S QS 9H 7D"}, turnup="7H")
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 no_cut")
    deal, _ = run(deal, "3 no_cut")
    assert deal.phase is Phase.PLAY and deal.queue == (0, 1)
    return deal


def test_F12_follow_suit_without_a_duty_to_beat() -> None:
    deal, _ = run(_heads_up(), "0 play AS")
    assert [a.card for a in deal.legal_actions(1)] == list(cards("8S QS"))
    with pytest.raises(IllegalAction, match="F12: must follow suit ♠"):
        deal.apply(Action(1, Do.PLAY, card=Card.parse("9H")))
    deal, events = run(deal, "1 play 8S")  # lower than the ace: legal
    assert TrickWon(1, 0, cards("AS 8S")) in events


def test_F12_void_in_the_suit_led_must_trump() -> None:
    deal, _ = run(_heads_up(), "0 play AS; 1 play 8S; 0 play 7C")
    assert [a.card for a in deal.legal_actions(1)] == list(cards("9H"))
    with pytest.raises(IllegalAction, match="F12: must play a trump ♥"):
        deal.apply(Action(1, Do.PLAY, card=Card.parse("QS")))
    deal, events = run(deal, "1 play 9H")
    assert TrickWon(2, 1, cards("7C 9H")) in events and deal.to_act == 1


def test_F12_void_in_suit_and_trumps_any_card_and_the_suit_led_wins() -> None:
    deal, _ = run(_heads_up(), "0 play AS; 1 play 8S; 0 play 7C; 1 play 9H; 1 play 7D")
    deal, _ = run(deal, "0 play TD; 0 play 8C")
    assert [a.card for a in deal.legal_actions(1)] == list(cards("QS"))
    deal, events = run(deal, "1 play QS")
    assert TrickWon(4, 0, cards("8C QS")) in events  # the queen of another suit does not win
    assert deal.finished and deal.tricks_won == (3, 1, 0, 0)


def test_F12_card_must_be_in_the_hand_and_named() -> None:
    deal = _heads_up()
    with pytest.raises(IllegalAction, match="F12: KH is not in the hand"):
        deal.apply(Action(0, Do.PLAY, card=Card.parse("KH")))
    with pytest.raises(IllegalAction, match="F12: say which card"):
        deal.apply(Action(0, Do.PLAY))


def test_F12_highest_trump_wins_else_highest_of_the_suit_led() -> None:
    spade, heart = Suit.SPADES, Suit.HEARTS
    plays = [Play(0, Card.parse("AS")), Play(1, Card.parse("7H")), Play(2, Card.parse("9H"))]
    assert trick_winner(plays, heart) == 2
    assert trick_winner(plays, Suit.CLUBS) == 0
    plays = [Play(3, Card.parse("8S")), Play(0, Card.parse("AD")), Play(1, Card.parse("TS"))]
    assert trick_winner(plays, Suit.CLUBS) == 1
    hand = cards("7S AD 8H")
    assert legal_plays(hand, None, heart) == list(hand)  # lead any card
    assert legal_plays(hand, spade, heart) == list(cards("7S"))
    assert legal_plays(hand, Suit.CLUBS, heart) == list(cards("8H"))
    assert legal_plays(cards("7S AD"), Suit.CLUBS, heart) == list(cards("7S AD"))


# ---- F13 trick money -----------------------------------------------------------------------------


def _three_handed(
    winners: list[int],
    *,
    rules: FrapRules | None = None,
    pot: int = 0,
    dark: bool = False,
    turnup: str = "8H",
) -> tuple[FrapDeal, list[ChipsMoved]]:
    """Seat 0 fraps (in the dark if asked), seats 1 and 2 whist, seat 3 passes; trick k is won
    by winners[k]. The dark declarer discards the turn-up he took. Returns the chips of play."""
    hands, plan = trick_plan(winners, [0, 1, 2])
    deal = new_deal(hands=hands, turnup=turnup, rules=rules, pot=pot)
    deal, events = run(deal, f"0 {'dark_frap' if dark else 'frap'}; 1 whist; 2 whist; 3 pass")
    if dark:
        deal, more = run(deal, f"0 dark_discard {turnup}")
        events += more
    deal, more = run(deal, "0 discard; 1 discard; 2 discard; 3 no_cut")
    events += more
    p0 = deal.pot
    deal, more = play_tricks(deal, plan)
    events += more
    assert deal.finished and deal.p0 == p0
    return deal, chip_moves(more)


def test_F13_each_trick_pays_a_quarter_and_the_remainder_stays() -> None:
    deal, moves = _three_handed([0, 0, 1, 2], pot=3)  # P0 = 43, q = 10
    assert moves == [ChipsMoved(s, q, Reason.TRICKS) for s, q in ((0, 20), (1, 10), (2, 10))]
    assert deal.delta == (10, 0, 0, -10) and deal.pot == 3 and not deal.pot_has_penalty


def test_F13_a_failed_declarer_collects_by_default() -> None:
    deal, moves = _three_handed([0, 1, 2, 2])
    assert ChipsMoved(0, 10, Reason.TRICKS) in moves
    assert deal.delta == (-40, 0, 10, -10) and deal.pot == 40


def test_F13_option_failed_declarer_does_not_collect() -> None:
    rules = FrapRules(failed_declarer_collects=False)
    deal, moves = _three_handed([0, 1, 2, 2], rules=rules)
    assert all(m.seat != 0 or m.reason is not Reason.TRICKS for m in moves)
    assert deal.delta == (-50, 0, 10, -10) and deal.pot == 50  # his trick money stays
    deal, _ = _three_handed([0, 0, 1, 2], rules=rules)  # a made frap collects as usual
    assert deal.delta == (10, 0, 0, -10)


# ---- F14 penalties -------------------------------------------------------------------------------

GRADED, FLAT = FrapRules(), FrapRules(penalties="flat")


@pytest.mark.parametrize(
    ("rules", "tricks", "dark", "ace", "times"),
    [
        (GRADED, 2, False, False, 0),
        (GRADED, 1, False, False, 1),
        (GRADED, 0, False, False, 2),
        (GRADED, 1, True, False, 2),
        (GRADED, 1, True, True, 3),
        (GRADED, 0, True, True, 4),
        (GRADED, 0, True, False, 4),
        (GRADED, 3, True, True, 0),
        (FLAT, 2, False, False, 0),
        (FLAT, 1, False, False, 2),
        (FLAT, 0, False, False, 2),
        (FLAT, 1, True, True, 4),
        (FLAT, 1, True, False, 4),
        (FLAT, 0, True, False, 4),
    ],
)
def test_F14_penalty_table(
    rules: FrapRules, tricks: int, dark: bool, ace: bool, times: int
) -> None:
    taken = (Card.parse("AH") if ace else Card.parse("9H")) if dark else None
    assert (
        declarer_penalty(rules, tricks, dark=dark, taken_turnup=taken, trump=Suit.HEARTS) == times
    )


def test_F14_trump_ace_means_the_ace_of_the_trump_suit() -> None:
    ace_of_spades = Card.parse("AS")
    assert (
        declarer_penalty(GRADED, 1, dark=True, taken_turnup=ace_of_spades, trump=Suit.HEARTS) == 2
    )


def test_F14_penalties_are_paid_after_the_trick_money() -> None:
    moves = settle_play(
        GRADED,
        p0=40,
        declarer=0,
        dark=False,
        taken_turnup=None,
        trump=Suit.HEARTS,
        opponents=[2, 1],
        tricks=[1, 3, 0, 0],
    )
    assert moves == [
        ChipsMoved(0, 10, Reason.TRICKS),
        ChipsMoved(1, 30, Reason.TRICKS),
        ChipsMoved(0, -40, Reason.PENALTY),
        ChipsMoved(2, -40, Reason.PENALTY),
    ]


def test_F14_frap_one_trick_pays_x1() -> None:
    deal, moves = _three_handed([0, 1, 2, 1])
    assert ChipsMoved(0, -40, Reason.PENALTY) in moves and deal.delta[0] == -40


def test_F14_frap_no_trick_pays_x2() -> None:
    deal, _ = _three_handed([1, 1, 2, 2])
    assert deal.delta == (-90, 10, 10, -10) and deal.pot == 80


def test_F14_option_flat_frap_one_trick_pays_x2() -> None:
    deal, _ = _three_handed([0, 1, 2, 1], rules=FLAT)
    assert deal.delta[0] == -10 + 10 - 80


def test_F14_dark_frap_one_trick_pays_x2() -> None:
    deal, _ = _three_handed([0, 1, 2, 1], dark=True)
    assert deal.taken_turnup == Card.parse("8H") and deal.delta[0] == -10 + 10 - 80


def test_F14_dark_frap_one_trick_with_trump_ace_pays_x3() -> None:
    deal, moves = _three_handed([0, 1, 2, 1], dark=True, turnup="AH")
    assert deal.taken_turnup == Card.parse("AH") and deal.trump is Suit.HEARTS
    assert ChipsMoved(0, -120, Reason.PENALTY) in moves and deal.delta[0] == -10 + 10 - 120


def test_F14_dark_frap_no_trick_pays_x4() -> None:
    deal, _ = _three_handed([1, 1, 2, 2], dark=True, turnup="AH")
    assert deal.delta[0] == -10 - 160


def test_F14_option_flat_dark_frap_one_trick_pays_x4() -> None:
    deal, _ = _three_handed([0, 1, 2, 1], rules=FLAT, dark=True, turnup="AH")
    assert deal.delta[0] == -10 + 10 - 160


def test_F14_whister_without_a_trick_pays_x1() -> None:
    deal, moves = _three_handed([0, 0, 1, 1])
    assert ChipsMoved(2, -40, Reason.PENALTY) in moves and deal.delta == (10, 10, -50, -10)


def test_F14_cutter_without_a_trick_pays_x1() -> None:
    hands, plan = trick_plan([0, 0, 1, 1], [0, 1, 2])
    cut_hand = hands.pop(2)
    deal = new_deal(hands=hands, stock=[*cut_hand, "7D"])
    deal, _ = run(deal, "0 frap; 1 whist; 2 pass; 3 pass; 0 discard; 1 discard; 2 cut stock")
    deal, _ = run(deal, "2 cut_discard 7D; 3 no_cut")
    deal, events = play_tricks(deal, plan)
    assert ChipsMoved(2, -40, Reason.PENALTY) in events
    assert deal.delta == (10, 10, -50, -10) and deal.pot == 40 and deal.pot_has_penalty


# ---- F15 the pot after the deal ------------------------------------------------------------------


def test_F15_pot_is_p0_minus_trick_money_plus_penalties() -> None:
    deal, moves = _three_handed([0, 1, 2, 2], pot=6)  # P0 = 46, q = 11, remainder 2
    paid = sum(m.amount for m in moves if m.reason is Reason.TRICKS)
    penalties = -sum(m.amount for m in moves if m.reason is Reason.PENALTY)
    assert (paid, penalties) == (44, 46)
    assert deal.pot == 46 - paid + penalties == 48
    assert deal.pot == deal.start_pot - sum(deal.delta) and deal.pot_has_penalty


def test_F15_the_deal_settles_once_and_then_refuses_everything() -> None:
    deal, _ = _three_handed([0, 0, 1, 2])
    assert deal.to_act is None and all(deal.legal_actions(s) == [] for s in range(4))
    for action in (Action(0, Do.PLAY, card=deal.deck[0]), Action(3, Do.LOOK), Action(9, Do.PASS)):
        with pytest.raises(IllegalAction, match="F15: the deal is over"):
            deal.apply(action)


def test_F15_settled_event_carries_the_outcome() -> None:
    hands, plan = trick_plan([0, 1, 2, 2], [0, 1, 2])
    deal = new_deal(hands=hands)
    deal, _ = run(deal, "0 frap; 1 whist; 2 whist; 3 pass; 0 discard; 1 discard; 2 discard")
    deal, _ = run(deal, "3 no_cut")
    deal, events = play_tricks(deal, plan)
    assert events[-1] == DealSettled((-40, 0, 10, -10), (1, 1, 2, 0), 40, True, False)
