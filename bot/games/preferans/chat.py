"""How the chat draws a Preferans table's messages (a `ChatDrawing` of `base.py`): the group's
table message and each player's control message from the deal's screens, a deal's result as
the pulya writes it with the review's links, and the sheet's photo."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from engine.preferans.match import Match
from locales import t

from ...format import name
from ...storage import ChatRow
from ...table.live import OpenTable
from ...view import review
from ...view.message import Rendered
from ...view.screen import ContractScreen
from ..base import DealShown, ResultShown
from . import render
from .sheet import sheet_photo
from .table import Written, pulya
from .ui import PreferansUI


class PulyaChat:
    """The chat's drawing of Preferans tables."""

    def __init__(self, ui: PreferansUI, bot_username: str) -> None:
        self.ui = ui

    def table_message(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, seen: ContractScreen
    ) -> Rendered:
        """The deal's message, with the table's note (a player's time ran out) while it is
        played."""
        note, said = None, live.play.note if live.play is not None else None
        if said is not None and seen.phase != "finished":
            key, whose = said
            note = t(chat.lang, key, name=name(whose))
        target = seen.sheet.target
        return render.table_message(
            chat.lang, seen, shown.deal_no, target, note=note, voided=shown.closing
        )

    def hand_message(
        self,
        live: OpenTable,
        chat: ChatRow,
        shown: DealShown,
        seen: ContractScreen,
        seat: int,
        lang: str,
    ) -> Rendered:
        """His message; once the pulya is over, with his settlement (P16)."""
        match = pulya(live)
        return render.hand_message(
            lang, seen, seat, shown.deal_no, chat.title, voided=shown.closing,
            end=match if match.finished else None,
        )  # fmt: skip

    async def result_message(
        self, live: OpenTable, chat: ChatRow, shown: ResultShown, balances: Mapping[int, int]
    ) -> Rendered:
        """The deal's line of the sheet (the pulya's settlement at its end, P16), and for a
        deal played out the review's links."""
        assert isinstance(shown.about, Written)
        written = shown.about
        content = render.result_message(chat.lang, written.line, written.match)
        if written.record is None or live.deal_id is None:
            return content
        show = review.shows_hands(chat)
        return review.at_the_end(content, chat.lang, written.record, live.deal_id, show)

    async def sheet_message(self, live: OpenTable, chat: ChatRow) -> Rendered | None:
        """The sheet's one photo."""
        return await self.final_sheet_message(chat, pulya(live))

    async def final_sheet_message(self, chat: ChatRow, final: object) -> Rendered | None:
        """A pulya's sheet as a photo (drawn off the event loop: tens of milliseconds)."""
        assert isinstance(final, Match)
        png, caption = await asyncio.to_thread(sheet_photo, chat.lang, final)
        return Rendered(caption, photo=png)

    def standing(self, live: OpenTable, lang: str) -> str | None:
        """/balance and /top while the pulya is written: chips move when it closes (P14, P16);
        the settlement of the sheet as it stands, were it closed now (P14's top-up)."""
        match = pulya(live)
        return None if match.finished else render.standing_text(lang, match)
