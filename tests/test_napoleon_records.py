"""Napoleon hand records (HAND_FORMAT "Napoleon records", engine/RECORDS.md): the five examples of
RULES N8 (replayed exactly by tests/test_records.py) and what else they show; illegal records exit
2 naming the action and the rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, Do
from engine.errors import ReplayError
from engine.events import ChipsMoved, Reason
from engine.napoleon import NAPOLEON, NapoleonDeal, NapoleonDo, NapoleonRules
from engine.record import outcome, read, replay, start
from tests.engine_helpers import RECORDS, cli


def record(name: str) -> dict[str, Any]:
    return read(RECORDS / f"{name}.json")


def test_N8_bid3_made_moves_the_chips_between_the_players() -> None:
    data = record("napoleon_n8_bid3_made")
    deal = start(data)
    assert deal.pot == 80 and deal.delta == (-10,) * 4  # N1: the contributions come first
    moves: list[ChipsMoved] = []
    for entry in data["actions"]:
        deal, events = deal.apply(Action.from_record(entry, deal.WORDS))
        moves += [event for event in events if isinstance(event, ChipsMoved)]
    # N5: each other player pays the declarer 3u, in order from his left; the treasure is not
    # touched.
    assert moves == [
        ChipsMoved(2, -30, Reason.STAKE, other=1),
        ChipsMoved(1, 30, Reason.STAKE, other=2),
        ChipsMoved(3, -30, Reason.STAKE, other=1),
        ChipsMoved(1, 30, Reason.STAKE, other=3),
        ChipsMoved(0, -30, Reason.STAKE, other=1),
        ChipsMoved(1, 30, Reason.STAKE, other=0),
    ]
    assert len(deal.tricks_played) == 3 and deal.next_dealer == 1  # N4: stopped when made


def test_N8_napoleon_made_shows_here_and_the_trump() -> None:
    deal = replay(record("napoleon_n8_napoleon_made"))
    assert isinstance(deal, NapoleonDeal)
    assert (deal.declarer, deal.level, deal.contract) == (0, NAPOLEON, NapoleonDo.NAPOLEON)
    assert deal.bids == (NapoleonDo.HERE, Do.PASS, Do.PASS, Do.PASS) and deal.p0 == 100
    assert deal.trump.value == "S" and deal.trump_named


def test_N8_napoleon_failed_exchanged_one_card() -> None:
    deal = replay(record("napoleon_n8_napoleon_failed"))
    assert isinstance(deal, NapoleonDeal)
    assert [str(card) for card in deal.discards] == ["6C"]  # N3
    assert len(deal.tricks_played) == 2 and deal.tricks_won[3] == 1  # N4: one lost trick ends it


def test_N7_pay_each_in_a_record() -> None:
    data = record("napoleon_n8_napoleon_failed")
    data["rules"] = {"napoleon_failed": "pay_each"}
    deal = replay(data)
    assert isinstance(deal, NapoleonDeal)
    assert deal.rules == NapoleonRules(napoleon_failed="pay_each")
    # N7 option: he pays each other player 5u + T = 50 + 100; the treasure stays at 100.
    assert outcome(deal)["delta"] == {"ann": 140, "bob": -460, "cat": 140, "dan": 140}
    assert deal.pot == 100 and deal.to_record() == data


def test_a_stake_other_than_the_contribution() -> None:
    data = record("napoleon_n8_bid5_failed")
    data["stake"] = 3
    deal = replay(data)
    # N5 with u = 3: bob pays each 15 and 15 into the treasure (0 + 40 + 15).
    assert outcome(deal)["delta"] == {"ann": 5, "bob": -70, "cat": 5, "dan": 5}
    assert deal.pot == 55
    del data["stake"]
    assert replay(data).to_record()["stake"] == 10  # HAND_FORMAT: it defaults to the ante


def test_napoleon_record_may_stop_mid_deal() -> None:
    data = record("napoleon_n8_bid5_failed")
    data["actions"] = data["actions"][:10]  # bob has led the ace of spades, cat followed
    deal = replay(data)
    assert not deal.finished and deal.to_act == 3 and deal.trump_named
    assert outcome(deal) == {
        "finished": False, "pot": 40, "delta": {"ann": -10, "bob": -10, "cat": -10, "dan": -10},
        "tricks": {"ann": 0, "bob": 0, "cat": 0, "dan": 0},
    }  # fmt: skip
    data["actions"] = data["actions"][:7]  # bidding over, the exchange to come
    assert replay(data).phase == "exchange"


@pytest.mark.parametrize(
    ("name", "index", "change", "message"),
    [
        ("napoleon_n8_bid5_failed", 5, {"tricks": 4}, "N2: bid higher than 4"),
        ("napoleon_n8_bid5_failed", 1, {"do": "here"}, "N2: only the dealer may say here"),
        ("napoleon_n8_bid5_failed", 0, {"do": "here"}, "N2: here takes over a bid; none is made"),
        ("napoleon_n8_bid5_failed", 5, {"tricks": 6}, "N2: a bid is 1–5 tricks"),
        ("napoleon_n8_napoleon_failed", 2, {"do": "bid", "tricks": 5}, "N2: nobody can go above"),
        ("napoleon_n8_napoleon_failed", 4, {"cards": ["6C", "AS"]}, "N3: exchange one card"),
        ("napoleon_n8_napoleon_failed", 4, {"cards": ["KS"]}, "N3: KS is not in the hand"),
        ("napoleon_n8_napoleon_failed", 5, {"seat": 2}, "N4: it is seat 1's turn"),
        ("napoleon_n8_bid5_failed", 9, {"card": "6D"}, "N4: must follow suit ♠"),
        ("napoleon_n8_napoleon_failed", 11, {"card": "7C"}, "N4: must play a trump ♠"),
        ("napoleon_n8_bid3_made", 4, {"do": "play", "card": "AS"}, "N3: cannot play now"),
        ("napoleon_n8_bid3_made", 0, {"tricks": 2}, "N2: pass takes no tricks"),
    ],
)
def test_an_illegal_napoleon_record_exits_2_naming_the_action_and_rule(
    tmp_path: Path, name: str, index: int, change: dict[str, object], message: str
) -> None:
    data = record(name)
    entry = dict(data["actions"][index])
    if "card" in change:
        entry.pop("cards", None)
    if "do" in change:
        entry.pop("tricks", None)
    entry.update(change)
    data["actions"][index] = entry
    with pytest.raises(ReplayError) as caught:
        replay(data)
    assert caught.value.index == index and message in str(caught.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert f"action {index}" in done.stderr and message in done.stderr


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("napoleon_n8_bid3_made", "N4: the deal is over"),  # play stopped when made (N4)
        ("napoleon_n8_all_pass", "N2: the deal is over"),  # everyone passed (N2)
    ],
)
def test_an_action_after_the_end_is_illegal(name: str, message: str) -> None:
    data = record(name)
    index = len(data["actions"])
    data["actions"].append({"seat": 1, "do": "play", "card": "JC"})
    with pytest.raises(ReplayError) as caught:
        replay(data)
    assert caught.value.index == index and message in str(caught.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deck": record("napoleon_n8_all_pass")["deck"][:32]}, "F1: the deck must be the 36"),
        ({"players": ["solo"]}, "F1: napoleon is for 2–6 players, not 1"),
        ({"players": ["a", "b", "c", "d", "e", "f", "g"]}, "napoleon is for 2–6 players, not 7"),
        ({"stake": -1}, "N5: the stake is a whole number of chips"),
        ({"stake": True}, "N5: the stake is a whole number of chips"),
        ({"rules": {"napoleon_failed": "double"}}, "napoleon_failed='double' is not one of"),
        ({"rules": {"penalties": "flat"}}, "unknown rule options: ['penalties']"),
    ],
)
def test_a_bad_napoleon_header_is_refused(change: dict[str, Any], message: str) -> None:
    data = record("napoleon_n8_all_pass")
    data.update(change)
    with pytest.raises(ReplayError, match="header") as caught:
        replay(data)
    assert message in str(caught.value)


def test_napoleon_rules_accept_the_classic_preset() -> None:
    data = record("napoleon_n8_all_pass")
    data["rules"] = {"preset": "classic"}
    assert replay(data).rules_record() == {}  # HAND_FORMAT: no preset needed
