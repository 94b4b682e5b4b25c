"""The league's rating (bot/rating.py) against Plackett-Luce updates computed here by hand."""

import math

import pytest

from bot.rating import Rating, ranks, rate

BETA = 25 / 6
KAPPA = 0.0001
TAU = 25 / 300  # the additive dynamics: sigma grows by it before each update


def by_hand(ratings: list[tuple[float, float]], rank: list[int]) -> list[tuple[float, float]]:
    """Weng and Lin's Plackett-Luce update (one player a team, gamma = sigma / c), written out,
    as openskill makes it: tau added to sigma first."""
    ratings = [(m, math.sqrt(s * s + TAU * TAU)) for m, s in ratings]
    c = math.sqrt(sum(s * s + BETA * BETA for _, s in ratings))
    e = [math.exp(m / c) for m, _ in ratings]
    n = len(ratings)
    sum_q = [sum(e[i] for i in range(n) if rank[i] >= rank[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if rank[i] == rank[q]) for q in range(n)]
    out = []
    for i, (mu, sigma) in enumerate(ratings):
        omega = delta = 0.0
        for q in range(n):
            if rank[q] > rank[i]:
                continue
            quotient = e[i] / sum_q[q]
            omega += ((1 - quotient) if q == i else -quotient) / a[q]
            delta += quotient * (1 - quotient) / a[q]
        gamma = sigma / c
        out.append((mu + sigma * sigma / c * omega,
                    sigma * math.sqrt(max(1 - sigma * sigma / (c * c) * delta * gamma, KAPPA))))
    return out


def test_ranks_share_on_equal_changes() -> None:
    assert ranks([30, -15, -15]) == [1, 2, 2]
    assert ranks([0, 10, 0, -10]) == [2, 1, 2, 4]


@pytest.mark.parametrize("start, changes", [
    ([(25, 25 / 3)] * 3, [30, -15, -15]),
    ([(27.0, 7.5), (25, 25 / 3), (22.0, 6.0), (30.0, 8.0)], [-20, 10, 10, 0]),
    ([(25 + k, 25 / 3 - k / 4) for k in range(7)], [5, 5, -3, 0, 0, 0, -7]),
])
def test_update_matches_hand_computation(start: list[tuple[float, float]],
                                         changes: list[int]) -> None:
    after = rate([Rating(m, s, 3) for m, s in start], changes)
    for got, (mu, sigma) in zip(after, by_hand(start, ranks(changes)), strict=True):
        assert got.mu == pytest.approx(mu, abs=1e-9)
        assert got.sigma == pytest.approx(sigma, abs=1e-9)
        assert got.deals == 4


def test_winner_gains_and_shown_scale() -> None:
    new = Rating()
    assert new.shown == 1000 and new.provisional
    win, lose, _ = rate([new, new, new], [30, -15, -15])
    assert win.mu > new.mu > lose.mu
    assert win.shown > lose.shown
