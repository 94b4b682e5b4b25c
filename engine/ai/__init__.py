"""Computer players for the games of the engine.

A player (`Player`) maps what one seat may know (`engine.knowledge.Knowledge` for the Frap family,
`engine.preferans.knowledge.PrefKnowledge` for Preferans: its hand, the table, the deal's public
history and its legal actions) and an injected random generator to one legal action. Three levels
(`LEVELS`): `random` (any legal action), `rules` (a readable heuristic per game, ai/family.py,
ai/napoleon.py, ai/preferans.py) and `strong` (a search over the hidden cards, ai/search.py,
ai/pref_search.py). A game plugs in through its registry entry (engine/games.py): its
`Computer` names its heuristic and its search.
"""

from ..knowledge import Knowledge, seat_knowledge
from ..preferans.knowledge import PrefKnowledge, pref_knowledge
from .levels import LEVELS, Player, random_player, rules_player, strong_player

__all__ = [
    "LEVELS",
    "Knowledge",
    "Player",
    "PrefKnowledge",
    "pref_knowledge",
    "random_player",
    "rules_player",
    "seat_knowledge",
    "strong_player",
]
