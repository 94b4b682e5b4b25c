"""Random legal playouts of every Frap-family game of the registry (engine/games.py): the invariants
every state keeps (F1, F7, F12, F15, HAND_FORMAT). Checked at every step (the family's `Checker`,
tests/family_helpers.py): each card is exactly once in hands, stock, discards, dead turn-ups, the
turn-up or a trick; chips (and Napoleon's treasure) are conserved and match the events; the deal
ends within its bound of actions; the seat to act has a legal action and every legal action
applies, the others may only open their hands; the default action is legal; the record replays
(also through JSON text) to a state equal to the live one; and `apply` accepts exactly what
`legal_actions` lists. Each game's module in tests/playouts/, found by its registry name, draws
its tables (its players, options and how often a bidder calls) and says what its playouts must
reach; its own properties are in its rules tests. A game whose deal is its own type with its own
invariants (Preferans) has a module there too, naming the tests that check them."""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games import GAMES
from tests import playouts
from tests.family_helpers import check_listed_exactly, drawn_playout, phases_seen, play_out
from tests.playouts import Playouts, Table

ROOT = Path(__file__).resolve().parent.parent


def playouts_module(game: str) -> ModuleType | None:
    """The module of tests/playouts/ named as `game`; None if there is none."""
    name = f"{playouts.__name__}.{game}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return None


MODULES = {game: playouts_module(game) for game in sorted(GAMES)}
PLAYOUTS: dict[str, Playouts] = {
    game: module.PLAYOUTS
    for game, module in MODULES.items()
    if module is not None and module.PLAYOUTS is not None
}
GAME_NAMES = sorted(PLAYOUTS)


def test_every_game_has_its_playouts_module() -> None:
    """Each game of the registry, and no other name, has its module in tests/playouts/; one
    whose `PLAYOUTS` is None names in its docstring the test module that checks its deals."""
    assert {info.name for info in pkgutil.iter_modules(playouts.__path__)} == set(GAMES)
    for game, module in MODULES.items():
        assert module is not None and isinstance(module.PLAYOUTS, Playouts | None), game
        if module.PLAYOUTS is None:
            named = re.findall(r"tests/test_\w+\.py", module.__doc__ or "")
            assert named and all((ROOT / path).is_file() for path in named), game


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_playouts_keep_every_invariant(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table, every_legal = spec.kept
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for i in range(deals):
        n, rules, calls = table(rng, i)
        start = spec.new(rng, n, rules)
        deal = play_out(
            start, rng, spec.max_actions(n), every_legal=i % every_legal == 0, calls=calls
        )
        seen.update(spec.happened(deal))
    assert set(seen) == spec.everything if spec.only else set(seen) >= spec.everything, seen


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_playouts_replay_and_survive_json_at_every_step(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table = spec.replayed
    steps = spec.replay_steps or spec.max_actions
    rng = random.Random(seed)
    for i in range(deals):
        n, rules = table(rng, i)
        play_out(spec.new(rng, n, rules), rng, steps(n), replays=True)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_playouts_reach_every_phase(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table = spec.phased
    rng = random.Random(seed)
    starts = (spec.new(rng, *table(rng, i))[0] for i in range(deals))
    assert phases_seen(starts, rng) == set(spec.phases) - {spec.phases["FINISHED"]}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_apply_accepts_exactly_the_listed_actions(game: str) -> None:
    spec = PLAYOUTS[game]
    seed, deals, table, calls, least = spec.listed
    rng = random.Random(seed)
    starts = (spec.new(rng, *table(rng, i))[0] for i in range(deals))
    assert check_listed_exactly(starts, rng, calls=calls) > least


@pytest.mark.parametrize("game", GAME_NAMES)
def test_hypothesis_playouts(game: str) -> None:
    spec = PLAYOUTS[game]
    examples, tables, replay_every = spec.drawn

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(table=tables, seed=st.integers(0, 2**32 - 1), data=st.data())
    def playout(table: Table, seed: int, data: st.DataObject) -> None:
        n, rules = table
        start = spec.new(random.Random(seed), n, rules)
        spec.check(drawn_playout(start, spec.max_actions(n), data, replay_every=replay_every))

    playout()
