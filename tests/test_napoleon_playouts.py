"""Random legal Napoleon playouts (N1–N7, 2–6 players, both N7 options): every card exactly once,
chips plus treasure conserved, every deal ends and play stops exactly when the outcome is certain
(N4), the record replays to the live deal (also through JSON), the seat to act always has a legal
action and each applies, the default action is legal, and `apply` accepts exactly what
`legal_actions` lists."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Do
from engine.napoleon import NAPOLEON, NapoleonDeal, NapoleonRules, Phase
from engine.tricks import trick_winner
from tests.family_helpers import (
    check_listed_exactly,
    drawn_playout,
    phases_seen,
    play_out,
    random_action,
    random_napoleon,
)

RULES = (NapoleonRules(), NapoleonRules(napoleon_failed="pay_each"))


def max_actions(n: int) -> int:
    """N2: each seat passes once, a bid raises the level at most six times and the dealer's
    "here" follows a raise; one exchange (N3); at most five tricks of n cards (N4)."""
    return n + 2 * NAPOLEON + 1 + 5 * n


def check_stop(deal: NapoleonDeal) -> None:
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


def what_happened(deal: NapoleonDeal) -> set[str]:
    """The words and outcomes seen in a finished deal, to check the playouts reach them all."""
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


def test_random_napoleon_playouts_keep_every_invariant() -> None:
    rng = random.Random(2028)
    seen: Counter[str] = Counter()
    for i in range(3000):
        n = 2 + i % 5
        calls = rng.choice([0.05, 0.3, 0.6, 0.9])
        start = random_napoleon(rng, n, RULES[i % 2])
        deal = play_out(start, rng, max_actions(n), every_legal=i % 7 == 0, calls=calls)
        check_stop(deal)
        seen.update(what_happened(deal))
    everything = {"bid", "napoleon", "here", "pass", "all pass", "exchanged", "kept"}
    everything |= {"bid made", "bid failed", "napoleon made", "napoleon failed"}
    everything |= {f"{k} tricks" for k in range(1, 6)} | {"dealer declares", "other declares"}
    assert set(seen) == everything, seen


def test_random_napoleon_playouts_replay_at_every_step() -> None:
    rng = random.Random(79)
    for i in range(250):
        n = 2 + i % 5
        play_out(random_napoleon(rng, n, RULES[i % 2]), rng, max_actions(n), replays=True)


def test_random_napoleon_playouts_reach_every_phase() -> None:
    rng = random.Random(5)
    deals = (random_napoleon(rng, 2 + i % 5, RULES[i % 2])[0] for i in range(200))
    assert phases_seen(deals, rng) == set(Phase) - {Phase.FINISHED}


def test_apply_accepts_exactly_the_listed_napoleon_actions() -> None:
    rng = random.Random(10)
    deals = (random_napoleon(rng, 2 + i % 5, RULES[i % 2])[0] for i in range(60))
    assert check_listed_exactly(deals, rng, calls=0.8) > 20_000


def test_bidding_offers_here_only_to_the_dealer_over_another_bid() -> None:
    rng = random.Random(13)
    offered = 0
    for i in range(500):
        deal, _ = random_napoleon(rng, 2 + i % 5, RULES[0])
        while deal.phase is Phase.BIDDING:
            seat = deal.to_act
            assert seat is not None
            here = any(a.do is Do.HERE for a in deal.legal_actions(seat))
            assert here == (seat == deal.dealer and deal.holder is not None)
            offered += here
            deal, _ = deal.apply(random_action(deal, rng, calls=0.7))
    assert offered > 50


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 6),
    failed=st.sampled_from(["treasure_doubles", "pay_each"]),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_hypothesis_napoleon_playouts(n: int, failed: str, seed: int, data: st.DataObject) -> None:
    rules = NapoleonRules.from_dict({"napoleon_failed": failed})
    start = random_napoleon(random.Random(seed), n, rules)
    check_stop(drawn_playout(start, max_actions(n), data, replay_every=5))
