"""The one small interface through which the shared bot code shows a game (STYLE.md, "One place
per game"): its words, buttons, questions, stakes, result reasons, settings and /rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.actions import Action, Do
from engine.cards import Card
from engine.deal import TrickDeal
from engine.views import TableView
from locales import has, t


@dataclass(frozen=True, slots=True)
class Option:
    """One house rule a chat may set for a game: the engine's option name, a short code for
    callback data, and its values in the order the settings page lists them."""

    key: str
    short: str
    values: tuple[Any, ...]


class GameUI:
    """How the bot shows one game. A game's module subclasses this and registers an instance;
    its words live in its own catalog section (`<section>.<key>`), and a key the section does
    not hold is read from the shared, game-neutral catalog entries."""

    game: ClassVar[str]  # the engine's name, as hand records use it
    section: ClassVar[str]  # the catalog section of this game's words
    deal: ClassVar[type[TrickDeal]]
    aliases: ClassVar[tuple[str, ...]]  # what /newgame accepts, first = the one shown
    options: ClassVar[tuple[Option, ...]] = ()
    # Words that belong to this game and must not appear in another game's messages (tests).
    own_words: ClassVar[tuple[str, ...]] = ()

    # ---- words ----------------------------------------------------------------------------------

    def text(self, lang: str, key: str, /, **values: Any) -> str:
        """The message `key` in this game's words: its own section first, then the shared one."""
        own = f"{self.section}.{key}"
        return t(lang, own if has(own) else key, **values)

    def title(self, lang: str) -> str:
        """The game's name ('Frap')."""
        return self.text(lang, "name")

    def word(self, lang: str, bid: Do) -> str:
        """A seat's word on the table ('frap', 'pass')."""
        return self.text(lang, f"word.{bid.value}")

    def play_label(self, lang: str, card: Card, joker: bool) -> str:
        """A card on a trick ('10♥'); a game with a joker marks it."""
        return card.label

    def action_label(self, lang: str, action: Action, turnup: Card | None) -> str:
        """The button for a legal action that names no card of the hand."""
        if action.do is Do.CUT:
            hand = self.deal.HAND_SIZE
            if action.turnup:
                assert turnup is not None
                return self.text(lang, "btn.cut_turnup", card=turnup.label, n=hand)
            return self.text(lang, "btn.cut_stock", n=hand + 1)
        return self.text(lang, f"btn.{action.do.value}")

    def phase_line(self, lang: str, table: TableView, who: str) -> str:
        """The group's line saying who is to act and what he decides."""
        return self.text(lang, f"phase.{table.phase}", name=who)

    def ask(self, lang: str, table: TableView) -> str:
        """The question the player to act is asked in his private message."""
        return self.text(lang, f"ask.{table.phase}")

    def all_passed(self, lang: str, table: TableView) -> list[str]:
        """The table's lines for the bidding rounds everyone passed (F8), one per dead turn-up."""
        return [
            self.text(lang, "table.all_passed", round=k, card=card.label, ante=table.ante)
            for k, card in enumerate(table.dead_turnups, start=1)
        ]

    def stakes(self, lang: str, table: TableView) -> str | None:
        """What a trick is worth and what is at risk, for the header; None if nothing to say."""
        return None

    def penalty_why(self, lang: str, table: TableView, seat: int, times: int) -> str:
        """Why `seat` paid `times` the pot: the declarer short of his contract, or an opponent
        who promised a trick and took none (F14 and the game's own rules)."""
        if seat != table.declarer:
            return self.text(lang, "why.opponent")
        short = table.declarer_needs - table.seats[seat].tricks
        return self.text(lang, "why.one_short" if short == 1 else "why.short", n=short)

    def redeal_line(self, lang: str, table: TableView) -> str:
        """The result's line when every round was passed and the same dealer redeals."""
        return self.text(lang, "result.redeal", n=table.max_rounds)

    # ---- rules and settings ---------------------------------------------------------------------

    def engine_rules(self, chat_rules: dict[str, Any]) -> dict[str, Any]:
        """The chat's house rules for this game, as the engine's `rules` object.

        A chat keeps each game's options under the game's name; options stored flat (before
        settings were per game) still apply to the games that have them."""
        names = {option.key for option in self.options}
        flat = {k: v for k, v in chat_rules.items() if k in names}
        own = chat_rules.get(self.game)
        mine = {k: v for k, v in own.items() if k in names} if isinstance(own, dict) else {}
        return {"preset": self.preset(chat_rules), **flat, **mine}

    def preset(self, chat_rules: dict[str, Any]) -> str:
        """The engine preset this game's rules start from."""
        return "classic"

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value of one option in force for this game."""
        raise NotImplementedError

    def option_label(self, lang: str, option: Option, value: Any) -> str:
        """A settings button: the option's name and its value, distinct from every other."""
        shown = self.text(lang, f"set.{option.key}.{str(value).lower()}")
        return self.text(lang, f"set.{option.key}", value=shown)

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """The game's rules in force, briefly, for /rules and /settings (ante and timer aside)."""
        raise NotImplementedError
