"""The Mini App's view of a Preferans table (issue 24): built only from the engine's seat view (the
player's hand, his discard and the talon he took as declarer, P5) or its public table view (the
talon where the table saw it, raspasy's turned card, the open hands of P7 and P9), with the chat
control message's own buttons (`preferans.hand_message`), the last deal's result and the sheet."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.preferans.views import PrefSeatView, seat_view, table_view

from ..format import signed
from ..web import kit
from . import preferans as pref
from .preferans_service import pulya

if TYPE_CHECKING:
    from ..service import Live
    from ..storage import ChatRow


def view(
    table: Live, seat: int | None, lang: str, chat: ChatRow, balances: Mapping[int, int]
) -> dict[str, Any] | None:
    """The pulya's deal in play as `seat` sees it; `seat` None: the public table."""
    match = pulya(table)
    sheet = match.sheet
    figures = {
        "deals": sheet.deals,
        "pulya": list(sheet.pulya),
        "gora": list(sheet.gora),
        "whists": [list(row) for row in sheet.whists],
        "target": sheet.rules.target,
    }
    last = sheet.lines[-1] if sheet.lines else None
    result = pref.result_lines(lang, last, match.names, sheet.deals) if last else None
    out: dict[str, Any] = {
        "sheet": figures,
        "result": kit.plain("\n".join(result)) if result else None,
        "finished": match.finished,
    }
    deal = match.deal
    if deal is None:
        return out
    public = table_view(deal)
    mine: PrefSeatView | None = None
    control = None
    chosen = table.selection.get(seat, ()) if seat is not None else ()
    if seat is not None:
        mine = seat_view(deal, seat)
        if deal.finished:
            mine = replace(mine, legal=())
        control = pref.hand_message(
            lang, mine, table.row.table_id, table.row.deal_no, len(deal.actions), chat.title,
            chosen, end=match if match.finished else None,
        )  # fmt: skip
    buttons = kit.buttons(control)
    hand = kit.attach(mine.hand, buttons, lang, chosen) if mine is not None else None
    names = [info.name for info in public.seats]
    out |= {
        "seats": [
            {
                "name": info.name,
                "cards": info.cards,
                "tricks": info.tricks,
                "word": pref.UI.said_label(lang, info.said) if info.said else None,
                "dealer": info.seat == public.dealer,
                "to_act": info.seat == public.controller,
                "pulya": sheet.pulya[info.seat],
                "gora": sheet.gora[info.seat],
                "chips": _chips(balances, table.deal_seats[info.seat]),
                "you": info.seat == seat,
                # P7, P9: a hand laid open; in light play the whister taps the passer's cards
                "open_hand": kit.attach(info.open_hand, buttons, lang)
                if info.open_hand is not None
                else None,
            }
            for info in public.seats
        ],
        "trump": public.trump.symbol if public.trump is not None else None,
        "contract": pref.UI.bid_label(lang, public.contract) if public.contract else None,
        "talon": kit.cards(public.talon, lang) if public.talon is not None else None,
        "raspasy": public.raspasy,
        "phase": str(public.phase.value),
        "trick": kit.plays(public.trick, lang),
        "last_trick": kit.plays(public.last_trick, lang),
        "hand": hand,
        "discards": kit.cards(mine.discards, lang) if mine is not None else [],
        "buttons": buttons,
        "table_text": kit.plain(
            pref.table_message(lang, public, table.row.deal_no, sheet.rules.target)
        ),
        "private_text": kit.plain(control),
        "names": names,
    }
    return out


async def sheet(table: Live, lang: str) -> bytes | None:
    """The pulya sheet's PNG, as the group's photo shows it (drawn off the event loop)."""
    if table.match is None:
        return None
    png, _caption = await asyncio.to_thread(pref.sheet_photo, lang, pulya(table))
    return png


def _chips(balances: Mapping[int, int], user_id: int) -> str | None:
    """A player's chips in the chat, signed with the minus sign ('−10'), if he has any record."""
    return signed(balances[user_id]) if user_id in balances else None
