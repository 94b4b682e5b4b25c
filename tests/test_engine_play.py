"""`python -m engine play GAME --players N`: a person at seat 0 against computer
players, driven here through stdin."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.engine_helpers import ROOT


def play(*args: str, typed: str) -> subprocess.CompletedProcess[str]:
    """Run the terminal table with `typed` as the person's input."""
    return subprocess.run(
        [sys.executable, "-m", "engine", "play", *args],
        input=typed, capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("game", "players"),
    [("frap", 3), ("khrap", 4), ("student_khrap", 4), ("napoleon", 5), ("preferans", 4)],
)
def test_a_person_plays_whole_deals_against_the_computer(game: str, players: int) -> None:
    done = play(game, "--players", str(players), "--seed", "7", "--deals", "3", typed="1\n" * 300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("result: ") == 3 and "== deal 3" in out
    assert "your hand: " in out and "  1. " in out and "your move: " in out
    assert out.count("you: ") >= 3  # the person's moves are shown as the computers' are


def test_a_wrong_number_is_asked_again_and_q_stops() -> None:
    done = play("frap", "--players", "2", "--seed", "1", typed="99\nx\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("type a number from 1 to") == 2
    assert "stopped" in done.stdout and "result: " not in done.stdout


@pytest.mark.parametrize("game", ["student_khrap", "preferans"])
def test_a_table_of_the_wrong_size_is_refused(game: str) -> None:
    done = play(game, "--players", "2", typed="")
    assert done.returncode == 2 and "3–4 players" in done.stderr
