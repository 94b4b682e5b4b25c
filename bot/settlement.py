"""The fewest transfers that settle an evening: who pays whom how much.

Pure: results in, transfers out. Every party's transfers add up to his result exactly.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

EXACT_UP_TO = 14  # parties with a non-zero result: above this the search (2^n) is too slow


def settle(results: Mapping[K, int]) -> list[tuple[K, K, int]]:
    """The fewest (payer, payee, amount) transfers, amounts > 0, after which every party's
    result is zero. The results must add up to zero (ValueError otherwise).

    n parties need n - g transfers, g being the most groups they split into that each add up
    to zero; the groups are found exactly for up to EXACT_UP_TO parties (greedy beyond), and
    inside a group the biggest debtor pays the biggest creditor, one party zeroed a transfer.
    """
    if sum(results.values()) != 0:
        raise ValueError(f"results add up to {sum(results.values())}, not zero")
    parties = sorted((k for k, v in results.items() if v), key=lambda k: (-results[k], str(k)))
    groups = _zero_groups(parties, results) if len(parties) <= EXACT_UP_TO else [parties]
    transfers: list[tuple[K, K, int]] = []
    for group in groups:
        transfers += _greedy({k: results[k] for k in group})
    return transfers


def _zero_groups(parties: list[K], results: Mapping[K, int]) -> list[list[K]]:
    """The parties split into the most groups that each add up to zero (a DP over subsets)."""
    n = len(parties)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + results[parties[low]]
    # best[mask]: the most zero-sum groups the parties of `mask` (which adds up to zero) split
    # into; a zero-sum mask splits off a zero-sum submask holding its lowest party
    best = [0] * (1 << n)
    split = [0] * (1 << n)
    for mask in range(1, 1 << n):
        if total[mask] != 0:
            continue
        low = mask & -mask
        best[mask], split[mask] = 1, mask
        rest = mask ^ low
        sub = rest
        while sub:
            part = sub | low
            if part != mask and total[part] == 0 and 1 + best[mask ^ part] > best[mask]:
                best[mask], split[mask] = 1 + best[mask ^ part], part
            sub = (sub - 1) & rest
    groups = []
    mask = full
    while mask:
        part = split[mask]
        groups.append([parties[i] for i in range(n) if part >> i & 1])
        mask ^= part
    return groups


def _greedy(results: dict[K, int]) -> list[tuple[K, K, int]]:
    """Settle a zero-sum group: the biggest debtor pays the biggest creditor, until all are
    even (each transfer zeroes one of them, the last both)."""
    left = dict(results)
    out: list[tuple[K, K, int]] = []
    while any(left.values()):
        payer = min(left, key=lambda k: (left[k], str(k)))
        payee = max(left, key=lambda k: (left[k], str(k)))
        amount = min(-left[payer], left[payee])
        out.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return out
