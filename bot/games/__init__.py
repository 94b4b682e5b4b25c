"""The registry of games the bot shows: one presentation module per game (STYLE.md, "One place
per game"). Shared code finds a game's words, buttons, settings and rules only through here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from . import preferans
from .base import ChatDrawing, GameKind, GameUI, Host, Moved, Option
from .family import frap, khrap, napoleon, student_khrap
from .family.chat import FamilyChat
from .family.table import DealTables

U = TypeVar("U", bound=GameUI)

REGISTRY: dict[str, GameUI] = {}  # each game's UI, by the engine's name for it
KINDS: dict[str, Callable[[Host, Any], GameKind]] = {}  # each game's kind of table
# how the chat draws each game's tables, made for its UI and the bot's username
DRAWINGS: dict[str, Callable[[Any, str], ChatDrawing]] = {}
ORDER: tuple[str, ...] = ()  # the order the lobby's game button cycles through them


def register(
    ui: U, kind: Callable[[Host, U], GameKind], drawing: Callable[[U, str], ChatDrawing]
) -> None:
    """Register a game: its UI, the kind of table it is played at (a `GameKind` made for the
    host and the UI), and how the chat draws its tables (a `ChatDrawing` made for the UI and
    the bot's username). The lobby's game button cycles through the games in this order."""
    global ORDER
    REGISTRY[ui.game] = ui
    KINDS[ui.game] = kind
    DRAWINGS[ui.game] = drawing
    ORDER = tuple(REGISTRY)


# One line per game. A new game adds its line here (and its engine package, its bot package,
# its catalog section): nothing else names it.
register(frap.UI, DealTables, FamilyChat)
register(khrap.UI, DealTables, FamilyChat)
register(student_khrap.UI, DealTables, FamilyChat)
register(napoleon.UI, DealTables, FamilyChat)
register(preferans.UI, preferans.PulyaTables, preferans.PulyaChat)

__all__ = [
    "DRAWINGS",
    "KINDS",
    "ORDER",
    "REGISTRY",
    "GameKind",
    "GameUI",
    "Moved",
    "Option",
    "drawing",
    "next_game",
    "parse",
    "register",
    "tables",
]


def tables(game: str, host: Host) -> GameKind:
    """The kind of table a registered game is played at, made for the host."""
    return KINDS[game](host, REGISTRY[game])


def drawing(game: str, bot_username: str) -> ChatDrawing:
    """How the chat draws a registered game's tables."""
    return DRAWINGS[game](REGISTRY[game], bot_username)


def ui(game: str) -> GameUI:
    """The presentation of a registered game (KeyError for another)."""
    return REGISTRY[game]


def parse(word: str) -> str | None:
    """The game a /newgame argument names, or None."""
    word = word.lower()
    return next((g.game for g in REGISTRY.values() if word in g.aliases), None)


def choices() -> str:
    """The /newgame arguments, one per game, for the usage line."""
    return " | ".join(g.aliases[0] for g in REGISTRY.values())


def rules_for(game: str, chat_rules: dict[str, Any]) -> dict[str, Any]:
    """The chat's house rules that apply to `game`, as the engine's `rules` object."""
    return REGISTRY[game].engine_rules(chat_rules)


def next_game(game: str) -> str:
    """The game after `game` in the lobby's cycle."""
    return ORDER[(ORDER.index(game) + 1) % len(ORDER)] if game in ORDER else ORDER[0]
