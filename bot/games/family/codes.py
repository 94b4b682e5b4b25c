"""The Frap family's button codes (after "a:table:deal:step:"): every family game's verbs, a card
its two-letter code, the joker's three ways (SK2), a bid's height (N2)."""

from __future__ import annotations

from engine.actions import Action, Do
from engine.cards import Card, Suit
from engine.student import JOKER

from ...callbacks import BadCallback, cards_code, parse_cards_code

LOOK = "L"

_SIMPLE = {
    Do.LOOK: LOOK,
    Do.FRAP: "F",
    Do.DARK_FRAP: "D",
    Do.WHIST: "W",
    Do.PASS: "P",
    Do.NO_CUT: "n",
    Do.KHRAP: "K",
    Do.DARK_KHRAP: "Q",
    Do.POMOGU: "H",
    Do.BERU_PYAT: "B",
    Do.VESELYU: "V",
    Do.ZAVORACHIVAYU: "Z",
    Do.NAPOLEON: "N",
    Do.HERE: "E",
}
_SIMPLE_BACK = {code: do for do, code in _SIMPLE.items()}
_ONE_CARD = {Do.DARK_DISCARD: "x", Do.CUT_DISCARD: "y", Do.CALL_DISCARD: "z", Do.PLAY: "p"}
_ONE_CARD_BACK = {code: do for do, code in _ONE_CARD.items()}


def action_code(action: Action) -> str:
    """The short code of an engine action (its seat is implied by who presses)."""
    if action.do is Do.PLAY and action.joker is not None:
        # SK2: the 7♠ as the joker ("k1", naming a suit: "k1H") or as a plain seven ("k0")
        return "k" + ("1" if action.joker else "0") + (action.suit.value if action.suit else "")
    if action.do in _SIMPLE:
        return _SIMPLE[action.do]
    if action.do is Do.BID and action.tricks is not None:
        return f"t{action.tricks}"  # N2: a bid of 1–5 tricks
    if action.do in _ONE_CARD:
        assert action.card is not None
        return _ONE_CARD[action.do] + str(action.card)
    if action.do is Do.DISCARD:
        assert action.cards is not None
        return "b" + cards_code(action.cards)
    if action.do is Do.CUT:
        return "c1" if action.turnup else "c0"
    raise ValueError(f"no code for {action}")


def parse_action(seat: int, code: str) -> Action:
    """The engine action for a code pressed by `seat`; raises BadCallback if malformed."""
    try:
        if code in _SIMPLE_BACK:
            return Action(seat, _SIMPLE_BACK[code])
        head, tail = code[:1], code[1:]
        if head in _ONE_CARD_BACK and len(tail) == 2:
            return Action(seat, _ONE_CARD_BACK[head], card=Card.parse(tail))
        if head == "b":
            return Action(seat, Do.DISCARD, cards=parse_cards_code(tail))
        if head == "t" and len(tail) == 1 and tail.isdigit():
            return Action(seat, Do.BID, tricks=int(tail))
        if code in ("c1", "c0"):
            return Action(seat, Do.CUT, turnup=code == "c1")
        if head == "k" and tail[:1] in ("0", "1") and len(tail) <= 2:
            suit = Suit.parse(tail[1:]) if tail[1:] else None
            return Action(seat, Do.PLAY, card=JOKER, joker=tail[0] == "1", suit=suit)
    except ValueError as exc:
        raise BadCallback(code) from exc
    raise BadCallback(code)
