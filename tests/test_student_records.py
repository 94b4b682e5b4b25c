"""Student Khrap hand records (HAND_FORMAT, engine/RECORDS.md): RULES SK13's bank example, and a
deal with every kind of call (khrap, beru pyat', veselyu over the khrap, exchanges, the joker led
naming a suit): what they show beyond the replay that tests/test_records.py checks exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.actions import Action, Do
from engine.cards import Card, Suit
from engine.errors import ReplayError
from engine.events import ChipsMoved, Reason
from engine.record import read, replay, start
from engine.student import JOKER, StudentDeal, StudentDo, StudentRules
from tests.engine_helpers import RECORDS, cli


def test_SK13_bank_example_exactly() -> None:
    record = read(RECORDS / "student_sk13_bank.json")
    deal = start(record)
    assert deal.pot == 40 and deal.delta == (0, 0, 0, 0)  # SK12: a full bank is not topped up
    moves = []
    for entry in record["actions"]:
        deal, events = deal.apply(Action.from_record(entry, deal.WORDS))
        moves += [event for event in events if isinstance(event, ChipsMoved)]
    assert deal.p0 == 40 and deal.tricks_won == (1, 3, 0, 0)
    assert moves == [
        ChipsMoved(0, 10, Reason.TRICKS),  # declarer +10 (SK13: he keeps his trick money)
        ChipsMoved(1, 30, Reason.TRICKS),  # helper +30
        ChipsMoved(0, -80, Reason.PENALTY),  # declarer − 2 × 40
    ]
    assert deal.pot == 80 and deal.next_dealer == 0  # SK3: the declarer deals next


def test_calls_record_shows_every_role() -> None:
    deal = replay(read(RECORDS / "student_calls_joker.json"))
    assert isinstance(deal, StudentDeal)
    assert deal.rules == StudentRules(joker_lead="named_suit")
    assert (deal.declarer, deal.helpers, deal.takers) == (2, (0,), (1,))
    assert deal.bids == (StudentDo.KHRAP, StudentDo.BERU_PYAT, StudentDo.VESELYU, Do.PASS)
    first = deal.tricks_played[0]
    assert first[0].card == JOKER and first[0].joker and first[0].seat == 1
    assert deal.actions[8] == Action(1, Do.PLAY, card=JOKER, joker=True, suit=Suit.CLUBS)
    assert deal.next_dealer == 2


def test_student_record_may_stop_mid_deal() -> None:
    record = read(RECORDS / "student_calls_joker.json")
    record["actions"] = record["actions"][:3]  # bob has taken five and discarded
    deal = replay(record)
    assert not deal.finished and deal.to_act == 2 and len(deal.hands[1]) == 4
    record["actions"] = record["actions"][:2]
    assert replay(record).phase == "call_discard"


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (8, {"suit": None}, "SK2: name the suit the others must follow"),
        (9, {"card": "QD"}, "F12: must follow suit ♣"),
        (8, {"joker": None}, "SK2: say whether the 7♠ is played as the joker"),
        (9, {"joker": True}, "SK2: only the 7♠ is the joker"),
        (3, {"seat": 3}, "SK4: it is seat 2's turn"),
        (1, {"do": "pomogu", "seat": 1}, None),  # legal: bob helps instead; the discard fails
    ],
)
def test_an_illegal_student_record_exits_2_naming_the_action_and_rule(
    tmp_path: Path, index: int, change: dict[str, object], message: str | None
) -> None:
    record = read(RECORDS / "student_calls_joker.json")
    entry = dict(record["actions"][index])
    for key, value in change.items():
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = value
    record["actions"][index] = entry
    with pytest.raises(ReplayError) as caught:
        replay(record)
    bad = caught.value.index
    assert bad == (index if message else index + 1)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == "" and f"action {bad}" in done.stderr
    if message:
        assert message in done.stderr and message in str(caught.value)
    else:
        assert "SK4: cannot call_discard now" in done.stderr


def test_student_record_header_needs_the_36_card_deck() -> None:
    record = read(RECORDS / "student_sk13_bank.json")
    record["deck"] = record["deck"][:32]
    with pytest.raises(ReplayError, match="header: F1"):
        replay(record)
    record = read(RECORDS / "student_sk13_bank.json")
    record["players"] = ["D", "H"]
    with pytest.raises(ReplayError, match="header: F1: student_khrap is for 3–4 players"):
        replay(record)


def test_a_named_suit_in_a_record_is_read_as_a_suit() -> None:
    entry = {"seat": 1, "do": "play", "card": "7S", "joker": True, "suit": "C"}
    assert Action.from_record(entry, StudentDeal.WORDS) == Action(
        1, Do.PLAY, card=Card.parse("7S"), joker=True, suit=Suit.CLUBS
    )
    with pytest.raises(ValueError):
        Action.from_record(entry | {"suit": "X"}, StudentDeal.WORDS)
    with pytest.raises(ValueError):
        Action.from_record(entry | {"joker": "yes"}, StudentDeal.WORDS)
