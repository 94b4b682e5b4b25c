"""Which games a table can play, how a chat's house rules apply to each, and seat labels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.deal import TrickDeal
from engine.games import GAMES

ORDER = ("frap", "khrap", "student_khrap")  # the lobby's game button cycles in this order
_NAMES = {
    "frap": "frap",
    "фрап": "frap",
    "khrap": "khrap",
    "храп": "khrap",
    "student": "student_khrap",
    "student_khrap": "student_khrap",
    "студенческий": "student_khrap",
}
STUDENT_OPTIONS = ("joker_lead",)  # SK2; every other option is Frap's and Khrap's (F*, K6)


def parse(word: str) -> str | None:
    """The game a /newgame argument names, or None."""
    return _NAMES.get(word.lower())


def deal_class(game: str) -> type[TrickDeal]:
    """The engine's deal class for a game."""
    return GAMES[game]


def rules_for(game: str, chat_rules: dict[str, Any]) -> dict[str, Any]:
    """The chat's house rules that apply to `game`, as the engine's `rules` object."""
    preset = {"preset": chat_rules.get("preset", "classic")}
    if game == "student_khrap":
        return {
            "preset": "classic",
            **{k: v for k, v in chat_rules.items() if k in STUDENT_OPTIONS},
        }
    return {**preset, **{k: v for k, v in chat_rules.items() if k not in STUDENT_OPTIONS}}


def next_game(game: str) -> str:
    """The game after `game` in the lobby's cycle."""
    return ORDER[(ORDER.index(game) + 1) % len(ORDER)] if game in ORDER else ORDER[0]


def labels(names: Sequence[str]) -> list[str]:
    """Distinct seat labels for the engine (F2): a repeated name gets " 2", " 3"…"""
    used: set[str] = set()
    out = []
    for name in names:
        label, k = name, 1
        while label in used:
            k += 1
            label = f"{name} {k}"
        used.add(label)
        out.append(label)
    return out
