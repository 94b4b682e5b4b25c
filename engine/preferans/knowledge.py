"""What one seat may know of a Preferans deal (RULES P1–P10), for a computer player: its own
deal type, so its own knowledge (engine/knowledge.py, the Frap family's, says what a *world* is)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cards import Card
from ..knowledge import card_key
from .actions import PrefAction, PrefDo
from .deal import PrefDeal


@dataclass(frozen=True, slots=True)
class PrefKnowledge:
    """What one seat knows of a Preferans deal (it decides when it is the controller, P7): the
    world (every card it cannot see laid out in sorted order over the places it cannot see), the
    unseen cards, where the hidden places are, the public history and the legal actions."""

    seat: int
    world: PrefDeal  # never mutate: copy it (its deck and its talon, where hidden, mean nothing)
    unseen: tuple[Card, ...]  # sorted
    hidden_hands: tuple[int, ...]  # seats whose hand this seat cannot see
    hidden_talon: int  # talon cards not yet in a hand that the seat cannot see (bidding, P10)
    hidden_discards: bool  # the declarer's discard, unseen by everyone else (P5)
    pinned: tuple[Card, ...]  # the shown talon's unplayed cards: in the declarer's hand or discard
    history: tuple[PrefAction, ...]  # every action so far, others' discards not named
    legal: tuple[PrefAction, ...]


def pref_knowledge(deal: PrefDeal, seat: int) -> PrefKnowledge:
    """What `seat` knows of `deal` now: its own hand, the hands laid open (P7, P9), the talon once
    shown (P5) or turned (P10), its own discard, the cards played; its legal actions if it
    decides (it is the controller, P7)."""
    declarer = deal.declarer
    taken = declarer is not None  # P5: the auction's winner has taken the talon
    hidden_hands = tuple(
        other for other in range(deal.n)
        if other != seat and other not in deal.opened and deal.hands[other]
    )  # fmt: skip
    hidden_discards = bool(deal.discards) and seat != declarer
    if taken:
        hidden_talon = 0
    elif deal.raspasy:  # P10: turned one card a trick from the start of play
        hidden_talon = len(deal.talon) - len(deal.turned)
    else:
        hidden_talon = len(deal.talon)
    played = {play.card for trick in deal.tricks_played for play in trick}
    played |= {play.card for play in deal.trick}
    pinned: tuple[Card, ...] = ()
    if taken and deal.talon_shown and seat != declarer:
        pinned = tuple(card for card in deal.talon if card not in played)
    unseen_cards = [card for other in hidden_hands for card in deal.hands[other]]
    unseen_cards += deal.discards if hidden_discards else ()
    unseen_cards += deal.talon[len(deal.talon) - hidden_talon :]
    unseen = tuple(sorted(unseen_cards, key=card_key))
    world = deal.copy()
    fill = iter(unseen)
    for other in hidden_hands:
        world.hands[other] = tuple(next(fill) for _ in deal.hands[other])
    if hidden_discards:
        world.discards = tuple(next(fill) for _ in deal.discards)
    shown_talon = deal.talon[: len(deal.talon) - hidden_talon]
    if taken and not deal.talon_shown and seat != declarer:
        shown_talon = ()  # a misère talon is never shown (P5): the world holds no talon
    world.talon = (*shown_talon, *fill)
    world.deck = ()  # the deck would name every card
    world.actions = []  # the record names the discard; `history` is the public part
    legal = deal.legal_actions() if deal.controller == seat else []
    return PrefKnowledge(
        seat=seat,
        world=world,
        unseen=unseen,
        hidden_hands=hidden_hands,
        hidden_talon=hidden_talon,
        hidden_discards=hidden_discards,
        pinned=pinned,
        history=tuple(
            replace(a, cards=None) if a.do is PrefDo.DISCARD and a.seat != seat else a
            for a in deal.actions
        ),
        legal=tuple(legal),
    )
