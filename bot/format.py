"""Small text helpers every message uses: a player's name, a card and a signed number of chips."""

from __future__ import annotations

from html import escape

from engine.cards import Card
from locales import t

MINUS = "\u2212"  # a typographic minus: «−30», not the hyphen of «-30»


def name(user_name: str) -> str:
    """A player's name, HTML-escaped and kept short."""
    short = user_name if len(user_name) <= 32 else user_name[:31] + "…"
    return escape(short)


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
