"""Issue 16: /stats' figures per player and the chat's records; names told apart."""

from __future__ import annotations

from bot.names import distinct
from bot.stats import DealFacts, chat_records, player_stats
from bot.storage import UserRow

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
