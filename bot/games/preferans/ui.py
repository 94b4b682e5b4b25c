"""How the bot shows Preferans (RULES P1-P18): its settings and /rules, its money, and its
deals told for /history and /stats (the messages: `render.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from engine.preferans import record as deal_record
from engine.preferans.bidding import RANK, strain
from engine.preferans.deal import PrefDeal
from engine.preferans.outcome import MISERE, PrefRules
from locales import SEPARATOR, t

from ...format import in_a_sentence
from ...format import name as shown_name
from ..base import Option
from .account import finished_deal, story_lines, written_line
from .render import result_lines
from .words import PrefWords

if TYPE_CHECKING:
    from engine.review import Review

    from ...storage import DealRow

TARGETS = (10, 20, 30, 50)  # P14
WHIST_PRICES = (1, 2, 5, 10)  # chips per whist (P16 is in whists; the chat sets the price)
DEFAULT_WHIST_PRICE = 1


class PreferansUI(PrefWords):
    """Preferans: a pulya of deals; the words of the `pref` catalog section."""

    aliases: ClassVar[tuple[str, ...]] = ("preferans", "преферанс", "пуля")
    uses_ante: ClassVar[bool] = False  # P16: the whist's price, not the chat's ante
    practice_players: ClassVar[int] = 3  # P1: three at the table is the usual game
    options: ClassVar[tuple[Option, ...]] = (
        Option("target", "tg", TARGETS),  # P14
        Option("whist_price", "wp", WHIST_PRICES),  # P16's whists in chips
        Option("here", "here", ("on", "off")),  # P4
        Option("stalingrad", "stg", (False, True)),  # P6
        Option("raspasy_progression", "rp", ("123", "124", "none")),  # P10
        Option("raspasy_amnesty", "ram", (False, True)),  # P10
        Option("raspasy_exit", "rx", (6, 7)),  # P10
        Option("whist", "wh", ("greedy", "gentleman")),  # P11
        Option("whist_liability", "wl", ("full", "capped")),  # P12
        Option("ten", "ten", ("checked", "whisted")),  # P13
        Option("overflow", "ov", ("help", "gora")),  # P15
        Option("dealer_consolation", "dc", (True, False)),  # P1
    )
    # (whist is Frap's word too; the talon, «прикуп», is also what a Frap player buys from)
    own_words = ("пуля", "мизер", "распасы", "pulya", "misère", "raspasy", "вист", "whist")
    page_words = ("contract", "pulya", "gora", "raspasy", "whists", "sheet", "ladder")

    @property
    def players(self) -> tuple[int, int]:
        """P1: three, or four with the dealer sitting out each deal."""
        return PrefDeal.MIN_PLAYERS, PrefDeal.MAX_PLAYERS

    def match_of(self, deal: DealRow) -> int | None:
        """A deal is one of its table's pulya (P14): read against the pulya's earlier deals."""
        return deal.table_id

    def preset(self, chat_rules: dict[str, Any]) -> str:
        """P0: the Sochi convention."""
        return "sochi"

    def engine_rules(self, chat_rules: dict[str, Any]) -> dict[str, Any]:
        """The P options for the engine (the whist's price is the bot's, not a rule's)."""
        rules = super().engine_rules(chat_rules)
        rules.pop("whist_price", None)
        return rules

    def typed_rules(self, chat_rules: dict[str, Any]) -> PrefRules:
        """The engine's rules for this chat's settings."""
        return PrefRules.from_dict(self.engine_rules(chat_rules))

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value in force (the P-options of PrefRules; the whist's price)."""
        if option.key == "whist_price":
            return self.whist_price(chat_rules)
        return getattr(self.typed_rules(chat_rules), option.key)

    def money_line(self, lang: str, chat_rules: dict[str, Any], ante: int) -> str:
        """The lobby's line: no ante; the pulya's target and what a whist costs (P14, P16)."""
        price = self.whist_price(chat_rules)
        target = self.typed_rules(chat_rules).target
        return self.text(lang, "rules.money", target=target, n=price)

    def bankroll_need(self, ante: int, pot: int, players: int) -> int:
        """F15: a chip of the bankroll left (nothing is paid to be dealt in: the chips move
        once, when the pulya closes)."""
        return 1

    def history_line(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        date: str,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str:
        """A deal of a pulya: its contract (or raspasy) and what each player wrote and why, as
        the sheet got it (P15's overflow from the pulya's `earlier` deals); a record that does not
        replay: its number and date only."""
        deal = finished_deal(record)
        if deal is None or deal.outcome is None:
            return t(lang, "history.line_plain", number=number, date=date, changes="?")
        line = written_line(deal, earlier)
        outcome = line.outcome
        if outcome.contract is None or outcome.declarer is None:
            what = self.text(lang, "history.raspasy")
        else:
            bid = self.bid_label(lang, outcome.contract)
            what = f"{shown_name(deal.players[outcome.declarer])}, {bid}"
        items = result_lines(lang, line, deal.players, number)[1:]
        # a line per player (and per overflow move): one line of them all would run to hundreds
        changes = "\n".join(items) or "—"
        return self.text(lang, "history.line", number=number, date=date, what=what, changes=changes)

    def deal_account(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """A deal of a pulya told in full: the dealer, every word of the auction, the talon where
        the table saw it (P5; never the discard), the contract, the whisting words (P6), light
        or open hands (P7, P9), raspasy's turned cards (P10), every trick and its taker, then
        what each player wrote and why, as the result did (P15 from the `earlier` deals); None
        if the record does not replay to a finished deal."""
        try:
            deal, steps = deal_record.story(record)
        except ValueError:
            return None
        if not deal.finished or deal.outcome is None:
            return None
        names = [shown_name(player) for player in deal.players]
        lines = [self.text(lang, "account.title", game=self.title(lang), deal_no=number)]
        dealer = "account.dealer_out" if deal.sitting_out is not None else "account.dealer"
        lines.append(self.text(lang, dealer, name=names[deal.dealer]))  # P1
        if deal.streak:
            lines.append(self.text(lang, "table.streak", n=deal.streak))
        lines += story_lines(lang, [e for _, events in steps for e in events], names)
        if deal.tricks_played:  # (P6: a contract both defenders passed is not played)
            tricks = (
                self.text(lang, "account.tricks", name=names[seat], n=n)
                for seat, n in enumerate(deal.won)
                if seat != deal.sitting_out
            )
            lines.append(SEPARATOR.join(tricks))
        lines.append("")
        lines += result_lines(lang, written_line(deal, earlier), deal.players, number)
        return "\n".join(lines)

    def declared(self, record: dict[str, Any]) -> tuple[int | None, bool, str | None]:
        """The declarer of a trick game or misère, whether he made it, and "misere" for a
        misère (P9: /stats counts them apart); nobody in raspasy."""
        deal = finished_deal(record)
        if deal is None or deal.outcome is None:
            return None, False, None
        outcome = deal.outcome
        made = bool(outcome.declarer is not None and outcome.made)
        return outcome.declarer, made, MISERE if outcome.contract == MISERE else None

    def review_lines(self, lang: str, review: Review) -> list[str]:
        """P5, P6, P9: the contract against what the declarer's cards took with best play by
        all (with the discard he made), the highest contract that was on, and the whist
        against the defence's obligation; misère, whether it was on."""
        contract = review.contract
        if contract is None or review.declarer is None:
            return []
        named = self.bid_label(lang, contract.named)
        if contract.misere is not None:
            if contract.misere == 0:
                return [self.text(lang, "review.misere_on")]
            return [self.text(lang, "review.misere_off", n=contract.misere)]
        best_play = dict(contract.tricks)[strain(contract.named)]
        lines = [self.text(lang, "review.contract", contract=named, n=best_play)]
        if review.taken is not None:
            lines[0] += " " + self.text(lang, "review.taken", n=review.taken)
        best = contract.best
        if best is None:
            lines.append(self.text(lang, "review.nothing_on"))
        elif best != contract.named:
            higher = RANK[best] > RANK[contract.named]
            key = "review.more_on" if higher else "review.most_on"
            lines.append(self.text(lang, key, contract=self.bid_label(lang, best)))
        if contract.defence is not None and contract.obligation is not None:
            key = "review.whist_right" if contract.defence >= contract.obligation else (
                "review.whist_wrong"
            )  # fmt: skip
            lines.append(self.text(lang, key, n=contract.defence, need=contract.obligation))
        return lines

    def move_words(self, lang: str, action: Any) -> str:
        """What the bot played for a player: his button's words."""
        return in_a_sentence(self.button_label(lang, action))

    def option_label(self, lang: str, option: Option, value: Any) -> str:
        """A settings button: numbers (P14's target, P10's exit) as they are, yes/no for the
        switches, the option's own word for the rest."""
        if isinstance(value, bool):
            shown = self.text(lang, "set.yes" if value else "set.no")
        elif isinstance(value, int):
            shown = str(value)
        else:
            shown = self.text(lang, f"set.{option.key}.{value}")
        return self.text(lang, f"set.{option.key}", value=shown)

    def whist_price(self, chat_rules: dict[str, Any]) -> int:
        """The chat's price of a whist in chips (its Preferans settings; 1 unless set)."""
        own = chat_rules.get(self.game)
        price = own.get("whist_price") if isinstance(own, dict) else None
        return price if isinstance(price, int) and price in WHIST_PRICES else DEFAULT_WHIST_PRICE

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """P1–P16 briefly, the pulya's target and the whist's price, then every P option in
        force (the same labels as the settings page)."""
        chosen = SEPARATOR.join(
            self.option_label(lang, option, self.option_value(chat_rules, option))
            for option in self.options
            if option.key not in ("target", "whist_price")  # the money line says them
        )
        return [
            self.text(lang, "rules.basics"),
            self.money_line(lang, chat_rules, 0),
            chosen,
        ]


UI: PreferansUI = PreferansUI()
