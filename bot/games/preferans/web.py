"""The Mini App's view of a Preferans table: built only from what its `TableGame` gives
one seat (the engine's seat view: the player's hand, his discard and the talon he took as
declarer, P5) or the group (the public view: the talon where the table saw it, raspasy's turned
card, the open hands of P7 and P9), with the chat control message's own buttons
(`render.hand_message`), the last deal's result and the sheet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.preferans.views import PrefSeatView, PrefTableView

from ...format import signed
from ...web import kit
from . import render
from .ui import PreferansUI

if TYPE_CHECKING:
    from engine.preferans.match import Match

    from ...storage import ChatRow
    from ...table.live import Live
    from ..base import TableGame


def view(
    game: TableGame,
    ui: PreferansUI,
    match: Match,
    table: Live,
    seat: int | None,
    lang: str,
    chat: ChatRow,
    balances: Mapping[int, int],
) -> dict[str, Any] | None:
    """The pulya's deal in play as `seat` sees it; `seat` None: the public table."""
    sheet = match.sheet
    figures = {
        "deals": sheet.deals,
        "pulya": list(sheet.pulya),
        "gora": list(sheet.gora),
        "whists": [list(row) for row in sheet.whists],
        "target": sheet.rules.target,
    }
    last = sheet.lines[-1] if sheet.lines else None
    result = render.result_lines(lang, last, match.names, sheet.deals) if last else None
    out: dict[str, Any] = {
        "sheet": figures,
        "result": kit.plain("\n".join(result)) if result else None,
        "finished": match.finished,
    }
    deal = match.deal
    public: PrefTableView | None = game.public_view(table)
    if deal is None or public is None:
        return out
    mine: PrefSeatView | None = None
    control = None
    chosen = table.selection.get(seat, ()) if seat is not None else ()
    if seat is not None:
        mine = game.seat_view(table, seat)
        assert mine is not None
        if deal.finished:
            mine = replace(mine, legal=())
        control = render.hand_message(
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
                "word": ui.said_label(lang, info.said) if info.said else None,
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
        "contract": ui.bid_label(lang, public.contract) if public.contract else None,
        "talon": kit.cards(public.talon, lang) if public.talon is not None else None,
        "raspasy": public.raspasy,
        "phase": str(public.phase.value),
        "trick": kit.plays(public.trick, lang),
        "last_trick": kit.plays(public.last_trick, lang),
        "hand": hand,
        "discards": kit.cards(mine.discards, lang) if mine is not None else [],
        "buttons": buttons,
        "table_text": kit.plain(
            render.table_message(lang, public, table.row.deal_no, sheet.rules.target)
        ),
        "private_text": kit.plain(control),
        "names": names,
    }
    return out


def _chips(balances: Mapping[int, int], user_id: int) -> str | None:
    """A player's chips in the chat, signed with the minus sign ('−10'), if he has any record."""
    return signed(balances[user_id]) if user_id in balances else None
