"""How the bot shows Frap (docs/rules.md F1–F15): its words, stakes, settings and /rules."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.deal import TrickDeal
from engine.frap import FrapDeal, FrapRules
from engine.frap.settle import declarer_penalty
from engine.views import TableView

from ...view.screen import Said, joined
from ..base import Option
from .ui import FamilyUI


class FrapUI(FamilyUI):
    """Frap: one bid word, whist or pass, buying, cutting in, four tricks."""

    game = "frap"
    section = "frap"
    deal: ClassVar[type[TrickDeal]] = FrapDeal
    aliases = ("frap", "фрап")
    options: ClassVar[tuple[Option, ...]] = (
        Option("penalties", "pen", ("graded", "flat")),  # F14
        Option("failed_declarer_collects", "fdc", (True, False)),  # F13
        Option("ante", "am", ("penalty_carries", "every_deal")),  # F3
        Option("cut_when_uncontested", "cwu", (False, True)),  # F6
        Option("cutting_in", "cut", (True, False)),  # F10
        Option("lead", "lead", ("last_cutter", "first_cutter")),  # F11
    )
    own_words = ("фрап", "frap", "вист", "whist", "подрез", "cut in")
    tricks_in_deal: ClassVar[int] = 4  # F13: a trick is a quarter of P0

    def preset(self, chat_rules: dict[str, Any]) -> str:
        """F0: a chat may start from the S0 book's preset."""
        preset = chat_rules.get("preset", "classic")
        return preset if isinstance(preset, str) else "classic"

    def typed_rules(self, rules: Any) -> FrapRules:
        """The engine's rules object for a record-style `rules` mapping."""
        return FrapRules.from_dict(dict(rules))

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value in force (F-options of FrapRules)."""
        return getattr(self.typed_rules(self.engine_rules(chat_rules)), option.key)

    def ask(self, lang: str, table: TableView) -> Said:
        """F5–F6: the bid and the answer to it say the game's own word."""
        return self.said(lang, f"ask.{table.phase}")

    def _penalty(self, table: TableView, tricks: int, *, dark: bool) -> int:
        rules = self.typed_rules(table.rules)
        needs = table.declarer_needs
        # F7, F14: a dark declarer takes the turn-up, and one short with the trump ace pays ×3
        taken = table.turnup if dark else None
        times = declarer_penalty(rules, tricks, dark=dark, taken_turnup=taken, trump=table.trump,
                                 needs=needs)  # fmt: skip
        return times * table.pot

    def stakes(self, lang: str, table: TableView) -> Said | None:
        """F13–F14 with the pot as it stands: a trick's value, the declarer's penalty one short
        and with none, a whister's with no trick."""
        if table.finished or table.phase not in ("bidding", "whist"):
            return None
        needs, pot = table.declarer_needs, table.pot
        dark = table.dark if table.declarer is not None else False
        values = {
            "trick": pot // self.tricks_in_deal,
            "one": self._penalty(table, needs - 1, dark=dark),
            "none": self._penalty(table, 0, dark=dark),
            "dark": self._penalty(table, 0, dark=True),
            "whist": pot,
        }
        key = "stakes.bidding" if table.declarer is None else "stakes.whist"
        return self.said(lang, key, **values)

    def penalty_why(self, lang: str, table: TableView, seat: int, times: int) -> Said:
        """F14: the declarer one short or more, dark or not; a whister or cutter with none."""
        if seat != table.declarer:
            role = table.seats[seat].role
            return self.said(lang, "why.cutter" if role == "cutter" else "why.whister")
        why = super().penalty_why(lang, table, seat, times)
        return joined(lang, "", why, self.said(lang, "why.dark")) if table.dark else why

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """F3, F6, F10–F14 as this chat plays them."""
        rules = self.typed_rules(self.engine_rules(chat_rules))
        lines = [
            self.text(lang, "rules.basics"),
            self.text(lang, f"rules.ante.{rules.ante}"),
            self.text(lang, f"rules.penalties.{rules.penalties}"),
            self.text(lang, f"rules.fdc.{str(rules.failed_declarer_collects).lower()}"),
            self.text(lang, f"rules.cwu.{str(rules.cut_when_uncontested).lower()}"),
        ]
        if rules.cutting_in:
            lines.append(self.text(lang, f"rules.cutting_in.{rules.lead}"))
        else:
            lines.append(self.text(lang, "rules.cutting_in.off"))
        return lines


UI = FrapUI()
