"""Student khrap's random playouts (SK1–SK13): both joker-lead options, 3–4 players; the runs
see every call, every ending and the joker played and led both ways."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.student import JOKER, StudentDeal, StudentRules
from engine.student import Phase as StudentPhase
from tests.family_helpers import random_student
from tests.playouts import CALLS, Playouts, Table

STUDENT = (StudentRules(), StudentRules(joker_lead="named_suit"))


def student_max(n: int) -> int:
    """Three bidding rounds, a discard after each call, the exchange, and four tricks."""
    return 3 * n + n + n + 4 * n


def student_happened(deal: StudentDeal) -> set[str]:
    """The calls and plays seen in a finished deal, to check the playouts reach them all."""
    seen = {do.value for do in deal.bids if do is not None}
    seen.add("redeal" if deal.needs_redeal else "play" if deal.tricks_played else "bank")
    for trick in deal.tricks_played:
        for at, play in enumerate(trick):
            if play.card == JOKER:
                how = "joker" if play.joker else "plain"
                seen.add(f"{how} led" if at == 0 else how)
    if deal.tricks_played and deal.tricks_won[deal.declarer or 0] < 2:
        seen.add("failed")
    return seen


def _student_tables(joker_lead: str, n: int) -> Table:
    return n, StudentRules.from_dict({"joker_lead": joker_lead})


PLAYOUTS = Playouts(
    new=random_student,
    max_actions=student_max,
    phases=StudentPhase,
    kept=(2027, 1500, lambda rng, i: (3 + i % 2, STUDENT[i % 2], rng.choice(CALLS)), 5),
    happened=student_happened,
    everything=frozenset(
        {"khrap", "pomogu", "beru_pyat", "veselyu", "zavorachivayu", "pass"}
        | {"redeal", "play", "bank", "failed", "joker", "plain", "joker led", "plain led"}
    ),
    only=True,
    replayed=(78, 150, lambda rng, i: (3 + i % 2, STUDENT[i % 2])),
    replay_steps=lambda n: 40,
    phased=(4, 200, lambda rng, i: (3 + i % 2, STUDENT[i % 2])),
    listed=(9, 60, lambda rng, i: (3 + i % 2, STUDENT[i % 2]), 0.8, 20_000),
    drawn=(
        150,
        st.builds(_student_tables, st.sampled_from(["trumps", "named_suit"]), st.integers(3, 4)),
        5,
    ),
)
