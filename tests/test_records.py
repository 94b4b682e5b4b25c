"""Every hand record with what it replays to written beside it (`tests/records/<name>.replay.txt`):
RULES' worked examples of every game (F16, F8, K4–K5, SK13, N8, P17), replayed in-process and by
the CLI, exactly."""

from __future__ import annotations

import json

import pytest

from engine.games import summary
from engine.record import read
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
