"""Helpers for the tests of the Frap family (Frap, Khrap, Student Khrap, Napoleon): rigged decks of
any hand size, compact action scripts with the new words, trick plans, and the invariants a random
playout of any of the four games keeps."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

from engine.actions import Action, Do, Verb
from engine.cards import Card, Suit, make_deck, shuffled
from engine.deal import TrickDeal
from engine.defaults import default_action
from engine.errors import IllegalAction
from engine.events import ChipsMoved, DealSettled, Event
from engine.frap import FrapRules, KhrapDeal, KhrapDo
from engine.frap import Phase as FrapPhase
from engine.napoleon import NapoleonDeal, NapoleonDo, NapoleonRules
from engine.record import dumps, outcome, replay
from engine.student import Phase as StudentPhase
from engine.student import StudentDeal, StudentDo, StudentRules
from tests.engine_helpers import (
    NAMES,
    accounted,
    act,
    chip_moves,
    play_tricks,
    random_action,
    rig_deck,
    run,
    trick_plan,
)

__all__ = ["accounted", "act", "chip_moves", "play_tricks", "random_action", "run", "trick_plan"]

# Every family game's words, each game's own kept apart (two spelled alike are both tried).
VERBS: list[Verb] = [
    verb
    for kind in dict.fromkeys(kind for deal in TrickDeal._BY_NAME.values() for kind in deal.VERBS)
    for verb in kind
]

D = TypeVar("D", bound=TrickDeal)
Hands = Mapping[int, str | Sequence[str]]


def khrap_deal(
    n: int = 4,
    *,
    dealer: int | None = None,
    hands: Hands | None = None,
    turnup: str = "7H",
    stock: str | Sequence[str] = (),
    rules: FrapRules | None = None,
    ante: int = 10,
    pot: int = 0,
    pot_has_penalty: bool = False,
) -> KhrapDeal:
    """A fresh Khrap deal on a rigged deck; by default seat 0 is left of the dealer."""
    rules = rules or FrapRules()
    dealer = n - 1 if dealer is None else dealer
    size = rules.deck_size_for(n)
    deck = rig_deck(n, dealer, hands or {}, turnup, stock, size=size, hand_size=5)
    deal, _ = KhrapDeal.new(
        rules, NAMES[:n], dealer, ante, pot, deck, pot_has_penalty=pot_has_penalty
    )
    assert isinstance(deal, KhrapDeal)
    return deal


def student_deal(
    n: int = 4,
    *,
    dealer: int | None = None,
    hands: Hands | None = None,
    turnup: str = "6H",
    stock: str | Sequence[str] = (),
    rules: StudentRules | None = None,
    ante: int = 10,
    pot: int = 0,
    redeal: bool = False,
) -> StudentDeal:
    """A fresh Student Khrap deal on a rigged 36-card deck; by default seat 0 is left of the
    dealer."""
    dealer = n - 1 if dealer is None else dealer
    deck = rig_deck(n, dealer, hands or {}, turnup, stock, size=36)
    deal, _ = StudentDeal.new(
        rules or StudentRules(), NAMES[:n], dealer, ante, pot, deck, redeal=redeal
    )
    return deal


def napoleon_deal(
    n: int = 4,
    *,
    dealer: int = 0,
    hands: Hands | None = None,
    stock: str | Sequence[str] = (),
    rules: NapoleonRules | None = None,
    contribution: int = 10,
    treasure: int = 0,
    stake: int | None = None,
) -> NapoleonDeal:
    """A fresh Napoleon deal on a rigged 36-card deck (no turn-up, N1); by default seat 0 deals
    and speaks first (N2)."""
    deck = rig_deck(n, dealer, hands or {}, "", stock, size=36, hand_size=5)
    deal, _ = NapoleonDeal.new(
        rules or NapoleonRules(), NAMES[:n], dealer, contribution, treasure, deck, stake=stake
    )
    return deal


# ---- random deals ----------------------------------------------------------------------------


def random_khrap_rules(rng: random.Random, n: int) -> FrapRules:
    """Random options of a Khrap table, sometimes a fixed deck that holds 5N + 1 cards (K1)."""
    fitting = [size for size in (32, 36, 52) if size >= 5 * n + 1]
    return FrapRules(
        deck_size=rng.choice(fitting) if rng.random() < 0.25 else None,
        penalties=rng.choice(["graded", "flat"]),
        failed_declarer_collects=rng.random() < 0.5,
        ante=rng.choice(["penalty_carries", "every_deal"]),
        cut_when_uncontested=rng.random() < 0.3,
        cutting_in=rng.random() < 0.8,
        lead=rng.choice(["last_cutter", "first_cutter"]),
        must_whist=rng.random() < 0.3,
    )


def random_khrap(rng: random.Random, n: int, rules: FrapRules) -> tuple[KhrapDeal, list[Event]]:
    """A shuffled Khrap deal with a random dealer, ante, pot and penalty flag."""
    deck = shuffled(make_deck(rules.deck_size_for(n)), rng)
    deal, events = KhrapDeal.new(
        rules, NAMES[:n], rng.randrange(n), rng.choice([0, 1, 5, 10, 7]),
        rng.choice([0, 0, 13, 130]), deck, pot_has_penalty=rng.random() < 0.3,
        redeal=rng.random() < 0.1,
    )  # fmt: skip
    assert isinstance(deal, KhrapDeal)
    return deal, events


def random_student(
    rng: random.Random, n: int, rules: StudentRules
) -> tuple[StudentDeal, list[Event]]:
    """A shuffled Student Khrap deal with a random dealer, ante and bank."""
    deck = shuffled(make_deck(36), rng)
    return StudentDeal.new(
        rules, NAMES[:n], rng.randrange(n), rng.choice([0, 1, 5, 10, 7]),
        rng.choice([0, 0, 40, 13]), deck, redeal=rng.random() < 0.1,
    )  # fmt: skip


def random_napoleon(
    rng: random.Random, n: int, rules: NapoleonRules
) -> tuple[NapoleonDeal, list[Event]]:
    """A shuffled Napoleon deal with a random dealer, contribution, stake and treasure."""
    deck = shuffled(make_deck(36), rng)
    stake = rng.choice([None, 0, 1, 3, 10])
    return NapoleonDeal.new(
        rules, NAMES[:n], rng.randrange(n), rng.choice([0, 1, 5, 10]),
        rng.choice([0, 0, 40, 13, 250]), deck, stake=stake,
    )  # fmt: skip


# ---- invariants --------------------------------------------------------------------------------


def expected_hand_size(deal: TrickDeal, seat: int) -> int | None:
    """How many cards `seat` holds now (None: any, after the last trick)."""
    size = deal.HAND_SIZE
    if deal.finished:
        return None if deal.tricks_played and seat in deal.participants else size
    if deal.tricks_played or deal.trick:
        if seat not in deal.participants:
            return size
        return size - len(deal.tricks_played) - any(p.seat == seat for p in deal.trick)
    discarding = (FrapPhase.DARK_DISCARD, FrapPhase.CUT_DISCARD, StudentPhase.CALL_DISCARD)
    if deal.phase in discarding and seat == deal.to_act:
        return size + 1
    return size


class Checker:
    """Follows one deal of any game of the family and checks the invariants after every action."""

    def __init__(self, deal: TrickDeal, events: list[Event], max_steps: int) -> None:
        self.deck = dict(Counter(deal.deck))
        self.ledger = [0] * deal.n
        self.settled: DealSettled | None = None
        self.steps = 0
        self.max_steps = max_steps
        self.see(deal, events)

    def see(self, deal: TrickDeal, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, ChipsMoved):
                self.ledger[event.seat] += event.amount
            elif isinstance(event, DealSettled):
                assert self.settled is None, "settled twice"
                self.settled = event
        # F1, SK1: every card exactly once (compared as dicts: Counter's own == is slow).
        assert dict(Counter(accounted(deal))) == self.deck
        # F15: chips are neither created nor lost, and match the events.
        assert sum(deal.delta) + (deal.pot - deal.start_pot) == 0
        assert list(deal.delta) == self.ledger and deal.pot >= 0
        for seat, hand in enumerate(deal.hands):
            size = expected_hand_size(deal, seat)
            assert size is None or len(hand) == size, (deal.phase, seat, hand)
        if deal.finished:
            assert deal.to_act is None and self.settled is not None
            assert self.settled.delta == tuple(deal.delta) and self.settled.pot == deal.pot
            assert all(deal.legal_actions(seat) == [] for seat in range(deal.n))
            assert default_action(deal) is None
            if deal.tricks_played:
                assert sum(deal.tricks_won) == len(deal.tricks_played) and not deal.trick
                # N4: Napoleon stops once the outcome is certain; the others play every trick.
                if not isinstance(deal, NapoleonDeal):
                    assert len(deal.tricks_played) == deal.HAND_SIZE
        else:
            actor = deal.to_act
            assert actor is not None and self.settled is None
            legal = deal.legal_actions(actor)
            assert any(a.do is not Do.LOOK for a in legal)
            default = default_action(deal)
            assert default is not None and default in legal
            for other in range(deal.n):
                if other != actor:  # F7: out of turn a seat may only open its face-down hand
                    expected = [Action(other, Do.LOOK)] if deal.hand_hidden(other) else []
                    assert deal.legal_actions(other) == expected
        assert self.steps <= self.max_steps


def check_all_legal_apply(deal: TrickDeal) -> None:
    """Every action `legal_actions` lists applies and leaves `deal` unchanged."""
    snapshot = deal.to_record()
    for seat in range(deal.n):
        for action in deal.legal_actions(seat):
            new, _ = deal.apply(action)
            assert new.actions[-1] == action and len(new.actions) == len(deal.actions) + 1
    assert deal.to_record() == snapshot


def check_replays(deal: TrickDeal) -> None:
    """The record, directly and through JSON text, replays to an equal state (HAND_FORMAT)."""
    record = deal.to_record()
    assert replay(record) == deal
    loaded = replay(json.loads(dumps(record)))
    assert loaded == deal and loaded.to_record() == record
    assert outcome(loaded) == outcome(deal)


def walk(
    start: tuple[D, list[Event]],
    max_steps: int,
    choose: Callable[[D], Action],
    *,
    every_legal: bool = False,
    replay_every: int = 0,
) -> D:
    """Play a deal to its end with the legal actions `choose` picks, checking every invariant
    after each action; before each action, if asked, that every legal action applies and (every
    `replay_every` actions) that the record replays; at the end, that the record replays."""
    deal, events = start
    checker = Checker(deal, events, max_steps)
    while not deal.finished:
        if every_legal:
            check_all_legal_apply(deal)
        if replay_every and checker.steps % replay_every == 0:
            check_replays(deal)
        deal, events = deal.apply(choose(deal))
        checker.steps += 1
        checker.see(deal, events)
    check_replays(deal)
    return deal


def play_out(
    start: tuple[D, list[Event]],
    rng: random.Random,
    max_steps: int,
    *,
    every_legal: bool = False,
    replays: bool = False,
    calls: float = 0.5,
) -> D:
    """Play a deal to its end with random legal actions, checking every invariant (`walk`), the
    replay at every step if `replays`; `calls` is how often a bidder prefers a call to passing
    (see `random_action`)."""
    return walk(
        start,
        max_steps,
        lambda deal: random_action(deal, rng, calls=calls),
        every_legal=every_legal,
        replay_every=1 if replays else 0,
    )


def drawn_playout(
    start: tuple[D, list[Event]], max_steps: int, data: st.DataObject, *, replay_every: int
) -> D:
    """The hypothesis playout of every game: hypothesis draws each legal action, every invariant
    is checked (`walk`) and the record replays every `replay_every` actions and at the end."""

    def draw(deal: D) -> Action:
        seat = deal.to_act
        assert seat is not None
        return data.draw(st.sampled_from(deal.legal_actions(seat)))

    return walk(start, max_steps, draw, replay_every=replay_every)


@st.composite
def frap_tables(
    draw: st.DrawFn, most: int, hand_size: int, *, must_whist: bool = False
) -> tuple[FrapRules, int]:
    """2 to `most` players and Frap's options drawn at random (Khrap's too, K6 `must_whist`, if
    asked); a fixed deck is drawn only if it holds `hand_size` cards a seat and a turn-up
    (F1, K1)."""
    n = draw(st.integers(2, most))
    sizes = [None] + [size for size in (32, 36, 52) if size >= hand_size * n + 1]
    rules = FrapRules(
        penalties=draw(st.sampled_from(["graded", "flat"])),
        failed_declarer_collects=draw(st.booleans()),
        ante=draw(st.sampled_from(["penalty_carries", "every_deal"])),
        cut_when_uncontested=draw(st.booleans()),
        cutting_in=draw(st.booleans()),
        lead=draw(st.sampled_from(["last_cutter", "first_cutter"])),
        deck_size=draw(st.sampled_from(sizes)),
        must_whist=draw(st.booleans()) if must_whist else False,
    )
    return rules, n


def refused(deal: TrickDeal, action: Action) -> IllegalAction:
    """The refusal `action` meets; asserts that the deal is left exactly as it was."""
    before = deal.to_record()
    snapshot = copy.deepcopy(deal)
    try:
        deal.apply(action)
    except IllegalAction as exc:
        assert deal == snapshot and deal.to_record() == before
        return exc
    raise AssertionError(f"{action} was accepted")


def assert_refused_as(deal: TrickDeal, action: Action, rule: str, reason: str) -> None:
    """`action` is refused under `rule` with `reason` in its text, changes nothing, and is not
    among the legal actions (the illegal-input tables of every game)."""
    caught = refused(deal, action)
    assert (caught.rule, str(caught)) == (rule, f"{rule}: {caught.reason}")
    assert reason in caught.reason, caught.reason
    assert action not in deal.legal_actions(action.seat)


def case_ids(cases: Sequence[tuple[Any, Action, str, str]]) -> list[str]:
    """Test ids for (setup, action, rule, reason) cases: rule, setup, action kind, index."""
    return [f"{rule}-{setup.__name__}-{a.do}-{i}" for i, (setup, a, rule, _) in enumerate(cases)]


# ---- legal_actions is exactly what apply accepts ----------------------------------------------


def candidates(deal: TrickDeal, seat: int, rng: random.Random) -> list[Action]:
    """Plausible actions of every kind for `seat`, legal or not: every word bare, every
    card-naming word with cards in and out of the hand, the 7♠ every way, stray fields."""
    hand = deal.hands[seat] if 0 <= seat < deal.n else ()
    outside = [card for card in deal.deck if card not in hand]
    some: list[Card] = [*hand, rng.choice(outside)]
    joker = Card.parse("7S")
    actions = [Action(seat, do) for do in VERBS]
    for do in (Do.PLAY, Do.DARK_DISCARD, Do.CUT_DISCARD, StudentDo.CALL_DISCARD):
        actions += [Action(seat, do, card=card) for card in some]
    for card in {*some[:2], joker}:
        actions += [Action(seat, Do.PLAY, card=card, joker=flag) for flag in (True, False)]
        actions += [Action(seat, Do.PLAY, card=card, joker=True, suit=s) for s in Suit]
    actions.append(Action(seat, Do.PLAY, card=some[0], joker=False, suit=Suit.HEARTS))
    actions += [Action(seat, Do.CUT, turnup=flag) for flag in (True, False)]
    actions += [Action(seat, NapoleonDo.BID, tricks=k) for k in range(-1, 8)]
    actions += [
        Action(seat, Do.DISCARD, cards=tuple(rng.sample(some, k))) for k in range(len(some))
    ]
    # Stray fields on words that take none, or take others.
    actions += [
        Action(seat, Do.PASS, card=some[0]),
        Action(seat, KhrapDo.KHRAP, turnup=True),
        Action(seat, Do.WHIST, cards=()),
        Action(seat, Do.DISCARD, card=some[0], cards=()),
        Action(seat, StudentDo.CALL_DISCARD, card=some[0], joker=False),
        Action(seat, Do.PLAY, card=some[0], cards=()),
        Action(seat, Do.PASS, tricks=1),
        Action(seat, NapoleonDo.HERE, tricks=2),
        Action(seat, NapoleonDo.NAPOLEON, tricks=5),
        Action(seat, Do.DISCARD, cards=(), tricks=1),
        Action(seat, Do.PLAY, card=some[0], tricks=1),
    ]
    if hand:
        actions.append(Action(seat, Do.DISCARD, cards=(hand[0], hand[0])))
    return actions


def phases_seen(deals: Iterable[TrickDeal], rng: random.Random) -> set[Any]:
    """Every phase that random legal play of `deals` passes through (the playouts must reach all
    but the finished one)."""
    seen: set[Any] = set()
    for deal in deals:
        while not deal.finished:
            seen.add(deal.phase)
            deal, _ = deal.apply(random_action(deal, rng))
    return seen


def check_listed_exactly(deals: Iterable[TrickDeal], rng: random.Random, *, calls: float) -> int:
    """At every step of random legal play of `deals`, `apply` accepts exactly the candidate
    actions that `legal_actions` lists; returns how many candidates were checked."""
    checked = 0
    for deal in deals:
        while not deal.finished:
            for seat in range(-1, deal.n + 1):
                legal = deal.legal_actions(seat) if 0 <= seat < deal.n else []
                for action in candidates(deal, seat, rng):
                    assert accepted(deal, action) == is_listed(legal, action), action
                    checked += 1
            deal, _ = deal.apply(random_action(deal, rng, calls=calls))
    return checked


def accepted(deal: TrickDeal, action: Action) -> bool:
    """Whether `deal` accepts `action`."""
    try:
        deal.apply(action)
    except IllegalAction:
        return False
    return True


def is_listed(legal: list[Action], action: Action) -> bool:
    """Whether `legal` (what `legal_actions` lists for the seat) holds `action` (a discard names
    a set: any order)."""
    stray = action.card is not None or action.tricks is not None
    if action.do is Do.DISCARD and action.cards is not None and not stray:
        return len(set(action.cards)) == len(action.cards) and any(
            a.cards is not None and sorted(map(str, a.cards)) == sorted(map(str, action.cards))
            for a in legal
        )
    return action in legal
