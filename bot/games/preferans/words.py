"""Preferans's words (RULES P1-P18): bids and contracts with suit symbols, the said words,
the buttons' labels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from engine.cards import Card
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.bidding import trump_of
from engine.preferans.outcome import MISERE, level

from ...format import card_label, cards_text
from ..base import GameUI


class PrefWords(GameUI):
    """Preferans's words: the `pref` catalog section, bids with suit symbols."""

    game: ClassVar[str] = "preferans"
    section: ClassVar[str] = "pref"

    def bid_label(self, lang: str, bid: str) -> str:
        """A bid or contract for people: '7♥', '8БК' / '8NT', 'мизер'."""
        if bid == MISERE:
            return self.text(lang, "misere")
        trump = trump_of(bid)
        return f"{level(bid)}{trump.symbol if trump else self.text(lang, 'nt')}"

    def said_label(self, lang: str, said: str) -> str:
        """A seat's latest word on the table: a bid, or pass/here/whist/half-whist."""
        if said in ("pass", "here", "whist", "half_whist", MISERE):
            return self.text(lang, f"word.{said}")
        return self.bid_label(lang, said)

    def button_label(self, lang: str, action: PrefAction) -> str:
        """The button for a legal action."""
        if action.do is PrefDo.PLAY:
            assert action.card is not None
            return card_label(action.card, lang)
        if action.do in (PrefDo.BID, PrefDo.CONTRACT):
            assert action.bid is not None
            return self.bid_label(lang, action.bid)
        if action.do is PrefDo.DISCARD:
            return self.text(lang, "btn.discard", cards=_cards(lang, action.cards or ()))
        return self.text(lang, f"word.{action.do.value}")


WORDS = PrefWords()  # (the messages' words; `ui.UI` is the same game's whole UI)


def _cards(lang: str, cards: Sequence[Card]) -> str:
    return cards_text(cards, lang)
