"""`python -m engine score` on `pref-pulya/1` records (HAND_FORMAT.md): RULES P17 exactly, and
bad records refused with exit status 2, the deal and the rule named, nothing on stdout."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.preferans.pulya import Pulya
from engine.preferans.pulya_record import load, report
from engine.preferans.record import to_record as deal_record
from tests.engine_helpers import RECORDS, cli
from tests.pref_pulya_helpers import played_deal

P17D = RECORDS / "pref_pulya_p17d.json"

# P17 (d), exactly as HAND_FORMAT.md prints it.
P17D_OUTPUT = (
    '{"finished": true, "deals": 6, "raspasy_streak": 0, "players": {'
    '"alice": {"pulya": 10, "gora": 0, "whists": {"bob": 0, "carol": 54}, "balance": 92}, '
    '"bob": {"pulya": 10, "gora": 4, "whists": {"alice": 8, "carol": 6}, "balance": 24}, '
    '"carol": {"pulya": 10, "gora": 11, "whists": {"alice": 4, "bob": 0}, "balance": -116}}}'
)


def pulya(
    deals: list[Any], players: int = 3, first_dealer: int = 2, **rules: Any
) -> dict[str, Any]:
    names = ["A", "B", "C", "D"][:players]
    return {
        "format": "pref-pulya/1",
        "game": "preferans",
        "rules": {"preset": "sochi", **rules},
        "players": names,
        "first_dealer": first_dealer,
        "deals": deals,
    }


def score(tmp_path: Path, record: dict[str, Any] | str) -> tuple[int, Any, str]:
    """Run the CLI on a record; (exit status, parsed stdout or its text, stderr)."""
    path = tmp_path / "pulya.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    done = cli("score", str(path))
    out = json.loads(done.stdout) if done.returncode == 0 else done.stdout
    return done.returncode, out, done.stderr


def test_P17d_through_the_cli_prints_exactly_hand_format() -> None:
    done = cli("score", str(P17D))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == P17D_OUTPUT + "\n"


def test_P17d_through_the_api_gives_the_same_report() -> None:
    data = json.loads(P17D.read_text(encoding="utf-8"))
    assert report(*load(data)) == json.loads(P17D_OUTPUT)


def test_P17a_through_the_cli(tmp_path: Path) -> None:
    deal = {
        "declarer": 0,
        "contract": "7H",
        "defence": [None, "whist", "whist"],
        "tricks": [8, 1, 1],
    }
    status, out, _ = score(tmp_path, pulya([deal]))
    assert status == 0 and not out["finished"]
    totals = {name: (p["pulya"], p["gora"], p["whists"]) for name, p in out["players"].items()}
    assert totals == {
        "A": (4, 0, {"B": 0, "C": 0}),
        "B": (0, 0, {"A": 4, "C": 0}),
        "C": (0, 0, {"A": 4, "B": 0}),
    }


@pytest.mark.parametrize(("liability", "c_gora"), [("full", 4), ("capped", 2)])
def test_P17b_through_the_cli(tmp_path: Path, liability: str, c_gora: int) -> None:
    deal = {
        "declarer": 0,
        "contract": "6C",
        "defence": [None, "whist", "whist"],
        "tricks": [7, 3, 0],
    }
    status, out, _ = score(tmp_path, pulya([deal], whist_liability=liability))
    assert status == 0
    players = out["players"]
    assert (players["A"]["pulya"], players["B"]["whists"]["A"]) == (2, 6)
    assert (players["B"]["gora"], players["C"]["gora"]) == (0, c_gora)


def test_P17c_through_the_cli_settles_as_the_example(tmp_path: Path) -> None:
    # D deals (first dealer 3); every pulya is empty, so P14's top-up is the same for all four
    # and the balances are the example's own.
    deal = {
        "declarer": 0,
        "contract": "7S",
        "defence": [None, "whist", "pass", None],
        "play": "light",
        "tricks": [5, 3, 2, None],
    }
    status, out, _ = score(tmp_path, pulya([deal], players=4, first_dealer=3))
    assert status == 0
    players = out["players"]
    assert [players[n]["gora"] for n in "ABCD"] == [8, 0, 0, 0]
    assert [players[n]["whists"]["A"] for n in "BCD"] == [28, 8, 8]
    assert [players[n]["balance"] for n in "ABCD"] == [-104, 48, 28, 28]


def test_P14_an_open_pulya_prints_what_stopping_now_would_give(tmp_path: Path) -> None:
    data = json.loads(P17D.read_text(encoding="utf-8"))
    data["deals"] = data["deals"][:1]
    status, out, _ = score(tmp_path, data)
    assert status == 0
    assert (out["finished"], out["deals"]) == (False, 1)
    assert [p["pulya"] for p in out["players"].values()] == [4, 0, 0]  # printed: no top-up
    assert [p["gora"] for p in out["players"].values()] == [0, 0, 0]
    assert [p["balance"] for p in out["players"].values()] == [15, -5, -10]


def test_P10_the_streak_is_printed(tmp_path: Path) -> None:
    status, out, _ = score(tmp_path, pulya([{"raspasy": [0, 4, 6]}, {"raspasy": [1, 4, 5]}]))
    assert status == 0
    assert out["raspasy_streak"] == 2
    assert out["players"]["B"]["gora"] == 4 + 2 * 4


BAD_DEALS = [
    # (the deals, the deal named, the rule named)
    ([{"declarer": 0, "contract": "8S", "defence": [None, "pass", "half_whist"]}], 1, "P6"),
    ([{"raspasy": [0, 4, 6]}, {"raspasy": [1, 4, 4]}], 2, "P8"),
    ([{"raspasy": [0, 4, 6]}, {"declarer": 1, "contract": "misere", "defence": [
        "pass", None, "pass"], "tricks": [5, 0, 5]}], 2, "P6"),
    ([{"declarer": 0, "contract": "7S", "defence": [None, "whist", "whist"], "tricks": [7, 2, 1],
       "play": "dark"}], 1, "P7"),
]  # fmt: skip


@pytest.mark.parametrize(("deals", "number", "rule"), BAD_DEALS)
def test_an_impossible_deal_exits_2_naming_the_deal_and_the_rule(
    tmp_path: Path, deals: list[Any], number: int, rule: str
) -> None:
    status, out, err = score(tmp_path, pulya(deals))
    assert (status, out) == (2, "")
    assert f": deal {number}: {rule}: " in err


def test_P14_a_deal_after_the_end_exits_2(tmp_path: Path) -> None:
    data = json.loads(P17D.read_text(encoding="utf-8"))
    data["deals"].append({"raspasy": [3, 3, 4]})
    status, out, err = score(tmp_path, data)
    assert (status, out) == (2, "")
    assert ": deal 7: P14: " in err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "frap-hand/1"}, "format"),
        ({"rules": {"preset": "sochi", "target": 15}}, "target"),
        ({"first_dealer": 3}, "P3"),
        ({"players": ["A", "B"]}, "P1"),
        ({"players": ["A", "A", "B"]}, "distinct"),
    ],
)
def test_a_bad_header_exits_2(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    status, out, err = score(tmp_path, {**pulya([]), **change})
    assert (status, out) == (2, "")
    assert ": header: " in err and words in err


def test_a_malformed_deal_or_file_exits_2(tmp_path: Path) -> None:
    status, out, err = score(tmp_path, pulya([{"declarer": 0, "contract": "11S"}]))
    assert (status, out) == (2, "") and ": deal 1: " in err
    status, out, err = score(tmp_path, "{not json")
    assert (status, out) == (2, "") and err


def test_deal_records_inside_a_pulya_through_the_cli(tmp_path: Path) -> None:
    rng = random.Random(11)
    names = ["A", "B", "C"]
    sheet = Pulya.new(3, 2)
    records = []
    for _ in range(3):
        deal = played_deal(rng, sheet, names)
        assert deal.outcome is not None
        sheet = sheet.add(deal.outcome)
        records.append({"record": deal_record(deal)})
    status, out, err = score(tmp_path, {**pulya([]), "deals": records})
    assert (status, err) == (0, "")
    assert out == report(sheet, names)
    records[1]["record"]["actions"].pop()
    status, out, err = score(tmp_path, {**pulya([]), "deals": records})
    assert (status, out) == (2, "")
    assert ": deal 2: " in err
