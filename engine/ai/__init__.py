"""Computer players for the games of the engine (issue 17).

A player (`Player`) maps what one seat may know (`engine.knowledge.Knowledge`: its hand, the
table, the deal's public history and its legal actions) and an injected random generator to one
legal action. Three levels (`LEVELS`): `random` (any legal action), `rules` (a readable
heuristic per game, ai/family.py) and `strong` (a search over the hidden cards, ai/search.py).

A game plugs in by registering a `GameAI` in `AI_GAMES` under its record name: its heuristic
(choose, candidates to search, whether a word fits a hand), the cards that ignore voids, and —
for a state that is not a `TrickDeal` — its own imagined deals and payoff. Preferans has its
own deal type: `pref_knowledge` gives a seat's `PrefKnowledge`, and the same levels play it
(`PrefAI`; ai/preferans.py, ai/pref_search.py).
"""

from ..knowledge import Knowledge, PrefKnowledge, pref_knowledge, seat_knowledge
from .games import AI_GAMES, GameAI, PrefAI
from .levels import LEVELS, Player, random_player, rules_player, strong_player

__all__ = [
    "AI_GAMES",
    "LEVELS",
    "GameAI",
    "Knowledge",
    "Player",
    "PrefAI",
    "PrefKnowledge",
    "pref_knowledge",
    "random_player",
    "rules_player",
    "seat_knowledge",
    "strong_player",
]
