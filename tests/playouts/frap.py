"""Frap's random playouts (F1): 2–12 players, both presets and random options; a deal ends in a
redeal, a pot taken without play, or play, and the runs see all three."""

from __future__ import annotations

import random
from typing import Any

from engine.deal import TrickDeal
from engine.frap import PRESETS, FrapRules
from engine.frap import Phase as FrapPhase
from tests.engine_helpers import random_deal, random_rules
from tests.family_helpers import frap_tables
from tests.playouts import Playouts, players_first


def frap_max(n: int) -> int:
    """Looks, three bidding rounds or a frap round and the whist round, the dark discard,
    buying, cutting-in with its discards, and 4 tricks."""
    return n + 3 * n + (n - 1) + 1 + n + 2 * n + 4 * n


def frap_ending(deal: TrickDeal) -> list[str]:
    """How a deal ended: redeal, play, or the pot taken without play."""
    return ["redeal" if deal.needs_redeal else "play" if deal.tricks_played else "pot"]


def _frap_kept(rng: random.Random, i: int) -> tuple[int, Any, float]:
    n = 2 + i % 11
    return n, random_rules(rng, n) if i % 3 else PRESETS[("classic", "s0")[i % 2]], 0.5


PLAYOUTS = Playouts(
    new=random_deal,
    max_actions=frap_max,
    phases=FrapPhase,
    kept=(2024, 2500, _frap_kept, 4),
    happened=frap_ending,
    everything=frozenset({"redeal", "play", "pot"}),
    only=True,
    replayed=(99, 400, lambda rng, i: (2 + i % 11, random_rules(rng, 2 + i % 11))),
    phased=(5, 600, lambda rng, i: (rng.randint(2, 6), FrapRules())),
    # 80 deals: the family's candidates are about twice Frap's old ones (every game's words
    # and fields), so this checks as many candidates as 150 deals did before.
    listed=(7, 80, lambda rng, i: (2 + i % 6, random_rules(rng, 2 + i % 6)), 0.5, 10_000),
    drawn=(200, frap_tables(12, 4).map(players_first), 7),
)
