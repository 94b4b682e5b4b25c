"""The review of a finished Preferans deal (engine/review.py) by the exact solver
(ai/pref_dd.py): every legal card of every card played, the contract against what the
declarer's cards make with best play in each trump, the whisting against the obligation, and
misère the same way. Raspasy has three players each on his own (P10): its review shows the hands.

One solver serves the whole play: its transposition table holds positions at a trick's start, so
each card's search reuses what the cards before it found."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import Card
from ..preferans.actions import PrefAction, PrefDo
from ..preferans.bidding import RANK, level, strain, trump_of
from ..preferans.deal import TRICKS, Phase, PrefDeal
from ..preferans.record import replay, start
from ..preferans.scoring import has_whisting, obligation
from ..review import Contract, Review, Step, build
from .pref_dd import DDSolver

_DENOMINATIONS = ("S", "C", "D", "H", "NT")


def review(record: dict[str, Any]) -> Review:
    """The review of a finished deal's record (ReplayError if it does not replay)."""
    deal = start(record)
    dealt = tuple(deal.hands)
    solver: DDSolver | None = None
    steps: list[Step] = []
    contract: Contract | None = None
    for entry in record.get("actions", []):
        action = PrefAction.from_record(entry)
        if deal.phase is Phase.PLAY and not deal.raspasy:
            if solver is None:
                solver = DDSolver(deal)
            else:
                solver.rebase(deal)
            steps.append(_step(deal, solver, action))
        deal = deal.apply(action)[0]
        if action.do is PrefDo.CONTRACT or (action.do is PrefDo.DISCARD and deal.contract):
            contract, solver = _contract(deal)
    parts: dict[str, Any] = {"talon": deal.talon, "discard": deal.discards, "total": TRICKS}
    players = deal.players
    if deal.raspasy:
        return build(deal.game, players, dealt, only_hands="raspasy", **parts)
    declarer = deal.declarer
    assert declarer is not None
    if not steps:
        return build(
            deal.game, players, dealt, declarer=declarer, contract=contract, only_hands="no_play",
            **parts,
        )  # fmt: skip
    first = steps[0]
    start_value = first.best if first.seat == declarer or deal.contract == "misere" else (
        TRICKS - first.best
    )  # fmt: skip
    return build(
        deal.game, players, dealt, declarer=declarer, steps=tuple(steps), start=start_value,
        taken=deal.won[declarer], contract=contract, **parts,
    )  # fmt: skip


def hands(record: dict[str, Any]) -> Review:
    """The hands as dealt, the talon and the discard, nothing weighed (what a deal's result
    shows when it is over)."""
    deal = start(record)
    dealt = tuple(deal.hands)
    end = replay(record)
    return build(deal.game, deal.players, dealt, talon=deal.talon, discard=end.discards)


def _step(deal: PrefDeal, solver: DDSolver, action: PrefAction) -> Step:
    """The values of every legal card of the seat to play (in its side's tricks)."""
    seat = action.seat
    assert action.card is not None and deal.declarer is not None
    misere = deal.contract == "misere"
    declarer = deal.declarer
    before = deal.won[declarer]
    values: list[tuple[Card, int]] = []
    for legal in deal.legal_actions():
        assert legal.card is not None
        counted = before + solver.counted(seat, legal.card)
        values.append((legal.card, counted if misere or seat == declarer else TRICKS - counted))
    by = deal.controller
    assert by is not None
    more = not (misere and seat == declarer)
    return Step(len(deal.tricks_played) + 1, seat, by, action.card, tuple(values), more)


def _contract(deal: PrefDeal) -> tuple[Contract, DDSolver]:
    """The contract named against the declarer's tricks with his discard in each trump (misère:
    against his fewest tricks in misère), all played from the first hand's lead with every hand
    in view; and the solver of the contract named, its table ready for the play."""
    named = deal.contract
    assert named is not None
    declarer = deal.declarer or 0
    if named == "misere":  # P9: misère is weighed against itself only
        kept = DDSolver(_as_played(deal, "misere"))
        return Contract(named, (), kept.ends()[declarer], None), kept
    tricks: list[tuple[str, int]] = []
    for denomination in _DENOMINATIONS:
        bid = f"6{denomination}"
        solver = DDSolver(_as_played(deal, bid))
        tricks.append((denomination, solver.ends()[declarer]))
        if trump_of(named) is trump_of(bid):
            kept = solver
    on = [f"{min(t, TRICKS)}{d}" for d, t in tricks if t >= 6]
    best = max(on, key=RANK.__getitem__) if on else None
    defence = need = None
    if named != "misere" and has_whisting(deal.outcome_with(deal.won), deal.rules):
        made = dict(tricks)[strain(named)]
        defence, need = TRICKS - made, obligation(level(named), deal.rules)
    return Contract(named, tuple(tricks), None, best, defence, need), kept


def _as_played(deal: PrefDeal, contract: str) -> PrefDeal:
    """The deal after the discard as if `contract` were played against two defenders."""
    return replace(
        deal, contract=contract, trump=trump_of(contract), phase=Phase.PLAY,
        turn=deal.first_hand, trick=(), tricks_played=(), won=(0,) * deal.n,
    )  # fmt: skip
