"""The pieces every game's page view is made of: a card as the page draws it, the
chat control message's buttons as the page's buttons, a chat message's text as plain text.

A kind of table's builder (`TableGame.web_view`) puts these together from what the engine gives
one seat (its seat view) or the whole table (the public view): the engine's views are the one
place that hides cards, so no builder ever reads a hand the seat may not see."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards import Card
from engine.tricks import Play

from ..format import card_label, sorted_hand
from ..view.message import Rendered

_TAG = re.compile(r"<[^>]+>")
Json = dict[str, Any]


def plain(content: Rendered | str | None) -> str | None:
    """A chat message's HTML as plain text (the page inserts it as text, never as HTML)."""
    if content is None:
        return None
    text = content.text if isinstance(content, Rendered) else content
    return html.unescape(_TAG.sub("", text))


def presses(content: Rendered | None) -> list[tuple[str, str]]:
    """Every callback button of a chat message, row by row: (label, callback data)."""
    if content is None or content.markup is None:
        return []
    return [
        (button.text, button.callback_data)
        for row in content.markup.inline_keyboard
        for button in row
        if isinstance(button.callback_data, str)
    ]


def card(c: Card, lang: str) -> Json:
    """A card: its label as the chat writes it ('7♠', Russian 'Д♠'), its code and suit."""
    return {"label": card_label(c, lang), "code": str(c), "suit": c.suit.value}


def cards(cs: Iterable[Card], lang: str) -> list[Json]:
    """Cards in the order given."""
    return [card(c, lang) for c in cs]


def plays(trick: Sequence[Play], lang: str) -> list[Json]:
    """A trick: each card with the seat that laid it."""
    return [{"seat": p.seat, **card(p.card, lang)} for p in trick]


def buttons(content: Rendered | None) -> list[Json]:
    """A chat message's callback buttons as the page's: label and press (its callback data)."""
    return [{"label": label, "press": data} for label, data in presses(content)]


def attach(
    hand: Sequence[Card], rest: list[Json], lang: str, chosen: Sequence[Card] = ()
) -> list[Json]:
    """Cards sorted by suit, each carrying the press of the chat button that names it (a card to
    play, or to mark for the discard: '✖️ 7♠' when marked), which leaves `rest`; what stays in
    `rest` are the words ('Pass', 'Exchange 2'). A card's press and the words together are
    exactly the chat message's buttons, with the same labels and the same callback data."""
    shown = []
    for c in sorted_hand(hand):
        entry = card(c, lang)
        entry["chosen"] = c in chosen
        for button in rest:
            if button["label"] in (entry["label"], "✖️ " + entry["label"]):
                entry["press"], entry["button"] = button["press"], button["label"]
                rest.remove(button)
                break
        shown.append(entry)
    return shown
