"""RULES F16's worked examples as hand records (HAND_FORMAT): what they show beyond the replay that
tests/test_records.py checks exactly; malformed records refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, Do
from engine.errors import ReplayError
from engine.frap import FrapDeal, FrapRules
from engine.record import dumps, outcome, read, replay, start
from tests.engine_helpers import RECORDS, cli, printed, replayed


def test_F16_e3_is_s0s_example_under_the_s0_preset() -> None:
    record = read(RECORDS / "f16_e3.json")
    assert FrapRules.from_dict(record["rules"]) == FrapRules.from_dict({"preset": "s0"})
    record["rules"] = {"preset": "s0"}
    assert outcome(replay(record)) == json.loads(printed("f16_e3"))
    record["rules"] = {"preset": "classic"}  # the same cards under the defaults: E2
    assert outcome(replay(record)) == json.loads(printed("f16_e2"))


def test_record_with_an_illegal_action_exits_2_naming_the_action_and_rule() -> None:
    path = RECORDS / "illegal_f12_must_follow.json"
    done = cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert "action 10" in done.stderr and "F12: must follow suit ♠" in done.stderr
    with pytest.raises(ReplayError) as caught:
        replay(read(path))
    assert caught.value.index == 10


@pytest.mark.parametrize("name", replayed("f16_", "f8_"))
def test_records_replay_to_the_end_under_the_default_rules_too(name: str) -> None:
    # (written back as read: tests/test_records.py, for every game's records)
    record = read(RECORDS / f"{name}.json")
    assert replay(json.loads(dumps(replay(record | {"rules": {}}).to_record()))).finished


def test_a_record_may_stop_mid_deal() -> None:
    record = read(RECORDS / "f16_e2.json")
    record["actions"] = record["actions"][:15]  # two cards into the second trick
    deal = replay(record)
    assert not deal.finished and deal.to_act == 2
    assert outcome(deal) == {
        "finished": False,
        "pot": 40,
        "delta": {"F": -10, "W1": -10, "W2": -10, "W3": -10},
        "tricks": {"F": 1, "W1": 0, "W2": 0, "W3": 0},
    }


def test_cli_prints_an_unfinished_deal(tmp_path: Path) -> None:
    record = read(RECORDS / "f16_e5.json")
    record["actions"] = record["actions"][:4]
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "finished": False,
        "pot": 40,
        "delta": {"F": -10, "W1": -10, "W2": -10, "P4": -10},
        "tricks": {"F": 0, "W1": 0, "W2": 0, "P4": 0},
    }


def _mutated(change: dict[str, Any] | None = None, drop: str | None = None) -> dict[str, Any]:
    record = copy.deepcopy(read(RECORDS / "f16_e1.json"))
    record.update(change or {})
    if drop:
        del record[drop]
    return record


@pytest.mark.parametrize(
    "record",
    [
        _mutated({"format": "frap-hand/2"}),
        _mutated({"game": "napoleon"}),
        _mutated(drop="deck"),
        _mutated(drop="players"),
        _mutated({"deck": ["AS"] * 32}),
        _mutated({"deck": [1] * 32}),
        _mutated({"deck": "AS KS"}),
        _mutated({"players": ["F", "F", "W2", "P4"]}),
        _mutated({"players": "F W1 W2 P4"}),
        _mutated({"dealer": 4}),
        _mutated({"dealer": "3"}),
        _mutated({"ante": -1}),
        _mutated({"ante": 2.5}),
        _mutated({"pot": None}),
        _mutated({"pot_has_penalty": "no"}),
        _mutated({"redeal": 1}),
        _mutated({"rules": {"preset": "bridge"}}),
        _mutated({"rules": {"penalties": "harsh"}}),
        _mutated({"rules": {"house": True}}),
        _mutated({"rules": "classic"}),
        _mutated({"actions": {"seat": 0}}),
    ],
)
def test_malformed_record_header_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.index is None


@pytest.mark.parametrize(
    "entry",
    [
        "pass",
        {"do": "pass"},
        {"seat": "0", "do": "pass"},
        {"seat": True, "do": "pass"},
        {"seat": 0, "do": "bid"},
        {"seat": 0, "do": "play", "card": 5},
        {"seat": 0, "do": "play", "card": "XX"},
        {"seat": 0, "do": "discard", "cards": "AS"},
        {"seat": 0, "do": "cut", "turnup": "yes"},
    ],
)
def test_malformed_action_is_refused_with_its_index(entry: Any) -> None:
    record = _mutated()
    record["actions"] = [record["actions"][0], entry]
    with pytest.raises(ReplayError, match="action 1") as caught:
        replay(record)
    assert caught.value.index == 1


def test_action_record_round_trip() -> None:
    for entry in read(RECORDS / "f16_e5.json")["actions"]:
        assert Action.from_record(entry, FrapDeal.WORDS).to_record() == entry
    assert Action.from_record({"seat": 2, "do": "cut", "turnup": True}, FrapDeal.WORDS) == Action(
        2, Do.CUT, turnup=True
    )


def test_start_gives_the_deal_before_any_action() -> None:
    deal = start(read(RECORDS / "f16_e1.json"))
    assert deal.actions == () and deal.pot == 40 and deal.to_act == 0


@pytest.mark.parametrize(
    "content", ["{not json", "[1, 2]", b"\xff\xfe".decode("latin-1"), '{"format": "frap-hand/1"}']
)
def test_cli_refuses_bad_files(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="latin-1")
    done = cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == "" and str(path) in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_refuses_a_missing_file() -> None:
    done = cli("replay", str(RECORDS / "no_such_record.json"))
    assert done.returncode == 2 and done.stdout == ""
