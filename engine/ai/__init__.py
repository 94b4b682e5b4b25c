"""Computer players for every game of the engine (issue 17): random, rules and strong levels."""

from ..knowledge import Knowledge, seat_knowledge
from .games import AI_GAMES, GameAI
from .levels import LEVELS, Player, random_player, rules_player, strong_player

__all__ = [
    "AI_GAMES",
    "LEVELS",
    "GameAI",
    "Knowledge",
    "Player",
    "random_player",
    "rules_player",
    "seat_knowledge",
    "strong_player",
]
