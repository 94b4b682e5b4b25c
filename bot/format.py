"""Small text helpers every message uses: a player's name, a card, a hand and a signed number
of chips."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from engine.cards import Card, suit_order
from locales import t

MINUS = "\u2212"  # a typographic minus: «−30», not the hyphen of «-30»


def name(user_name: str) -> str:
    """A player's name, HTML-escaped and kept short."""
    return escape(short(user_name))


def short(user_name: str) -> str:
    """A player's name kept short, as a message names him."""
    return user_name if len(user_name) <= 32 else user_name[:31] + "…"


def signed(amount: int) -> str:
    """Chips won or lost: '+30', '−30', and a plain '0' (never '+0')."""
    if amount > 0:
        return f"+{amount}"
    return f"{MINUS}{-amount}" if amount < 0 else "0"


_FACES = ("J", "Q", "K", "A")


def card_label(card: Card, lang: str) -> str:
    """A card for people, as players of `lang` write it: '10♥', 'Q♠'; Russian 'Д♠' (the
    catalog's card.J … card.A). Hand records and callback data keep the codes."""
    rank = card.label[: -len(card.suit.symbol)]
    return (t(lang, f"card.{rank}") if rank in _FACES else rank) + card.suit.symbol


def sorted_hand(cards: Sequence[Card]) -> list[Card]:
    """A hand sorted by suit, then rank, for showing."""
    return sorted(cards, key=lambda c: (suit_order(c.suit), c.rank))


def cards_text(cards: Sequence[Card], lang: str, marked: Collection[Card] = ()) -> str:
    """Cards sorted as a hand, the `marked` ones underlined (a discard being chosen)."""
    return " ".join(
        f"<u>{card_label(c, lang)}</u>" if c in marked else card_label(c, lang)
        for c in sorted_hand(cards)
    )


def in_a_sentence(label: str) -> str:
    """A button's label quoted inside a sentence: 'Пас' reads 'пас'; a card's
    'Д♠' or a number stays as it is."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label
