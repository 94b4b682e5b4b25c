"""What each player may see of a deal, in any game of the family (F7: an unopened hand stays
hidden even from its owner)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .actions import Action, Verb
from .cards import Card, Suit
from .deal import TrickDeal
from .tricks import Play, trick_winner


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What everyone sees of one seat."""

    seat: int
    name: str
    role: str | None  # "declarer", "whister", "cutter", "helper", "taker", "out", None
    bid: Verb | None  # the seat's latest word
    cards: int
    tricks: int
    looked: bool
    level: int | None = None  # Napoleon (N2): the height of the latest bid, 1–5 or 6 (napoleon)


@dataclass(frozen=True, slots=True)
class TableView:
    """What the whole table sees: the group's view of the deal."""

    game: str
    phase: StrEnum
    round: int
    max_rounds: int
    dealer: int
    to_act: int | None
    trump: Suit
    turnup: Card | None
    dead_turnups: tuple[Card, ...]
    pot: int
    stock: int
    seats: tuple[SeatInfo, ...]
    declarer: int | None
    contract: Verb | None  # the declarer's word: frap, dark frap, khrap, veselyu, …
    declarer_needs: int  # tricks the contract promises
    dark: bool
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]
    last_winner: int | None  # the seat that took `last_trick`
    tricks_played: int
    finished: bool
    needs_redeal: bool
    delta: tuple[int, ...]
    ante: int
    rules: Mapping[str, Any]  # the deal's house rules, as its record's `rules` object
    trump_named: bool = True  # False until Napoleon's first lead names the trump (N4)
    stake: int = 0  # Napoleon's u, the chips per trick of the bid (N5); 0 in the other games


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat sees: the table, its own hand (None while unopened) and its legal actions."""

    table: TableView
    seat: int
    hand: tuple[Card, ...] | None
    legal: tuple[Action, ...]


def table_view(deal: TrickDeal) -> TableView:
    """The public view of the deal."""
    seats = tuple(
        SeatInfo(
            seat=seat,
            name=deal.players[seat],
            role=deal.role(seat),
            bid=deal.bids[seat],
            cards=len(deal.hands[seat]),
            tricks=deal.tricks_won[seat],
            looked=not deal.hand_hidden(seat),
            level=deal.bid_level(seat),
        )
        for seat in range(deal.n)
    )
    contract = deal.contract
    last = deal.tricks_played[-1] if deal.tricks_played else ()
    return TableView(
        game=deal.game,
        phase=deal.phase,
        round=deal.round,
        max_rounds=deal.MAX_ROUNDS,
        dealer=deal.dealer,
        to_act=deal.to_act,
        trump=deal.trump,
        turnup=deal.turnup,
        dead_turnups=tuple(deal.dead_turnups),
        pot=deal.pot,
        stock=deal.stock_size,
        seats=seats,
        declarer=deal.declarer,
        contract=contract,
        declarer_needs=deal.declarer_needs,
        dark=deal.dark,
        trick=tuple(deal.trick),
        last_trick=last,
        last_winner=trick_winner(last, deal.trump) if last else None,
        tricks_played=len(deal.tricks_played),
        finished=deal.finished,
        needs_redeal=deal.needs_redeal,
        delta=tuple(deal.delta),
        ante=deal.ante,
        rules=deal.rules_record(),
        trump_named=deal.trump_named,
        stake=_stake(deal),
    )


def _stake(deal: TrickDeal) -> int:
    """N5's u where the game has one (a Napoleon deal's `stake`), else 0."""
    stake = getattr(deal, "stake", 0)
    return stake if isinstance(stake, int) else 0


def seat_view(deal: TrickDeal, seat: int) -> SeatView:
    """One seat's private view: its hand only once opened (F7), and what it may do now.

    While the hand is unopened, actions that name one of its cards (the dark declarer's discard)
    are left out so the view cannot reveal the hand: the seat must `look` first.
    """
    legal = deal.legal_actions(seat)
    if not deal.hand_hidden(seat):
        return SeatView(table_view(deal), seat, deal.hands[seat], tuple(legal))
    hidden = tuple(action for action in legal if action.card is None and not action.cards)
    return SeatView(table_view(deal), seat, None, hidden)
