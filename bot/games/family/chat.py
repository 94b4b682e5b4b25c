"""How the chat draws a Frap-family table's messages (a `ChatDrawing` of `base.py`): the group's
table message and each player's control message from the deal's screens, the table's notes (a
time-out, who sits the deal out, F15's bankroll) from its seating, and a deal's result with its
account and the review's links."""

from __future__ import annotations

from collections.abc import Mapping

from engine.views import table_view
from locales import t

from ...format import name
from ...storage import ChatRow
from ...table import seating
from ...table.live import OpenTable
from ...view import review
from ...view.message import Rendered
from ...view.screen import PotScreen
from ..base import DealShown, NoSheet, ResultShown
from . import render
from .table import played_deal
from .ui import FamilyUI


class FamilyChat(NoSheet):
    """The chat's drawing of one game of the family's tables."""

    def __init__(self, ui: FamilyUI, bot_username: str) -> None:
        self.ui = ui
        self.bot_username = bot_username

    def table_message(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, seen: PotScreen
    ) -> Rendered:
        return render.table_message(
            chat.lang,
            self.ui,
            seen,
            shown.deal_no,
            played_deal(live).redeal,
            self.bot_username,
            note=_note(chat.lang, live),
            closed=shown.closing,
            private=seating.practice(chat.chat_id),
        )

    def hand_message(
        self,
        live: OpenTable,
        chat: ChatRow,
        shown: DealShown,
        seen: PotScreen,
        seat: int,
        lang: str,
    ) -> Rendered:
        return render.hand_message(
            lang,
            self.ui,
            seen,
            seat,
            shown.deal_no,
            chat.title,
            closed=shown.closing,
            beside_table=seating.practice(chat.chat_id),  # the table is in the same chat
        )

    async def result_message(
        self, live: OpenTable, chat: ChatRow, shown: ResultShown, balances: Mapping[int, int]
    ) -> Rendered:
        played = played_deal(live)
        by_seat = {seat: balances.get(uid, 0) for seat, uid in enumerate(live.deal_seats)}
        record = played.to_record()
        content = render.result_message(
            chat.lang,
            self.ui,
            table_view(played),
            list(played.players),
            shown.deal_no,
            by_seat,
            live.row.table_id,
            pot_has_penalty=played.pot_has_penalty,
            offer_next=shown.offer_next,
            record=record,
        )
        if played.finished and live.deal_id is not None:
            show = review.shows_hands(chat)
            content = review.at_the_end(content, chat.lang, record, live.deal_id, show)
        return content


def _note(lang: str, live: OpenTable) -> str | None:
    """The table's notes: a player's time ran out; who was not dealt in, and how to come back;
    F15: who the bankroll left out."""
    lines = []
    note = live.play.note if live.play is not None else None
    if note is not None:
        key, who = note
        lines.append(t(lang, key, name=name(who)))
    out = [
        live.users[uid].name
        for uid in live.sitting_out
        if uid in live.users and uid not in live.short
    ]
    if out:
        lines.append(t(lang, "seat.sitting_out", names=", ".join(map(name, out))))
    short = [live.users[uid].name for uid in live.short if uid in live.users]
    if short:
        lines.append(t(lang, "bankroll.sitting_out", names=", ".join(map(name, short))))
    return "\n".join(lines) or None
