"""Napoleon's random playouts (N1–N7): 2–6 players, both N7 options; play stops exactly when the
outcome is certain (N4), and the runs see every word, every outcome and every length of play."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.napoleon import NAPOLEON, NapoleonDeal, NapoleonRules
from engine.napoleon import Phase as NapoleonPhase
from engine.tricks import trick_winner
from tests.family_helpers import random_napoleon
from tests.playouts import CALLS, Playouts, Table

NAPOLEON_RULES = (NapoleonRules(), NapoleonRules(napoleon_failed="pay_each"))


def napoleon_max(n: int) -> int:
    """N2: each seat passes once, a bid raises the level at most six times and the dealer's
    "here" follows a raise; one exchange (N3); at most five tricks of n cards (N4)."""
    return n + 2 * NAPOLEON + 1 + 5 * n


def napoleon_stop(deal: NapoleonDeal) -> None:
    """N4: play ended on the first trick after which the outcome was certain, never later."""
    if not deal.tricks_played:
        assert deal.declarer is None and deal.delta == (-deal.ante,) * deal.n  # N2: all passed
        return
    needs, declarer = deal.declarer_needs, deal._declarer
    taken = 0
    for number, trick in enumerate(deal.tricks_played, start=1):
        taken += trick_winner(trick, deal.trump) == declarer
        certain = taken >= needs or taken + 5 - number < needs
        assert certain == (number == len(deal.tricks_played)), (number, taken, needs)


def napoleon_happened(deal: NapoleonDeal) -> set[str]:
    """The words and outcomes seen in a finished deal (after N4's stop is checked)."""
    napoleon_stop(deal)
    seen = {do.value for do in deal.bids if do is not None}
    if deal.declarer is None:
        seen.add("all pass")
        return seen
    made = deal.tricks_won[deal.declarer] >= deal.declarer_needs
    seen.add(f"{'napoleon' if deal.level == NAPOLEON else 'bid'} {'made' if made else 'failed'}")
    seen.add("exchanged" if deal.discards else "kept")
    seen.add(f"{len(deal.tricks_played)} tricks")
    seen.add("dealer declares" if deal.declarer == deal.dealer else "other declares")
    return seen


def _napoleon_tables(failed: str, n: int) -> Table:
    return n, NapoleonRules.from_dict({"napoleon_failed": failed})


PLAYOUTS = Playouts(
    new=random_napoleon,
    max_actions=napoleon_max,
    phases=NapoleonPhase,
    kept=(2028, 3000, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2], rng.choice(CALLS)), 7),
    happened=napoleon_happened,
    everything=frozenset(
        {"bid", "napoleon", "here", "pass", "all pass", "exchanged", "kept"}
        | {"bid made", "bid failed", "napoleon made", "napoleon failed"}
        | {f"{k} tricks" for k in range(1, 6)}
        | {"dealer declares", "other declares"}
    ),
    only=True,
    replayed=(79, 250, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2])),
    phased=(5, 200, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2])),
    listed=(10, 60, lambda rng, i: (2 + i % 5, NAPOLEON_RULES[i % 2]), 0.8, 20_000),
    drawn=(
        150,
        st.builds(
            _napoleon_tables,
            st.sampled_from(["treasure_doubles", "pay_each"]),
            st.integers(2, 6),
        ),
        5,
    ),
    check=napoleon_stop,
)
