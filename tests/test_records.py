"""Every hand record with what it replays to written beside it (`tests/records/<name>.replay.txt`):
RULES' worked examples of every game (F16, F8, K4–K5, SK13, N8, P17), replayed in-process and by
the CLI, exactly, and written back by its game (the registry, engine/games.py) as it was read."""

from __future__ import annotations

import json

import pytest

from engine.games import game_of, summary
from engine.record import dumps, read
from tests.engine_helpers import RECORDS, cli, printed, replayed


@pytest.mark.parametrize("name", replayed(""))
def test_a_record_replays_to_what_is_written_beside_it(name: str) -> None:
    got = summary(read(RECORDS / f"{name}.json"))
    assert got["finished"]
    assert got == json.loads(printed(name))


@pytest.mark.parametrize("name", replayed(""))
def test_the_cli_prints_exactly_what_is_written_beside_the_record(name: str) -> None:
    done = cli("replay", str(RECORDS / f"{name}.json"))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == printed(name) + "\n"


@pytest.mark.parametrize("name", replayed(""))
def test_a_record_is_written_back_as_it_was_read(name: str) -> None:
    record = read(RECORDS / f"{name}.json")
    game = game_of(record)
    deal = game.replay(record)
    again = game.to_record(deal)
    assert game.replay(again) == deal and game.to_record(game.replay(again)) == again
    # Every field as it was; the rules as the game reads them (F16's E3 spells out s0's options).
    assert again | {"rules": None} == record | {"rules": None}
    assert game.replay(json.loads(dumps(record))) == deal  # through JSON text too
