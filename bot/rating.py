"""The chat's league: a Plackett-Luce rating per chat and game (the `openskill` package).

One update per rated result: the seats ranked by their chip change (equal changes share a rank,
a higher change ranks first). A player is a key: a user id, or the name a computer plays under.
The shown figure is the conservative mu - 3 sigma on a scale a person reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3
SCALE, OFFSET = 40, 1000
# provisional while fewer rated deals than this, or sigma above this bound (a newcomer's sigma is
# 8.33; after ten deals at a table of three it is near 6.6, so 7 marks one still settling)
PROVISIONAL_DEALS = 10
PROVISIONAL_SIGMA = 7.0


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    deals: int = 0

    @property
    def shown(self) -> int:
        return round((self.mu - 3 * self.sigma) * SCALE + OFFSET)

    @property
    def provisional(self) -> bool:
        return self.deals < PROVISIONAL_DEALS or self.sigma > PROVISIONAL_SIGMA


def ranks(changes: list[int]) -> list[int]:
    """Competition ranks by chip change: the highest change is 1, equal changes share a rank."""
    return [1 + sum(other > mine for other in changes) for mine in changes]


def rate(before: list[Rating], changes: list[int]) -> list[Rating]:
    """The ratings after one result; `changes` are the seats' chip changes, seat by seat."""
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks(changes)])
    return [Rating(t[0].mu, t[0].sigma, r.deals + 1) for t, r in zip(after, before, strict=True)]
