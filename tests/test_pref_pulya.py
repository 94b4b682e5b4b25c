"""The pulya sheet (RULES P14–P16, P10's streak, P17 d): overflow help, the end, the settlement
with its rounding and top-up, and seeded random pulyas with their invariants."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from math import floor
from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.preferans.outcome import Entries, Entry, Outcome, Overflow, PrefRules
from engine.preferans.pulya import Line, Pulya, deal_value, settle
from engine.preferans.pulya_record import PulyaError, load, to_record
from engine.preferans.record import to_record as deal_record
from engine.preferans.scoring import defenders, score_deal
from tests.pref_pulya_helpers import played_deal, random_outcome, random_rules

A, B, C, D = 0, 1, 2, 3

P17D = [
    Outcome(A, "7S", (None, "whist", "whist"), None, (7, 2, 1)),
    Outcome(raspasy=(0, 4, 6)),
    Outcome(C, "8H", ("whist", "pass", None), "light", (2, 1, 7)),
    Outcome(B, "misere", None, None, (5, 0, 5)),
    Outcome(A, "9C", (None, "pass", "pass")),
    Outcome(C, "9S", ("pass", "pass", None)),
]


def play(sheet: Pulya, outcomes: list[Outcome]) -> Pulya:
    for outcome in outcomes:
        sheet = sheet.add(outcome)
    return sheet


def sheet_at(pulya: tuple[int, ...], *, dealer: int, streak: int = 0, **options: Any) -> Pulya:
    """A sheet in the middle of a game: these pulyas, no gora or whists, `dealer` to deal."""
    n = len(pulya)
    empty = Pulya.new(n, dealer, PrefRules.from_dict(options))
    return replace(empty, pulya=pulya, streak=streak)


def uncontested(declarer: int, contract: str, players: int = 3, dealer: int = -1) -> Outcome:
    defence: list[str | None] = [None] * players
    for seat in defenders(declarer, players, dealer % players):
        defence[seat] = "pass"
    return Outcome(declarer, contract, tuple(defence))


# --- P17 (d) ------------------------------------------------------------------------------------


def test_P17d_whole_pulya_totals_and_settlement() -> None:
    sheet = play(Pulya.new(3, C), P17D)
    assert sheet.finished
    assert (sheet.pulya, sheet.gora) == ((10, 10, 10), (0, 4, 11))
    assert sheet.whists == ((0, 0, 54), (8, 0, 6), (4, 0, 0))
    assert sheet.balances() == (92, 24, -116)


def test_P17d_deal_5_fills_own_pulya_then_helps_C() -> None:
    sheet = play(Pulya.new(3, C), P17D[:5])
    line = sheet.lines[4]
    assert line.entries.pulya == (5, 0, 3)
    assert line.entries.whists[A][C] == 30
    assert sheet.pulya == (10, 10, 3)


def test_P17d_deal_6_overflow_with_nobody_open_comes_off_own_gora() -> None:
    sheet = play(Pulya.new(3, C), P17D)
    assert sheet.lines[5].entries.pulya == (0, 0, 7)
    assert sheet.lines[5].entries.gora == (0, 0, -1)


def test_P3_dealer_moves_clockwise_after_every_deal_raspasy_included() -> None:
    sheet = Pulya.new(3, C)
    dealers = []
    for outcome in P17D:
        dealers.append(sheet.dealer)
        sheet = sheet.add(outcome)
    assert dealers == [C, A, B, C, A, B]
    assert [line.dealer for line in sheet.lines] == dealers


# --- P10 the streak -----------------------------------------------------------------------------


def test_P10_streak_carries_across_raspasy_and_sets_the_price() -> None:
    sheet = Pulya.new(3, C, PrefRules(target=50))
    for _ in range(4):
        sheet = sheet.add(Outcome(raspasy=(0, 4, 6)))
    assert sheet.streak == 4
    assert [line.streak for line in sheet.lines] == [0, 1, 2, 3]
    assert sheet.gora == (0, 4 * (1 + 2 + 3 + 3), 6 * (1 + 2 + 3 + 3))
    assert sheet.pulya == (1 + 2 + 3 + 3, 0, 0)


def test_P10_any_other_deal_ends_the_streak() -> None:
    sheet = play(Pulya.new(3, C), [Outcome(raspasy=(0, 4, 6)), Outcome(raspasy=(2, 4, 4))])
    sheet = sheet.add(Outcome(C, "misere", None, None, (5, 5, 0)))
    assert sheet.streak == 0
    assert sheet.gora[A] == 2 * 2
    assert sheet.add(Outcome(raspasy=(3, 3, 4))).gora[A] == 2 * 2 + 3  # price 1 again


def test_P10_raspasy_exit_7_uses_the_streak_of_the_sheet() -> None:
    sheet = Pulya.new(3, C, PrefRules(raspasy_exit=7)).add(Outcome(raspasy=(0, 4, 6)))
    with pytest.raises(IllegalAction, match="P10"):
        sheet.add(uncontested(B, "6H"))
    assert sheet.add(uncontested(B, "7H")).pulya[B] == 4


# --- P15 overflow -------------------------------------------------------------------------------


def test_P15_help_goes_to_the_open_pulya_with_most_points() -> None:
    sheet = sheet_at((8, 5, 7), dealer=B).add(uncontested(A, "7D"))
    assert sheet.pulya == (10, 5, 9)
    assert sheet.whists[A] == (0, 0, 20)
    sheet = sheet_at((8, 5, 7), dealer=B).add(uncontested(A, "9S"))
    # 2 own, 3 to C (then full), the last 3 to B chosen again after the fill (P18).
    assert sheet.pulya == (10, 8, 10)
    assert sheet.whists[A] == (0, 30, 30)


@pytest.mark.parametrize(("helper", "helped"), [(A, B), (B, C), (C, A)])
def test_P15_tie_goes_to_the_nearest_clockwise_from_the_helper(helper: int, helped: int) -> None:
    pulya = tuple(9 if seat == helper else 4 for seat in range(3))
    sheet = sheet_at(pulya, dealer=(helper + 1) % 3).add(uncontested(helper, "7D"))
    assert sheet.whists[helper][helped] == 30
    assert sheet.pulya[helped] == 7


def test_P15_nothing_open_takes_the_rest_off_own_gora_which_may_go_negative() -> None:
    sheet = sheet_at((10, 10, 6), dealer=B).add(uncontested(C, "9NT"))
    assert (sheet.pulya, sheet.gora) == ((10, 10, 10), (0, 0, -4))
    assert sheet.whists == ((0,) * 3,) * 3


def test_P15_each_overflow_move_is_told_in_the_line() -> None:
    sheet = sheet_at((8, 5, 7), dealer=B).add(uncontested(A, "9S"))
    assert sheet.lines[-1].overflow == (Overflow(A, 3, C, 30), Overflow(A, 3, B, 30))
    sheet = sheet_at((10, 10, 6), dealer=B).add(uncontested(C, "9NT"))
    assert sheet.lines[-1].overflow == (Overflow(C, 4),)
    assert sheet.lines[-1].scored == (Entry(C, "contract", "pulya", 8),)


def test_P15_option_overflow_gora_takes_all_excess_off_own_gora() -> None:
    sheet = sheet_at((8, 5, 7), dealer=B, overflow="gora").add(uncontested(A, "9S"))
    assert (sheet.pulya, sheet.gora) == ((10, 5, 7), (-6, 0, 0))
    assert sheet.whists == ((0,) * 3,) * 3


def test_P18_pulya_entries_apply_from_the_first_hand_clockwise() -> None:
    # Raspasy at price 3 where A and B take nothing: whoever fills first helps the other.
    raspasy = Outcome(raspasy=(0, 0, 10))
    a_first = sheet_at((9, 8, 0), dealer=C, streak=2).add(raspasy)
    assert a_first.whists[A] == (0, 20, 0) and a_first.whists[B] == (0, 0, 30)
    b_first = sheet_at((9, 8, 0), dealer=A, streak=2).add(raspasy)
    assert b_first.whists[B] == (10, 0, 0) and b_first.whists[A] == (0, 0, 30)
    assert a_first.pulya == b_first.pulya == (10, 10, 3)


def test_P18_the_sitting_out_dealer_can_be_helped() -> None:
    sheet = sheet_at((9, 2, 3, 6), dealer=D).add(uncontested(A, "6C", 4, D))
    assert sheet.pulya == (10, 2, 3, 7)
    assert sheet.whists[A] == (0, 0, 0, 10)


# --- P14 the end and stopping early ---------------------------------------------------------------


def test_P14_a_deal_after_the_end_is_an_error() -> None:
    sheet = play(Pulya.new(3, C), P17D)
    with pytest.raises(IllegalAction, match="P14"):
        sheet.add(Outcome(raspasy=(3, 3, 4)))


def test_P18_at_four_the_game_ends_only_when_all_four_pulyas_reach_T() -> None:
    sheet = sheet_at((10, 10, 10, 8), dealer=D)
    assert not sheet.finished
    assert sheet.add(Outcome(raspasy=(4, 5, 1, None))).pulya == (10, 10, 10, 8)


def test_P14_stopping_early_tops_up_each_gora_but_prints_none() -> None:
    sheet = Pulya.new(3, C).add(P17D[0])
    assert sheet.top_up() == (6, 10, 10)
    assert sheet.gora == (0, 0, 0)
    assert sheet.balances() == settle((6, 10, 10), sheet.whists) == (15, -5, -10)


def test_P14_an_empty_sheet_settles_to_nothing() -> None:
    assert Pulya.new(4, A).balances() == (0, 0, 0, 0)


# --- P16 the settlement ---------------------------------------------------------------------------


def test_P16_leftover_whists_go_to_the_smallest_gora_ties_by_seat() -> None:
    zero3 = ((0,) * 3,) * 3
    assert settle((0, 0, 1), zero3) == (4, 3, -7)  # S = 10/3, 10/3, −20/3
    assert settle((1, 0, 0), zero3) == (-7, 4, 3)
    zero4 = ((0,) * 4,) * 4
    assert settle((1, 0, 0, 0), zero4) == (-8, 3, 3, 2)  # S = −7.5, 2.5, 2.5, 2.5


def test_P16_smallest_gora_is_after_the_top_up() -> None:
    # A has the smallest gora as printed; topped up by 2 he has the largest, so B gets the whist.
    sheet = replace(Pulya.new(3, C), pulya=(8, 10, 10), gora=(0, 1, 1))
    assert sheet.balances() == settle((2, 1, 1), sheet.whists) == (-7, 4, 3)


# --- seeded random pulyas -------------------------------------------------------------------------


def exact_settlement(sheet: Pulya) -> list[Fraction]:
    """P16's Sᵢ as fractions, from the topped-up gora."""
    n = sheet.players
    gora = [g + t for g, t in zip(sheet.gora, sheet.top_up(), strict=True)]
    return [
        sum(sheet.whists[i][j] - sheet.whists[j][i] for j in range(n))
        + Fraction(10, n) * (sum(gora) - n * gora[i])
        for i in range(n)
    ]


def total(lines: list[Entries], n: int) -> Entries:
    return Entries(
        tuple(sum(e.pulya[i] for e in lines) for i in range(n)),
        tuple(sum(e.gora[i] for e in lines) for i in range(n)),
        tuple(tuple(sum(e.whists[i][j] for e in lines) for j in range(n)) for i in range(n)),
    )


def explained(line: Line) -> Entries:
    """A deal's row rebuilt from its reasons alone: each scored entry (its value = count × each
    where it is reckoned), then each P15 move."""
    n = len(line.entries.pulya)
    pulya, gora = [0] * n, [0] * n
    whists = [[0] * n for _ in range(n)]
    for entry in line.scored:
        assert entry.value and (not entry.count or entry.reason == "whists_shared" or
                                entry.value == entry.count * entry.each)  # fmt: skip
        if entry.column == "whists":
            assert entry.on is not None
            whists[entry.seat][entry.on] += entry.value
        else:
            (pulya if entry.column == "pulya" else gora)[entry.seat] += entry.value
    for move in line.overflow:
        pulya[move.seat] -= move.points
        if move.to is None:
            gora[move.seat] -= move.points
        else:
            pulya[move.to] += move.points
            whists[move.seat][move.to] += move.whists
    return Entries(tuple(pulya), tuple(gora), tuple(map(tuple, whists)))


@pytest.mark.parametrize("seed", range(200))
def test_random_pulyas_keep_their_invariants(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([3, 4])
    sheet = Pulya.new(n, rng.randrange(n), random_rules(rng))
    names = ["ann", "bob", "cat", "dan"][:n]
    while not sheet.finished and sheet.deals < 300:
        before = sheet
        sheet = sheet.add(random_outcome(rng, sheet))
        line = sheet.lines[-1]
        written = score_deal(line.outcome, n, line.dealer, line.streak, sheet.rules)
        # P15 moves pulya points or takes them off the gora; help costs 10 whists a point.
        # (each point taken off a gora is a pulya point nobody could take)
        assert sum(line.entries.pulya) - sum(line.entries.gora) == sum(written.pulya) - sum(
            written.gora
        )
        extra = [
            line.entries.whists[i][j] - written.whists[i][j] for i in range(n) for j in range(n)
        ]
        assert all(x >= 0 and x % 10 == 0 for x in extra)
        assert explained(line) == line.entries  # the reasons the bot tells make the sheet's row
        assert all(p <= sheet.rules.target for p in sheet.pulya)
        assert all(p >= q for p, q in zip(sheet.pulya, before.pulya, strict=True))
        balances = sheet.balances()
        assert sum(balances) == 0
        exact = exact_settlement(sheet)
        assert sum(exact) == 0
        # P16: each Sᵢ rounded down, some of them (the smallest gora) up by one whist.
        assert all(0 <= b - floor(s) <= 1 for b, s in zip(balances, exact, strict=True))
    assert sheet.finished, "a random pulya should end"
    assert total([line.entries for line in sheet.lines], n) == Entries(
        sheet.pulya, sheet.gora, sheet.whists
    )
    assert sheet.dealer == (sheet.first_dealer + sheet.deals) % n
    assert load(to_record(sheet, names)) == (sheet, names)
    with pytest.raises(IllegalAction, match="P14"):
        sheet.add(random_outcome(rng, sheet))


def test_a_record_of_the_sheet_names_a_bad_deal_by_its_number() -> None:
    record = to_record(play(Pulya.new(3, C), P17D), ["ann", "bob", "cat"])
    record["deals"][2]["tricks"] = [2, 1, 6]
    with pytest.raises(PulyaError, match=r"^deal 3: P8: "):
        load(record)


# --- deals given as whole records ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_a_pulya_of_deal_records_scores_as_their_outcomes(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([3, 4])
    names = ["ann", "bob", "cat", "dan"][:n]
    sheet = Pulya.new(n, rng.randrange(n), random_rules(rng))
    records = []
    while not sheet.finished and sheet.deals < 40:
        deal = played_deal(rng, sheet, names)
        assert deal.outcome is not None
        sheet = sheet.add(deal.outcome)
        records.append({"record": deal_record(deal)})
    data = {**to_record(sheet, names), "deals": records}
    assert load(data) == (sheet, names)


def test_a_deal_record_must_agree_with_the_pulya() -> None:
    rng = random.Random(7)
    names = ["ann", "bob", "cat"]
    sheet = Pulya.new(3, B)
    deal = played_deal(rng, sheet, names)
    good = deal_record(deal)
    data = {**to_record(sheet, names), "deals": [{"record": good}]}
    assert load(data)[0].deals == 1
    changes: list[tuple[dict[str, Any], str]] = [
        ({"dealer": C}, r"^deal 1: P3: "),
        ({"raspasy_streak": 1}, r"^deal 1: P10: "),
        ({"players": ["ann", "cat", "bob"]}, r"^deal 1: P1: "),
        ({"rules": {"target": 20}}, r"^deal 1: the record's rules"),
        ({"actions": good["actions"][:-1]}, r"^deal 1: the record stops before the deal is over"),
    ]
    for change, message in changes:
        data["deals"] = [{"record": {**good, **change}}]
        with pytest.raises(PulyaError, match=message):
            load(data)


def test_an_illegal_action_in_a_deal_record_names_the_deal_action_and_rule() -> None:
    rng = random.Random(3)
    names = ["ann", "bob", "cat"]
    sheet = Pulya.new(3, A)
    deal = played_deal(rng, sheet, names)
    record = deal_record(deal)
    last = len(record["actions"]) - 1
    record["actions"][last] = {
        **record["actions"][last],
        "seat": (record["actions"][last]["seat"] + 1) % 3,
    }
    data = {**to_record(sheet, names), "deals": [{"record": record}]}
    with pytest.raises(PulyaError, match=rf"^deal 1: action {last}: .*P8"):
        load(data)


# ---- a deal's value in whists ----------------------------------------------------------------


def test_p16_settlement_of_p17c() -> None:
    """P17 (c): A gora +8; B 28 whists on A, C and D 8 each: A −104, B +48, C +28, D +28."""
    whists = ((0, 0, 0, 0), (28, 0, 0, 0), (8, 0, 0, 0), (8, 0, 0, 0))
    assert deal_value(Entries((0,) * 4, (8, 0, 0, 0), whists), 4) == [-104, 48, 28, 28]


def test_a_pulya_point_is_worth_a_gora_point_written_off() -> None:
    """P14/P16: 6♠ made uncontested (pulya +2) at three is worth what +2 gora on each other is."""
    made = deal_value(Entries((2, 0, 0), (0, 0, 0), ((0,) * 3,) * 3), 3)
    others = deal_value(Entries((0, 0, 0), (0, 2, 2), ((0,) * 3,) * 3), 3)
    assert made == pytest.approx([40 / 3, -20 / 3, -20 / 3])
    assert others == pytest.approx([40 / 3, -20 / 3, -20 / 3])
