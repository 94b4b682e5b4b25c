"""The registry of games the bot shows: one presentation module per game (STYLE.md, "One place
per game"). Shared code finds a game's words, buttons, settings and rules only through here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.deal import TrickDeal

from . import frap, khrap, napoleon, preferans, student_khrap
from .base import GameUI, Host, MatchTables, Option
from .preferans_service import PulyaService

# The registry, in the order the lobby's game button cycles through them. A new game adds its
# module's UI here (and its engine package, its catalog section): nothing else names it.
REGISTRY: dict[str, GameUI] = {
    ui.game: ui for ui in (frap.UI, khrap.UI, student_khrap.UI, napoleon.UI, preferans.UI)
}
ORDER = tuple(REGISTRY)
# The games whose table is a match of many deals, and the service that plays their tables.
TABLES: dict[str, Callable[[Host], MatchTables]] = {preferans.UI.game: PulyaService}

__all__ = ["ORDER", "REGISTRY", "TABLES", "GameUI", "Option", "deal_class", "next_game", "parse"]


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


def deal_class(game: str) -> type[TrickDeal]:
    """The engine's deal class for a game."""
    return REGISTRY[game].deal


def rules_for(game: str, chat_rules: dict[str, Any]) -> dict[str, Any]:
    """The chat's house rules that apply to `game`, as the engine's `rules` object."""
    return REGISTRY[game].engine_rules(chat_rules)


def next_game(game: str) -> str:
    """The game after `game` in the lobby's cycle."""
    return ORDER[(ORDER.index(game) + 1) % len(ORDER)] if game in ORDER else ORDER[0]
