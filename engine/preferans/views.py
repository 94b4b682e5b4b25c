"""What each seat may see of a Preferans deal: hidden hands stay hidden; the defenders' hands are
open only where P7 (light play) and P9 (misère, after the first lead) open them; the talon only
when P5 shows it or raspasy turns it (P10), and to the declarer who took it (a misère's too)."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, Suit
from ..tricks import Play
from .actions import PrefAction, PrefDo
from .deal import Phase, PrefDeal
from .outcome import Entries, Outcome


@dataclass(frozen=True, slots=True)
class PrefSeatInfo:
    """What everyone sees of one seat; `open_hand` is its cards when laid open, else None."""

    seat: int
    name: str
    role: str | None  # declarer, whister, passer, half_whister, defender, out, None
    said: str | None  # the latest word: a bid, misère, here, pass, whist, half_whist
    cards: int
    tricks: int
    open_hand: tuple[Card, ...] | None
    calls: tuple[str, ...] = ()  # every word it said this deal, in order (P4, P6)


@dataclass(frozen=True, slots=True)
class PrefTableView:
    """What the whole table sees."""

    game: str
    phase: Phase
    dealer: int
    first_hand: int
    to_act: int | None  # whose hand or word is due
    controller: int | None  # who decides it (the lone whister for the passer in light play)
    seats: tuple[PrefSeatInfo, ...]
    top_bid: str | None  # during the auction, the bid to beat, and who holds it
    holder: int | None
    declarer: int | None
    contract: str | None
    talon: tuple[Card, ...] | None  # shown by a trick bid's winner (P5), or turned in raspasy
    raspasy: bool
    streak: int
    trump: Suit | None
    light: bool | None
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]  # P8: the last trick may be seen until the next is complete
    tricks_played: int
    finished: bool
    outcome: Outcome | None
    entries: Entries | None


@dataclass(frozen=True, slots=True)
class PrefSeatView:
    """What one seat sees: the table, its own hand, its own discard, the talon it took (the
    declarer: P5, P9's misère too, whose talon the table never sees), and the actions it decides."""

    table: PrefTableView
    seat: int
    hand: tuple[Card, ...]
    discards: tuple[Card, ...]
    legal: tuple[PrefAction, ...]
    taken: tuple[Card, ...] = ()


# the words of the auction and the whisting, which everyone hears (P4, P6)
_CALLS = frozenset(
    {PrefDo.BID, PrefDo.MISERE, PrefDo.HERE, PrefDo.PASS, PrefDo.WHIST, PrefDo.HALF_WHIST}
)


def table_view(deal: PrefDeal) -> PrefTableView:
    """The public view of the deal."""
    auction = deal.auction
    calls: list[list[str]] = [[] for _ in range(deal.n)]
    for action in deal.actions:
        if action.do in _CALLS:
            calls[action.seat].append(action.bid or action.do.value)
    seats = tuple(
        PrefSeatInfo(
            seat=seat,
            name=deal.players[seat],
            role=deal.role(seat),
            said=deal.defence[seat] or auction.words.get(seat),
            cards=len(deal.hands[seat]),
            tricks=deal.won[seat],
            open_hand=deal.hands[seat] if seat in deal.opened else None,
            calls=tuple(calls[seat]),
        )
        for seat in range(deal.n)
    )
    if deal.raspasy:
        talon: tuple[Card, ...] | None = deal.turned
    else:
        talon = deal.talon if deal.talon_shown else None
    bidding = deal.phase is Phase.BIDDING
    return PrefTableView(
        game=deal.game,
        phase=deal.phase,
        dealer=deal.dealer,
        first_hand=deal.first_hand,
        to_act=deal.turn,
        controller=deal.controller,
        seats=seats,
        top_bid=auction.top_bid if bidding else None,
        holder=auction.holder if bidding else None,
        declarer=deal.declarer,
        contract=deal.contract,
        talon=talon,
        raspasy=deal.raspasy,
        streak=deal.streak,
        trump=deal.trump,
        light=deal.light,
        trick=tuple(deal.trick),
        last_trick=deal.tricks_played[-1] if deal.tricks_played else (),
        tricks_played=len(deal.tricks_played),
        finished=deal.finished,
        outcome=deal.outcome,
        entries=deal.entries,
    )


def seat_view(deal: PrefDeal, seat: int) -> PrefSeatView:
    """One seat's private view: its hand, its discard if declarer, and the actions it decides
    (in light play the whister's list holds the passer's plays, under the passer's seat)."""
    legal = tuple(deal.legal_actions()) if deal.controller == seat else ()
    declarer = seat == deal.declarer
    discards = deal.discards if declarer else ()
    taken = deal.talon if declarer else ()  # P5: he took it into his hand
    return PrefSeatView(table_view(deal), seat, deal.hands[seat], discards, legal, taken)
