"""The Mini App's view of a Frap-family table: data, not a chat message. Built only
from what its `TableGame` gives one seat (the engine's seat view: his hand once opened, F7, and
his legal actions) or the group (the public table view): the seats in table order with their
words and figures, the trick and the last one, trump, turn-up, pot and stakes, the player's hand
with his choices laid on its cards, his question, the result with its reasons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.deal import TrickDeal
from engine.views import SeatView, TableView
from locales import t

from ...format import signed
from ...web import kit
from ..base import web_seat
from . import account, render

if TYPE_CHECKING:
    from ...storage import ChatRow
    from ...table.live import Live
    from ..base import TableGame
    from .ui import FamilyUI


def view(
    game: TableGame,
    ui: FamilyUI,
    played: TrickDeal,
    table: Live,
    seat: int | None,
    lang: str,
    chat: ChatRow,
    balances: Mapping[int, int],
    bot_username: str,
) -> dict[str, Any] | None:
    """The deal in play (or just finished) as `seat` sees it; `seat` None: the public table."""
    public: TableView | None = game.public_view(table)
    if public is None:
        return None
    mine: SeatView | None = None
    rows: list[Any] = []
    question = None
    chosen = table.selection.get(seat, ()) if seat is not None else ()
    if seat is not None:
        mine = game.seat_view(table, seat)
        assert mine is not None
        if played.finished:
            mine = replace(mine, legal=())
        rows = render.hand_choices(
            lang, ui, mine, table.row.table_id, table.row.deal_no, table.step, chosen
        )
        question = kit.line(render.question(lang, ui, mine))
    on_cards, words = kit.split(rows)
    playing = public.phase == "play" or public.tricks_played or public.finished
    return {
        "phase": str(public.phase.value),
        "mover": public.to_act,
        "seats": [
            {
                **web_seat(table, info.seat, info.name, balances),
                "cards": info.cards,
                "tricks": info.tricks if playing and info.role in render.PLAYING_ROLES else None,
                "word": _word(lang, ui, public, info.seat),
                "dealer": info.seat == public.dealer,
                "out": False,
                "figures": [],
            }
            for info in public.seats
        ],
        "trump": public.trump.symbol if public.trump_named else None,
        "turnup": kit.card(public.turnup, lang) if public.turnup is not None else None,
        "pot": public.pot,
        "pot_text": kit.line(ui.text(lang, "table.pot", pot=public.pot)),  # N1: "Treasure: 50"
        "stock": public.stock,
        "stakes": kit.line(ui.stakes(lang, public)),
        "trick": kit.trick(public.trick, lang),
        "last_trick": kit.laid(public.last_trick, public.last_winner, lang),
        "hand": kit.hand(mine.hand, on_cards, lang, chosen) if mine and mine.hand else None,
        "hidden": mine.table.seats[mine.seat].cards if mine and mine.hand is None else 0,  # F7
        "choices": words,
        "question": question,
        "result": _result(lang, ui, public, played, table, balances) if played.finished else None,
        "finished": public.finished,
    }


def _word(lang: str, ui: FamilyUI, table: TableView, seat: int) -> str | None:
    """The seat's latest word ('Frap', 'Pass'), none before it speaks."""
    info = table.seats[seat]
    return ui.bid_word(lang, info.bid, info.level) if info.bid is not None else None


def _result(
    lang: str,
    ui: FamilyUI,
    table: TableView,
    played: TrickDeal,
    live: Live,
    balances: Mapping[int, int],
) -> dict[str, Any]:
    """How the deal went, then each seat's change with its reasons (the record's money events,
    as the chat's result says them), and what the pot carries."""
    names = [info.name for info in table.seats]
    head = render.headline(lang, ui, table, names)
    told = render.told_story(played.to_record())
    items = account.reasons(told[1], len(table.seats), told[0].p0) if told else None
    seats = []
    for info in table.seats:
        reasons = [
            kit.line(account.reason_text(lang, ui, table, info.seat, item))
            for item in (items[info.seat] if items else [])
        ]
        uid = live.deal_seats[info.seat]
        seats.append(
            {
                "seat": info.seat,
                "name": info.name,
                "delta": signed(table.delta[info.seat]),
                "reasons": reasons,
                "total": signed(balances[uid]) if uid in balances else None,
            }
        )
    pot = ui.text(lang, "result.pot", pot=table.pot)
    if played.pot_has_penalty:
        pot += t(lang, "result.penalty_carries")
    return {"head": kit.line(head), "seats": seats, "foot": kit.line(pot)}
