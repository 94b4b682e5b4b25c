"""The entries of one Preferans deal: raspasy (P10), contracts (P11), short whisters (P12), the
checked ten (P13)."""

from __future__ import annotations

from .outcome import Entries, Outcome, PrefRules


def score(outcome: Outcome, players: int, dealer: int, streak: int, rules: PrefRules) -> Entries:
    """The entries of a finished deal before overflow (P9–P13)."""
    return Entries.zero(players)
