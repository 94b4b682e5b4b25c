"""Random legal playouts: the invariants every state keeps (F1, F12, F15, HAND_FORMAT).

Seeded, for 2–12 players, both presets and random options. Checked at every step: each card is
exactly once in hands, stock, discards, dead turn-ups, the turn-up or a trick; chips are conserved
and match the events; the deal ends within a bounded number of actions; the seat to act has a
legal action and every legal action applies; the record replays (also through JSON text) to a
state equal to the live one.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Do
from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import ChipsMoved, DealSettled, Event
from engine.frap import PRESETS, FrapDeal, FrapRules, Phase
from engine.record import dumps, outcome, replay
from tests.engine_helpers import accounted, random_action, random_deal, random_rules


def max_actions(n: int) -> int:
    """An upper bound on a deal's actions: looks, three bidding rounds or a frap round and the
    whist round, the dark discard, buying, cutting-in with its discards, and 4 tricks."""
    return n + 3 * n + (n - 1) + 1 + n + 2 * n + 4 * n


class Checker:
    """Follows one deal and checks the invariants after every action."""

    def __init__(self, deal: FrapDeal, events: list[Event] | None = None) -> None:
        self.deck = Counter(deal.deck)
        self.ledger = [0] * deal.n
        self.settled: DealSettled | None = None
        self.steps = 0
        self.see(deal, events or [])

    def see(self, deal: FrapDeal, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, ChipsMoved):
                self.ledger[event.seat] += event.amount
            elif isinstance(event, DealSettled):
                assert self.settled is None, "settled twice"
                self.settled = event
        # F1: every card exactly once.
        assert Counter(accounted(deal)) == self.deck
        # F15: chips are neither created nor lost, and match the events.
        assert sum(deal.delta) + (deal.pot - deal.start_pot) == 0
        assert list(deal.delta) == self.ledger and deal.pot >= 0
        # Hands: 4 cards, 5 in the middle of a dark or cut-in exchange, fewer as tricks go.
        for seat, hand in enumerate(deal.hands):
            if deal.phase is Phase.PLAY and seat in deal.participants:
                played = len(deal.tricks_played) + any(p.seat == seat for p in deal.trick)
                assert len(hand) == 4 - played
            elif deal.phase in (Phase.DARK_DISCARD, Phase.CUT_DISCARD) and seat == deal.to_act:
                assert len(hand) == 5
            elif not (deal.finished and seat in deal.participants and deal.tricks_played):
                assert len(hand) == 4, (deal.phase, seat, hand)
        if deal.finished:
            assert deal.to_act is None and self.settled is not None
            assert self.settled.delta == tuple(deal.delta) and self.settled.pot == deal.pot
            assert all(deal.legal_actions(seat) == [] for seat in range(deal.n))
            if deal.tricks_played:
                assert sum(deal.tricks_won) == 4 and len(deal.tricks_played) == 4
        else:
            actor = deal.to_act
            assert actor is not None and self.settled is None
            assert any(a.do is not Do.LOOK for a in deal.legal_actions(actor))
            for other in range(deal.n):
                if other != actor:
                    expected = [] if deal.looked[other] else [Action(other, Do.LOOK)]
                    assert deal.legal_actions(other) == expected
        assert self.steps <= max_actions(deal.n)


def check_all_legal_apply(deal: FrapDeal) -> None:
    """Every action `legal_actions` lists applies without error and leaves `deal` unchanged."""
    snapshot = deal.to_record()
    for seat in range(deal.n):
        for action in deal.legal_actions(seat):
            new, _ = deal.apply(action)
            assert new.actions[-1] == action and len(new.actions) == len(deal.actions) + 1
    assert deal.to_record() == snapshot


def check_replays(deal: FrapDeal) -> None:
    """The record, directly and through JSON text, replays to an equal state (HAND_FORMAT)."""
    record = deal.to_record()
    assert replay(record) == deal
    loaded = replay(json.loads(dumps(record)))
    assert loaded == deal and loaded.to_record() == record
    assert outcome(loaded) == outcome(deal)


def play_out(
    start: tuple[FrapDeal, list[Event]],
    rng: random.Random,
    *,
    every_legal: bool = False,
    replays: bool = False,
) -> FrapDeal:
    deal, events = start
    checker = Checker(deal, events)
    while not deal.finished:
        if every_legal:
            check_all_legal_apply(deal)
        if replays:
            check_replays(deal)
        deal, events = deal.apply(random_action(deal, rng))
        checker.steps += 1
        checker.see(deal, events)
    if replays:
        check_replays(deal)
    return deal


def test_random_playouts_keep_every_invariant() -> None:
    rng = random.Random(2024)
    endings: Counter[str] = Counter()
    for i in range(2500):
        n = 2 + i % 11
        rules = random_rules(rng, n) if i % 3 else PRESETS[("classic", "s0")[i % 2]]
        deal = play_out(random_deal(rng, n, rules), rng, every_legal=i % 4 == 0)
        endings["redeal" if deal.needs_redeal else "play" if deal.tricks_played else "pot"] += 1
    assert set(endings) == {"redeal", "play", "pot"}, endings


def test_random_playouts_replay_and_survive_json_at_every_step() -> None:
    rng = random.Random(99)
    for i in range(400):
        n = 2 + i % 11
        play_out(random_deal(rng, n, random_rules(rng, n)), rng, replays=True)


def test_random_playouts_reach_every_phase() -> None:
    rng = random.Random(5)
    phases: Counter[Phase] = Counter()
    for _ in range(600):
        n = rng.randint(2, 6)
        deal, _ = random_deal(rng, n, FrapRules())
        while not deal.finished:
            phases[deal.phase] += 1
            deal, _ = deal.apply(random_action(deal, rng))
    assert set(phases) == set(Phase) - {Phase.FINISHED}


# ---- legal_actions is exactly what apply accepts -------------------------------------------------


def candidates(deal: FrapDeal, seat: int, rng: random.Random) -> list[Action]:
    """Plausible actions of every kind for `seat`, legal or not."""
    hand = deal.hands[seat] if 0 <= seat < deal.n else ()
    outside = [card for card in deal.deck if card not in hand]
    some: list[Card] = [*hand, rng.choice(outside)]
    actions = [Action(seat, do) for do in Do]
    for do in (Do.PLAY, Do.DARK_DISCARD, Do.CUT_DISCARD):
        actions += [Action(seat, do, card=card) for card in some]
    actions += [Action(seat, Do.CUT, turnup=flag) for flag in (True, False)]
    actions += [
        Action(seat, Do.DISCARD, cards=tuple(rng.sample(some, k))) for k in range(len(some))
    ]
    if hand:
        actions.append(Action(seat, Do.DISCARD, cards=(hand[0], hand[0])))
    return actions


def accepted(deal: FrapDeal, action: Action) -> bool:
    try:
        deal.apply(action)
    except IllegalAction:
        return False
    return True


def is_listed(deal: FrapDeal, action: Action) -> bool:
    legal = deal.legal_actions(action.seat)
    if action.do is Do.DISCARD and action.cards is not None:
        # Buying names a set of cards; the list gives each set once, in hand order.
        return any(
            a.cards is not None and sorted(map(str, a.cards)) == sorted(map(str, action.cards))
            for a in legal
        ) and len(set(action.cards)) == len(action.cards)
    return action in legal


def test_apply_accepts_exactly_the_listed_actions() -> None:
    rng = random.Random(7)
    checked = 0
    for i in range(150):
        n = 2 + i % 6
        deal, _ = random_deal(rng, n, random_rules(rng, n))
        while not deal.finished:
            for seat in range(-1, deal.n + 1):
                for action in candidates(deal, seat, rng):
                    assert accepted(deal, action) == is_listed(deal, action), action
                    checked += 1
            deal, _ = deal.apply(random_action(deal, rng))
    assert checked > 10_000


# ---- hypothesis ----------------------------------------------------------------------------------


@st.composite
def rules_and_players(draw: st.DrawFn) -> tuple[FrapRules, int]:
    n = draw(st.integers(2, 12))
    sizes = [None] + [size for size in (32, 36, 52) if size >= 4 * n + 1]
    rules = FrapRules(
        penalties=draw(st.sampled_from(["graded", "flat"])),
        failed_declarer_collects=draw(st.booleans()),
        ante=draw(st.sampled_from(["penalty_carries", "every_deal"])),
        cut_when_uncontested=draw(st.booleans()),
        cutting_in=draw(st.booleans()),
        lead=draw(st.sampled_from(["last_cutter", "first_cutter"])),
        deck_size=draw(st.sampled_from(sizes)),
    )
    return rules, n


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=rules_and_players(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_hypothesis_playouts(setup: tuple[FrapRules, int], seed: int, data: st.DataObject) -> None:
    rules, n = setup
    deal, events = random_deal(random.Random(seed), n, rules)
    checker = Checker(deal, events)
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        action = data.draw(st.sampled_from(deal.legal_actions(seat)))
        deal, events = deal.apply(action)
        checker.steps += 1
        checker.see(deal, events)
        if checker.steps % 7 == 0:
            check_replays(deal)
    check_replays(deal)
