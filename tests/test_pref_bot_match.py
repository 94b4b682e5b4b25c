"""A Preferans game at a table is a pulya (engine/preferans/match.py): deals follow each other
on one sheet until P14 closes it, the settlement is P16 × the whist price, /stopgame voids the
deal in play, and the whole match survives a round trip through JSON (a restart)."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import IllegalAction
from engine.preferans import record as deal_record
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.deal import Phase
from engine.preferans.match import Match, default_action, from_records
from engine.preferans.outcome import PrefRules

NAMES = ("Alice", "Bob", "Carol", "Dan")


def _playout(seed: int, players: int, *, defaults: float = 0.3) -> list[Match]:
    """Every state of a seeded pulya to 10 played by random legal moves (some by the timer)."""
    rng = random.Random(seed)
    match = Match.start(NAMES[:players], PrefRules(target=10), 3, rng)
    states = [match]
    while not match.finished:
        assert match.deal is not None
        legal = match.deal.legal_actions()
        action = default_action(match.deal) if rng.random() < defaults else rng.choice(legal)
        assert action is not None
        match = match.apply(action, rng).match
        states.append(match)
    return states


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_p14_p16_a_pulya_runs_deal_after_deal_to_its_end_and_settles_to_zero(
    seed: int, players: int
) -> None:
    states = _playout(seed, players)
    last = states[-1]
    assert last.sheet.finished and last.deal is None and not last.stopped
    assert all(points >= 10 for points in last.sheet.pulya)
    assert sum(last.balances()) == 0 and sum(last.chips()) == 0
    assert last.chips() == tuple(3 * whists for whists in last.balances())
    for state in states[:-1]:
        deal = state.deal
        assert deal is not None
        assert deal.dealer == state.sheet.dealer  # P3: each deal by the sheet's next dealer
        assert deal.streak == state.sheet.streak  # P10: raspasy in a row carried over
        if players == 4:
            assert deal.sitting_out == deal.dealer  # P1


def test_p14_the_sheet_grows_by_exactly_the_finished_deal() -> None:
    rng = random.Random(11)
    match = Match.start(NAMES[:3], PrefRules(), 1, rng)
    finished = 0
    while finished < 5:
        assert match.deal is not None
        step = match.apply(rng.choice(match.deal.legal_actions()), rng)
        if step.finished_deal is None:
            assert step.line is None and step.match.sheet == match.sheet
        else:
            finished += 1
            assert step.finished_deal.finished
            assert step.line is not None and step.line.outcome == step.finished_deal.outcome
            assert step.match.sheet.lines[:-1] == match.sheet.lines
            assert step.match.deal is not None and not step.match.deal.actions  # dealt at once
        match = step.match


@pytest.mark.parametrize("seed", range(4))
def test_a_match_comes_back_from_json_equal_at_any_point(seed: int) -> None:
    for state in _playout(100 + seed, 3 + seed % 2)[::7]:
        text = json.dumps(state.to_json())
        back = Match.from_json(json.loads(text))
        assert back == state


def test_p14_stop_voids_the_deal_in_play_and_settles_with_the_top_up() -> None:
    states = _playout(7, 3)
    middle = next(s for s in states if s.sheet.deals >= 2 and s.deal and s.deal.actions)
    stopped = middle.stop()
    assert stopped.finished and stopped.stopped and stopped.deal is None
    assert stopped.sheet == middle.sheet  # the voided deal writes nothing
    assert any(stopped.sheet.top_up())  # this pulya was open, so stopping costs gora
    assert stopped.balances() == middle.sheet.balances()  # P14's top-up is in the balance
    assert sum(stopped.balances()) == 0 and sum(stopped.chips()) == 0
    with pytest.raises(ValueError):
        stopped.apply(PrefAction(0, PrefDo.PASS), random.Random(0))
    assert Match.from_json(json.loads(json.dumps(stopped.to_json()))) == stopped


def test_an_illegal_action_changes_nothing() -> None:
    rng = random.Random(5)
    match = Match.start(NAMES[:3], PrefRules(), 1, rng)
    assert match.deal is not None
    wrong = PrefAction((match.deal.turn or 0) + 1, PrefDo.PASS)  # not his turn (P4)
    before = match.to_json()
    with pytest.raises(IllegalAction):
        match.apply(wrong, rng)
    assert match.to_json() == before


@pytest.mark.parametrize("seed", range(5))
def test_default_moves_pass_in_bidding_and_whisting_and_play_the_lowest_card(seed: int) -> None:
    for state in _playout(200 + seed, 3 + seed % 2, defaults=0.0):
        if state.deal is None:
            continue
        deal = state.deal
        action = default_action(deal)
        legal = deal.legal_actions()
        assert action in legal
        if deal.phase in (Phase.BIDDING, Phase.WHISTING):
            assert action is not None and action.do is PrefDo.PASS
        if deal.phase is Phase.PLAY:
            assert action is not None and action.card is not None
            assert action.card.rank == min(a.card.rank for a in legal if a.card)
        if deal.phase is Phase.CONTRACT:
            assert action is not None and action.bid == deal.bid  # never raised for him


def test_p10_a_deal_of_timed_out_players_is_raspasy_and_the_streak_grows() -> None:
    rng = random.Random(9)
    match = Match.start(NAMES[:3], PrefRules(), 1, rng)
    for streak in range(1, 3):
        while match.sheet.deals < streak:
            assert match.deal is not None
            action = default_action(match.deal)
            assert action is not None
            match = match.apply(action, rng).match
        assert match.sheet.lines[-1].outcome.contract is None
        assert match.sheet.streak == streak


@pytest.mark.parametrize("seed", range(4))
def test_a_restart_rebuilds_the_pulya_from_its_stored_deal_records(seed: int) -> None:
    rng = random.Random(400 + seed)
    match = Match.start(NAMES[: 3 + seed % 2], PrefRules(target=10), 2, rng)
    records: list[dict[str, object]] = [deal_record.to_record(match.deal)] if match.deal else []
    while not match.finished and match.sheet.deals < 8:  # random play may never close it
        assert match.deal is not None
        step = match.apply(rng.choice(match.deal.legal_actions()), rng)
        if step.finished_deal is not None:
            records[-1] = deal_record.to_record(step.finished_deal)
            if step.match.deal is not None:
                records.append(deal_record.to_record(step.match.deal))
        elif step.match.deal is not None:
            records[-1] = deal_record.to_record(step.match.deal)
        match = step.match
        if rng.random() < 0.05 or step.finished_deal is not None:
            stored = json.loads(json.dumps(records))
            assert from_records(stored, 2) == match


def test_deals_that_do_not_follow_each_other_are_refused() -> None:
    rng = random.Random(3)
    match = Match.start(NAMES[:3], PrefRules(), 1, rng)
    assert match.deal is not None
    first = deal_record.to_record(match.deal)
    with pytest.raises(ValueError):
        from_records([], 1)
    with pytest.raises(ValueError):
        from_records([first, first], 1)  # the first is not finished: not a deal of the sheet
    with pytest.raises(ValueError):
        from_records([{**first, "dealer": (first["dealer"] + 1) % 3}, first], 1)
