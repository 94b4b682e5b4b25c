"""Preferans has no family spec: its deal is its own type (PrefDeal) with its own invariants
(every card once among hands, talon, discard and tricks; the hands P7 and P9 open; each trick's
taker by P8 and P10; the scoring and a pulya's settlement), played out in thousands of seeded
random deals by tests/test_pref_playouts.py."""

from __future__ import annotations

from tests.playouts import Playouts

PLAYOUTS: Playouts | None = None
