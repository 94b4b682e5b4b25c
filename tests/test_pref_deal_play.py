"""Play, misère and raspasy: RULES P8, P9, P10 and P18's raspasy fine points."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.preferans.deal import Phase
from engine.preferans.views import table_view
from tests.engine_helpers import cards
from tests.pref_deal_helpers import act, fresh, new, plays, run

# HANDS: seat 0 all hearts + 7S 7C; seat 1 AS..9S, AD..JD; seat 2 AC..9C, TD..7D; talon 8S 8C.
SIX_DIAMONDS = ["0: bid 6D", "1: pass", "2: pass", "0: discard 8S 8C", "0: contract 6D",
                "1: whist", "2: whist"]  # fmt: skip


def legal_cards(deal: object) -> set[str]:
    """The cards the seat due may play, as codes."""
    return {str(a.card) for a in deal.legal_actions()}  # type: ignore[attr-defined]


def test_P8_the_first_hand_leads_the_first_trick_even_when_he_defends() -> None:
    deal = run(fresh(), ["0: pass", "1: bid 6S", "2: pass", "1: discard 8S 8C",
                         "1: contract 6S", "2: whist", "0: whist"])  # fmt: skip
    assert (deal.phase, deal.turn, deal.declarer) == (Phase.PLAY, 0, 1)


def test_P8_a_void_hand_must_trump() -> None:
    deal = run(fresh(), [*SIX_DIAMONDS, "0: play AH"])
    assert legal_cards(deal) == {"AD", "KD", "QD", "JD"}
    with pytest.raises(IllegalAction, match="P8: must play a trump"):
        deal.apply(act(1, "play AS"))


def test_P8_follow_suit_first() -> None:
    deal = run(fresh(), [*SIX_DIAMONDS, "0: play 7S"])
    assert legal_cards(deal) == {"AS", "KS", "QS", "JS", "TS", "9S"}
    with pytest.raises(IllegalAction, match="P8: must follow suit"):
        deal.apply(act(1, "play AD"))


def test_P8_the_highest_trump_wins_and_the_winner_leads() -> None:
    deal = plays(run(fresh(), SIX_DIAMONDS), ["0:AH 1:JD 2:7D"])
    assert deal.won == (0, 1, 0) and deal.turn == 1


def test_P8_the_last_trick_may_be_seen_until_the_next_is_complete() -> None:
    deal = plays(run(fresh(), SIX_DIAMONDS), ["0:AH 1:JD 2:7D", "1:AS 2:8D"])
    last = table_view(deal).last_trick
    assert [str(play.card) for play in last] == ["AH", "JD", "7D"]
    deal = plays(deal, ["0:7S"])
    assert [str(play.card) for play in table_view(deal).last_trick] == ["AS", "8D", "7S"]


def test_P9_misere_defenders_open_after_the_first_lead_declarer_closed() -> None:
    deal = run(fresh(), ["0: pass", "1: misere", "2: pass", "1: discard 8S 8C"])
    assert (deal.phase, deal.turn, deal.opened) == (Phase.PLAY, 0, ())
    deal = run(deal, ["0: play AH"])
    assert deal.opened == (2, 0)
    seats = table_view(deal).seats
    assert seats[1].open_hand is None and seats[2].open_hand == deal.hands[2]


def test_P9_misere_has_no_trump() -> None:
    deal = run(fresh(), ["0: misere", "1: pass", "2: pass", "0: discard 8S 8C", "0: play AH"])
    assert deal.trump is None and len(legal_cards(deal)) == 10  # seat 1 is void in hearts


# Raspasy: the talon is AS (higher than every spade in the hands) then 8C.
RASPASY_HANDS = ("AH KH QH JH TH 9H 8H 7H 7S 7C", "8S KS QS JS TS 9S AD KD QD JD",
                 "AC KC QC JC TC 9C TD 9D 8D 7D")  # fmt: skip


def raspasy(**options: object) -> object:
    return run(new(RASPASY_HANDS, "AS 8C", **options), ["0: pass", "1: pass", "2: pass"])


def test_P10_trick_1_follows_the_first_talon_card_for_every_hand() -> None:
    deal = raspasy()
    assert table_view(deal).talon == cards("AS")  # type: ignore[arg-type]
    assert legal_cards(deal) == {"7S"}  # the first hand too (P18)
    deal = run(deal, ["0: play 7S"])  # type: ignore[arg-type]
    assert legal_cards(deal) == {"8S", "KS", "QS", "JS", "TS", "9S"}


def test_P10_the_talon_card_never_wins_the_highest_of_its_suit_does() -> None:
    deal = plays(raspasy(), ["0:7S 1:8S 2:AC"])  # type: ignore[arg-type]
    assert deal.won == (0, 1, 0)
    assert table_view(deal).talon == cards("AS 8C")
    assert deal.turn == 0  # the first hand plays first in trick 2 too


def test_P10_trick_2_follows_the_second_talon_card_and_the_first_hand_leads_trick_3() -> None:
    deal = plays(raspasy(), ["0:7S 1:8S 2:AC"])  # type: ignore[arg-type]
    assert legal_cards(deal) == {"7C"}
    deal = plays(deal, ["0:7C 1:9S 2:9C"])
    assert deal.won == (0, 1, 1) and deal.turn == 0
    assert len(legal_cards(deal)) == 8  # trick 3: a free lead
    deal = plays(deal, ["0:AH 1:TS 2:TD"])
    assert deal.won == (1, 1, 1) and deal.turn == 0
    deal = plays(deal, ["0:7H"])
    assert len(legal_cards(deal)) == 7  # no trump in raspasy: a void hand plays anything


def test_P10_raspasy_outcome_counts_every_active_hand_the_dealer_none() -> None:
    deal = run(new(RASPASY_HANDS, "AS 8C", players=4, dealer=2), ["3: pass", "0: pass", "1: pass"])
    assert deal.raspasy and deal.order == (3, 0, 1)
    while not deal.finished:
        deal, _ = deal.apply(deal.legal_actions()[0])
    assert deal.outcome is not None and deal.outcome.raspasy is not None
    assert (
        deal.outcome.raspasy[2] is None
        and sum(deal.outcome.raspasy[s] or 0 for s in (0, 1, 3)) == 10
    )
