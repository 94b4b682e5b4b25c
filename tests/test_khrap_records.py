"""Khrap hand records (HAND_FORMAT, engine/RECORDS.md): made in round 1 (K4), made in round 2 with
a cutter who takes nothing (K3, K4, F14), failed one short (K5): what they show beyond the replay
that tests/test_records.py checks exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ReplayError
from engine.frap import FrapRules, KhrapDeal
from engine.record import outcome, read, replay
from tests.engine_helpers import RECORDS, cli


def test_K4_round_two_record_shows_the_round_and_the_cutter() -> None:
    deal = replay(read(RECORDS / "khrap_made_round2.json"))
    assert isinstance(deal, KhrapDeal)
    assert (deal.round, deal.declarer, deal.whisters, deal.cutters) == (2, 1, (2,), (3,))
    assert deal.p0 == 80 and deal.tricks_played[0][0].seat == 3 and deal.pot_has_penalty  # F11


def test_khrap_record_may_stop_mid_deal() -> None:
    record = read(RECORDS / "khrap_made_round1.json")
    record["actions"] = record["actions"][:13]  # one card into the second trick
    deal = replay(record)
    assert not deal.finished and deal.to_act == 1 and deal.tricks_won == (1, 0, 0, 0)
    assert outcome(deal)["pot"] == 40


def test_K6_record_under_must_whist_is_refused_at_the_pass(tmp_path: Path) -> None:
    record = read(RECORDS / "khrap_made_round1.json")
    record["rules"] = {"preset": "classic", "must_whist": True}
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.index == 4 and "K6: after a khrap every other player must whist" in str(
        caught.value
    )
    path = tmp_path / "must_whist.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert "action 4" in done.stderr and "K6" in done.stderr


def test_khrap_rules_in_a_record_are_frap_rules() -> None:
    record = read(RECORDS / "khrap_failed.json")
    record["rules"] = {"preset": "s0"}  # flat penalties, a failed declarer does not collect
    deal = replay(record)
    assert isinstance(deal, KhrapDeal) and deal.rules == FrapRules.from_dict({"preset": "s0"})
    assert outcome(deal)["delta"] == {"K": -90, "W1": 6, "W2": -2, "P4": -10}
