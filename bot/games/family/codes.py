"""The Frap family's button codes (after "a:table:deal:step:"): a card is its two-letter code,
Frap's words (every family game's) have theirs here, and each game's own words have theirs in its
module (khrap.py, student_khrap.py, napoleon.py), in the `Codes` its UI holds."""

from __future__ import annotations

from collections.abc import Mapping

from engine.actions import Action, Do, Verb
from engine.cards import Card

from ...callbacks import BadCallback, cards_code, parse_cards_code

LOOK = "L"

# Frap's words said alone (F5–F10), and those that name one card (F7, F10, F12).
WORDS: dict[Verb, str] = {
    Do.LOOK: LOOK,
    Do.FRAP: "F",
    Do.DARK_FRAP: "D",
    Do.WHIST: "W",
    Do.PASS: "P",
    Do.NO_CUT: "n",
}
ONE_CARD: dict[Verb, str] = {Do.DARK_DISCARD: "x", Do.CUT_DISCARD: "y", Do.PLAY: "p"}
# The first letters of the codes with more after them: a card's word, a discard (F9), a cut (F10).
_HEADS = ("b", "c")


class Codes:
    """A family game's button codes: Frap's words' and its own (`words` said alone, `one_card`
    naming a card). A game whose buttons carry more (a joker, a bid's height) extends
    `action_code` and `parse_action`. The codes are in old buttons: they never change."""

    def __init__(
        self, words: Mapping[Verb, str] | None = None, one_card: Mapping[Verb, str] | None = None
    ) -> None:
        self.words = {**WORDS, **(words or {})}
        self.one_card = {**ONE_CARD, **(one_card or {})}
        self._words_back = {code: do for do, code in self.words.items()}
        self._one_card_back = {code: do for do, code in self.one_card.items()}
        heads = [*self._one_card_back, *_HEADS]
        if len(self._words_back) < len(self.words) or len(set(heads)) < len(heads):
            raise ValueError("two words share a button code")

    def action_code(self, action: Action) -> str:
        """The short code of an engine action (its seat is implied by who presses)."""
        do = action.do
        if do in self.words:
            return self.words[do]
        if do in self.one_card:
            assert action.card is not None
            return self.one_card[do] + str(action.card)
        if do is Do.DISCARD:
            assert action.cards is not None
            return "b" + cards_code(action.cards)
        if do is Do.CUT:
            return "c1" if action.turnup else "c0"
        raise ValueError(f"no code for {action}")

    def parse_action(self, seat: int, code: str) -> Action:
        """The engine action for a code pressed by `seat`; raises BadCallback if malformed."""
        try:
            if code in self._words_back:
                return Action(seat, self._words_back[code])
            head, tail = code[:1], code[1:]
            if head in self._one_card_back and len(tail) == 2:
                return Action(seat, self._one_card_back[head], card=Card.parse(tail))
            if head == "b":
                return Action(seat, Do.DISCARD, cards=parse_cards_code(tail))
            if code in ("c1", "c0"):
                return Action(seat, Do.CUT, turnup=code == "c1")
        except ValueError as exc:
            raise BadCallback(code) from exc
        raise BadCallback(code)
