"""RULES P17 (a)–(d) as Preferans deal records (HAND_FORMAT): what they show beyond the replay that
tests/test_records.py checks exactly; writing a record and reading it back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import ReplayError
from engine.preferans.outcome import PrefRules
from engine.preferans.pulya_record import load, report
from engine.preferans.record import from_json, outcome, replay, to_json, to_record
from engine.preferans.scoring import score_deal
from engine.record import read
from tests.engine_helpers import RECORDS, cli
from tests.pref_deal_helpers import fresh, run


def test_P17b_under_whist_liability_capped_C_writes_2() -> None:
    record = read(RECORDS / "pref_p17b.json")
    record["rules"] = {"preset": "sochi", "whist_liability": "capped"}
    deal = replay(record)
    assert deal.entries is not None and deal.entries.gora == (0, 0, 2)


def test_P7_P17c_light_play_records_the_passers_cards_under_his_seat() -> None:
    deal = replay(read(RECORDS / "pref_p17c.json"))
    assert deal.light and deal.whister == 1
    assert sum(1 for action in deal.actions if action.do == "play" and action.seat == 2) == 10


def test_the_deal_writes_the_entries_the_scoring_gives_its_outcome() -> None:
    deal = replay(read(RECORDS / "pref_p17c.json"))
    assert deal.outcome is not None
    assert deal.entries == score_deal(deal.outcome, 4, 3, 0, PrefRules())
    assert deal.outcome.to_json() == {
        "declarer": 0, "contract": "7S", "defence": [None, "whist", "pass", None],
        "play": "light", "tricks": [5, 3, 2, None],
    }  # fmt: skip


def test_a_record_written_reads_back_to_the_same_deal() -> None:
    deal = run(fresh(streak=2, here="off"), ["0: bid 6S", "1: pass", "2: pass", "0: discard 8S 8C"])
    record = json.loads(json.dumps(to_record(deal)))
    assert record["raspasy_streak"] == 2 and record["rules"] == {"preset": "sochi", "here": "off"}
    assert replay(record) == deal
    assert from_json(json.loads(json.dumps(to_json(deal)))) == deal


def test_a_deal_in_progress_prints_unfinished_with_zero_entries() -> None:
    deal = run(fresh(), ["0: bid 6S", "1: pass"])
    printed = outcome(deal)
    assert printed["finished"] is False and printed["tricks"] == {"ann": 0, "bob": 0, "cat": 0}
    assert all(entry["pulya"] == 0 and entry["gora"] == 0 for entry in printed["entries"].values())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["a", "b"]}, "P1"),
        ({"players": ["a", "a", "b"]}, "P1"),
        ({"dealer": 3}, "P3"),
        ({"raspasy_streak": -1}, "P10"),
        ({"deck": ["AS"] * 32}, "P2"),
        ({"rules": {"preset": "sochi", "here": "maybe"}}, "here"),
        ({"ante": 10}, "ante"),
        ({"actions": {}}, "actions must be a list"),
    ],
)
def test_a_malformed_header_is_refused(change: dict[str, object], message: str) -> None:
    record = read(RECORDS / "pref_p17a.json") | change
    with pytest.raises(ReplayError, match=message):
        replay(record)


# RULES P17 (d): the whole pulya, each deal a played record (first dealer C, T = 10).
P17D_SCORE = {
    "finished": True, "deals": 6, "raspasy_streak": 0,
    "players": {
        "A": {"pulya": 10, "gora": 0, "whists": {"B": 0, "C": 54}, "balance": 92},
        "B": {"pulya": 10, "gora": 4, "whists": {"A": 8, "C": 6}, "balance": 24},
        "C": {"pulya": 10, "gora": 11, "whists": {"A": 4, "B": 0}, "balance": -116},
    },
}  # fmt: skip
P17D_OUTCOMES = [
    {"declarer": 0, "contract": "7S", "defence": [None, "whist", "whist"], "tricks": [7, 2, 1]},
    {"raspasy": [0, 4, 6]},
    {"declarer": 2, "contract": "8H", "defence": ["whist", "pass", None], "play": "light",
     "tricks": [2, 1, 7]},
    {"declarer": 1, "contract": "misere", "tricks": [5, 0, 5]},
    {"declarer": 0, "contract": "9C", "defence": [None, "pass", "pass"]},
    {"declarer": 2, "contract": "9S", "defence": ["pass", "pass", None]},
]  # fmt: skip


def p17d_pulya() -> dict[str, object]:
    deals = [{"record": read(RECORDS / f"pref_p17d_{i}.json")} for i in range(1, 7)]
    return {"format": "pref-pulya/1", "game": "preferans", "rules": {"preset": "sochi"},
            "players": ["A", "B", "C"], "first_dealer": 2, "deals": deals}  # fmt: skip


def test_P17d_each_deal_record_replays_to_the_pulyas_outcome() -> None:
    for number, expected in enumerate(P17D_OUTCOMES, 1):
        deal = replay(read(RECORDS / f"pref_p17d_{number}.json"))
        assert deal.outcome is not None and deal.outcome.to_json() == expected


def test_P17d_the_pulya_of_deal_records_scores_exactly_through_the_api() -> None:
    sheet, names = load(p17d_pulya())
    assert report(sheet, names) == P17D_SCORE


def test_P17d_the_pulya_of_deal_records_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "pulya.json"
    path.write_text(json.dumps(p17d_pulya()), encoding="utf-8")
    done = cli("score", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == P17D_SCORE
