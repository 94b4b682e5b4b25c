"""The pieces every game's page view is made of: a card as the page draws it, a trick
as plays by seat, a seat's common facts, the player's choices laid on his cards, and a line of
the game's words as plain text.

A kind of table's builder (`TableGame.web_view`) puts these together from what the engine gives
one seat (its seat view) or the whole table (the public view): the engine's views are the one
place that hides cards, so no builder ever reads a hand the seat may not see. The view is data,
never a chat message: no HTML, no Telegram object, each fact once."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.tricks import Play

from ..format import card_label, signed, sorted_hand
from ..view.message import Choice

_TAG = re.compile(r"<[^>]+>")
Json = dict[str, Any]


def line(text: str | None) -> str | None:
    """One line of the game's words (a catalog entry, filled in) as plain text: the chat's bold
    marks dropped and its escapes undone (the page inserts it as text, never as HTML)."""
    if text is None:
        return None
    return html.unescape(_TAG.sub("", text))


def card(c: Card, lang: str) -> Json:
    """A card: its rank as players of `lang` write it ('Д' for the queen in Russian), its suit
    ('S', 'H', 'D', 'C'), its symbol, its code ('QS') and its label as the chat writes it."""
    label = card_label(c, lang)
    symbol = c.suit.symbol
    return {
        "rank": label[: -len(symbol)],
        "suit": c.suit.value,
        "symbol": symbol,
        "code": str(c),
        "label": label,
    }


def cards(cs: Iterable[Card], lang: str) -> list[Json]:
    """Cards in the order given."""
    return [card(c, lang) for c in cs]


def trick(plays: Sequence[Play], lang: str) -> Json | None:
    """A trick: who led it and each card with the seat that laid it; None when it is empty."""
    if not plays:
        return None
    # SK2: a 7♠ played as the joker says so (the key only then)
    shown = [
        {"seat": p.seat, **card(p.card, lang), **({"joker": True} if p.joker else {})}
        for p in plays
    ]
    return {"leader": plays[0].seat, "plays": shown}


def laid(plays: Sequence[Play], taker: int | None, lang: str) -> Json | None:
    """The last complete trick and who took it; None before the first is taken."""
    shown = trick(plays, lang)
    return None if shown is None else {**shown, "taker": taker}


def seat(
    seat_no: int,
    name: str,
    user_id: int,
    balances: Mapping[int, int],
    *,
    computer: bool,
    away: bool,
) -> Json:
    """What every game shows of a seat: its name, whether a computer plays it, whether its
    player is away (timed out twice running), his chips in the chat if he has a record."""
    return {
        "seat": seat_no,
        "name": name,
        "computer": computer,
        "away": away,
        "chips": signed(balances[user_id]) if user_id in balances else None,
    }


def split(rows: Sequence[Sequence[Choice]]) -> tuple[dict[Card, Choice], list[Json]]:
    """The player's choices: those that play or mark a card (by the card, drawn on it) and the
    words ('Pass', 'Exchange 2'), as {label, press}."""
    on_cards: dict[Card, Choice] = {}
    words: list[Json] = []
    for row in rows:
        for choice in row:
            if choice.card is not None:
                on_cards[choice.card] = choice
            else:
                words.append(choice_json(choice))
    return on_cards, words


def choice_json(choice: Choice) -> Json:
    """A button the page draws: its label and the press it sends."""
    return {"label": choice.label, "press": choice.press}


def hand(
    held: Sequence[Card], on_cards: dict[Card, Choice], lang: str, marked: Sequence[Card] = ()
) -> list[Json]:
    """Cards sorted by suit, each with the press of the choice that plays or marks it (a card
    with none is not to play now) and whether it is marked for the discard."""
    shown = []
    for c in sorted_hand(held):
        entry = card(c, lang)
        choice = on_cards.get(c)
        if choice is not None:
            entry["press"] = choice.press
        entry["marked"] = c in marked
        shown.append(entry)
    return shown
