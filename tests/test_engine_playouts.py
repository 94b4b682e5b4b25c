"""Random legal Frap playouts: the invariants every state keeps (F1, F7, F12, F15, HAND_FORMAT).

Seeded, for 2–12 players, both presets and random options. Checked at every step (the family's
`Checker`): each card is exactly once in hands, stock, discards, dead turn-ups, the turn-up or a
trick; chips are conserved and match the events; the deal ends within a bounded number of
actions; the seat to act has a legal action and every legal action applies, the others may only
open their hands; the default action is legal; the record replays (also through JSON text) to a
state equal to the live one; and `apply` accepts exactly what `legal_actions` lists.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.frap import PRESETS, FrapRules, Phase
from tests.engine_helpers import random_deal, random_rules
from tests.family_helpers import (
    check_listed_exactly,
    drawn_playout,
    frap_tables,
    phases_seen,
    play_out,
)


def max_actions(n: int) -> int:
    """An upper bound on a deal's actions: looks, three bidding rounds or a frap round and the
    whist round, the dark discard, buying, cutting-in with its discards, and 4 tricks."""
    return n + 3 * n + (n - 1) + 1 + n + 2 * n + 4 * n


def test_random_playouts_keep_every_invariant() -> None:
    rng = random.Random(2024)
    endings: Counter[str] = Counter()
    for i in range(2500):
        n = 2 + i % 11
        rules = random_rules(rng, n) if i % 3 else PRESETS[("classic", "s0")[i % 2]]
        deal = play_out(random_deal(rng, n, rules), rng, max_actions(n), every_legal=i % 4 == 0)
        endings["redeal" if deal.needs_redeal else "play" if deal.tricks_played else "pot"] += 1
    assert set(endings) == {"redeal", "play", "pot"}, endings


def test_random_playouts_replay_and_survive_json_at_every_step() -> None:
    rng = random.Random(99)
    for i in range(400):
        n = 2 + i % 11
        play_out(random_deal(rng, n, random_rules(rng, n)), rng, max_actions(n), replays=True)


def test_random_playouts_reach_every_phase() -> None:
    rng = random.Random(5)
    deals = (random_deal(rng, rng.randint(2, 6), FrapRules())[0] for _ in range(600))
    assert phases_seen(deals, rng) == set(Phase) - {Phase.FINISHED}


def test_apply_accepts_exactly_the_listed_actions() -> None:
    # 80 deals: the family's candidates are about twice Frap's old ones (every game's words and
    # fields), so this checks as many candidates as 150 deals did before (~946,000 v. 920,098).
    rng = random.Random(7)
    deals = (random_deal(rng, n, random_rules(rng, n))[0] for n in (2 + i % 6 for i in range(80)))
    assert check_listed_exactly(deals, rng, calls=0.5) > 10_000


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=frap_tables(12, 4), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_hypothesis_playouts(setup: tuple[FrapRules, int], seed: int, data: st.DataObject) -> None:
    rules, n = setup
    drawn_playout(random_deal(random.Random(seed), n, rules), max_actions(n), data, replay_every=7)
