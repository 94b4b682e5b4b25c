"""The hands shown at the end of a deal (a chat's house option, on unless turned off) and the
"Review" button under a deal's result (the review itself: bot/chat/review.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games import GAMES
from engine.review import Review
from locales import t

from .. import callbacks
from ..format import cards_text, name
from .message import Choice, Rendered

if TYPE_CHECKING:
    from ..storage import ChatRow

SHOW_HANDS = "show_hands"  # the chat's house option (kept among its rules, like the bankroll)
FITS = 4000  # a message's text stays within Telegram's 4096 characters (a card is one or two)


def shows_hands(chat: ChatRow) -> bool:
    """Whether a deal's result shows every hand as dealt (on unless the chat turned it off)."""
    return chat.rules.get(SHOW_HANDS, True) is not False


def button(lang: str, deal_id: int) -> Choice:
    """The "Review" button under a deal's result."""
    return Choice(t(lang, "review.button"), callbacks.encode("r", deal_id))


def at_the_end(
    content: Rendered, lang: str, record: dict[str, Any], deal_id: int, show: bool
) -> Rendered:
    """A deal's result with, when `show`, every hand as dealt, the talon and the discard, and
    the review's button under it."""
    text = content.text
    if show:
        hands = "\n\n" + "\n".join(hands_lines(lang, GAMES[record["game"]].hands(record)))
        if len(text) + len(hands) <= FITS:  # a result of many lines keeps its own first
            text += hands
    return Rendered(text, [*content.rows, [button(lang, deal_id)]])


def hands_lines(lang: str, review: Review) -> list[str]:
    """Every hand as dealt, then the talon and the discard where the game has them."""
    lines = [t(lang, "review.hands")]
    for seat, hand in enumerate(review.hands):
        if hand:
            who = name(review.players[seat])
            lines.append(t(lang, "review.hand", name=who, cards=cards_text(hand, lang)))
    if review.talon:
        lines.append(t(lang, "review.talon", cards=cards_text(review.talon, lang)))
    if review.discard:
        lines.append(t(lang, "review.discard", cards=cards_text(review.discard, lang)))
    return lines
