"""Small text helpers every message uses: a player's name and a signed number of chips."""

from __future__ import annotations

from html import escape

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
