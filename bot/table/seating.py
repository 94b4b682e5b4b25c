"""Seats and away players: plain functions over an open table's row, with no
storage or network I/O; the host stores the row and retires the messages they let go."""

from __future__ import annotations

from dataclasses import replace

from .. import computer
from .live import OpenTable

AWAY_AFTER = 2  # time-outs in a row that mark a player away


def practice(chat_id: int) -> bool:
    """Whether a chat's table is a practice table against computer players: one
    opened in a private chat, whose id is its player's."""
    return chat_id > 0


def rated(live: OpenTable) -> tuple[int, ...]:
    """The players the league rates by the deal now ending (its seats dealt in); nobody at a
    practice table."""
    return () if practice(live.row.chat_id) else tuple(live.deal_seats)


def sits_out(live: OpenTable, user_id: int) -> bool:
    """Away, unreachable or leaving players are not dealt in (no ante)."""
    user = live.users.get(user_id)
    return (
        user_id in live.row.away
        or user_id in live.row.leaving
        or (user is not None and user.blocked)
    )


def plays_itself(live: OpenTable, user_id: int) -> bool:
    """Away players and players the bot cannot reach move automatically, without waiting."""
    return user_id in live.row.away or user_id in live.row.leaving or live.users[user_id].blocked


def unseat(live: OpenTable, uid: int) -> None:
    """Take a player off the seats (the dealer's place moves with them)."""
    seats = list(live.row.seats)
    index = seats.index(uid)
    seats.remove(uid)
    dealer = live.row.dealer
    if dealer is not None and seats:
        dealer = (dealer - 1) % len(seats) if index <= dealer else dealer
    live.row = replace(
        live.row,
        seats=tuple(seats),
        dealer=dealer,
        away=tuple(u for u in live.row.away if u != uid),
        strikes=tuple((u, n) for u, n in live.row.strikes if u != uid),
        leaving=tuple(u for u in live.row.leaving if u != uid),
    )


def back(live: OpenTable, user_id: int) -> None:
    """A player pressed a button: no longer away, no time-outs counted."""
    if user_id in live.row.away or any(uid == user_id for uid, _ in live.row.strikes):
        live.row = replace(
            live.row,
            away=tuple(uid for uid in live.row.away if uid != user_id),
            strikes=tuple((uid, n) for uid, n in live.row.strikes if uid != user_id),
        )


def runner(live: OpenTable) -> int | None:
    """Who runs the table: its creator, or while he is not seated the first seated player
    (a table does not stall when its creator stands up)."""
    people = computer.people(live.row.seats)
    if live.row.creator_id in live.row.seats or not people:
        return live.row.creator_id
    return people[0]


def may_run(live: OpenTable, user_id: int, is_admin: bool) -> bool:
    """Whether a user may start, stop or set up the table: an admin, its creator or runner."""
    return is_admin or user_id in (live.row.creator_id, runner(live))


def stuck(live: OpenTable, user_id: int) -> bool:
    """Whether a player of the deal in play may stop it: another of its players is away for
    good (left the group, was stood up, blocked the bot), so it can only be played out by
    the bot for him (a pulya, P14, is then settled as it stands)."""
    players = live.deal_seats if live.in_deal else ()
    return user_id in players and any(
        uid in live.row.leaving or live.users[uid].blocked for uid in players if uid != user_id
    )


def count_time_out(live: OpenTable, user_id: int) -> tuple[str, str] | None:
    """A real time-out (not the bot moving for an away player) is counted, the second in a
    row marks the player away; the table's note saying so."""
    if plays_itself(live, user_id):
        return None
    strikes = dict(live.row.strikes)
    strikes[user_id] = strikes.get(user_id, 0) + 1
    away = live.row.away
    if strikes[user_id] >= AWAY_AFTER and user_id not in away:
        away = (*away, user_id)
    live.row = replace(live.row, strikes=tuple(strikes.items()), away=away)
    key_word = "table.now_away" if user_id in away else "table.timed_out"
    return key_word, live.users[user_id].name
