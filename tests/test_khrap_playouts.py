"""Random legal Khrap playouts (K1–K6 with every option, 2–10 players): every card exactly once,
chips conserved, every deal ends, the record replays (also through JSON), the seat to act always
has a legal action and each applies, the default action is legal, and `apply` accepts exactly
what `legal_actions` lists."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.deal import TrickDeal
from engine.frap import FrapRules, Phase
from tests.family_helpers import (
    check_listed_exactly,
    drawn_playout,
    frap_tables,
    phases_seen,
    play_out,
    random_khrap,
    random_khrap_rules,
)


def max_actions(n: int) -> int:
    """Looks, two bidding rounds, the whist round, the dark discard, buying, cutting-in with its
    discards, and five tricks (K1, K3)."""
    return n + 2 * n + (n - 1) + 1 + n + 2 * n + 5 * n


def ending(deal: TrickDeal) -> str:
    """How a deal ended: redeal, pot (taken without play), made or failed (played)."""
    if deal.needs_redeal:
        return "redeal"
    if not deal.tricks_played:
        return "pot"
    return "made" if deal.tricks_won[deal.declarer or 0] >= 3 else "failed"


def test_random_khrap_playouts_keep_every_invariant() -> None:
    rng = random.Random(2026)
    endings: Counter[str] = Counter()
    for i in range(700):
        n = 2 + i % 9
        rules = random_khrap_rules(rng, n) if i % 3 else FrapRules()
        calls = rng.choice([0.0, 0.2, 0.5, 0.8])
        start = random_khrap(rng, n, rules)
        deal = play_out(start, rng, max_actions(n), every_legal=i % 5 == 0, calls=calls)
        endings[ending(deal)] += 1
        endings[f"{ending(deal)} in round {deal.round}"] += 1
    assert set(endings) >= {"redeal", "pot", "made", "failed", "made in round 2"}, endings


def test_random_khrap_playouts_replay_at_every_step() -> None:
    rng = random.Random(77)
    for i in range(60):
        n = 2 + i % 9
        play_out(
            random_khrap(rng, n, random_khrap_rules(rng, n)), rng, max_actions(n), replays=True
        )


def test_random_khrap_playouts_reach_every_phase() -> None:
    rng = random.Random(3)
    deals = (random_khrap(rng, rng.randint(2, 6), FrapRules())[0] for _ in range(300))
    assert phases_seen(deals, rng) == set(Phase) - {Phase.FINISHED}


def test_apply_accepts_exactly_the_listed_khrap_actions() -> None:
    rng = random.Random(8)
    deals = (
        random_khrap(rng, n, random_khrap_rules(rng, n))[0] for n in (2 + i % 5 for i in range(25))
    )
    assert check_listed_exactly(deals, rng, calls=0.5) > 10_000


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=frap_tables(10, 5, must_whist=True), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_hypothesis_khrap_playouts(
    setup: tuple[FrapRules, int], seed: int, data: st.DataObject
) -> None:
    rules, n = setup
    drawn_playout(random_khrap(random.Random(seed), n, rules), max_actions(n), data, replay_every=9)
