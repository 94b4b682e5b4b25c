"""The Mini App's view of a Frap-family table (issue 24): built only from the engine's seat view
(the seated player's hand once opened, F7, and his legal actions) or its public table view, with
the chat control message's own buttons (`render.hand_message`) and the group's texts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.views import SeatView, seat_view, table_view

from .. import render
from ..format import signed
from ..web import kit

if TYPE_CHECKING:
    from ..service import Live
    from ..storage import ChatRow
    from .base import GameUI


def view(
    ui: GameUI,
    table: Live,
    seat: int | None,
    lang: str,
    chat: ChatRow,
    balances: Mapping[int, int],
    bot_username: str,
) -> dict[str, Any] | None:
    """The deal in play (or just finished) as `seat` sees it; `seat` None: the public table."""
    deal = table.deal
    if deal is None:
        return None
    public = table_view(deal)
    names = list(deal.players)
    practice = chat.chat_id > 0
    mine: SeatView | None = None
    control = None
    if seat is not None:
        mine = seat_view(deal, seat)
        if deal.finished:
            mine = replace(mine, legal=())
        control = render.hand_message(
            lang, mine, names, table.row.table_id, table.row.deal_no, table.step, chat.title,
            table.selection.get(seat, ()), beside_table=practice,
        )  # fmt: skip
    chosen = table.selection.get(seat, ()) if seat is not None else ()
    buttons = kit.buttons(control)
    hand = kit.attach(mine.hand, buttons, lang, chosen) if mine and mine.hand is not None else None
    group = render.table_message(
        lang, public, names, table.row.deal_no, deal.redeal, bot_username, private=True
    )
    result = None
    if deal.finished:
        by_seat = {s: balances.get(uid, 0) for s, uid in enumerate(table.deal_seats)}
        result = render.result_message(
            lang, public, names, table.row.deal_no, by_seat, table.row.table_id,
            pot_has_penalty=deal.pot_has_penalty, offer_next=False, record=deal.to_record(),
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
