"""Illegal Preferans actions: refused with the rule's number, the state unchanged; the CLI exits 2
naming the deal, the action and the rule, with nothing on stdout."""

from __future__ import annotations

import copy
import json
import random
from itertools import islice
from pathlib import Path

import pytest

from engine.cards import make_deck
from engine.errors import IllegalAction
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.bidding import LADDER
from engine.preferans.deal import PrefDeal
from engine.record import read
from tests.engine_helpers import RECORDS, cli
from tests.pref_deal_helpers import act, fresh, random_deal, run

WORDS = [PrefDo.MISERE, PrefDo.HERE, PrefDo.PASS, PrefDo.WHIST, PrefDo.HALF_WHIST,
         PrefDo.LIGHT, PrefDo.DARK]  # fmt: skip


def candidates(deal: PrefDeal) -> list[PrefAction]:
    """Many actions, legal or not, for the seat due and the next seat."""
    seats = {deal.turn or 0, ((deal.turn or 0) + 1) % deal.n}
    found: list[PrefAction] = []
    for seat in seats:
        found += [PrefAction(seat, do) for do in WORDS]
        found += [PrefAction(seat, PrefDo.BID, bid=bid) for bid in LADDER]
        found += [PrefAction(seat, PrefDo.CONTRACT, bid=bid) for bid in LADDER]
        found += [PrefAction(seat, PrefDo.PLAY, card=card) for card in make_deck(32)]
        hand = deal.hands[seat]
        found += [PrefAction(seat, PrefDo.DISCARD, cards=hand[:k]) for k in (1, 2, 3)]
        found += [PrefAction(seat, PrefDo.PASS, bid="6S"), PrefAction(seat, PrefDo.PLAY)]
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_an_action_applies_exactly_when_the_engine_lists_it(players: int) -> None:
    rng = random.Random(players)
    for _ in range(25):
        _, states = random_deal(rng, players=players, streak=rng.randrange(3))
        for state in islice(states, 0, None, 3):
            legal = set(state.legal_actions())
            before = copy.deepcopy(state)
            for action in candidates(state):
                if action in legal:
                    state.apply(action)
                    continue
                with pytest.raises(IllegalAction) as refused:
                    state.apply(action)
                assert refused.value.rule.startswith("P")
            assert state == before  # nothing changed by any attempt


def test_an_action_after_the_end_is_refused() -> None:
    deal = run(fresh(), ["0: bid 7H", "1: pass", "2: pass", "0: discard 8S 8C", "0: contract 7H",
                         "1: pass", "2: pass"])  # fmt: skip
    assert deal.finished
    with pytest.raises(IllegalAction, match="the deal is over"):
        deal.apply(act(0, "play AH"))


def test_a_foreign_action_is_refused() -> None:
    with pytest.raises(IllegalAction, match="P4"):
        fresh().apply("pass")  # type: ignore[arg-type]


def write(tmp_path: Path, record: dict[str, object]) -> Path:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_cli_illegal_play_exits_2_naming_the_deal_the_action_and_the_rule(tmp_path: Path) -> None:
    record = read(RECORDS / "pref_p17a.json")
    actions = record["actions"]
    assert actions[8] == {"seat": 1, "do": "play", "card": "9S"}
    actions[8] = {"seat": 1, "do": "play", "card": "7S"}  # seat 1 has no 7S
    record["actions"] = actions
    path = write(tmp_path, record)
    done = cli("replay", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert str(path) in done.stderr and "action 8" in done.stderr and "P8" in done.stderr


def test_cli_misere_after_a_bid_exits_2_with_P4(tmp_path: Path) -> None:
    record = read(RECORDS / "pref_p17a.json")
    record["actions"] = [{"seat": 0, "do": "bid", "bid": "6S"}, {"seat": 1, "do": "misere"},
                         {"seat": 2, "do": "pass"}, {"seat": 0, "do": "misere"}]  # fmt: skip
    done = cli("replay", str(write(tmp_path, record)))
    assert (done.returncode, done.stdout) == (2, "")
    assert "action 3" in done.stderr and "P4" in done.stderr


def test_cli_a_field_the_word_does_not_take_exits_2(tmp_path: Path) -> None:
    record = read(RECORDS / "pref_p17a.json")
    record["actions"] = [{"seat": 0, "do": "pass", "card": "AS"}]
    done = cli("replay", str(write(tmp_path, record)))
    assert (done.returncode, done.stdout) == (2, "")
    assert "action 0" in done.stderr and "takes no card" in done.stderr
