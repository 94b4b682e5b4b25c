"""How the bot shows Student Khrap (docs/rules.md SK1–SK13): calls, the joker, a quarter of the
bank."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.actions import Action, Do
from engine.cards import Card, Suit
from engine.deal import TrickDeal
from engine.student import JOKER, StudentDeal, StudentDo, StudentRules
from engine.views import TableView

from ...callbacks import BadCallback
from ...format import card_label
from ...view.screen import Said
from ..base import Option
from .codes import Codes
from .ui import FamilyUI

TRICKS = 4  # SK12: a trick is a quarter of the bank


class StudentCodes(Codes):
    """Student Khrap's buttons: its calls (SK4, SK7–SK9), a call's discard, and the 7♠ as the
    joker ("k1", naming a suit: "k1H") or as a plain seven ("k0", SK2)."""

    def action_code(self, action: Action) -> str:
        """The joker's three ways, else a word's or a card's code."""
        if action.do is Do.PLAY and action.joker is not None:
            return "k" + ("1" if action.joker else "0") + (action.suit.value if action.suit else "")
        return super().action_code(action)

    def parse_action(self, seat: int, code: str) -> Action:
        """The joker's three ways, else a word or a card; BadCallback if malformed."""
        head, tail = code[:1], code[1:]
        if head == "k" and tail[:1] in ("0", "1") and len(tail) <= 2:
            try:
                suit = Suit.parse(tail[1:]) if tail[1:] else None
            except ValueError as exc:
                raise BadCallback(code) from exc
            return Action(seat, Do.PLAY, card=JOKER, joker=tail[0] == "1", suit=suit)
        return super().parse_action(seat, code)


class StudentUI(FamilyUI):
    """Student Khrap: khrap, "pomogu", "beru pyat'", "veselyu", "zavorachivayu", the 7♠ joker."""

    game = "student_khrap"
    section = "student"
    deal: ClassVar[type[TrickDeal]] = StudentDeal
    codes: ClassVar[Codes] = StudentCodes(
        {
            StudentDo.KHRAP: "K",
            StudentDo.POMOGU: "H",
            StudentDo.BERU_PYAT: "B",
            StudentDo.VESELYU: "V",
            StudentDo.ZAVORACHIVAYU: "Z",
        },
        {StudentDo.CALL_DISCARD: "z"},
    )
    aliases = ("student", "студенческий", "student_khrap")
    options: ClassVar[tuple[Option, ...]] = (
        Option("joker_lead", "jl", ("trumps", "named_suit")),  # SK2
    )
    own_words = (
        *("храп", "khrap", "помогу", "веселю", "заворачиваю", "джокер"),
        *("joker", "veselyu", "zavorachivayu", "take five"),
    )

    def bankroll_need(self, ante: int, pot: int, players: int) -> int:
        """SK13: two banks in reserve; an empty bank is re-formed by antes (SK12)."""
        return 2 * (pot or ante * players)

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value in force (SK-options of StudentRules)."""
        return getattr(StudentRules.from_dict(self.engine_rules(chat_rules)), option.key)

    def action_label(self, lang: str, action: Action, turnup: Card | None) -> str:
        """SK2: the 7♠ as the joker (naming a suit) or as a plain seven."""
        if action.card == JOKER and action.do is Do.PLAY and action.joker is not None:
            if not action.joker:
                return self.text(lang, "btn.plain_seven", card=card_label(JOKER, lang))
            if action.suit is not None:
                return self.text(
                    lang, "btn.joker_suit", card=card_label(JOKER, lang), suit=action.suit.symbol
                )
            return self.text(lang, "btn.joker", card=card_label(JOKER, lang))
        return super().action_label(lang, action, turnup)

    def play_label(self, lang: str, card: Card, joker: bool) -> str:
        """SK2: the 7♠ played as the joker says so."""
        return card_label(card, lang) + (f" ({self.text(lang, 'word.joker')})" if joker else "")

    def ask(self, lang: str, table: TableView) -> Said:
        """SK4–SK9: the first call, or the answer to a khrap already called."""
        if table.phase == "bidding":
            return self.said(lang, "ask.answer" if table.declarer is not None else "ask.bidding")
        return super().ask(lang, table)

    def stakes(self, lang: str, table: TableView) -> Said | None:
        """SK12: a quarter of the bank a trick, 2 banks for a short khrap, 1 for a helper."""
        if table.finished or table.phase != "bidding":
            return None
        pot = table.pot
        return self.said(lang, "stakes.bidding", trick=pot // TRICKS, short=2 * pot, helper=pot)

    def penalty_why(self, lang: str, table: TableView, seat: int, times: int) -> Said:
        """SK12: the declarer short of two tricks, or a helper or taker with none."""
        if seat == table.declarer:
            return super().penalty_why(lang, table, seat, times)
        return self.said(lang, "why.helper")

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """SK1–SK13 briefly, and how a led joker is answered here (SK2)."""
        rules = StudentRules.from_dict(self.engine_rules(chat_rules))
        return [
            self.text(lang, "rules.basics"),
            self.text(lang, f"rules.joker_lead.{rules.joker_lead}"),
        ]


UI = StudentUI()
