"""Illegal actions of every Frap-family game of the registry (engine/games.py), in every phase,
are refused naming their rule and change nothing. Each game's cases are its own (RULES' F*, K*,
SK*, N*), beside its other rules tests in `tests/test_<game>_illegal.py`; Preferans's deal lists
its legal actions instead (tests/test_pref_illegal.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.actions import Action
from engine.deal import TrickDeal
from engine.games import GAMES
from tests import (
    test_engine_illegal,
    test_khrap_illegal,
    test_napoleon_illegal,
    test_student_illegal,
)
from tests.family_helpers import assert_refused_as, case_ids

CASES: dict[str, list[tuple[Callable[[], TrickDeal], Action, str, str]]] = {
    "frap": test_engine_illegal.CASES,
    "khrap": test_khrap_illegal.CASES,
    "student_khrap": test_student_illegal.CASES,
    "napoleon": test_napoleon_illegal.CASES,
}


def _cases() -> list[Any]:
    return [
        pytest.param(*case, id=f"{game}-{name}")
        for game, cases in CASES.items()
        for case, name in zip(cases, case_ids(cases), strict=True)
    ]


def test_every_game_but_preferans_has_its_cases() -> None:
    assert set(CASES) | {"preferans"} == set(GAMES)


@pytest.mark.parametrize(("setup", "action", "rule", "reason"), _cases())
def test_an_illegal_action_is_refused_naming_its_rule_and_changes_nothing(
    setup: Callable[[], TrickDeal], action: Action, rule: str, reason: str
) -> None:
    assert_refused_as(setup(), action, rule, reason)


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_cases_cover_every_phase(game: str) -> None:
    phases = {setup().phase for setup, *_ in CASES[game]}
    assert phases == set(type(next(iter(phases))))
