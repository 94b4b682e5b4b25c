"""What one seat may know of a deal, in a form a computer player can think with (issue 17).

`SeatView` (views.py) is what the bot shows; `Knowledge` adds the deal's public history and a
*world*: a copy of the deal in which every card the seat cannot see — the other hands, the stock,
face-down discards it did not make, its own hand while unopened (F7) — is replaced by the unseen
cards in a fixed (sorted) order. The world is therefore a function of the seat's knowledge only:
two deals that differ only in hidden cards give equal worlds, so nothing built on it can peek. A
player imagines the real deal by re-dealing the unseen cards over the hidden places (ai/sample.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import overload

from .actions import Action, Do
from .cards import Card, suit_order
from .deal import TrickDeal
from .preferans.actions import PrefAction, PrefDo
from .preferans.deal import PrefDeal

# Words whose cards go face down: others see only that something was discarded.
_FACE_DOWN = (Do.DISCARD, Do.DARK_DISCARD, Do.CUT_DISCARD, Do.CALL_DISCARD)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge: the world (hidden cards in canonical places), where the hidden
    places are, the public history, the cards seen going into a hand, and the legal actions."""

    seat: int
    world: TrickDeal  # never mutate: copy it (its deck before `next_card` means nothing)
    unseen: tuple[Card, ...]  # the cards the seat cannot place, sorted
    hidden_hands: tuple[int, ...]  # seats whose whole hand is unseen by this seat
    hidden_discards: tuple[int, ...]  # indices in world.discards the seat did not see
    history: tuple[Action, ...]  # every action so far, others' face-down cards not named
    taken: tuple[tuple[int, Card], ...]  # cards publicly taken into a hand (turn-ups), unplayed
    legal: tuple[Action, ...]


@overload
def seat_knowledge(deal: TrickDeal, seat: int) -> Knowledge: ...
@overload
def seat_knowledge(deal: PrefDeal, seat: int) -> PrefKnowledge: ...
def seat_knowledge(deal: TrickDeal | PrefDeal, seat: int) -> Knowledge | PrefKnowledge:
    """What `seat` knows of `deal` now; its legal actions as the seat view lists them (F7); a
    Preferans deal's as `pref_knowledge` says."""
    if isinstance(deal, PrefDeal):
        return pref_knowledge(deal, seat)
    # Only face-down cards and turn-ups taken into a hand need the deal's past (a replay).
    past = deal.discards or (deal.turnup is None and not deal.finished)
    seen, taken = _walk(deal, seat) if past else (set(), [])
    hidden_hands = tuple(
        other for other in range(deal.n) if other != seat or deal.hand_hidden(seat)
    )
    hidden_discards = tuple(i for i, card in enumerate(deal.discards) if card not in seen)
    unseen_cards = [card for other in hidden_hands for card in deal.hands[other]]
    unseen_cards += [deal.discards[i] for i in hidden_discards]
    unseen_cards += deal.stock
    unseen = tuple(sorted(unseen_cards, key=_card_key))
    world = deal.copy()
    fill = iter(unseen)
    world.hands = tuple(
        tuple(next(fill) for _ in hand) if other in hidden_hands else hand
        for other, hand in enumerate(deal.hands)
    )
    hidden = set(hidden_discards)
    world.discards = tuple(next(fill) if i in hidden else c for i, c in enumerate(deal.discards))
    stock = tuple(fill)
    unseen_set = set(unseen)
    shown = sorted((card for card in deal.deck if card not in unseen_set), key=_card_key)
    world.deck = (*shown, *unseen[: len(unseen) - len(stock)], *stock)
    world.actions = ()  # the record names hidden cards; `history` is the public part
    legal = deal.legal_actions(seat)
    if deal.hand_hidden(seat):  # F7: nothing that names a card of an unopened hand
        legal = [action for action in legal if action.card is None and not action.cards]
    played = {play.card for trick in deal.tricks_played for play in trick}
    played |= {play.card for play in deal.trick}
    return Knowledge(
        seat=seat,
        world=world,
        unseen=unseen,
        hidden_hands=hidden_hands,
        hidden_discards=hidden_discards,
        history=tuple(_public(action, seat) for action in deal.actions),
        taken=tuple((s, card) for s, card in taken if card not in played),
        legal=tuple(legal),
    )


def _card_key(card: Card) -> tuple[int, int]:
    return suit_order(card.suit), card.rank


def _public(action: Action, seat: int) -> Action:
    """The action as `seat` saw it: another seat's face-down cards are not named."""
    if action.seat == seat or action.do not in _FACE_DOWN or action.cards == ():
        return action  # an empty discard hides nothing: everyone sees that no card moved
    return action._replace(card=None, cards=None)


def _walk(deal: TrickDeal, seat: int) -> tuple[set[Card], list[tuple[int, Card]]]:
    """Replay the deal: every card `seat` has held with its hand open, and every turn-up that went
    into someone's hand in sight of the table (F7 dark declarer, F10 cutter, SK9)."""
    step, _ = type(deal).create(
        deal.rules_record(), deal.players, deal.dealer, deal.ante, deal.start_pot, deal.deck,
        pot_has_penalty=deal.pot_had_penalty, redeal=deal.redeal,
    )  # fmt: skip
    seen: set[Card] = set()
    taken: list[tuple[int, Card]] = []
    for action in deal.actions:
        if action.do is Do.PLAY:
            break  # from the first card played on, hands only lose cards the table sees
        if not step.hand_hidden(seat):
            seen.update(step.hands[seat])
        if action.seat == seat:  # a card it named itself, even unlooked (F7)
            seen.update(action.cards or ())
            seen.update([action.card] if action.card is not None else [])
        turnup = step.turnup
        step, _ = step.apply(action)
        if turnup is not None and step.turnup is None:
            taken += [(s, turnup) for s in range(step.n) if turnup in step.hands[s]]
    if not deal.hand_hidden(seat):
        seen.update(step.hands[seat])
    return seen, taken


# ---- Preferans (RULES P1–P10): its own deal type, so its own knowledge -------------------------


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
    unseen = tuple(sorted(unseen_cards, key=_card_key))
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
