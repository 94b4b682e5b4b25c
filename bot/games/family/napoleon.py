"""How the bot shows Napoleon (docs/rules.md N1–N8): numbered bids, napoleon and the dealer's
"here", the exchange, the trump named by the first lead, the treasure, and money between players."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.actions import Action, Verb
from engine.cards import Card
from engine.deal import TrickDeal
from engine.napoleon import NAPOLEON, NapoleonDeal, NapoleonDo, NapoleonRules
from engine.views import TableView
from locales import SEPARATOR

from ...format import short
from ...view.screen import Said, joined
from ..base import Option
from .codes import Codes
from .ui import FamilyUI

HAND = NapoleonDeal.HAND_SIZE  # N1: five tricks in a deal
# Numbers a chat may pick for u and c; None: the chat's ante (docs/rules.md's default).
AMOUNTS: tuple[int | None, ...] = (None, 1, 2, 5, 10, 20, 50, 100)
_MONEY = ("stake", "contribution")  # the bot's own options: not the engine's rules


class NapoleonCodes(Codes):
    """Napoleon's buttons: napoleon and "here", and a bid by its height ("t3", N2)."""

    def action_code(self, action: Action) -> str:
        """A bid's height, else a word's or a card's code."""
        if action.do is NapoleonDo.BID and action.tricks is not None:
            return f"t{action.tricks}"
        return super().action_code(action)

    def parse_action(self, seat: int, code: str) -> Action:
        """A bid's height, else a word or a card; BadCallback if malformed."""
        head, tail = code[:1], code[1:]
        if head == "t" and len(tail) == 1 and tail.isdigit():
            return Action(seat, NapoleonDo.BID, tricks=int(tail))
        return super().parse_action(seat, code)


class NapoleonUI(FamilyUI):
    """Napoleon: bid 1–5 tricks or napoleon; the declarer's first lead names the trump."""

    game = "napoleon"
    section = "napoleon"
    deal: ClassVar[type[TrickDeal]] = NapoleonDeal
    codes: ClassVar[Codes] = NapoleonCodes({NapoleonDo.NAPOLEON: "N", NapoleonDo.HERE: "E"})
    aliases = ("napoleon", "наполеон")
    options: ClassVar[tuple[Option, ...]] = (
        Option("stake", "u", AMOUNTS),  # N5: u, the chips per trick of the bid
        Option("contribution", "c", AMOUNTS),  # N1: c, each player's share of the treasure
        Option("napoleon_failed", "nf", ("treasure_doubles", "pay_each")),  # N7
    )
    own_words = ("наполеон", "napoleon", "treasure")  # «клад» is inside «кладут»

    # ---- rules and money ------------------------------------------------------------------------

    def engine_rules(self, chat_rules: dict[str, Any]) -> dict[str, Any]:
        """N7's option only: u and c are not rules of the deal but its money."""
        rules = super().engine_rules(chat_rules)
        return {k: v for k, v in rules.items() if k not in _MONEY}

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value in force: u and c as the chat set them (None: the ante), else N7's."""
        if option.key in _MONEY:
            own = chat_rules.get(self.game)
            value = own.get(option.key) if isinstance(own, dict) else None
            return value if value in option.values else None
        return getattr(NapoleonRules.from_dict(self.engine_rules(chat_rules)), option.key)

    def option_label(self, lang: str, option: Option, value: Any) -> str:
        """u and c show their number, or that they follow the ante."""
        if option.key in _MONEY:
            shown = self.text(lang, "set.amount.ante") if value is None else str(value)
            return self.text(lang, f"set.{option.key}", value=shown)
        return super().option_label(lang, option, value)

    def deal_money(self, chat_rules: dict[str, Any], ante: int) -> tuple[int, dict[str, Any]]:
        """N1, N5: the contribution c and the stake u, each the chat's ante unless set."""
        own = chat_rules.get(self.game)
        mine = own if isinstance(own, dict) else {}
        c, u = (mine.get(key) for key in ("contribution", "stake"))
        return (ante if c is None else int(c)), {"stake": ante if u is None else int(u)}

    def money_line(self, lang: str, chat_rules: dict[str, Any], ante: int) -> str:
        """N1, N5: the contribution c and the stake u this chat plays for."""
        c, money = self.deal_money(chat_rules, ante)
        return self.text(lang, "lobby.money", c=c, u=money["stake"])

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """N1–N7 briefly, with this chat's u, c (a number, or the ante) and N7's option."""
        u, c = (self.option_label(lang, option, self.option_value(chat_rules, option))
                for option in self.options[:2])  # fmt: skip
        failed = NapoleonRules.from_dict(self.engine_rules(chat_rules)).napoleon_failed
        return [
            self.text(lang, "rules.basics"),
            f"{u}{SEPARATOR}{c}",
            self.text(lang, f"rules.failed.{failed}"),
        ]

    # ---- words ----------------------------------------------------------------------------------

    def bid_word(self, lang: str, bid: Verb, level: int | None) -> str:
        """N2: a numbered bid says its tricks; "here" says the level it takes over."""
        if bid is NapoleonDo.BID and level is not None:
            return self.text(lang, "word.bid", n=level)
        if bid is NapoleonDo.HERE and level is not None:
            return self.text(lang, "word.here", level=self._level(lang, level))
        return self.word(lang, bid)

    def _level(self, lang: str, level: int) -> str:
        if level >= NAPOLEON:
            return self.word(lang, NapoleonDo.NAPOLEON)
        return self.text(lang, "word.bid", n=level)

    def action_label(self, lang: str, action: Action, turnup: Card | None) -> str:
        """N2: a bid button shows its number of tricks."""
        if action.do is NapoleonDo.BID and action.tricks is not None:
            return self.text(lang, "btn.bid", n=action.tricks)
        return super().action_label(lang, action, turnup)

    def ask(self, lang: str, table: TableView) -> Said:
        """N2: the bid to beat; N3: discard one card or keep."""
        if table.phase == "bidding":
            level = max((info.level or 0 for info in table.seats), default=0)
            if not level:
                return self.said(lang, "ask.opening")
            dealer = "_dealer" if table.to_act == table.dealer else ""  # "here" is his alone
            if level >= NAPOLEON:  # nothing above it: pass, or the dealer's "here"
                return self.said(lang, f"ask.napoleon{dealer}")
            return self.said(lang, f"ask.bidding{dealer}", level=self._level(lang, level))
        return super().ask(lang, table)

    def stakes(self, lang: str, table: TableView) -> Said | None:
        """While bidding, what a trick of the bid is worth; then the contract and, once play
        stops, why (N4)."""
        declarer = table.declarer
        if declarer is None:
            if table.finished:
                return None
            return self.said(lang, "stakes.bidding", u=table.stake, pot=table.pot)
        info = table.seats[declarer]
        contract = self._level(lang, info.level or table.declarer_needs)
        line = self.said(lang, "stakes.contract", name=short(info.name), contract=contract,
                         k=info.tricks, n=table.declarer_needs)  # fmt: skip
        if table.finished and table.tricks_played:
            return joined(lang, "\n", line, self.stop_reason(lang, table))
        return line

    def stop_reason(self, lang: str, table: TableView) -> Said:
        """N4: why play stopped: the bid taken, or too few tricks left to make it."""
        assert table.declarer is not None
        taken, needs = table.seats[table.declarer].tricks, table.declarer_needs
        if taken >= needs:
            return self.said(lang, "stop.made", n=taken)
        left = HAND - table.tricks_played
        if (table.seats[table.declarer].level or 0) >= NAPOLEON:
            return self.said(lang, "stop.lost_one")
        return self.said(lang, "stop.failed", n=left, need=needs - taken)

    def penalty_why(self, lang: str, table: TableView, seat: int, times: int) -> Said:
        """N5, N7: the failed declarer's share for the treasure."""
        return self.said(lang, "why.into_treasure")

    def unplayed_line(self, lang: str, table: TableView) -> Said | None:
        """N2: everyone passed; the contributions stay in the treasure."""
        if table.needs_redeal:
            return super().unplayed_line(lang, table)
        return self.said(lang, "result.all_passed")


UI = NapoleonUI()
