"""No word of a worker can leave a table without a next move: an answer that is no legal action
of the deciding seat is refused (the rules level moves), and a move the engine refuses to apply,
whatever produced it, is replaced by the rules level's move for that seat."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot import computer, metrics
from engine.cards import make_deck, shuffled
from engine.errors import IllegalAction
from engine.games import GAMES


def _position() -> tuple[Any, Any]:
    game = GAMES["frap"]
    deck = shuffled(make_deck(game.deck_size({}, 4)), random.Random(9))
    deal = game.new({}, ("p0", "p1", "p2", "p3"), 0, deck)
    while True:
        seat = game.to_act(deal)
        assert seat is not None
        knowledge = game.knowledge(deal, seat)
        if len(knowledge.legal) > 1:
            return deal, knowledge
        deal, _ = deal.apply(knowledge.legal[0])


def test_refused_apply_gets_the_rules_move() -> None:
    deal, knowledge = _position()
    applied: list[Any] = []

    async def apply(table_id: int, position: object, action: Any) -> None:
        applied.append(action)
        if action == other:
            raise IllegalAction("F12", "not this one")

    other = next(a for a in knowledge.legal if a != computer.stand_in(knowledge))

    class Stale(computer.Computers):  # a worker of another version: a move the engine refuses
        async def choose(self, knowledge: Any, level: str) -> Any:
            return other

    async def run() -> None:
        players = Stale(apply, pause=(0.0, 0.0))
        try:
            await players._move(1, deal, knowledge, "random")
        finally:
            await players.close()

    asyncio.run(run())
    assert applied[-1] == computer.stand_in(knowledge)
    assert len(applied) == 2


def test_illegal_answer_is_refused_and_counted() -> None:
    _, knowledge = _position()
    before = metrics.REMOTE_REFUSED.labels("illegal")._value.get()

    class Lying(computer.Computers):
        async def call(self, function: Any, *args: Any, seat: int, timeout: float = 0) -> Any:
            return object()  # no legal action of any seat

    async def nothing(table_id: int, position: object, action: Any) -> None:
        return None

    async def run() -> Any:
        players = Lying(nothing, pause=(0.0, 0.0))
        try:
            return await players.choose(knowledge, "strong")
        finally:
            await players.close()

    move = asyncio.run(run())
    assert move in knowledge.legal
    assert metrics.REMOTE_REFUSED.labels("illegal")._value.get() == before + 1
