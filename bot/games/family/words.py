"""The Frap family's words: the defaults its four games (Frap, Khrap, Student Khrap, Napoleon)
share, each overriding only its own (STYLE.md, "One place per game")."""

from __future__ import annotations

from typing import ClassVar

from engine.actions import Action, Do, Verb
from engine.cards import Card
from engine.deal import TrickDeal
from engine.events import Reason
from engine.views import TableView

from ...format import card_label
from ...view.screen import Said
from ..base import GameUI


class FamilyWords(GameUI):
    """The words of a game of the Frap family (a `TrickDeal`): each defaults to the shared
    catalog entry, read after the game's own section's."""

    deal: ClassVar[type[TrickDeal]]
    # the pot, the stock, a dark bid's hidden cards, the bidding's round (F8)
    page_words = ("pot", "stock", "hidden", "round")
    from_pot: ClassVar[tuple[str, ...]] = (Reason.TRICKS.value, Reason.POT_TAKEN.value)  # F13, F6

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players a table of this game takes."""
        return self.deal.MIN_PLAYERS, self.deal.MAX_PLAYERS

    def word(self, lang: str, bid: Verb) -> str:
        """A seat's word on the table ('frap', 'pass')."""
        return self.text(lang, f"word.{bid.value}")

    def bid_word(self, lang: str, bid: Verb, level: int | None) -> str:
        """A seat's word with the height it stands at, where the game has heights (N2: '3
        tricks'); by default the word alone."""
        return self.word(lang, bid)

    def play_label(self, lang: str, card: Card, joker: bool) -> str:
        """A card on a trick ('10♥'); a game with a joker marks it."""
        return card_label(card, lang)

    def action_label(self, lang: str, action: Action, turnup: Card | None) -> str:
        """The button for a legal action that names no card of the hand."""
        if action.do is Do.CUT:
            hand = self.deal.HAND_SIZE
            if action.turnup:
                assert turnup is not None
                return self.text(lang, "btn.cut_turnup", card=card_label(turnup, lang), n=hand)
            return self.text(lang, "btn.cut_stock", n=hand + 1)
        return self.text(lang, f"btn.{action.do.value}")

    def phase_line(self, lang: str, phase: str, who: str) -> str:
        """The group's line saying who is to act and what he decides (`phase`: the deal's)."""
        return self.text(lang, f"phase.{phase}", name=who)

    def ask(self, lang: str, table: TableView) -> Said:
        """The question the player to act is asked in his private message."""
        return self.said(lang, f"ask.{table.phase}")

    def all_passed(self, lang: str, table: TableView) -> list[Said]:
        """The table's lines for the bidding rounds everyone passed (F8), one per dead turn-up."""
        return [
            self.said(
                lang, "table.all_passed", round=k, card=card_label(card, lang), ante=table.ante
            )
            for k, card in enumerate(table.dead_turnups, start=1)
        ]

    def stakes(self, lang: str, table: TableView) -> Said | None:
        """What a trick is worth and what is at risk, for the header; None if nothing to say."""
        return None

    def penalty_why(self, lang: str, table: TableView, seat: int, times: int) -> Said:
        """Why `seat` paid `times` the pot: the declarer short of his contract, or an opponent
        who promised a trick and took none (F14 and the game's own rules)."""
        if seat != table.declarer:
            return self.said(lang, "why.opponent")
        short = table.declarer_needs - table.seats[seat].tricks
        return self.said(lang, "why.one_short" if short == 1 else "why.short", n=short)

    def unplayed_line(self, lang: str, table: TableView) -> Said | None:
        """The result's headline for a deal no contract was played in: every round was passed
        and the same dealer redeals (F8); else a deal that ended without a declarer (N2:
        everyone passed), None where that cannot happen."""
        return self.said(lang, "result.redeal", n=table.max_rounds) if table.needs_redeal else None
