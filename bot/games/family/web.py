"""The Mini App's view of a Frap-family table: built only from what its `TableGame`
gives one seat (the engine's seat view: his hand once opened, F7, and his legal actions) or the
group (the public table view), with the chat control message's own buttons (`hand_message`)
and the group's texts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.deal import TrickDeal
from engine.views import SeatView, TableView

from ...format import signed
from ...table import seating
from ...web import kit
from . import render

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
    names = list(played.players)
    mine: SeatView | None = None
    control = None
    chosen = table.selection.get(seat, ()) if seat is not None else ()
    if seat is not None:
        mine = game.seat_view(table, seat)
        assert mine is not None
        if played.finished:
            mine = replace(mine, legal=())
        control = render.hand_message(
            lang, ui, mine, names, table.row.table_id, table.row.deal_no, table.step, chat.title,
            chosen, beside_table=seating.practice(chat.chat_id),
        )  # fmt: skip
    buttons = kit.buttons(control)
    hand = kit.attach(mine.hand, buttons, lang, chosen) if mine and mine.hand is not None else None
    group = render.table_message(
        lang, ui, public, names, table.row.deal_no, played.redeal, bot_username, private=True
    )
    result = None
    if played.finished:
        by_seat = {s: balances.get(uid, 0) for s, uid in enumerate(table.deal_seats)}
        result = render.result_message(
            lang, ui, public, names, table.row.deal_no, by_seat, table.row.table_id,
            pot_has_penalty=played.pot_has_penalty, offer_next=False, record=played.to_record(),
        )  # fmt: skip
    return {
        "seats": [
            {
                "name": info.name,
                "cards": info.cards,
                "tricks": info.tricks,
                "word": ui.bid_word(lang, info.bid, info.level) if info.bid else None,
                "dealer": info.seat == public.dealer,
                "to_act": info.seat == public.to_act,
                "chips": _chips(balances, table.deal_seats[info.seat]),
                "you": info.seat == seat,
            }
            for info in public.seats
        ],
        "trump": public.trump.symbol if public.trump_named else None,
        "turnup": kit.card(public.turnup, lang) if public.turnup is not None else None,
        "pot": public.pot,
        "stakes": kit.plain(ui.stakes(lang, public)),
        "phase": str(public.phase.value),
        "trick": kit.plays(public.trick, lang),
        "last_trick": kit.plays(public.last_trick, lang),
        "last_winner": public.last_winner,
        "hand": hand,
        "hidden": mine is not None and mine.hand is None,  # F7: not opened yet
        "buttons": buttons,
        "table_text": kit.plain(group),
        "private_text": kit.plain(control),
        "result": kit.plain(result),
        "finished": public.finished,
    }


def _chips(balances: Mapping[int, int], user_id: int) -> str | None:
    """A player's chips in the chat, signed with the minus sign ('−10'), if he has any record."""
    return signed(balances[user_id]) if user_id in balances else None
