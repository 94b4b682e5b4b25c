"""A Frap-family deal as one seat (or the group) sees it: the typed screen of bot/view/screen.py,
built only from what its `GameKind` gives one seat (the engine's seat view: his hand once
opened, F7, and his legal actions) or the group (the public table view): the seats in table
order with their words and figures, the trick and the last one, trump, turn-up, pot and stakes,
the player's hand with the press of each card he may play or mark, his other choices as facts
(his chat message's keyboard is drawn from them: `render.keyboard`), his question, the result
with its reasons."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.actions import Action, Do
from engine.cards import Card
from engine.deal import TrickDeal
from engine.views import SeatView, TableView
from locales import t

from ... import callbacks
from ...format import signed
from ...view import screen as s
from ..base import who
from . import account, codes, render

# the roles whose tricks count, shown once play is under way
PLAYING_ROLES = ("declarer", "whister", "cutter", "helper", "taker", "opponent")

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
) -> s.PotScreen | None:
    """The deal in play (or just finished) as `seat` sees it; `seat` None: the public table;
    `closing`: the table closes, so no choice is left to him."""
    public: TableView | None = game.public_view(table)
    if public is None:
        return None
    mine: SeatView | None = game.seat_view(table, seat) if seat is not None else None

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
        table.play.selection.get(seat, ()) if seat is not None and table.play else (),
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
    presses: dict[Card, str] = {}
    acts: tuple[s.Act, ...] = ()
    question = None
    if mine is not None:
        if played.finished or closing:
            mine = replace(mine, legal=())
        presses, acts = _choices(lang, ui, mine, *ids, chosen)
        question = render.question(lang, ui, mine)
    playing = public.phase == "play" or public.tricks_played or public.finished
    return s.PotScreen(
        phase=str(public.phase.value),
        mover=public.to_act,
        seats=tuple(
            s.Seat(
                *facts(info.seat, info.name),
                cards=info.cards,
                tricks=info.tricks if playing and info.role in PLAYING_ROLES else None,
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
        pot_text=ui.said(lang, "table.pot", pot=public.pot),
        stock=public.stock,
        stakes=ui.stakes(lang, public),
        trick=s.trick(public.trick, lang),
        last_trick=s.taken(public.last_trick, public.last_winner, lang),
        hand=s.hand(mine.hand, presses, lang, chosen) if mine and mine.hand else None,
        hidden=mine.table.seats[mine.seat].cards if mine and mine.hand is None else 0,  # F7
        tricks_played=public.tricks_played,
        rounds=(
            (public.round, public.max_rounds)
            if public.phase == "bidding" and public.max_rounds > 1
            else None
        ),
        passed=tuple(ui.all_passed(lang, public)) if public.phase == "bidding" else (),
        dead=s.faces(public.dead_turnups, lang) if public.phase == "bidding" else (),
        choices=acts,
        question=question,
        result=_result(lang, ui, public, played, total) if played.finished else None,
        finished=public.finished,
    )


def _choices(
    lang: str,
    ui: FamilyUI,
    view: SeatView,
    table_id: int,
    deal_no: int,
    step: int,
    selection: Sequence[Card],
) -> tuple[dict[Card, str], tuple[s.Act, ...]]:
    """The player's legal actions: the press of each card of his hand he may play (or mark for
    the discard, F9), and his other choices as facts."""
    table = view.table

    def press(code: str, kind: str = "a", at: int = step) -> str:
        return callbacks.encode(kind, table_id, deal_no, at, code)

    acts: list[s.Act] = []
    if any(a.do is Do.LOOK for a in view.legal):
        # F7: looking does not depend on the position, so its press names no step and stays
        # the same (and valid) while others move
        acts.append(
            s.Act(Do.LOOK.value, t(lang, "btn.look"), press(codes.LOOK, at=callbacks.ANY_STEP))
        )
    turn = [a for a in view.legal if a.do is not Do.LOOK]
    if any(a.do is Do.DISCARD for a in turn):  # F9: cards marked, then the discard confirmed
        assert view.hand is not None
        most = max(len(a.cards or ()) for a in turn if a.do is Do.DISCARD)
        marking = {}
        for card in view.hand:
            kept = [c for c in selection if c != card]
            chosen = kept if card in selection else [*selection, card]
            if len(chosen) <= most:
                marking[card] = press(callbacks.cards_code(chosen), "t")
        n = len(selection)
        label = t(lang, "btn.exchange", n=n) if n else t(lang, "btn.keep_all")
        confirm = press("b" + callbacks.cards_code(list(selection)))
        return marking, (*acts, s.Act(Do.DISCARD.value, label, confirm, n=n, primary=True))
    on_cards = {}
    for a in turn:
        if a.card is not None and a.joker is None:  # a card of his hand
            on_cards[a.card] = press(ui.codes.action_code(a))
        else:
            acts.append(_act(lang, ui, a, table.turnup, press(ui.codes.action_code(a))))
    return on_cards, tuple(acts)


def _act(lang: str, ui: FamilyUI, action: Action, turnup: Card | None, press: str) -> s.Act:
    """A choice that names no card of the hand, with its facts: the 7♠ played as the joker or
    not (SK2), a cutter's new hand (F10), a bid's tricks (N2)."""
    label = ui.action_label(lang, action, turnup)
    if action.joker is not None:
        assert action.card is not None
        return s.Act(action.do.value, label, press, card=str(action.card), joker=action.joker)
    if action.do is Do.CUT:
        hand = ui.deal.HAND_SIZE
        if action.turnup:
            assert turnup is not None
            return s.Act(action.do.value, label, press, n=hand, card=str(turnup))
        return s.Act(action.do.value, label, press, n=hand + 1)
    return s.Act(action.do.value, label, press, level=action.tricks)


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
            account.reason_text(lang, ui, table, info.seat, item)
            for item in (items[info.seat] if items else [])
        )
        seats.append(
            s.ResultSeat(
                info.seat, info.name, signed(table.delta[info.seat]), reasons, total(info.seat)
            )
        )
    pot = ui.said(lang, "result.pot", pot=table.pot)
    if played.pot_has_penalty:
        pot = s.joined(lang, "", pot, s.said(lang, "result.penalty_carries"))
    return s.Result(head, tuple(seats), pot)
