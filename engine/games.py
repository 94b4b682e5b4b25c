"""The one registry of the engine's games (OpenSpiel's): each by the name its records use, with
what replay, `python -m engine play`, seat knowledge, the computer players and the benches ask of
it (engine/gametype.py). A new game is its package and one line in `GAMES`; nothing outside a
game's package names it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from . import record, terminal
from .ai import napoleon_dd
from .ai.family import FamilyRules
from .ai.games import GameAI
from .ai.napoleon import NapoleonHeuristic
from .ai.search import search
from .cards import Card
from .deal import FORMAT, TrickDeal
from .errors import ReplayError
from .frap import FrapDeal, KhrapDeal, KhrapDo
from .gametype import Computer, Game
from .knowledge import seat_knowledge
from .napoleon import NapoleonDeal
from .preferans.game import GAME as PREFERANS
from .review import Review, build
from .student import JOKER, StudentDeal, StudentDo

ANTE = 10  # a first deal's ante (F3) where no table sets one: the benches, a terminal table


def family(
    deal: type[TrickDeal], ai: GameAI, review: Callable[[dict[str, Any]], Review] | None = None
) -> Game:
    """A game of the Frap family (a `TrickDeal`): the family's records, knowledge, search and
    terminal table, with its own deal class and rules level; its review shows the hands only
    (several declarers and whisters, each for himself: no two sides to weigh a card for)
    unless the game has its own."""

    def new(
        rules: dict[str, Any], players: Sequence[str], dealer: int, deck: Sequence[Card]
    ) -> Any:
        return deal.create(rules, players, dealer, ANTE, 0, deck)[0]

    return Game(
        name=deal.game,
        seats=range(deal.MIN_PLAYERS, deal.MAX_PLAYERS + 1),
        default_players=4,
        unit="chips",
        deck_size=deal.deck_size_for,
        new=new,
        to_act=lambda state: state.to_act,
        legal=lambda state: state.legal_actions(state.to_act),
        replay=record.replay,
        summary=lambda data: record.outcome(record.replay(data)),
        to_record=lambda state: state.to_record(),
        knowledge=seat_knowledge,
        computer=Computer(ai.heuristic.choose, partial(search, game=ai), ai.wild),
        payoff=lambda state: [ai.payoff(state, seat) for seat in range(state.n)],
        terminal=partial(terminal.play, deal),
        review=review or partial(_hands, "sides"),
        hands=partial(_hands, None),
    )


def _hands(reason: str | None, data: dict[str, Any]) -> Review:
    """The hands as dealt and the cards set aside; with a `reason`, as the review of a deal
    that has no two sides to weigh a card for (F: several declarers and whisters)."""
    deal = record.start(data)
    end = record.replay(data)
    return build(deal.game, deal.players, deal.hands, discard=end.discards, only_hands=reason)


_JOKER = frozenset({JOKER})
_KHRAP = (KhrapDo.KHRAP,)  # K2: Frap's rules level in Khrap's word
# SK4, SK8: khrap or veselyu with a declarer's hand, pomogu with a whister's.
_STUDENT = FamilyRules(
    declare=1.9, stand=1.0, wild=_JOKER, declaring=(StudentDo.KHRAP,),
    standing=(StudentDo.POMOGU,), taking_over=(StudentDo.VESELYU,),
)  # fmt: skip

GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        # F5: frap = 2 of 4 tricks; F6: whist = 1 and a ×1 penalty with none.
        family(FrapDeal, GameAI(FamilyRules(declare=1.9, stand=1.0))),
        # K2, K4: khrap = 3 of 5 for the whole pot; whisters gain only when it fails.
        family(KhrapDeal, GameAI(FamilyRules(declare=2.7, stand=1.1, declaring=_KHRAP))),
        # SK4: khrap = 2 of 4, pomogu = 1; SK2: the joker is a sure trick and follows no suit.
        family(StudentDeal, GameAI(_STUDENT, wild=_JOKER)),
        # N2–N4: bid by a count of likely tricks, name trump with the best suit; the strong level
        # searches it like the family (same sampling, payoff = chips plus treasure share).
        family(NapoleonDeal, GameAI(NapoleonHeuristic()), napoleon_dd.review),
        PREFERANS,
    )
}


def game_of(data: dict[str, Any]) -> Game:
    """The game a record is of (HAND_FORMAT: Frap's where it names none); ReplayError if it is
    not a hand record or names no game of the registry."""
    name = data.get("game", "frap")
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    if data.get("format") != FORMAT:
        raise ReplayError(None, f"format must be {FORMAT!r}")
    raise ReplayError(None, f"unknown game {name!r}")


def review(data: dict[str, Any]) -> dict[str, Any] | None:
    """The review of a finished deal's record of any game, as JSON (what the bot's workers
    compute off its event loop); None for a record that does not replay (an error would have
    to cross back from the worker)."""
    try:
        return game_of(data).review(data).to_json()
    except (ReplayError, ValueError, KeyError, TypeError):
        return None


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What `python -m engine replay` prints for a record of any game; raises ReplayError."""
    return game_of(data).summary(data)
