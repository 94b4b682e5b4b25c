"""Thousands of seeded random legal Preferans deals and the invariants every one must keep."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import make_deck, shuffled
from engine.preferans.actions import PrefDo
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.outcome import PrefRules
from engine.preferans.pulya import Pulya
from engine.preferans.pulya_record import load, report
from engine.preferans.record import from_json, replay, to_json, to_record
from engine.preferans.scoring import score_deal
from engine.preferans.views import seat_view, table_view
from engine.tricks import trick_winner
from tests.pref_deal_helpers import NAMES, random_deal

DECK = frozenset(make_deck(32))
OPTIONS = [
    PrefRules(),
    PrefRules(here="off", stalingrad=True, raspasy_exit=7),
    PrefRules(ten="whisted", whist="gentleman", whist_liability="capped"),
]


def cards_in_play(deal: PrefDeal) -> list[object]:
    """Every card somewhere: hands, the trick, the tricks taken, the discard, the talon untaken."""
    held = [card for hand in deal.hands for card in hand]
    played = [play.card for trick in deal.tricks_played for play in trick]
    talon = list(deal.talon) if deal.declarer is None else []  # raspasy or still bidding
    return held + [play.card for play in deal.trick] + played + list(deal.discards) + talon


def check_state(deal: PrefDeal) -> None:
    """The invariants of any state on the way."""
    everything = cards_in_play(deal)
    assert len(everything) == 32 and frozenset(everything) == DECK  # every card exactly once
    assert deal.finished == (deal.turn is None) == (not deal.legal_actions())
    for seat in range(deal.n):
        view = seat_view(deal, seat)
        assert view.hand == deal.hands[seat]
        assert bool(view.legal) == (seat == deal.controller)
        for other in table_view(deal).seats:
            # a hand is visible to others only where P7 / P9 open it
            assert (other.open_hand is not None) == (other.seat in deal.opened)
    if deal.phase is Phase.PLAY and deal.contract == "misere":
        assert bool(deal.opened) == bool(deal.trick or deal.tricks_played)  # P9


def check_finished(deal: PrefDeal) -> None:
    """The invariants of a finished deal: its tricks, its outcome and its entries."""
    assert deal.outcome is not None and deal.entries is not None
    if deal.tricks_played:
        assert len(deal.tricks_played) == 10 and sum(deal.won) == 10  # P8: all 10 tricks
        takers = Counter[int]()
        for number, trick in enumerate(deal.tricks_played):
            assert sorted(play.seat for play in trick) == sorted(deal.order)
            if deal.raspasy and number < 2:  # P10: the highest card of the talon card's suit
                suit = deal.talon[number].suit
                taker = max((p for p in trick if p.card.suit is suit), key=lambda p: p.card.rank)
                takers[taker.seat] += 1
            else:  # P8, as the Frap family's trick core decides it
                takers[trick_winner(trick, deal.trump)] += 1
        assert tuple(takers[seat] for seat in range(deal.n)) == deal.won
    else:
        assert deal.outcome.kind in ("uncontested", "half_whist")
    if deal.sitting_out is not None:
        assert deal.won[deal.sitting_out] == 0 and deal.hands[deal.sitting_out] == ()
    rules, streak = deal.rules, deal.streak
    assert deal.entries == score_deal(deal.outcome, deal.n, deal.dealer, streak, rules)
    record = json.loads(json.dumps(to_record(deal)))
    assert replay(record) == deal  # the record replays to the live game


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize(
    "rules", OPTIONS, ids=["sochi", "here_off_stalingrad_exit7", "ten_whisted"]
)
def test_random_legal_deals_keep_every_invariant(players: int, rules: PrefRules) -> None:
    rng = random.Random(f"pref-{players}-{rules}")
    kinds: Counter[str] = Counter()
    for number in range(400):
        deal, states = random_deal(rng, rules, players, streak=rng.randrange(3))
        for state in states[:: max(1, len(states) // 6)]:
            check_state(state)
            if number % 8 == 0:  # a deal in progress serialises and comes back equal
                assert from_json(json.loads(json.dumps(to_json(state)))) == state
        check_finished(deal)
        assert deal.outcome is not None
        kinds[deal.outcome.kind] += 1
    assert set(kinds) >= {"game", "raspasy", "uncontested"}


def test_every_kind_of_deal_happens_in_random_play() -> None:
    rng = random.Random(14)
    kinds: Counter[str] = Counter()
    plays: Counter[str | None] = Counter()
    for _ in range(1500):
        deal, _ = random_deal(rng, players=rng.choice((3, 4)))
        assert deal.outcome is not None
        kinds[deal.outcome.kind] += 1
        plays[deal.outcome.play] += 1
    assert set(kinds) == {"game", "misere", "raspasy", "uncontested", "half_whist"}
    assert {"light", "dark"} <= set(plays)


@pytest.mark.parametrize("players", [3, 4])
def test_random_pulyas_of_played_deals_end_and_settle_to_zero(players: int) -> None:
    """Whole pulyas of random legal deals: each deal dealt by the sheet's dealer at its raspasy
    streak (P3, P10), its outcome accepted by the sheet, the game ending (P14), and the
    settlement summing to zero (P16); the same deals as records score the same."""
    rng = random.Random(f"pulya-{players}")
    for _ in range(4):
        rules = PrefRules(target=10, raspasy_exit=rng.choice((6, 7)))
        sheet = Pulya.new(players, rng.randrange(players), rules)
        records = []
        while not sheet.finished and sheet.deals < 400:
            deal, _ = PrefDeal.new(
                rules, NAMES[:players], sheet.dealer, shuffled(make_deck(32), rng), sheet.streak
            )
            while not deal.finished:
                legal = deal.legal_actions()
                passes = [a for a in legal if a.do is PrefDo.PASS]
                deal, _ = deal.apply(
                    passes[0] if passes and rng.random() < 0.6 else rng.choice(legal)
                )
            assert deal.outcome is not None
            sheet = sheet.add(deal.outcome)
            records.append({"record": to_record(deal)})
        assert sheet.finished and sum(sheet.balances()) == 0
        pulya = {"format": "pref-pulya/1", "game": "preferans", "rules": rules.to_dict(),
                 "players": list(NAMES[:players]), "first_dealer": sheet.first_dealer,
                 "deals": records}  # fmt: skip
        again, names = load(json.loads(json.dumps(pulya)))
        assert report(again, names) == report(sheet, names)
