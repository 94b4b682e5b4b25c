"""Random legal playouts of every Frap-family game of the registry (engine/games.py): the invariants
every state keeps (F1, F7, F12, F15, HAND_FORMAT). Checked at every step (the family's `Checker`,
tests/family_helpers.py): each card is exactly once in hands, stock, discards, dead turn-ups, the
turn-up or a trick; chips (and Napoleon's treasure) are conserved and match the events; the deal
ends within its bound of actions; the seat to act has a legal action and every legal action
applies, the others may only open their hands; the default action is legal; the record replays
(also through JSON text) to a state equal to the live one; and `apply` accepts exactly what
`legal_actions` lists. Each game draws its own tables (its players, options and how often a
bidder calls) and says what its playouts must reach; its own properties are in its rules tests.
Preferans's deal is its own type with its own invariants: tests/test_pref_playouts.py."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.deal import TrickDeal
from engine.events import Event
from engine.frap import PRESETS, FrapRules
from engine.frap import Phase as FrapPhase
from engine.games import GAMES
from engine.napoleon import NAPOLEON, NapoleonDeal, NapoleonRules
from engine.napoleon import Phase as NapoleonPhase
from engine.student import JOKER, StudentDeal, StudentRules
from engine.student import Phase as StudentPhase
from engine.tricks import trick_winner
from tests.engine_helpers import random_deal, random_rules
from tests.family_helpers import (
    check_listed_exactly,
    drawn_playout,
    frap_tables,
    phases_seen,
    play_out,
    random_khrap,
    random_khrap_rules,
    random_napoleon,
    random_student,
)

Table = tuple[int, Any]  # players, rules
Draw = Callable[[random.Random, int], Table]  # the i-th table of a run, drawn from its generator


@dataclass(frozen=True)
class Playouts:
    """How one game's random playouts are drawn and what they must reach; each run's seed and
    number of deals are its own, so that every game is checked as deeply as its rules need."""

    new: Callable[[random.Random, int, Any], tuple[TrickDeal, list[Event]]]  # rng, players, rules
    max_actions: Callable[[int], int]  # a deal's actions are at most this many (it ends)
    phases: type[Enum]
    # every invariant: seed, deals, the i-th table and how often a bidder calls, every how many
    # deals each legal action is tried, what a deal shows and what the run must show (at least)
    kept: tuple[int, int, Callable[[random.Random, int], tuple[int, Any, float]], int]
    happened: Callable[[Any], Iterable[str]]
    everything: frozenset[str]
    only: bool  # the run shows exactly `everything`
    replayed: tuple[int, int, Draw]  # the record replays at every step: seed, deals, tables
    phased: tuple[int, int, Draw]  # every phase is reached: seed, deals, tables
    listed: tuple[int, int, Draw, float, int]  # seed, deals, tables, calls, at least checked
    drawn: tuple[int, st.SearchStrategy[Table], int]  # hypothesis: examples, tables, replay every
    replay_steps: Callable[[int], int] | None = None  # the bound for the replayed run, if other
    check: Callable[[Any], None] = field(default=lambda deal: None)  # of each finished deal


def frap_max(n: int) -> int:
    """Looks, three bidding rounds or a frap round and the whist round, the dark discard,
    buying, cutting-in with its discards, and 4 tricks."""
    return n + 3 * n + (n - 1) + 1 + n + 2 * n + 4 * n


def khrap_max(n: int) -> int:
    """Looks, two bidding rounds, the whist round, the dark discard, buying, cutting-in with its
    discards, and five tricks (K1, K3)."""
    return n + 2 * n + (n - 1) + 1 + n + 2 * n + 5 * n


def student_max(n: int) -> int:
    """Three bidding rounds, a discard after each call, the exchange, and four tricks."""
    return 3 * n + n + n + 4 * n


def napoleon_max(n: int) -> int:
    """N2: each seat passes once, a bid raises the level at most six times and the dealer's
    "here" follows a raise; one exchange (N3); at most five tricks of n cards (N4)."""
    return n + 2 * NAPOLEON + 1 + 5 * n


def frap_ending(deal: TrickDeal) -> list[str]:
    return ["redeal" if deal.needs_redeal else "play" if deal.tricks_played else "pot"]


def khrap_ending(deal: TrickDeal) -> list[str]:
    """How a deal ended: redeal, pot (taken without play), made or failed (played); and in
    which round."""
    if deal.needs_redeal:
        ending = "redeal"
    elif not deal.tricks_played:
        ending = "pot"
    else:
        ending = "made" if deal.tricks_won[deal.declarer or 0] >= 3 else "failed"
    return [ending, f"{ending} in round {deal.round}"]


def student_happened(deal: StudentDeal) -> set[str]:
    """The calls and plays seen in a finished deal, to check the playouts reach them all."""
    seen = {do.value for do in deal.bids if do is not None}
    seen.add("redeal" if deal.needs_redeal else "play" if deal.tricks_played else "bank")
    for trick in deal.tricks_played:
        for at, play in enumerate(trick):
            if play.card == JOKER:
                how = "joker" if play.joker else "plain"
                seen.add(f"{how} led" if at == 0 else how)
    if deal.tricks_played and deal.tricks_won[deal.declarer or 0] < 2:
        seen.add("failed")
    return seen


def napoleon_stop(deal: NapoleonDeal) -> None:
    """N4: play ended on the first trick after which the outcome was certain, never later."""
    if not deal.tricks_played:
        assert deal.declarer is None and deal.delta == (-deal.ante,) * deal.n  # N2: all passed
        return
    needs, declarer = deal.declarer_needs, deal._declarer
    taken = 0
    for number, trick in enumerate(deal.tricks_played, start=1):
        taken += trick_winner(trick, deal.trump) == declarer
        certain = taken >= needs or taken + 5 - number < needs
        assert certain == (number == len(deal.tricks_played)), (number, taken, needs)


def napoleon_happened(deal: NapoleonDeal) -> set[str]:
    """The words and outcomes seen in a finished deal (after N4's stop is checked)."""
    napoleon_stop(deal)
    seen = {do.value for do in deal.bids if do is not None}
    if deal.declarer is None:
        seen.add("all pass")
        return seen
    made = deal.tricks_won[deal.declarer] >= deal.declarer_needs
    seen.add(f"{'napoleon' if deal.level == NAPOLEON else 'bid'} {'made' if made else 'failed'}")
    seen.add("exchanged" if deal.discards else "kept")
    seen.add(f"{len(deal.tricks_played)} tricks")
    seen.add("dealer declares" if deal.declarer == deal.dealer else "other declares")
    return seen


CALLS = [0.05, 0.3, 0.6, 0.9]  # how often a Student or Napoleon bidder calls rather than pass
STUDENT = (StudentRules(), StudentRules(joker_lead="named_suit"))
NAPOLEON_RULES = (NapoleonRules(), NapoleonRules(napoleon_failed="pay_each"))


def _khrap_kept(rng: random.Random, i: int) -> tuple[int, Any, float]:
    n = 2 + i % 9
    rules = random_khrap_rules(rng, n) if i % 3 else FrapRules()
    return n, rules, rng.choice([0.0, 0.2, 0.5, 0.8])


def _frap_kept(rng: random.Random, i: int) -> tuple[int, Any, float]:
    n = 2 + i % 11
    return n, random_rules(rng, n) if i % 3 else PRESETS[("classic", "s0")[i % 2]], 0.5


def _student_tables(joker_lead: str, n: int) -> Table:
    return n, StudentRules.from_dict({"joker_lead": joker_lead})


def _napoleon_tables(failed: str, n: int) -> Table:
    return n, NapoleonRules.from_dict({"napoleon_failed": failed})


def _swap(table: tuple[Any, int]) -> Table:
    rules, n = table
    return n, rules


PLAYOUTS: dict[str, Playouts] = {
    # 2–12 players, both presets and random options (F1)
    "frap": Playouts(
        new=random_deal,
        max_actions=frap_max,
        phases=FrapPhase,
        kept=(2024, 2500, _frap_kept, 4),
        happened=frap_ending,
        everything=frozenset({"redeal", "play", "pot"}),
        only=True,
        replayed=(99, 400, lambda rng, i: (2 + i % 11, random_rules(rng, 2 + i % 11))),
        phased=(5, 600, lambda rng, i: (rng.randint(2, 6), FrapRules())),
        # 80 deals: the family's candidates are about twice Frap's old ones (every game's words
        # and fields), so this checks as many candidates as 150 deals did before.
        listed=(7, 80, lambda rng, i: (2 + i % 6, random_rules(rng, 2 + i % 6)), 0.5, 10_000),
        drawn=(200, frap_tables(12, 4).map(_swap), 7),
    ),
    # K1–K6 with every option, 2–10 players
    "khrap": Playouts(
        new=random_khrap,
        max_actions=khrap_max,
        phases=FrapPhase,
        kept=(2026, 700, _khrap_kept, 5),
        happened=khrap_ending,
        everything=frozenset({"redeal", "pot", "made", "failed", "made in round 2"}),
        only=False,
        replayed=(77, 60, lambda rng, i: (2 + i % 9, random_khrap_rules(rng, 2 + i % 9))),
        phased=(3, 300, lambda rng, i: (rng.randint(2, 6), FrapRules())),
        listed=(8, 25, lambda rng, i: (2 + i % 5, random_khrap_rules(rng, 2 + i % 5)), 0.5, 10_000),
        drawn=(120, frap_tables(10, 5, must_whist=True).map(_swap), 9),
    ),
    # SK1–SK13, both joker-lead options, 3–4 players
    "student_khrap": Playouts(
        new=random_student,
        max_actions=student_max,
        phases=StudentPhase,
        kept=(2027, 1500, lambda rng, i: (3 + i % 2, STUDENT[i % 2], rng.choice(CALLS)), 5),
        happened=student_happened,
        everything=frozenset(
            {"khrap", "pomogu", "beru_pyat", "veselyu", "zavorachivayu", "pass"}
            | {"redeal", "play", "bank", "failed", "joker", "plain", "joker led", "plain led"}
        ),
        only=True,
        replayed=(78, 150, lambda rng, i: (3 + i % 2, STUDENT[i % 2])),
        replay_steps=lambda n: 40,
        phased=(4, 200, lambda rng, i: (3 + i % 2, STUDENT[i % 2])),
        listed=(9, 60, lambda rng, i: (3 + i % 2, STUDENT[i % 2]), 0.8, 20_000),
        drawn=(
            150,
            st.builds(
                _student_tables, st.sampled_from(["trumps", "named_suit"]), st.integers(3, 4)
            ),
            5,
        ),
    ),
    # N1–N7, 2–6 players, both N7 options; play stops exactly when the outcome is certain (N4)
    "napoleon": Playouts(
        new=random_napoleon,
        max_actions=napoleon_max,
        phases=NapoleonPhase,
        kept=(2028, 3000, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2], rng.choice(CALLS)), 7),
        happened=napoleon_happened,
        everything=frozenset(
            {"bid", "napoleon", "here", "pass", "all pass", "exchanged", "kept"}
            | {"bid made", "bid failed", "napoleon made", "napoleon failed"}
            | {f"{k} tricks" for k in range(1, 6)}
            | {"dealer declares", "other declares"}
        ),
        only=True,
        replayed=(79, 250, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2])),
        phased=(5, 200, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2])),
        listed=(10, 60, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2]), 0.8, 20_000),
        drawn=(
            150,
            st.builds(
                _napoleon_tables,
                st.sampled_from(["treasure_doubles", "pay_each"]),
                st.integers(2, 6),
            ),
            5,
        ),
        check=napoleon_stop,
    ),
}
GAME_NAMES = sorted(PLAYOUTS)


def test_every_game_but_preferans_plays_out_here() -> None:
    assert set(PLAYOUTS) | {"preferans"} == set(GAMES)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_playouts_keep_every_invariant(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table, every_legal = spec.kept
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for i in range(deals):
        n, rules, calls = table(rng, i)
        start = spec.new(rng, n, rules)
        deal = play_out(
            start, rng, spec.max_actions(n), every_legal=i % every_legal == 0, calls=calls
        )
        seen.update(spec.happened(deal))
    assert set(seen) == spec.everything if spec.only else set(seen) >= spec.everything, seen


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_playouts_replay_and_survive_json_at_every_step(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table = spec.replayed
    steps = spec.replay_steps or spec.max_actions
    rng = random.Random(seed)
    for i in range(deals):
        n, rules = table(rng, i)
        play_out(spec.new(rng, n, rules), rng, steps(n), replays=True)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_playouts_reach_every_phase(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table = spec.phased
    rng = random.Random(seed)
    starts = (spec.new(rng, *table(rng, i))[0] for i in range(deals))
    assert phases_seen(starts, rng) == set(spec.phases) - {spec.phases["FINISHED"]}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_apply_accepts_exactly_the_listed_actions(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table, calls, least = spec.listed
    rng = random.Random(seed)
    starts = (spec.new(rng, *table(rng, i))[0] for i in range(deals))
    assert check_listed_exactly(starts, rng, calls=calls) > least


@pytest.mark.parametrize("game", GAME_NAMES)
def test_hypothesis_playouts(game: str) -> None:
    spec = PLAYOUTS[game]
    examples, tables, replay_every = spec.drawn

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(table=tables, seed=st.integers(0, 2**32 - 1), data=st.data())
    def playout(table: Table, seed: int, data: st.DataObject) -> None:
        n, rules = table
        start = spec.new(random.Random(seed), n, rules)
        spec.check(drawn_playout(start, spec.max_actions(n), data, replay_every=replay_every))

    playout()
