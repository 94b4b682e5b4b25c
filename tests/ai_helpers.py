"""Helpers for the computer-player tests: random deals of every game, a cheap strong level, and
deals that differ from a given one only in what one seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.actions import Action, Do
from engine.ai import LEVELS, Knowledge, Player
from engine.cards import Card, Rank
from engine.deal import TrickDeal
from engine.games import GAMES
from engine.napoleon import NapoleonRules
from engine.student import StudentRules
from tests.engine_helpers import random_deal, random_rules
from tests.family_helpers import (
    random_khrap,
    random_khrap_rules,
    random_napoleon,
    random_student,
)


def quick_strong(knowledge: Knowledge, rng: random.Random) -> Action:
    """The strong level with a small budget: what it may play does not depend on the budget."""
    return GAMES[knowledge.world.game].computer.strong(knowledge, rng, playouts=8, min_samples=2)


QUICK_STRONG: Player = quick_strong
PLAYERS: dict[str, Player] = {**LEVELS, "strong": QUICK_STRONG}


def random_frap(rng: random.Random) -> TrickDeal:
    """A Frap deal of 2–8 players with random house rules."""
    n = rng.randint(2, 8)
    return random_deal(rng, n, random_rules(rng, n))[0]


def random_khrap_deal(rng: random.Random) -> TrickDeal:
    """A Khrap deal of 2–7 players with random house rules."""
    n = rng.randint(2, 7)
    return random_khrap(rng, n, random_khrap_rules(rng, n))[0]


def random_student_deal(rng: random.Random) -> TrickDeal:
    """A Student Khrap deal of 3–4 players, either joker-lead option."""
    rules = StudentRules(joker_lead=rng.choice(["trumps", "named_suit"]))
    return random_student(rng, rng.randint(3, 4), rules)[0]


def random_napoleon_deal(rng: random.Random) -> TrickDeal:
    """A Napoleon deal of 2–6 players, either failed-napoleon option (N1, N7)."""
    rules = NapoleonRules(napoleon_failed=rng.choice(["treasure_doubles", "pay_each"]))
    return random_napoleon(rng, rng.randint(2, 6), rules)[0]


STARTS: dict[str, Callable[[random.Random], TrickDeal]] = {
    "frap": random_frap,
    "khrap": random_khrap_deal,
    "student_khrap": random_student_deal,
    "napoleon": random_napoleon_deal,
}


def never_seen(deal: TrickDeal, knowledge: Knowledge) -> list[Card]:
    """The cards `knowledge.seat` cannot see, less turn-ups taken in sight of the table (F7,
    F10, SK9), aces (a veselyu shows the trump ace, SK8) and the joker (SK2: it plays by its
    own rules)."""
    kept = {card for _, card in knowledge.taken} | GAMES[deal.game].computer.wild
    return [card for card in knowledge.unseen if card.rank != Rank.ACE and card not in kept]


def hidden_twin(deal: TrickDeal, seat: int, knowledge: Knowledge, rng: random.Random) -> TrickDeal:
    """The same deal with the cards `seat` never saw permuted among themselves within each suit
    (so every void shown by play still holds) and the rest of the stock shuffled; the same
    actions, with the others' face-down cards renamed alike, replayed on the new deck."""
    hidden = never_seen(deal, knowledge)
    rename: dict[Card, Card] = {}
    for suit in {card.suit for card in hidden}:
        group = [card for card in hidden if card.suit is suit]
        moved = rng.sample(group, len(group))
        rename.update(zip(group, moved, strict=True))
    deck = [rename.get(card, card) for card in deal.deck]
    tail = deck[deal.next_card :]
    rng.shuffle(tail)
    deck[deal.next_card :] = tail
    # From the deal's own record header, so that every game's extra (N5: the stake) is kept.
    header = {**deal.to_record(), "deck": [str(card) for card in deck]}
    twin = type(deal).start_from_record(header)
    for action in deal.actions:
        twin, _ = twin.apply(_renamed(action, rename))
    return twin


def _renamed(action: Action, rename: dict[Card, Card]) -> Action:
    if action.do is Do.PLAY or (action.card is None and not action.cards):
        return action
    card = None if action.card is None else rename.get(action.card, action.card)
    cards = None if action.cards is None else tuple(rename.get(c, c) for c in action.cards)
    return Action(action.seat, action.do, card, cards, action.turnup, action.joker, action.suit)
