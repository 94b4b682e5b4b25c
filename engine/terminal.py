"""`python -m engine play GAME --players N`: one person plays against computer players in a
terminal — the quickest way to learn a game or check a rule, with no Telegram at all.

You sit at seat 0; the other seats are played by the chosen level (engine/ai). Each turn shows
your hand, the table and your legal moves numbered; type a number (or `q` to stop). Deals follow
one another with the pot carried and the deal passed on, as the bot plays them. Preferans
(`play_preferans`) has its own deal and words; its results are in whists (P16).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TextIO

from .actions import Action, Do
from .ai import LEVELS, pref_knowledge, seat_knowledge
from .ai.preferans import settle
from .cards import Card, make_deck, shuffled, suit_order
from .deal import TrickDeal
from .games import GAMES
from .preferans.actions import PrefAction, PrefDo
from .preferans.deal import PrefDeal
from .preferans.outcome import PrefRules
from .preferans.views import seat_view

NAMES = ("you", "ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim")
RULES = {"preset": "classic"}


def describe(action: Action) -> str:
    """One action in words, for the list of moves and the table's log."""
    words = action.do.value.replace("_", " ")
    if action.cards is not None:
        return f"{words} {_cards(action.cards)}" if action.cards else f"{words} nothing"
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
    hand = "(not looked at)" if deal.hand_hidden(seat) else _cards(deal.hands[seat])
    lines.append(f"your hand: {hand}")
    return lines


def play(
    game: str, players: int, level: str, seed: int | None, deals: int, read: Callable[[], str],
    out: TextIO,
) -> int:  # fmt: skip
    """Play up to `deals` deals at the terminal; returns the exit status (0: done or quit)."""
    cls, computer = GAMES[game], LEVELS[level]
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
        print(f"\n== deal {number}: {game}, {names[dealer]} deals ==", file=out)
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
                print(f"{names[seat]}: {_public(action)}", file=out)
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
    number = _ask_number([describe(action) for action in legal], read, out)
    return None if number is None else legal[number]


def _ask_number(moves: list[str], read: Callable[[], str], out: TextIO) -> int | None:
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


def _public(action: Action) -> str:
    """A computer seat's action as the table sees it: face-down cards are not named."""
    if action.do is Do.DISCARD and action.cards:
        return f"discard {len(action.cards)} cards"
    if action.do in (Do.DARK_DISCARD, Do.CUT_DISCARD, Do.CALL_DISCARD):
        return action.do.value.replace("_", " ")
    return describe(action)


def _chips(names: tuple[str, ...], chips: Sequence[int]) -> str:
    return ", ".join(f"{name} {amount:+d}" for name, amount in zip(names, chips, strict=True))


def _cards(cards: tuple[Card, ...]) -> str:
    ordered = sorted(cards, key=lambda c: (suit_order(c.suit), -c.rank))
    return " ".join(card.label for card in ordered)


# ---- Preferans (RULES P1–P18): its own deal, views and actions ---------------------------------


def pref_describe(action: PrefAction) -> str:
    """One Preferans action in words."""
    words = action.do.value.replace("_", " ")
    if action.cards is not None:
        return f"{words} {_cards(action.cards)}"
    if action.card is not None:
        return f"{words} {action.card.label}"
    return f"{words} {action.bid}" if action.bid else words


def pref_table_lines(deal: PrefDeal, seat: int) -> list[str]:
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
        head += f", talon {_cards(table.talon)}"
    lines = [head]
    for info in table.seats:
        facts = [
            "dealer" if info.seat == table.dealer else "",
            info.role or "",
            f"said {info.said.replace('_', ' ')}" if info.said else "",
            f"{info.cards} cards",
            f"{info.tricks} tricks",
            f"open: {_cards(info.open_hand)}" if info.open_hand and info.seat != seat else "",
        ]
        lines.append(f"  {info.name:>4}: " + ", ".join(fact for fact in facts if fact))
    if table.trick:
        played = ", ".join(f"{deal.players[p.seat]} {p.card.label}" for p in table.trick)
        lines.append(f"trick: {played}")
    lines.append(f"your hand: {_cards(view.hand)}")
    return lines


def play_preferans(
    players: int, level: str, seed: int | None, deals: int, read: Callable[[], str], out: TextIO
) -> int:
    """Play up to `deals` Preferans deals at the terminal; the dealer passes on, the raspasy
    streak is carried (P10), and each deal's value in whists (P16) is added up."""
    computer, rng = LEVELS[level], random.Random(seed)
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
                print("\n".join(pref_table_lines(deal, 0)), file=out)
                moves = [pref_describe(action) for action in knowledge.legal]
                chosen = _ask_number(moves, read, out)
                if chosen is None:
                    print("\nstopped", file=out)
                    return 0
                action = knowledge.legal[chosen]
                print(f"you: {moves[chosen]}", file=out)
            else:
                action = computer(knowledge, rng)
                shown = "discard 2 cards" if action.do is PrefDo.DISCARD else None
                print(f"{names[seat]}: {shown or pref_describe(action)}", file=out)
            deal, _ = deal.apply(action)
        assert deal.entries is not None and deal.outcome is not None
        value = settle(deal.entries, players)
        totals = [t + v for t, v in zip(totals, value, strict=True)]
        print(f"result: {_whists(names, value)} whists ({deal.outcome.kind})", file=out)
        print(f"totals: {_whists(names, totals)}", file=out)
        dealer = (dealer + 1) % players  # P3: the deal passes clockwise
        streak = streak + 1 if deal.raspasy else 0
    return 0


def _whists(names: tuple[str, ...], whists: list[float]) -> str:
    return ", ".join(f"{name} {amount:+.1f}" for name, amount in zip(names, whists, strict=True))
