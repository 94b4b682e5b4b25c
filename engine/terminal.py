"""`python -m engine play GAME --players N`: one person plays against computer players in a
terminal — the quickest way to learn a game or check a rule, with no Telegram at all.

You sit at seat 0; the other seats are played by the chosen level (engine/ai). Each turn shows
your hand, the table and your legal moves numbered; type a number (or `q` to stop). Deals follow
one another with the pot carried and the deal passed on, as the bot plays them. This is the Frap
family's table; Preferans's is engine/preferans/terminal.py. `python -m engine play` finds a game's
table in the registry (engine/games.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .actions import Action, Do, Verb
from .cards import Card, make_deck, shuffled, suit_order
from .deal import TrickDeal
from .knowledge import Knowledge, seat_knowledge

NAMES = ("you", "ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim")
RULES = {"preset": "classic"}


def describe(action: Action) -> str:
    """One action in words, for the list of moves and the table's log."""
    words = action.do.value.replace("_", " ")
    if action.cards is not None:
        return f"{words} {cards_text(action.cards)}" if action.cards else f"{words} nothing"
    if action.do is Do.CUT:
        return f"{words} taking the turn-up" if action.turnup else f"{words} from the stock"
    if action.card is None:
        return words
    text = f"{words} {action.card.label}"
    if action.joker is not None:
        text += " as the joker" if action.joker else " as a plain card"
    if action.suit is not None:
        text += f", asking for {action.suit.symbol}"
    return text


def table_lines(deal: TrickDeal, seat: int) -> list[str]:
    """What the seat sees: trump, turn-up, pot, each seat's word and tricks, the trick, its hand."""
    turnup = deal.turnup.label if deal.turnup else "taken or dead"
    lines = [
        f"trump {deal.trump.symbol}, turn-up {turnup}, pot {deal.pot}, stock {deal.stock_size}"
    ]
    for other in range(deal.n):
        said = deal.bids[other]
        facts = [
            "dealer" if other == deal.dealer else "",
            deal.role(other) or "",
            f"said {said.value.replace('_', ' ')}" if said else "",
            f"{len(deal.hands[other])} cards",
            f"{deal.tricks_won[other]} tricks",
        ]
        lines.append(f"  {deal.players[other]:>4}: " + ", ".join(fact for fact in facts if fact))
    if deal.trick:
        played = ", ".join(f"{deal.players[p.seat]} {p.card.label}" for p in deal.trick)
        lines.append(f"trick: {played}")
    hand = "(not looked at)" if deal.hand_hidden(seat) else cards_text(deal.hands[seat])
    lines.append(f"your hand: {hand}")
    return lines


def play(
    cls: type[TrickDeal], players: int, computer: Callable[[Knowledge, random.Random], Any],
    seed: int | None, deals: int, read: Callable[[], str], out: TextIO,
) -> int:  # fmt: skip
    """Play up to `deals` deals of the family game `cls` at the terminal, `computer` at every
    seat but the first; returns the exit status (0: done or quit)."""
    rng = random.Random(seed)
    names = NAMES[:players]
    deck_size = cls.deck_size_for(RULES, players)
    dealer, pot, penalty, redeal = rng.randrange(players), 0, False, False
    totals = [0] * players
    for number in range(1, deals + 1):
        deal, _ = cls.create(
            RULES, names, dealer, 10, pot, shuffled(make_deck(deck_size), rng),
            pot_has_penalty=penalty, redeal=redeal,
        )  # fmt: skip
        print(f"\n== deal {number}: {cls.game}, {names[dealer]} deals ==", file=out)
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            knowledge = seat_knowledge(deal, seat)
            if seat == 0:
                action = _ask(deal, knowledge.legal, read, out)
                if action is None:
                    print("\nstopped", file=out)
                    return 0
                print(f"you: {describe(action)}", file=out)
            else:
                action = computer(knowledge, rng)
                print(f"{names[seat]}: {_public(action, cls.FACE_DOWN)}", file=out)
            deal, _ = deal.apply(action)
        totals = [t + d for t, d in zip(totals, deal.delta, strict=True)]
        print(f"result: {_chips(names, deal.delta)}", file=out)
        print(f"totals: {_chips(names, totals)}", file=out)
        dealer, pot, penalty = deal.next_dealer, deal.pot, deal.pot_has_penalty
        redeal = deal.needs_redeal
    return 0


def _ask(
    deal: TrickDeal, legal: tuple[Action, ...], read: Callable[[], str], out: TextIO
) -> Action | None:
    """Show the table and the numbered moves; the chosen move, or None to stop."""
    print("\n".join(table_lines(deal, 0)), file=out)
    number = ask_number([describe(action) for action in legal], read, out)
    return None if number is None else legal[number]


def ask_number(moves: list[str], read: Callable[[], str], out: TextIO) -> int | None:
    """Show the numbered moves; the index of the one chosen, or None to stop."""
    for number, move in enumerate(moves, 1):
        print(f"  {number}. {move}", file=out)
    while True:
        print("your move: ", file=out, flush=True)
        line = read()
        text = line.strip()
        if not line or text in ("q", "quit"):  # end of input, or asked to stop
            return None
        if text.isdigit() and 1 <= int(text) <= len(moves):
            return int(text) - 1
        print(f"\ntype a number from 1 to {len(moves)}, or q to stop", file=out)


def _public(action: Action, face_down: frozenset[Verb]) -> str:
    """A computer seat's action as the table sees it: face-down cards (those of the game's words
    in `face_down`) are not named."""
    if action.do not in face_down:
        return describe(action)
    if action.cards:
        return f"discard {len(action.cards)} cards"
    if action.card is not None:
        return action.do.value.replace("_", " ")
    return describe(action)


def _chips(names: tuple[str, ...], chips: Sequence[int]) -> str:
    return ", ".join(f"{name} {amount:+d}" for name, amount in zip(names, chips, strict=True))


def cards_text(cards: tuple[Card, ...]) -> str:
    """Cards by suit, high first."""
    ordered = sorted(cards, key=lambda c: (suit_order(c.suit), -c.rank))
    return " ".join(card.label for card in ordered)
