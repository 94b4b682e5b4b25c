"""What one seat may know of a deal, in a form a computer player can think with.

`SeatView` (views.py) is what the bot shows; `Knowledge` adds the deal's public history and a
*world*: a copy of the deal in which every card the seat cannot see — the other hands, the stock,
face-down discards it did not make, its own hand while unopened (F7) — is replaced by the unseen
cards in a fixed (sorted) order. The world is therefore a function of the seat's knowledge only:
two deals that differ only in hidden cards give equal worlds, so nothing built on it can peek. A
player imagines the real deal by re-dealing the unseen cards over the hidden places (ai/sample.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Do, Verb
from .cards import Card, suit_order
from .deal import TrickDeal


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


def seat_knowledge(deal: TrickDeal, seat: int) -> Knowledge:
    """What `seat` knows of a family deal now; its legal actions as the seat view lists them
    (F7). (Preferans's: engine/preferans/knowledge.py; any game's: `engine.games`.)"""
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
    unseen = tuple(sorted(unseen_cards, key=card_key))
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
    shown = sorted((card for card in deal.deck if card not in unseen_set), key=card_key)
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
        history=tuple(_public(action, seat, deal.FACE_DOWN) for action in deal.actions),
        taken=tuple((s, card) for s, card in taken if card not in played),
        legal=tuple(legal),
    )


def card_key(card: Card) -> tuple[int, int]:
    """The fixed order unseen cards are laid out in: by suit, then rank."""
    return suit_order(card.suit), card.rank


def _public(action: Action, seat: int, face_down: frozenset[Verb]) -> Action:
    """The action as `seat` saw it: another seat's face-down cards (those of the game's words
    in `face_down`) are not named."""
    if action.seat == seat or action.do not in face_down or action.cards == ():
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
