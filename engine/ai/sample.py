"""Imagining the hidden cards: re-deal what a seat has not seen over the places it cannot see,
consistently with what the table has shown (voids by play, turn-ups taken into a hand)."""

from __future__ import annotations

import random
from collections.abc import Collection

from ..cards import Card, Suit
from ..deal import TrickDeal, with_item
from ..knowledge import Knowledge


def shown_voids(deal: TrickDeal, wild: Collection[Card] = ()) -> dict[int, set[Suit]]:
    """Suits each seat has shown it lacks (F12): it did not follow the suit led, and when it did
    not trump either, it has no trump. Tricks led by a joker (SK2) and jokers are skipped."""
    voids: dict[int, set[Suit]] = {}
    for trick in (*deal.tricks_played, tuple(deal.trick)):
        if not trick or trick[0].joker:
            continue
        led = trick[0].card.suit
        for play in trick[1:]:
            if play.joker or play.card.suit is led:
                continue
            lacking = voids.setdefault(play.seat, set())
            lacking.add(led)
            if play.card.suit is not deal.trump:
                lacking.add(deal.trump)
    return voids


def sample_world(
    knowledge: Knowledge, rng: random.Random, wild: Collection[Card] = ()
) -> TrickDeal:
    """A full deal the seat cannot tell from the real one: the unseen cards shuffled over the
    hidden hands (respecting shown voids; a taken turn-up stays with its taker), the face-down
    discards the seat did not see, and the stock. `wild` cards ignore voids (the SK2 joker)."""
    world = knowledge.world.copy()
    pool = list(knowledge.unseen)
    rng.shuffle(pool)
    need = {seat: len(world.hands[seat]) for seat in knowledge.hidden_hands}
    hands: dict[int, list[Card]] = {seat: [] for seat in knowledge.hidden_hands}
    for seat, card in knowledge.taken:
        if seat in hands and len(hands[seat]) < need[seat] and card in pool:
            hands[seat].append(card)
            pool.remove(card)
    voids = shown_voids(world, wild)
    # The seats with the most voids choose first, so that they are not left only cards they lack.
    for seat in sorted(hands, key=lambda s: -len(voids.get(s, ()))):
        lacking = voids.get(seat, set())
        hand, rest = hands[seat], list[Card]()
        for card in pool:
            fits = card.suit not in lacking or card in wild
            (hand if fits and len(hand) < need[seat] else rest).append(card)
        pool = rest
        while len(hand) < need[seat]:  # the shown voids cannot all hold (rare): any card
            hand.append(pool.pop())
        world.hands = with_item(world.hands, seat, tuple(hand))
    for index in knowledge.hidden_discards:
        world.discards = with_item(world.discards, index, pool.pop())
    world.deck = world.deck[: world.next_card] + tuple(pool)
    return world
