"""A Preferans pulya as one seat (or the group) sees it: the typed screen of bot/view/screen.py,
built only from what its `GameKind` gives one seat (the engine's seat view: the player's hand,
his discard and the talon he took as declarer, P5) or the group (the public view: the talon where
the table saw it, raspasy's turned card, the open hands of P7 and P9): the seats in table order
with their words, tricks and sheet figures, the contract and trump, the trick and the last one
with its taker (P8), the player's hand with his choices laid on its cards (or on the passer's
open hand that he plays, P7), the ladder of bids with those he may say, his other words as
facts (his chat message's keyboard is drawn from all these: `render.keyboard`), his question,
the last deal's result with its reasons, the sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.preferans.actions import PrefDo
from engine.preferans.bidding import LADDER, MISERE, level, strain
from engine.preferans.views import PrefSeatView, PrefTableView

from ... import callbacks
from ...format import short
from ...view import screen as s
from ..base import who
from . import render
from .codes import _toggled, action_code
from .ui import PreferansUI
from .words import WORDS

_BIDS = frozenset(LADDER) - {LADDER[MISERE]}  # the trick bids, 6♠ … 10NT

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
    *,
    closing: bool = False,
) -> s.ContractScreen | s.SheetScreen:
    """The pulya's deal in play as `seat` sees it; `seat` None: the public table; `closing`: the
    table closes, so no choice is left to him."""
    deal = match.deal
    public: PrefTableView | None = game.public_view(table)
    if deal is None or public is None:
        return s.SheetScreen(_sheet(match), _last(lang, match), match.finished)
    return build(
        ui,
        match,
        public,
        game.seat_view(table, seat) if seat is not None else None,
        lang,
        (table.row.table_id, table.row.deal_no, len(deal.actions)),
        table.play.selection.get(seat, ()) if seat is not None and table.play else (),
        lambda at, name: who(table, at, name, balances),
        closing=closing,
    )


def build(
    ui: PreferansUI,
    match: Match,
    public: PrefTableView,
    mine: PrefSeatView | None,
    lang: str,
    ids: tuple[int, int, int],
    chosen: Sequence[Card],
    facts: Callable[[int, str], tuple[int, str, bool, bool, str | None]],
    *,
    closing: bool = False,
) -> s.ContractScreen:
    """The deal's screen from the engine's views: `mine` (None: the public table's), the table's
    (id, deal number, step) its presses name, the seat's chosen discard, each seat's first
    fields (`who`); the sheet and the last result from `match`."""
    sheet = match.sheet
    presses: dict[Card, str] = {}
    acts: tuple[s.Act, ...] = ()
    ladder: tuple[s.Rung, ...] = ()
    question = None
    names = [info.name for info in public.seats]
    if mine is not None:
        if public.finished or closing:
            mine = replace(mine, legal=())
        if mine.legal and public.seats[mine.seat].role != "out":
            presses, acts = _choices(lang, mine, *ids, chosen)
            ladder = render.ladder(lang, mine, *ids)
            question = render.question(lang, mine, names, chosen)
    mover = public.controller if public.controller is not None else public.to_act
    playing = public.phase.value == "play" or public.finished
    return s.ContractScreen(
        sheet=_sheet(match),
        result=_last(lang, match),
        finished=match.finished,
        phase=str(public.phase.value),
        mover=mover,
        seats=tuple(
            s.OpenSeat(
                *facts(info.seat, info.name),
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
                open_hand=s.hand(info.open_hand, presses, lang) if info.open_hand else None,
                plays_from=info.seat == public.to_act and mover != public.to_act,
                calls=tuple(_call(lang, ui, said) for said in info.calls),
                role=info.role,
            )
            for info in public.seats
        ),
        trump=public.trump.symbol if public.trump is not None else None,
        contract=_contract(ui, lang, public),
        declarer=public.declarer,
        # P5: the talon the table saw lies by the declarer; raspasy's turned card in the middle
        talon=s.faces(public.talon, lang) if public.talon else None,
        raspasy=public.raspasy,
        trick=s.trick(public.trick, lang),
        last_trick=s.taken(
            public.last_trick, render.taker(public) if public.last_trick else None, lang
        ),
        hand=s.hand(mine.hand, presses, lang, chosen) if mine is not None else None,
        discards=s.faces(mine.discards, lang) if mine is not None else (),
        taken=s.faces(mine.taken, lang) if mine is not None else (),
        choices=acts,
        question=question,
        ladder=ladder,
        streak=public.streak,
        top_bid=_call(lang, ui, public.top_bid) if public.top_bid is not None else None,
        holder=public.holder,
    )


def _sheet(match: Match) -> s.Sheet:
    sheet = match.sheet
    return s.Sheet(
        deals=sheet.deals,
        pulya=tuple(sheet.pulya),
        gora=tuple(sheet.gora),
        whists=tuple(tuple(row) for row in sheet.whists),
        target=sheet.rules.target,
    )


def _last(lang: str, match: Match) -> s.Result | None:
    """The last deal written on the sheet."""
    sheet = match.sheet
    return _result(lang, sheet.lines[-1], match.names, sheet.deals) if sheet.lines else None


def _choices(
    lang: str,
    view: PrefSeatView,
    table_id: int,
    deal_no: int,
    step: int,
    selection: Sequence[Card],
) -> tuple[dict[Card, str], tuple[s.Act, ...]]:
    """The player's legal actions: the press of each card he may play (from his hand, or the
    passer's open hand in light play, P7) or mark for the discard (P5), and his words as facts
    (the bids and contracts are the ladder's)."""

    def press(code: str, kind: str = "a") -> str:
        return callbacks.encode(kind, table_id, deal_no, step, code)

    legal = view.legal
    if legal[0].do is PrefDo.DISCARD:
        # 66 pairs are too many choices: the cards are marked, then the pair confirmed. A
        # mark's code is the selection it leads to (as the host's toggle expects); a third card
        # replaces the earlier of the two chosen.
        marking = {c: press(_toggled(selection, c), "t") for c in view.hand}
        if len(selection) < 2:
            return marking, ()
        pair = frozenset(selection)
        chosen = next(a for a in legal if frozenset(a.cards or ()) == pair)
        label = WORDS.button_label(lang, chosen)
        return marking, (
            s.Act(chosen.do.value, label, press(action_code(chosen)), n=2, primary=True),
        )
    plays = {a.card: press(action_code(a)) for a in legal if a.card is not None}
    words = (a for a in legal if a.do not in (PrefDo.PLAY, PrefDo.BID, PrefDo.CONTRACT))
    return plays, tuple(
        s.Act(a.do.value, WORDS.button_label(lang, a), press(action_code(a))) for a in words
    )


def _word(lang: str, ui: PreferansUI, role: str | None, said: str | None) -> str | None:
    """The seat's role once the contract is set (declarer, whister…), else its latest word."""
    if role is not None:
        return WORDS.text(lang, f"role.{role}")
    return ui.said_label(lang, said) if said else None


def _call(lang: str, ui: PreferansUI, said: str) -> s.Call:
    """A word of the auction or the whisting, a bid with its level and strain (P4)."""
    if said in _BIDS:
        return s.Call("bid", ui.bid_label(lang, said), level(said), strain(said))
    return s.Call(said, ui.said_label(lang, said))


def _contract(ui: PreferansUI, lang: str, table: PrefTableView) -> str | None:
    """The contract; before the declarer names it, the bid that won him the talon (P5)."""
    if table.contract:
        return ui.bid_label(lang, table.contract)
    if table.declarer is not None and table.top_bid:
        return ui.bid_label(lang, table.top_bid)
    return None


def _result(lang: str, line: Line, names: Sequence[str], deal_no: int) -> s.Result:
    """The last deal: how it ended, what each player wrote and why, P15's overflow moves."""
    shown = [short(name) for name in names]
    head = render.result_head(lang, line.outcome, shown, deal_no)
    seats = tuple(
        s.ResultSeat(seat, name, None, tuple(render.seat_reasons(lang, line, seat, shown)), None)
        for seat, name in enumerate(names)
    )
    moves = render.overflow_lines(lang, line, shown)
    return s.Result(head, seats, s.joined(lang, "\n", *moves) if moves else None)
