"""/stats' figures per player and the chat's records; names told apart."""

from __future__ import annotations

import pytest

from bot import games
from bot.chat import stats_view
from bot.names import distinct
from bot.stats import DealFacts, Record, chat_records, player_stats
from bot.storage import UserRow
from tests.engine_helpers import act, new_deal
from tests.fakebot import parse_html

A, B, C = 1, 2, 3


def _deal(
    deal_id: int,
    deltas: dict[int, int],
    *,
    game: str = "frap",
    taken: dict[int, int] | None = None,
    declarer: int | None = None,
    made: bool = False,
) -> DealFacts:
    return DealFacts(deal_id, game, deltas, taken or {}, declarer, made)


DEALS = [
    _deal(1, {A: 30, B: -20, C: -10}, declarer=A, made=True, taken={A: 40}),
    _deal(2, {A: -40, B: 50, C: -10}, declarer=A, made=False, taken={B: 60}),
    _deal(3, {A: 10, B: -10}, game="khrap", declarer=B, made=False, taken={A: 20}),
    _deal(4, {A: 20, B: -20, C: 0}, declarer=A, made=True, taken={A: 30}),
]


def test_a_players_deals_contracts_extremes_pot_and_streak() -> None:
    a = player_stats(A, DEALS)
    assert dict(a.deals) == {"frap": 3, "khrap": 1}
    assert (a.declared, a.made) == (3, 2)
    assert (a.best, a.worst, a.biggest_pot) == (30, -40, 40)
    assert a.streak == 2  # deals 3 and 4 won


def test_a_losing_streak_counts_down_and_an_even_deal_ends_a_streak() -> None:
    assert player_stats(B, DEALS).streak == -2  # deals 3 and 4 lost
    assert player_stats(C, DEALS).streak == 0  # deal 4 even
    assert player_stats(C, DEALS[:2]).streak == -2


def test_a_player_who_never_played_has_no_figures() -> None:
    nobody = player_stats(99, DEALS)
    assert not nobody.deals and nobody.best is None and nobody.streak == 0


def test_the_chats_records() -> None:
    records = chat_records(DEALS)
    assert records.best_deal is not None and (
        records.best_deal.user_id,
        records.best_deal.value,
    ) == (B, 50)
    assert records.worst_deal is not None and records.worst_deal.value == -40
    assert records.biggest_pot is not None and records.biggest_pot.user_id == B
    assert records.most_deals is not None and records.most_deals.user_id in (A, B)
    assert records.most_deals.value == 4
    assert chat_records([]).best_deal is None


def _user(uid: int, name: str, username: str | None = None) -> UserRow:
    return UserRow(uid, name, username, "ru", True, False)


def test_two_players_of_the_same_name_are_told_apart() -> None:
    labels = distinct(
        [_user(1, "Лена", "lena_k"), _user(2, "Лена"), _user(3, "Лена"), _user(4, "Оля")]
    )
    assert labels[1] == "Лена (@lena_k)" and labels[4] == "Оля"
    assert len({labels[1], labels[2], labels[3]}) == 3
    assert distinct([_user(5, "Max", "mx")]) == {5: "Max"}  # a unique name stays plain


# A pulya (P14, P16) of three deals at table 7, settled on its last; one at table 8 in play.
PULYA = [
    DealFacts(11, "preferans", {A: 0, B: 0, C: 0}, {}, A, True, match=7, settled=True),
    DealFacts(12, "preferans", {A: 0, B: 0, C: 0}, {}, B, False, "misere", 7, True),
    DealFacts(13, "preferans", {A: 120, B: -44, C: -76}, {}, A, True, "misere", 7, True),
    DealFacts(14, "preferans", {A: 0, B: 0, C: 0}, {}, C, True, match=8),
]


def test_a_pulya_counts_as_a_whole_not_as_a_best_deal() -> None:
    a = player_stats(A, DEALS + PULYA)
    assert a.matches == {"preferans": [120]}  # the pulya in play has no settlement yet
    assert (a.best, a.worst, a.biggest_pot) == (30, -40, 40)  # the settlement is no deal's
    assert a.deals["preferans"] == 4 and (a.declared, a.made) == (5, 4)
    assert a.kinds == {("preferans", "misere", True): 1}
    assert player_stats(B, PULYA).kinds == {("preferans", "misere", False): 1}
    records = chat_records(DEALS + PULYA)
    assert records.best_deal == Record(B, 50)  # not A's +120 at the pulya
    high, low = records.matches["preferans"]
    assert (high, low) == (Record(A, 120), Record(C, -76))


@pytest.mark.parametrize(
    ("lang", "said", "unsaid"),
    [
        ("en", ["Pulyas played: 1; best: +120, worst: +120", "Misères declared: 1, made: 1",
                "Best pulya: Ann, +120", "Worst pulya: Cat, −76"], ["Best deal", "pot"]),
        ("ru", ["Сыграно пуль: 1; лучшая: +120, худшая: +120", "Мизеров заказано: 1, сыграно: 1",
                "Лучшая пуля: Ann, +120", "Худшая пуля: Cat, −76"], ["Лучшая сдача", "банк"]),
    ],
)  # fmt: skip
def test_stats_read_a_pulya_in_its_own_words(lang: str, said: list[str], unsaid: list[str]) -> None:
    labels = {A: "Ann", B: "Bob", C: "Cat"}
    mine = stats_view.player_text(lang, "Ann", player_stats(A, PULYA))
    records = stats_view.records_text(lang, chat_records(PULYA), labels)
    text = parse_html(mine + "\n" + records).text
    assert all(line in text for line in said), text
    assert not any(word in text for word in unsaid), text


@pytest.mark.parametrize("contract", ["frap", "dark_frap"])
def test_f6_a_frap_nobody_whists_is_a_contract_declared_and_made(contract: str) -> None:
    """Nobody whists: the declarer takes the pot with no play (F6), and /stats counts it as a
    contract made, not a failed one."""
    deal = new_deal(3)
    deal, _ = deal.apply(act(f"0 {contract}"))
    while not deal.finished:
        deal, _ = deal.apply(act(f"{deal.to_act} pass"))
    assert deal.delta[0] > 0 and not deal.tricks_played
    assert games.ui("frap").declared(deal.to_record()) == (0, True, None)
