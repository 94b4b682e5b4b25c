"""How the bot shows Khrap (docs/rules.md K1–K6): Frap's table in Khrap's own words."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.deal import TrickDeal
from engine.frap import KhrapDeal, KhrapDo
from engine.views import TableView

from ...view.screen import Said, joined
from ..base import Option
from .codes import Codes
from .frap import FrapUI


class KhrapUI(FrapUI):
    """Khrap: five cards, khrap = three tricks, two trump rounds, the whole or half pot (K4)."""

    game = "khrap"
    section = "khrap"
    deal: ClassVar[type[TrickDeal]] = KhrapDeal
    codes: ClassVar[Codes] = Codes({KhrapDo.KHRAP: "K", KhrapDo.DARK_KHRAP: "Q"})  # K2
    aliases = ("khrap", "храп")
    options: ClassVar[tuple[Option, ...]] = (
        *FrapUI.options,
        Option("must_whist", "mw", (False, True)),  # K6
    )
    own_words = ("храп", "khrap", "вист", "whist", "подрез", "cut in")
    tricks_in_deal: ClassVar[int] = 5  # K5: a failed khrap's trick is a fifth of P0

    def stakes(self, lang: str, table: TableView) -> Said | None:
        """K4–K5: what a khrap made takes in this round; a failed one is Frap's money."""
        line = super().stakes(lang, table)
        if line is None:
            return None
        share = table.pot if table.round == 1 else table.pot // 2  # K4
        return joined(lang, " · ", self.said(lang, "stakes.share", share=share), line)

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """Frap's list in Khrap's words, and K6 when it is on."""
        lines = super().rules_lines(lang, chat_rules)
        if self.typed_rules(self.engine_rules(chat_rules)).must_whist:
            lines.append(self.text(lang, "rules.must_whist.true"))
        return lines


UI = KhrapUI()
