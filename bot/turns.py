"""What a player is told about his own turn (issue 12): the time left on his control message, and
the move the bot made for him when his time ran out or he was away."""

from __future__ import annotations

from typing import Any

from engine.actions import Do
from engine.cards import Card
from locales import t

from . import games
from .format import card_label
from .view.message import Rendered


def clock(seconds: float) -> str:
    """Time left as m:ss (rounded up: '0:00' only once it is over)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


def timer_line(lang: str, seconds: float) -> str:
    """The mover's line about his turn timer."""
    return t(lang, "timer.left", time=clock(seconds))


def action_words(lang: str, game: str, action: Any, turnup: Card | None = None) -> str:
    """A move in a few words: the card played, the cards discarded, or the call's own word in
    the game's words (its button's)."""
    own = games.ui(game).move_words(lang, action)
    if own is not None:
        return _in_a_sentence(own)
    if action.do is Do.DISCARD and action.cards is not None:
        if not action.cards:
            return t(lang, "timer.kept_cards")
        return t(lang, "timer.discarded", cards=" ".join(card_label(c, lang) for c in action.cards))
    if action.card is not None:
        ui = games.ui(game)
        return ui.play_label(lang, action.card, bool(action.joker))
    return _in_a_sentence(games.ui(game).action_label(lang, action, turnup))


def _in_a_sentence(label: str) -> str:
    """A button's label quoted inside a sentence: 'Пас' reads 'пас' (issue 22); a card's
    'Д♠' or a number stays as it is."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def auto_line(lang: str, game: str, action: Any) -> str:
    """The line on a player's control message saying what the bot played for him."""
    return t(lang, "timer.auto_moved", what=action_words(lang, game, action))


def timed_out_message(lang: str, game: str, action: Any, chat_title: str, *, away: bool) -> str:
    """The private message to a player whose time ran out: what was played, and whether the
    bot now moves for him."""
    text = t(lang, "timer.timed_out", title=chat_title, what=action_words(lang, game, action))
    return text + ("\n" + t(lang, "timer.now_away") if away else "")


def with_lines(content: Rendered, top: list[str], bottom: list[str]) -> Rendered:
    """The same message with lines added above and below its text (the buttons kept)."""
    if not top and not bottom:
        return content
    text = "\n".join([*top, content.text, *bottom])
    return Rendered(text, content.markup)
