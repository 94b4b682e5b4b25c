"""Khrap's random playouts (K1–K6): every option, 2–10 players; a deal ends in a redeal, a pot
taken without play, or a contract made or failed, and a contract is made in the second round."""

from __future__ import annotations

import random
from typing import Any

from engine.deal import TrickDeal
from engine.frap import FrapRules
from engine.frap import Phase as FrapPhase
from tests.family_helpers import frap_tables, random_khrap, random_khrap_rules
from tests.playouts import Playouts, players_first


def khrap_max(n: int) -> int:
    """Looks, two bidding rounds, the whist round, the dark discard, buying, cutting-in with its
    discards, and five tricks (K1, K3)."""
    return n + 2 * n + (n - 1) + 1 + n + 2 * n + 5 * n


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


def _khrap_kept(rng: random.Random, i: int) -> tuple[int, Any, float]:
    n = 2 + i % 9
    rules = random_khrap_rules(rng, n) if i % 3 else FrapRules()
    return n, rules, rng.choice([0.0, 0.2, 0.5, 0.8])


PLAYOUTS = Playouts(
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
    drawn=(120, frap_tables(10, 5, must_whist=True).map(players_first), 9),
)
