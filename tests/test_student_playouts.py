"""Random legal Student Khrap playouts (SK1–SK13, both joker-lead options, 3–4 players): every
card exactly once, chips conserved, every deal ends, the record replays (also through JSON), the
seat to act always has a legal action and each applies, the default action is legal, and `apply`
accepts exactly what `legal_actions` lists."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Do
from engine.student import JOKER, Phase, StudentDeal, StudentRules
from tests.family_helpers import (
    check_listed_exactly,
    drawn_playout,
    phases_seen,
    play_out,
    random_action,
    random_student,
)

RULES = (StudentRules(), StudentRules(joker_lead="named_suit"))


def max_actions(n: int) -> int:
    """Three bidding rounds, a discard after each call, the exchange, and four tricks."""
    return 3 * n + n + n + 4 * n


def what_happened(deal: StudentDeal) -> set[str]:
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


def test_random_student_playouts_keep_every_invariant() -> None:
    rng = random.Random(2027)
    seen: Counter[str] = Counter()
    for i in range(1500):
        n = 3 + i % 2
        calls = rng.choice([0.05, 0.3, 0.6, 0.9])
        start = random_student(rng, n, RULES[i % 2])
        deal = play_out(start, rng, max_actions(n), every_legal=i % 5 == 0, calls=calls)
        seen.update(what_happened(deal))
    everything = {"khrap", "pomogu", "beru_pyat", "veselyu", "zavorachivayu", "pass"}
    everything |= {"redeal", "play", "bank", "failed", "joker", "plain", "joker led", "plain led"}
    assert set(seen) == everything, seen


def test_random_student_playouts_replay_at_every_step() -> None:
    rng = random.Random(78)
    for i in range(150):
        play_out(random_student(rng, 3 + i % 2, RULES[i % 2]), rng, 40, replays=True)


def test_random_student_playouts_reach_every_phase() -> None:
    rng = random.Random(4)
    deals = (random_student(rng, 3 + i % 2, RULES[i % 2])[0] for i in range(200))
    assert phases_seen(deals, rng) == set(Phase) - {Phase.FINISHED}


def test_apply_accepts_exactly_the_listed_student_actions() -> None:
    rng = random.Random(9)
    deals = (random_student(rng, 3 + i % 2, RULES[i % 2])[0] for i in range(60))
    assert check_listed_exactly(deals, rng, calls=0.8) > 20_000


def test_legal_plays_offer_the_joker_both_ways_when_both_are_legal() -> None:
    rng = random.Random(12)
    both = 0
    for i in range(300):
        deal, _ = random_student(rng, 3 + i % 2, RULES[i % 2])
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            legal = deal.legal_actions(seat)
            flags = {a.joker for a in legal if a.do is Do.PLAY and a.card == JOKER}
            if JOKER in deal.hands[seat] and deal.phase is Phase.PLAY:
                assert True in flags  # SK2: the joker may be played at any time
                both += flags == {True, False}
            deal, _ = deal.apply(random_action(deal, rng, calls=0.8))
    assert both > 20


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(3, 4),
    joker_lead=st.sampled_from(["trumps", "named_suit"]),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_hypothesis_student_playouts(
    n: int, joker_lead: str, seed: int, data: st.DataObject
) -> None:
    rules = StudentRules.from_dict({"joker_lead": joker_lead})
    start = random_student(random.Random(seed), n, rules)
    drawn_playout(start, max_actions(n), data, replay_every=5)
