"""The evening summary's transfers settle the session exactly, with the fewest."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.settlement import settle


def _apply(results: dict[str, int], transfers: list[tuple[str, str, int]]) -> dict[str, int]:
    """Each party's result after the transfers (a payer's debt shrinks, a payee's claim)."""
    left = dict(results)
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        left[payer] += amount
        left[payee] -= amount
    return left


def _fewest_by_brute_force(results: dict[str, int]) -> int:
    """n non-zero parties minus the most zero-sum groups, by trying every partition."""
    parties = [k for k, v in results.items() if v]

    def most(rest: tuple[str, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        found = -1
        for r in range(len(others) + 1):
            for combo in itertools.combinations(others, r):
                if results[first] + sum(results[k] for k in combo) == 0:
                    sub = most(tuple(k for k in others if k not in combo))
                    if sub >= 0:
                        found = max(found, 1 + sub)
        return found

    return len(parties) - most(tuple(parties))


def test_two_players_one_transfer() -> None:
    assert settle({"Alice": 30, "Bob": -30}) == [("Bob", "Alice", 30)]


def test_everyone_even_needs_no_transfer() -> None:
    assert settle({"Alice": 0, "Bob": 0}) == []


def test_pairs_that_cancel_are_settled_apart() -> None:
    """Greedy pairing would take three transfers here; two pairs need two."""
    results = {"A": 50, "B": 30, "C": -30, "D": -50}
    transfers = settle(results)
    assert sorted(transfers) == [("C", "B", 30), ("D", "A", 50)]


def test_results_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(ValueError):
        settle({"Alice": 10, "Bob": -5})


def test_random_sessions_settle_exactly_with_the_fewest_transfers() -> None:
    rng = random.Random(16)
    for _ in range(300):
        n = rng.randint(2, 7)
        values = [rng.choice([0, 10, 20, 30, 40, 50]) * rng.choice([1, -1]) for _ in range(n - 1)]
        results = {f"p{i}": v for i, v in enumerate(values)}
        results[f"p{n - 1}"] = -sum(values)
        transfers = settle(results)
        assert all(v == 0 for v in _apply(results, transfers).values()), (results, transfers)
        assert len(transfers) == _fewest_by_brute_force(results), (results, transfers)


def test_many_parties_fall_back_to_a_greedy_settlement_that_is_still_exact() -> None:
    rng = random.Random(3)
    values = [rng.randint(-100, 100) for _ in range(29)]
    results = {f"p{i}": v for i, v in enumerate(values)} | {"last": -sum(values)}
    transfers = settle(results)
    assert all(v == 0 for v in _apply(results, transfers).values())
    assert len(transfers) < len(results)
