"""What a player is told about his own turn: the time left on his control message, and
the move the bot made for him when his time ran out or he was away."""

from __future__ import annotations

from typing import Any

from locales import t

from .. import games
from ..view.message import Rendered


def clock(seconds: float) -> str:
    """Time left as m:ss (rounded up: '0:00' only once it is over)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


def timer_line(lang: str, seconds: float) -> str:
    """The mover's line about his turn timer."""
    return t(lang, "timer.left", time=clock(seconds))


def action_words(lang: str, game: str, action: Any) -> str:
    """A move in a few words, in the game's words: the card played, the cards discarded, or the
    call's own word (its button's)."""
    return games.ui(game).move_words(lang, action)


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
    return Rendered(text, content.rows)
