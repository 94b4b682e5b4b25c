"""A Frap-family deal as one seat (or the group) sees it: the typed screen of bot/view/screen.py,
built only from what its `GameKind` gives one seat (the engine's seat view: his hand once
opened, F7, and his legal actions) or the group (the public table view): the seats in table
order with their words and figures, the trick and the last one, trump, turn-up, pot and stakes,
the player's hand with his choices laid on its cards (the choices his chat message shows:
`render.hand_choices`), his question, the result with its reasons."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.deal import TrickDeal
from engine.views import SeatView, TableView
from locales import t

from ...format import signed
from ...view import screen as s
from ...view.message import Choice
from ..base import who
from . import account, render

if TYPE_CHECKING:
    from ...table.live import OpenTable
    from ..base import GameKind
    from .ui import FamilyUI


def screen(
    game: GameKind,
    ui: FamilyUI,
    played: TrickDeal,
    table: OpenTable,
    seat: int | None,
    lang: str,
    balances: Mapping[int, int],
    *,
    closing: bool = False,
    mine: SeatView | None = None,
) -> s.PotScreen | None:
    """The deal in play (or just finished) as `seat` sees it; `seat` None: the public table;
    `closing`: the table closes, so no choice is left to him; `mine`: his seat view, if at
    hand."""
    public: TableView | None = game.public_view(table)
    if public is None:
        return None
    if mine is None and seat is not None:
        mine = game.seat_view(table, seat)

    def total(at: int) -> str | None:
        uid = table.deal_seats[at]
        return signed(balances[uid]) if uid in balances else None

    return build(
        ui,
        played,
        public,
        mine,
        lang,
        (table.row.table_id, table.row.deal_no, table.step),
        table.selection.get(seat, ()) if seat is not None else (),
        lambda at, name: who(table, at, name, balances),
        total,
        closing=closing,
    )


def build(
    ui: FamilyUI,
    played: TrickDeal,
    public: TableView,
    mine: SeatView | None,
    lang: str,
    ids: tuple[int, int, int],
    chosen: Sequence[Card],
    facts: Callable[[int, str], tuple[int, str, bool, bool, str | None]],
    total: Callable[[int], str | None],
    *,
    closing: bool = False,
) -> s.PotScreen:
    """The screen from the engine's views: `mine` (None: the public table's), the table's
    (id, deal number, step) its presses name, the seat's chosen discard, each seat's first
    fields (`who`) and chips after the deal (`total`)."""
    rows: list[list[Choice]] = []
    question = None
    if mine is not None:
        if played.finished or closing:
            mine = replace(mine, legal=())
        rows = render.hand_choices(lang, ui, mine, *ids, chosen)
        question = s.plain(render.question(lang, ui, mine))
    on_cards, words = s.split(rows)
    playing = public.phase == "play" or public.tricks_played or public.finished
    return s.PotScreen(
        phase=str(public.phase.value),
        mover=public.to_act,
        seats=tuple(
            s.Seat(
                *facts(info.seat, info.name),
                cards=info.cards,
                tricks=info.tricks if playing and info.role in render.PLAYING_ROLES else None,
                word=_word(lang, ui, public, info.seat),
                dealer=info.seat == public.dealer,
                out=False,
                figures=(),
            )
            for info in public.seats
        ),
        trump=public.trump.symbol if public.trump_named else None,
        turnup=s.face(public.turnup, lang) if public.turnup is not None else None,
        pot=public.pot,
        pot_text=s.plain(ui.text(lang, "table.pot", pot=public.pot)),
        stock=public.stock,
        stakes=s.plain(ui.stakes(lang, public)),
        trick=s.trick(public.trick, lang),
        last_trick=s.taken(public.last_trick, public.last_winner, lang),
        hand=s.hand(mine.hand, on_cards, lang, chosen) if mine and mine.hand else None,
        hidden=mine.table.seats[mine.seat].cards if mine and mine.hand is None else 0,  # F7
        tricks_played=public.tricks_played,
        choices=words,
        question=question,
        result=_result(lang, ui, public, played, total) if played.finished else None,
        finished=public.finished,
    )


def _word(lang: str, ui: FamilyUI, table: TableView, seat: int) -> str | None:
    """The seat's latest word ('Frap', 'Pass'), none before it speaks."""
    info = table.seats[seat]
    return ui.bid_word(lang, info.bid, info.level) if info.bid is not None else None


def _result(
    lang: str,
    ui: FamilyUI,
    table: TableView,
    played: TrickDeal,
    total: Callable[[int], str | None],
) -> s.Result:
    """How the deal went, then each seat's change with its reasons (the record's money events,
    as the chat's result says them), and what the pot carries."""
    names = [info.name for info in table.seats]
    head = render.headline(lang, ui, table, names)
    told = render.told_story(played.to_record())
    items = account.reasons(told[1], len(table.seats), told[0].p0) if told else None
    seats = []
    for info in table.seats:
        reasons = tuple(
            s.plain(account.reason_text(lang, ui, table, info.seat, item))
            for item in (items[info.seat] if items else [])
        )
        seats.append(
            s.ResultSeat(
                info.seat, info.name, signed(table.delta[info.seat]), reasons, total(info.seat)
            )
        )
    pot = ui.text(lang, "result.pot", pot=table.pot)
    if played.pot_has_penalty:
        pot += t(lang, "result.penalty_carries")
    return s.Result(s.plain(head), tuple(seats), s.plain(pot))
