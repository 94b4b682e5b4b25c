"""Each line of Preferans scoring (RULES P9–P13, P17 a–c) through `score_deal`, every option, and
the outcomes the rules refuse."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.preferans.outcome import Entries, Outcome, PrefRules
from engine.preferans.pulya import settle
from engine.preferans.scoring import score_deal

# Seats A, B, C (and D at a table of four).
A, B, C, D = 0, 1, 2, 3


def deal(
    outcome: Outcome, *, players: int = 3, dealer: int = C, streak: int = 0, **options: Any
) -> Entries:
    """The entries of one deal under the Sochi defaults plus `options`."""
    return score_deal(outcome, players, dealer, streak, PrefRules.from_dict(options))


def game(
    declarer: int,
    contract: str,
    defence: list[str | None] | None,
    tricks: list[int | None] | None,
    play: str | None = None,
) -> Outcome:
    return Outcome(
        declarer,
        contract,
        None if defence is None else tuple(defence),
        play,
        None if tricks is None else tuple(tricks),
    )


def whists(entries: Entries) -> dict[tuple[int, int], int]:
    """The whists written, as {(writer, on): count} without the zeros."""
    return {
        (i, j): count
        for i, row in enumerate(entries.whists)
        for j, count in enumerate(row)
        if count
    }


# --- P17: the worked examples -------------------------------------------------------------------


def test_P17a_7H_two_whisters_8_1_1() -> None:
    e = deal(game(A, "7H", [None, "whist", "whist"], [8, 1, 1]))
    assert (e.pulya, e.gora, whists(e)) == ((4, 0, 0), (0, 0, 0), {(B, A): 4, (C, A): 4})


@pytest.mark.parametrize(("liability", "c_gora"), [("full", 4), ("capped", 2)])
def test_P17b_6C_two_whisters_7_3_0(liability: str, c_gora: int) -> None:
    e = deal(game(A, "6C", [None, "whist", "whist"], [7, 3, 0]), whist_liability=liability)
    assert (e.pulya, e.gora, whists(e)) == ((2, 0, 0), (0, 0, c_gora), {(B, A): 6})


def test_P17c_four_players_light_7S_fails_by_two_and_settles() -> None:
    e = deal(
        game(A, "7S", [None, "whist", "pass", None], [5, 3, 2, None], "light"),
        players=4,
        dealer=D,
    )
    assert (e.pulya, e.gora) == ((0,) * 4, (8, 0, 0, 0))
    assert whists(e) == {(B, A): 28, (C, A): 8, (D, A): 8}
    assert settle(e.gora, e.whists) == (-104, 48, 28, 28)


# --- P9 misère ----------------------------------------------------------------------------------


def test_P9_clean_misere_writes_10_pulya() -> None:
    e = deal(game(B, "misere", None, [5, 0, 5]))
    assert (e.pulya, e.gora, whists(e)) == ((0, 10, 0), (0, 0, 0), {})


def test_P9_failed_misere_writes_10_per_trick_no_whists_no_consolation() -> None:
    e = deal(game(A, "misere", None, [3, 2, 5, None]), players=4, dealer=D)
    assert (e.pulya, e.gora, whists(e)) == ((0,) * 4, (30, 0, 0, 0), {})


# --- P10 raspasy --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("progression", "streak", "price"),
    [
        ("123", 0, 1), ("123", 1, 2), ("123", 2, 3), ("123", 5, 3),
        ("124", 1, 2), ("124", 2, 4), ("124", 7, 4),
        ("none", 0, 1), ("none", 3, 1),
    ],
)  # fmt: skip
def test_P10_raspasy_price_by_streak(progression: str, streak: int, price: int) -> None:
    e = deal(Outcome(raspasy=(0, 4, 6)), streak=streak, raspasy_progression=progression)
    assert (e.pulya, e.gora, whists(e)) == ((price, 0, 0), (0, 4 * price, 6 * price), {})


def test_P10_every_player_with_a_trick_writes_gora_only() -> None:
    e = deal(Outcome(raspasy=(3, 3, 4)), streak=1)
    assert (e.pulya, e.gora) == ((0, 0, 0), (6, 6, 8))


def test_P10_sitting_out_dealer_writes_nothing() -> None:
    e = deal(Outcome(raspasy=(0, None, 3, 7)), players=4, dealer=B)
    assert (e.pulya, e.gora, whists(e)) == ((1, 0, 0, 0), (0, 0, 3, 7), {})


def test_P10_amnesty_charges_tricks_above_the_lowest_count() -> None:
    e = deal(Outcome(raspasy=(2, 3, 5)), streak=2, raspasy_amnesty=True)
    assert (e.pulya, e.gora) == ((0, 0, 0), (0, 3, 9))


def test_P10_amnesty_leaves_the_zero_trick_pulya_entry() -> None:
    e = deal(Outcome(raspasy=(0, 4, 6)), raspasy_amnesty=True)
    assert (e.pulya, e.gora) == ((1, 0, 0), (0, 4, 6))


def test_P10_raspasy_exit_7_refuses_a_six_after_raspasy() -> None:
    six = game(A, "6H", [None, "whist", "whist"], [6, 2, 2])
    assert deal(six, streak=1).pulya[A] == 2  # the default allows it
    with pytest.raises(IllegalAction) as err:
        deal(six, streak=1, raspasy_exit=7)
    assert err.value.rule == "P10"
    assert deal(six, streak=0, raspasy_exit=7).pulya[A] == 2  # no raspasy just before


# --- P6 whisting without play --------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "value"), [("6D", 2), ("8NT", 6), ("10S", 10)])
def test_P6_both_pass_contract_made_without_play(contract: str, value: int) -> None:
    e = deal(game(B, contract, ["pass", None, "pass"], None), ten="whisted")
    assert (e.pulya, e.gora, whists(e)) == ((0, value, 0), (0, 0, 0), {})
    assert game(B, contract, ["pass", None, "pass"], None).kind == "uncontested"


@pytest.mark.parametrize(
    ("contract", "value", "half"), [("6H", 2, 2 * 4 // 2), ("7NT", 4, 4 * 2 // 2)]
)
def test_P6_half_whist_writes_V_O_over_2(contract: str, value: int, half: int) -> None:
    # A declares; B speaks first and passes, C half-whists.
    outcome = game(A, contract, [None, "pass", "half_whist"], None)
    e = deal(outcome)
    assert outcome.kind == "half_whist" and outcome.made
    assert (e.pulya, e.gora, whists(e)) == ((value, 0, 0), (0, 0, 0), {(C, A): half})


def test_P6_returned_whist_is_a_lone_whist_by_the_first_defender() -> None:
    # After C's half-whist, B returns the whist: written whist / pass (HAND_FORMAT).
    e = deal(game(A, "6S", [None, "whist", "pass"], [6, 3, 1], "dark"))
    assert (e.pulya, whists(e)) == ((2, 0, 0), {(B, A): 2 * 4})


def test_P6_stalingrad_6S_is_whisted_by_both_without_calls() -> None:
    outcome = game(A, "6S", None, [7, 0, 3])
    e = deal(outcome, stalingrad=True)
    # P12: D = 3 < O = 4 and B is short of O/2 = 2 by two.
    assert (e.pulya, e.gora, whists(e)) == ((2, 0, 0), (0, 4, 0), {(C, A): 6})
    assert deal(game(A, "6S", [None, "whist", "whist"], [7, 0, 3]), stalingrad=True) == e


# --- P11 contracts ------------------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "value"), [("6NT", 2), ("7C", 4), ("8D", 6), ("9H", 8)])
def test_P11_made_value_in_pulya_and_whists_per_trick(contract: str, value: int) -> None:
    bid = int(contract[0])
    e = deal(game(B, contract, ["whist", None, "whist"], [10 - bid - 1, bid, 1]))
    assert e.pulya == (0, value, 0)
    expected = {(A, B): value * (10 - bid - 1), (C, B): value}
    assert whists(e) == {key: count for key, count in expected.items() if count}


def test_P11_made_lone_greedy_whister_writes_all_defensive_tricks() -> None:
    e = deal(game(A, "8S", [None, "pass", "whist"], [8, 1, 1], "light"))
    assert (e.pulya, e.gora, whists(e)) == ((6, 0, 0), (0, 0, 0), {(C, A): 12})


def test_P11_failed_by_k_gora_trick_whists_and_consolation() -> None:
    e = deal(game(A, "9C", [None, "whist", "whist"], [6, 1, 3]))
    k, v = 3, 8
    assert (e.pulya, e.gora) == ((0, 0, 0), (v * k, 0, 0))
    assert whists(e) == {(B, A): v * 1 + v * k, (C, A): v * 3 + v * k}


def test_P11_failed_passer_and_sitting_out_dealer_write_the_consolation() -> None:
    e = deal(game(C, "6H", [None, "whist", None, "pass"], [None, 3, 5, 2], "dark"), dealer=A,
             players=4)  # fmt: skip
    assert e.gora == (0, 0, 2, 0)
    assert whists(e) == {(A, C): 2, (B, C): 2 * 5 + 2, (D, C): 2}


def test_P1_dealer_consolation_false_leaves_the_dealer_out() -> None:
    outcome = game(C, "6H", [None, "whist", None, "pass"], [None, 3, 5, 2], "dark")
    e = deal(outcome, players=4, dealer=A, dealer_consolation=False)
    assert whists(e) == {(B, C): 12, (D, C): 2}


def test_P11_gentleman_splits_a_failed_lone_whist() -> None:
    outcome = game(A, "7D", [None, "whist", "pass"], [5, 2, 3], "light")
    greedy = deal(outcome)
    gentleman = deal(outcome, whist="gentleman")
    assert whists(greedy) == {(B, A): 4 * 5 + 8, (C, A): 8}
    assert whists(gentleman) == {(B, A): 10 + 8, (C, A): 10 + 8}
    assert (gentleman.pulya, gentleman.gora) == (greedy.pulya, greedy.gora)


def test_P11_gentleman_changes_nothing_on_a_made_contract() -> None:
    outcome = game(A, "7D", [None, "whist", "pass"], [7, 2, 1], "light")
    assert deal(outcome, whist="gentleman") == deal(outcome)


def test_P7_light_or_dark_changes_no_entry() -> None:
    light = game(A, "7D", [None, "pass", "whist"], [6, 1, 3], "light")
    dark = game(A, "7D", [None, "pass", "whist"], [6, 1, 3], "dark")
    assert deal(light) == deal(dark) == deal(game(A, "7D", [None, "pass", "whist"], [6, 1, 3]))


# --- P12 responsible whist ----------------------------------------------------------------------


def test_P12_lone_whister_short_writes_V_times_shortfall() -> None:
    e = deal(game(A, "6C", [None, "whist", "pass"], [8, 1, 1], "dark"))
    assert (e.pulya, e.gora, whists(e)) == ((2, 0, 0), (0, 2 * (4 - 2), 0), {(B, A): 4})


def test_P12_two_whisters_on_7_each_short_of_half() -> None:
    e = deal(game(A, "7S", [None, "whist", "whist"], [9, 0, 1]))
    assert e.gora == (0, 4 * 1, 4 * 0)


def test_P12_capped_two_whisters_charge_the_side_shortfall_to_the_one_with_fewer() -> None:
    e = deal(game(A, "6S", [None, "whist", "whist"], [8, 2, 0]), whist_liability="capped")
    assert e.gora == (0, 0, 2 * 2)


def test_P18_capped_tie_goes_to_the_second_defender() -> None:
    # Declarer C: A speaks first (the next seat clockwise), B second.
    e = deal(game(C, "6S", ["whist", "whist", None], [1, 1, 8]), whist_liability="capped")
    assert e.gora == (0, 2 * 2, 0)


@pytest.mark.parametrize("contract", ["8H", "9NT"])
def test_P12_on_8_or_9_the_second_defender_writes_V(contract: str) -> None:
    value = {"8": 6, "9": 8}[contract[0]]
    e = deal(game(B, contract, ["whist", None, "whist"], [0, 10, 0]))
    # Declarer B: C speaks first, A second.
    assert e.gora == (value, 0, 0)


def test_P12_nothing_when_the_defenders_reach_the_obligation() -> None:
    # D = O = 4: C's empty hand is not short, the side is not (P12 "only when D < O").
    assert deal(game(A, "6S", [None, "whist", "whist"], [6, 4, 0])).gora == (0, 0, 0)
    assert deal(game(A, "8S", [None, "pass", "whist"], [8, 0, 2], "dark")).gora == (0, 0, 0)


def test_P12_no_liability_on_a_failed_contract() -> None:
    e = deal(game(A, "6S", [None, "whist", "pass"], [5, 5, 0], "dark"))
    assert e.gora == (2, 0, 0)


# --- P13 the ten ----------------------------------------------------------------------------------


def test_P13_checked_ten_made_each_defender_writes_10_per_trick() -> None:
    e = deal(game(A, "10NT", None, [10, 0, 0]))
    assert (e.pulya, e.gora, whists(e)) == ((10, 0, 0), (0, 0, 0), {})


def test_P13_checked_ten_failed_with_consolation_from_the_dealer_too() -> None:
    e = deal(game(A, "10H", None, [9, 1, None, 0]), players=4, dealer=C)
    assert e.gora == (10, 0, 0, 0)
    assert whists(e) == {(B, A): 10 + 10, (C, A): 10, (D, A): 10}


def test_P13_ten_whisted_has_obligation_one() -> None:
    lone = deal(game(A, "10D", [None, "whist", "pass"], [10, 0, 0], "dark"), ten="whisted")
    assert lone.gora == (0, 10, 0)
    both = deal(game(A, "10D", [None, "whist", "whist"], [10, 0, 0]), ten="whisted")
    assert both.gora == (0, 0, 10)  # P18: as on 8/9, the second to speak


# --- what the rules refuse ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "options", "rule"),
    [
        (game(A, "7S", [None, "whist", "whist"], [7, 2, 2]), {}, "P8"),
        (Outcome(raspasy=(3, 3, 3)), {}, "P8"),
        (game(A, "8S", [None, "pass", "half_whist"], None), {}, "P6"),
        (game(A, "6S", [None, "half_whist", "pass"], None), {}, "P6"),
        (game(A, "6S", [None, "whist", "half_whist"], None), {}, "P6"),
        (game(A, "6S", [None, "pass", "half_whist"], None), {"stalingrad": True}, "P6"),
        (game(A, "7S", None, [7, 2, 1]), {}, "P6"),
        (game(A, "10S", [None, "whist", "whist"], [10, 0, 0]), {}, "P13"),
        (game(A, "misere", [None, "pass", "pass"], [0, 5, 5]), {}, "P6"),
        (game(A, "misere", None, None), {}, "P9"),
        (game(A, "7S", [None, "whist", "whist"], [7, 2, 1], "light"), {}, "P7"),
        (game(A, "7S", [None, "pass", "pass"], [7, 2, 1]), {}, "P6"),
        (game(A, "7S", [None, "whist", "pass"], None), {}, "P8"),
        (game(A, "7S", ["whist", "whist", None], [7, 2, 1]), {}, "P6"),
    ],
)
def test_impossible_outcomes_are_refused_naming_the_rule(
    outcome: Outcome, options: dict[str, Any], rule: str
) -> None:
    with pytest.raises(IllegalAction) as err:
        deal(outcome, **options)
    assert err.value.rule == rule


def test_P1_the_sitting_out_dealer_neither_declares_nor_takes_tricks() -> None:
    with pytest.raises(IllegalAction, match="P1"):
        deal(game(D, "7S", ["whist", "whist", None, None], [3, 3, 0, 4]), players=4, dealer=D)
    with pytest.raises(IllegalAction, match="P1"):
        deal(Outcome(raspasy=(0, 4, 5, 1)), players=4, dealer=D)
    with pytest.raises(IllegalAction, match="P1"):
        deal(game(A, "7S", [None, "whist", "whist"], [7, 2, 1]), players=4, dealer=D)


# --- the options object -------------------------------------------------------------------------


def test_rules_default_to_sochi_and_round_trip_their_overrides() -> None:
    rules = PrefRules.from_dict({"preset": "sochi", "target": 20, "whist": "gentleman"})
    assert rules == PrefRules(target=20, whist="gentleman")
    assert PrefRules.from_dict(rules.to_dict()) == rules
    assert PrefRules.from_dict({}) == PrefRules()


@pytest.mark.parametrize(
    "data",
    [{"preset": "leningrad"}, {"target": 15}, {"here": False}, {"raspasy_exit": "7"}, {"x": 1}],
)
def test_unknown_rules_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        PrefRules.from_dict(data)


# --- the outcome as the pulya format writes it ----------------------------------------------------


@pytest.mark.parametrize(
    ("data", "kind", "made"),
    [
        ({"raspasy": [0, 4, 6]}, "raspasy", None),
        ({"raspasy": [0, None, 4, 6], "declarer": None, "contract": None}, "raspasy", None),
        ({"declarer": 1, "contract": "misere", "tricks": [5, 0, 5]}, "misere", True),
        ({"declarer": 1, "contract": "misere", "tricks": [5, 1, 4]}, "misere", False),
        ({"declarer": 0, "contract": "9C", "defence": [None, "pass", "pass"]}, "uncontested", True),
        ({"declarer": 0, "contract": "6C", "defence": [None, "pass", "half_whist"]}, "half_whist",
         True),
        ({"declarer": 0, "contract": "7S", "defence": [None, "whist", "pass"], "play": "dark",
          "tricks": [6, 2, 2]}, "game", False),
        ({"declarer": 0, "contract": "10NT", "tricks": [10, 0, 0]}, "game", True),
    ],
)  # fmt: skip
def test_outcome_kind_made_and_json_round_trip(data: dict[str, Any], kind: str, made: bool) -> None:
    outcome = Outcome.from_json(data)
    assert (outcome.kind, outcome.made) == (kind, made)
    assert Outcome.from_json(outcome.to_json()) == outcome
    assert outcome.to_json() == {key: value for key, value in data.items() if value is not None}


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"raspasy": [0, 4, 6], "contract": "7S"},
        {"raspasy": [0, 4]},
        {"raspasy": [0, 4, 11]},
        {"declarer": True, "contract": "7S"},
        {"declarer": 0, "contract": "11S"},
        {"declarer": 0, "contract": "7S", "play": "bright"},
        {"declarer": 0, "contract": "7S", "defence": [None, "whist", "maybe"]},
        {"declarer": 0, "contract": "7S", "tricks": [7, 2, "1"]},
        {"declarer": 0, "contract": "7S", "made": True},
    ],
)
def test_a_malformed_outcome_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        Outcome.from_json(data)
