"""Preferans's button codes (after "a:table:deal:step:"): bids, contracts, cards, words; a
card is its two-letter code, a discard toggle its selection (P5)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.outcome import CONTRACTS, MISERE
from engine.preferans.views import PrefSeatView

from ... import callbacks

_WORDS = {
    PrefDo.MISERE: "m",
    PrefDo.HERE: "h",
    PrefDo.PASS: "P",
    PrefDo.WHIST: "W",
    PrefDo.HALF_WHIST: "w",
    PrefDo.LIGHT: "l",
    PrefDo.DARK: "d",
}
_WORDS_BACK = {code: do for do, code in _WORDS.items()}


def action_code(action: PrefAction) -> str:
    """The short code of an action (its seat is implied by who presses and whose turn it is)."""
    if action.do is PrefDo.BID:
        return f"b{action.bid}"
    if action.do is PrefDo.CONTRACT:
        return f"c{action.bid}"
    if action.do is PrefDo.PLAY:
        return f"p{action.card}"
    if action.do is PrefDo.DISCARD:
        return "x" + callbacks.cards_code(action.cards or ())
    return _WORDS[action.do]


def parse_action(seat: int, code: str) -> PrefAction:
    """The action a code stands for, for `seat`; BadCallback if malformed. Whether it is legal
    is the engine's to say."""
    head, tail = code[:1], code[1:]
    if code in _WORDS_BACK:
        return PrefAction(seat, _WORDS_BACK[code])
    try:
        if head in ("b", "c") and tail in CONTRACTS and tail != MISERE:
            return PrefAction(seat, PrefDo.BID if head == "b" else PrefDo.CONTRACT, bid=tail)
        if head == "p" and len(tail) == 2:
            return PrefAction(seat, PrefDo.PLAY, card=Card.parse(tail))
        if head == "x" and len(tail) == 4:
            return PrefAction(seat, PrefDo.DISCARD, cards=callbacks.parse_cards_code(tail))
    except ValueError as exc:
        raise callbacks.BadCallback(code) from exc
    raise callbacks.BadCallback(code)


def _toggled(selection: Sequence[Card], card: Card) -> str:
    """The discard selection after pressing `card`, as a toggle's callback code."""
    if card in selection:
        chosen = [c for c in selection if c != card]
    else:
        chosen = [*selection[-1:], card] if len(selection) >= 2 else [*selection, card]
    return callbacks.cards_code(chosen)


def toggle_selection(view: PrefSeatView, code: str) -> tuple[Card, ...]:
    """The discard selection a toggle press asks for; BadCallback unless it is at most two
    cards of the declarer's hand while he discards (P5)."""
    chosen = callbacks.parse_cards_code(code)
    discarding = any(a.do is PrefDo.DISCARD for a in view.legal)
    if not discarding or len(chosen) > 2 or any(c not in view.hand for c in chosen):
        raise callbacks.BadCallback(code)
    return chosen
