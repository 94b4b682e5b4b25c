"""A Preferans pulya as one seat (or the group) sees it: the typed screen of bot/view/screen.py,
built only from what its `GameKind` gives one seat (the engine's seat view: the player's hand,
his discard and the talon he took as declarer, P5) or the group (the public view: the talon where
the table saw it, raspasy's turned card, the open hands of P7 and P9): the seats in table order
with their words, tricks and sheet figures, the contract and trump, the trick and the last one
with its taker (P8), the player's hand with his choices laid on its cards (or on the passer's
open hand that he plays, P7; the choices his chat message shows: `render.hand_choices`), his
question, the last deal's result with its reasons, the sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.preferans.views import PrefSeatView, PrefTableView

from ...view import screen as s
from ...view.message import Choice
from ..base import who
from . import render
from .ui import PreferansUI
from .words import WORDS

if TYPE_CHECKING:
    from engine.preferans.match import Match
    from engine.preferans.pulya import Line

    from ...table.live import OpenTable
    from ..base import GameKind


def screen(
    game: GameKind,
    ui: PreferansUI,
    match: Match,
    table: OpenTable,
    seat: int | None,
    lang: str,
    balances: Mapping[int, int],
) -> s.ContractScreen | s.SheetScreen:
    """The pulya's deal in play as `seat` sees it; `seat` None: the public table."""
    sheet = match.sheet
    figures = s.Sheet(
        deals=sheet.deals,
        pulya=tuple(sheet.pulya),
        gora=tuple(sheet.gora),
        whists=tuple(tuple(row) for row in sheet.whists),
        target=sheet.rules.target,
    )
    last = sheet.lines[-1] if sheet.lines else None
    result = _result(lang, last, match.names, sheet.deals) if last else None
    deal = match.deal
    public: PrefTableView | None = game.public_view(table)
    if deal is None or public is None:
        return s.SheetScreen(figures, result, match.finished)
    mine: PrefSeatView | None = None
    rows: list[list[Choice]] = []
    ladder: tuple[s.Rung, ...] = ()
    question = None
    chosen = table.selection.get(seat, ()) if seat is not None else ()
    names = [info.name for info in public.seats]
    if seat is not None:
        mine = game.seat_view(table, seat)
        assert mine is not None
        if deal.finished:
            mine = replace(mine, legal=())
        if mine.legal and public.seats[seat].role != "out":
            at = (table.row.table_id, table.row.deal_no, len(deal.actions))
            rows = render.hand_choices(lang, mine, *at, chosen)
            ladder = render.ladder(lang, mine, *at)
            question = s.plain(render.question(lang, mine, names, chosen))
    on_cards, words = s.split(rows)
    on_ladder = {rung.press for rung in ladder}
    words = tuple(w for w in words if w.press not in on_ladder)  # the ladder holds them
    mover = public.controller if public.controller is not None else public.to_act
    playing = public.phase.value == "play" or public.finished
    return s.ContractScreen(
        sheet=figures,
        result=result,
        finished=match.finished,
        phase=str(public.phase.value),
        mover=mover,
        seats=tuple(
            s.OpenSeat(
                *who(table, info.seat, info.name, balances),
                cards=info.cards,
                tricks=info.tricks if playing and info.role != "out" else None,
                word=_word(lang, ui, info.role and render.role_word(public, info.role), info.said),
                dealer=info.seat == public.dealer,
                out=info.role == "out",  # P1: the dealer of four
                figures=(
                    s.Figure("pulya", sheet.pulya[info.seat]),
                    s.Figure("gora", sheet.gora[info.seat]),
                    s.Figure("whists", sum(sheet.whists[info.seat])),
                ),
                # P7, P9: a hand laid open; in light play the whister taps the passer's cards
                open_hand=s.hand(info.open_hand, on_cards, lang) if info.open_hand else None,
                plays_from=info.seat == public.to_act and mover != public.to_act,
            )
            for info in public.seats
        ),
        trump=None,  # the contract names it (6♠, 6 no trumps)
        contract=_contract(ui, lang, public),
        declarer=public.declarer,
        # P5: the talon the table saw lies by the declarer; raspasy's turned card in the middle
        talon=s.faces(public.talon, lang) if public.talon else None,
        raspasy=public.raspasy,
        trick=s.trick(public.trick, lang),
        last_trick=s.taken(
            public.last_trick, render.taker(public) if public.last_trick else None, lang
        ),
        hand=s.hand(mine.hand, on_cards, lang, chosen) if mine is not None else None,
        discards=s.faces(mine.discards, lang) if mine is not None else (),
        choices=words,
        question=question,
        ladder=ladder,
    )


def _word(lang: str, ui: PreferansUI, role: str | None, said: str | None) -> str | None:
    """The seat's role once the contract is set (declarer, whister…), else its latest word."""
    if role is not None:
        return WORDS.text(lang, f"role.{role}")
    return ui.said_label(lang, said) if said else None


def _contract(ui: PreferansUI, lang: str, table: PrefTableView) -> str | None:
    """The contract; before the declarer names it, the bid that won him the talon (P5)."""
    if table.contract:
        return ui.bid_label(lang, table.contract)
    if table.declarer is not None and table.top_bid:
        return ui.bid_label(lang, table.top_bid)
    return None


def _result(lang: str, line: Line, names: Sequence[str], deal_no: int) -> s.Result:
    """The last deal: how it ended, what each player wrote and why, P15's overflow moves."""
    head = render.result_head(lang, line.outcome, names, deal_no)
    seats = tuple(
        s.ResultSeat(
            seat,
            name,
            None,
            tuple(s.plain(r) for r in render.seat_reasons(lang, line, seat, names)),
            None,
        )
        for seat, name in enumerate(names)
    )
    foot = "\n".join(render.overflow_lines(lang, line, names)) or None
    return s.Result(s.plain(head), seats, s.plain(foot))
