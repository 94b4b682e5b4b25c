"""The Frap family's UI: its words (`words.py`) and its deals told for /history and /stats,
replayed from their records; its four games (Frap, Khrap, Student Khrap, Napoleon) subclass it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from engine.actions import Do
from engine.errors import ReplayError
from engine.record import replay
from engine.views import table_view
from locales import t

from ...format import card_label, in_a_sentence, name, signed
from ...view.screen import said_html
from . import account
from .codes import Codes
from .words import FamilyWords


class FamilyUI(FamilyWords):
    """How the bot shows a game of the Frap family: its words, its buttons' codes (Frap's unless
    it has words of its own), and its deals replayed from their records for /history and
    /stats."""

    codes: ClassVar[Codes] = Codes()

    def move_words(self, lang: str, action: Any) -> str:
        """A move in a few words: the card played, the cards discarded, or the call's own word
        in the game's words (its button's)."""
        if action.do is Do.DISCARD and action.cards is not None:
            if not action.cards:
                return t(lang, "timer.kept_cards")
            cards = " ".join(card_label(c, lang) for c in action.cards)
            return t(lang, "timer.discarded", cards=cards)
        if action.card is not None:
            return self.play_label(lang, action.card, bool(action.joker))
        return in_a_sentence(self.action_label(lang, action, None))

    def history_line(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        date: str,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str:
        """A deal replayed: its contract (or the redeal, or nobody's) and each player's change."""
        changes, what = "?", ""
        try:
            played = replay(record)
        except ReplayError:
            played = None
        if played is not None:
            view = table_view(played)
            names = played.players
            if view.needs_redeal or view.declarer is None or view.contract is None:
                unplayed = self.unplayed_line(lang, view)
                # (history.line puts its colon)
                what = said_html(lang, unplayed).rstrip(".") if unplayed is not None else ""
            else:
                word = self.bid_word(lang, view.contract, view.seats[view.declarer].level)
                what = f"{name(names[view.declarer])}, {word}"
            pairs = zip(names, view.delta, strict=True)
            changes = ", ".join(f"{name(n)} {signed(d)}" for n, d in pairs)
        if not what:
            return t(lang, "history.line_plain", number=number, date=date, changes=changes)
        return t(lang, "history.line", number=number, date=date, what=what, changes=changes)

    def deal_account(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """The deal replayed and told: the turn-up, every word, the buying, every trick, and
        each player's money with its reasons."""
        return account.deal_account(lang, self, record, number)

    def declared(self, record: dict[str, Any]) -> tuple[int | None, bool, str | None]:
        """The replayed deal's declarer and whether he made his contract: took the tricks it
        needs, or the pot with no play when nobody stood against him (nobody's after an F8
        redeal)."""
        try:
            view = table_view(replay(record))
        except (ReplayError, KeyError, ValueError):
            return None, False, None
        if view.declarer is None or view.needs_redeal:
            return None, False, None
        if view.tricks_played == 0:  # F6, SK4: nobody stood against him, the pot was his
            return view.declarer, True, None
        return view.declarer, view.seats[view.declarer].tricks >= view.declarer_needs, None
