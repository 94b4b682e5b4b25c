"""`python -m engine play preferans --players N`: one person against computer players at a
terminal (engine/terminal.py is the Frap family's table): Preferans's own deal and words; its
results are in whists (P16)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TextIO

from ..cards import make_deck, shuffled
from ..terminal import NAMES, ask_number, cards_text
from .actions import PrefAction, PrefDo
from .deal import PrefDeal
from .knowledge import PrefKnowledge, pref_knowledge
from .outcome import PrefRules
from .pulya import deal_value
from .views import seat_view


def describe(action: PrefAction) -> str:
    """One Preferans action in words."""
    words = action.do.value.replace("_", " ")
    if action.cards is not None:
        return f"{words} {cards_text(action.cards)}"
    if action.card is not None:
        return f"{words} {action.card.label}"
    return f"{words} {action.bid}" if action.bid else words


def table_lines(deal: PrefDeal, seat: int) -> list[str]:
    """What the seat sees of a Preferans deal (views.seat_view): the bid or contract, the talon
    once shown, each seat's role, word and tricks, open hands, the trick and its own hand."""
    view = seat_view(deal, seat)
    table = view.table
    if table.raspasy:
        head = "raspasy"
    elif table.contract:
        head = f"contract {table.contract} by {deal.players[table.declarer or 0]}"
    else:
        head = f"bid to beat: {table.top_bid or 'none'}"
    if table.talon:
        head += f", talon {cards_text(table.talon)}"
    lines = [head]
    for info in table.seats:
        facts = [
            "dealer" if info.seat == table.dealer else "",
            info.role or "",
            f"said {info.said.replace('_', ' ')}" if info.said else "",
            f"{info.cards} cards",
            f"{info.tricks} tricks",
            f"open: {cards_text(info.open_hand)}" if info.open_hand and info.seat != seat else "",
        ]
        lines.append(f"  {info.name:>4}: " + ", ".join(fact for fact in facts if fact))
    if table.trick:
        played = ", ".join(f"{deal.players[p.seat]} {p.card.label}" for p in table.trick)
        lines.append(f"trick: {played}")
    lines.append(f"your hand: {cards_text(view.hand)}")
    return lines


def play(
    players: int, computer: Callable[[PrefKnowledge, random.Random], Any], seed: int | None,
    deals: int, read: Callable[[], str], out: TextIO,
) -> int:  # fmt: skip
    """Play up to `deals` Preferans deals at the terminal, `computer` at every seat but the
    first; the dealer passes on, the raspasy streak is carried (P10), and each deal's value in
    whists (P16) is added up."""
    rng = random.Random(seed)
    names = NAMES[:players]
    dealer, streak = rng.randrange(players), 0
    totals = [0.0] * players
    for number in range(1, deals + 1):
        deck = shuffled(make_deck(32), rng)
        deal, _ = PrefDeal.new(PrefRules(), names, dealer, deck, streak)
        print(f"\n== deal {number}: preferans, {names[dealer]} deals ==", file=out)
        while not deal.finished:
            seat = deal.controller  # P7: the lone whister decides the passer's cards in light
            assert seat is not None
            knowledge = pref_knowledge(deal, seat)
            if seat == 0:
                print("\n".join(table_lines(deal, 0)), file=out)
                moves = [describe(action) for action in knowledge.legal]
                chosen = ask_number(moves, read, out)
                if chosen is None:
                    print("\nstopped", file=out)
                    return 0
                action = knowledge.legal[chosen]
                print(f"you: {moves[chosen]}", file=out)
            else:
                action = computer(knowledge, rng)
                shown = "discard 2 cards" if action.do is PrefDo.DISCARD else None
                print(f"{names[seat]}: {shown or describe(action)}", file=out)
            deal, _ = deal.apply(action)
        assert deal.entries is not None and deal.outcome is not None
        value = deal_value(deal.entries, players)
        totals = [t + v for t, v in zip(totals, value, strict=True)]
        print(f"result: {_whists(names, value)} whists ({deal.outcome.kind})", file=out)
        print(f"totals: {_whists(names, totals)}", file=out)
        dealer = (dealer + 1) % players  # P3: the deal passes clockwise
        streak = streak + 1 if deal.raspasy else 0
    return 0


def _whists(names: tuple[str, ...], whists: list[float]) -> str:
    return ", ".join(f"{name} {amount:+.1f}" for name, amount in zip(names, whists, strict=True))
