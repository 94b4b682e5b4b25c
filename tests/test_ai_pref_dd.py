"""The fast exact Preferans solver (engine/ai/pref_dd.py) against a brute-force minimax
over P8–P10's own legal cards and takers, against the alpha-beta solver it replaces, and against
the engine itself over raspasy's talon tricks (P10), which the old solver did not know."""

from __future__ import annotations

import random
from collections import Counter

from engine.ai.pref_dd import DDSolver
from engine.preferans.deal import PrefDeal
from tests.pref_solver_reference import Solver, brute_force, random_position


def _kind(deal: PrefDeal) -> str:
    return "raspasy" if deal.raspasy else deal.contract or ""


def _sides(deal: PrefDeal) -> tuple[int, frozenset[int]]:
    """The counted seat and the seats that want it to take more tricks."""
    counted = deal.turn if deal.raspasy else deal.declarer
    assert counted is not None
    if deal.raspasy or deal.contract == "misere":
        return counted, frozenset(s for s in deal.order if s != counted)
    return counted, frozenset({counted})


def test_p8_p10_the_solver_is_the_brute_force_minimax_on_2000_small_positions() -> None:
    """Positions with 1–3 tricks left (trick contracts, misère, raspasy, 3 or 4 at the table):
    every legal card's value is the plain minimax value."""
    rng = random.Random("pref/dd/brute")
    kinds: Counter[str] = Counter()
    for i in range(2000):
        deal = random_position(rng, 1 + i % 3)
        counted, maximisers = _sides(deal)
        solver = DDSolver(deal)
        for action in deal.legal_actions():
            assert action.card is not None
            won = solver.after(action.seat, action.card)
            after = deal.apply(action)[0]
            expected = after.won[counted] + brute_force(after, counted, maximisers)
            assert won[counted] == expected, (deal, action)
            assert sum(won) == 10
        kinds[_kind(deal)] += 1
    assert kinds["raspasy"] > 100 and kinds["misere"] > 100 and len(kinds) > 5, kinds


def test_the_solver_agrees_with_the_old_alpha_beta_solver_on_1000_positions() -> None:
    """Positions with 4–6 tricks left: every legal card's tricks for every seat are the old
    solver's (the tricks it does not count shared out the same way)."""
    rng = random.Random("pref/dd/old")
    kinds: Counter[str] = Counter()
    for i in range(1000):
        deal = random_position(rng, 4 + i % 3 if i % 10 else 6)
        new, old = DDSolver(deal), Solver(deal)
        for action in deal.legal_actions():
            assert action.card is not None
            assert new.after(action.seat, action.card) == old.after(action.seat, action.card)
        kinds[_kind(deal)] += 1
    assert kinds["raspasy"] > 50 and kinds["misere"] > 50, kinds


def test_p10_raspasy_talon_tricks_follow_the_engine() -> None:
    """In raspasy's first two tricks (the talon card's suit followed by every hand, its highest
    card taking the trick, the first hand leading again): a card's value is the best over the
    engine's next legal cards of the value the solver gives after that card, down to the trick's
    end, where a fresh solver counting the same seat takes over."""
    rng = random.Random("pref/dd/talon")
    checked: Counter[tuple[int, int]] = Counter()
    while checked.total() < 40:
        first_trick = checked.total() % 5 == 0  # most in the second: its end is cheaper to solve
        deal = random_position(rng, 10 if first_trick else 9)
        if not deal.raspasy or deal.n != 3:
            continue
        while len(deal.trick) < (1 + checked.total() % 2 if first_trick else 2):
            deal = deal.apply(rng.choice(deal.legal_actions()))[0]
        seat = deal.turn
        assert seat is not None
        _, maximisers = _sides(deal)
        solver = DDSolver(deal)
        for action in deal.legal_actions():
            assert action.card is not None
            expected = _stepped(deal.apply(action)[0], seat, maximisers) - deal.won[seat]
            assert solver.counted(action.seat, action.card) == expected
        checked[len(deal.tricks_played), len(deal.trick)] += 1
    assert set(checked) == {(0, 1), (0, 2), (1, 2)}, checked


def _stepped(deal: PrefDeal, counted: int, maximisers: frozenset[int]) -> int:
    """The counted seat's tricks at the end with best play: the engine stepped card by card to
    the end of the trick on the table, then a fresh solver counting the same seat."""
    pick = max if deal.turn in maximisers else min
    legal = deal.legal_actions()
    if deal.trick:
        return pick(_stepped(deal.apply(a)[0], counted, maximisers) for a in legal)
    solver = DDSolver(deal, target=counted)
    return deal.won[counted] + pick(
        solver.counted(a.seat, a.card) for a in legal if a.card is not None
    )
