"""Why chips moved in a deal, and the deal told as text: from the engine's money events
(ChipsMoved) replayed from the hand record, so the reasons always add up to the ledger."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Do
from engine.events import (
    AllPassed,
    BidMade,
    ChipsMoved,
    CutDecided,
    Event,
    Exchanged,
    Looked,
    Reason,
    TrickWon,
    TurnupTaken,
)
from engine.record import start, story
from engine.views import TableView, table_view
from locales import SEPARATOR, t

from ...format import card_label, name, short, signed
from ...view.screen import Said, said_html
from .words import FamilyWords


@dataclass(frozen=True, slots=True)
class Item:
    """One reason a seat's chips moved: `amount` in all, `count` times `each` (antes, tricks),
    or `times` the pot (a penalty, F14); `other` the player on the other side of a payment
    between two players (N5–N7)."""

    reason: Reason
    amount: int
    count: int = 1
    each: int = 0
    times: int = 0
    other: int | None = None


def reasons(
    steps: Sequence[tuple[Action | None, list[Event]]], n: int, p0: int
) -> list[list[Item]]:
    """Each seat's reasons, in the order they happened; their amounts add up to its change."""
    moves: list[list[ChipsMoved]] = [[] for _ in range(n)]
    for _, events in steps:
        for event in events:
            if isinstance(event, ChipsMoved) and event.amount:
                moves[event.seat].append(event)
    out: list[list[Item]] = []
    for seat_moves in moves:
        items: list[Item] = []
        for reason in Reason:
            mine = [m for m in seat_moves if m.reason is reason]
            if not mine:
                continue
            total = sum(m.amount for m in mine)
            if reason in (Reason.ANTE, Reason.ALL_PASS_ANTE):
                items.append(Item(reason, total, len(mine), mine[0].amount))
            elif reason is Reason.PENALTY:
                items += [Item(reason, m.amount, times=_times(m.amount, p0)) for m in mine]
            elif reason is Reason.STAKE:  # N5–N7: who paid whom, one item per other player
                items += _stakes(mine)
            else:
                items.append(Item(reason, total))
        out.append(items)
    return out


def odd_chips(steps: Sequence[tuple[Action | None, list[Event]]], table: TableView, p0: int) -> int:
    """F13: the chips of the pot `p0` left over when it was split into trick money (a trick
    is P0 // tricks, the remainder stays in the pot); 0 when no trick money was paid."""
    for _, events in steps:
        for event in events:
            if isinstance(event, ChipsMoved) and event.reason is Reason.TRICKS and event.amount:
                trick = event.amount // table.seats[event.seat].tricks
                return p0 - trick * sum(info.tricks for info in table.seats)
    return 0


def _times(amount: int, p0: int) -> int:
    """How many times the pot a penalty is (F14); 0 when it is no whole multiple of it (N5:
    a failed bid puts b·u into the treasure)."""
    return -amount // p0 if p0 and amount % p0 == 0 else 0


def _stakes(moves: Sequence[ChipsMoved]) -> list[Item]:
    """A seat's payments to and from each other player, one net item per counterpart."""
    net: dict[int, int] = {}
    for move in moves:
        assert move.other is not None
        net[move.other] = net.get(move.other, 0) + move.amount
    return [Item(Reason.STAKE, amount, other=other) for other, amount in net.items() if amount]


def reason_text(lang: str, ui: FamilyWords, table: TableView, seat: int, item: Item) -> Said:
    """One reason, e.g. 'ante −10', '2 tricks × 70 +140', 'penalty ×2 (two short) −280'."""
    amount = signed(item.amount)
    if item.reason is Reason.TRICKS:
        tricks = table.seats[seat].tricks
        each = item.amount // tricks if tricks else item.amount
        return ui.said(lang, "why.tricks", n=tricks, each=each, amount=amount)
    if item.reason is Reason.PENALTY:
        why = ui.penalty_why(lang, table, seat, item.times)
        return ui.said(lang, "why.penalty", times=item.times, why=why, amount=amount)
    if item.reason is Reason.STAKE and item.other is not None:  # N5–N7: name the other side
        who = short(table.seats[item.other].name)
        key = "why.stake_from" if item.amount > 0 else "why.stake_to"
        return ui.said(lang, key, name=who, amount=amount)
    if item.reason is Reason.ALL_PASS_ANTE and item.count > 1:  # F8: one ante a round
        return ui.said(lang, "why.all_pass_ante_n", n=item.count, each=-item.each, amount=amount)
    return ui.said(lang, f"why.{item.reason.value}", amount=amount)


def reason_lines(
    lang: str,
    ui: FamilyWords,
    table: TableView,
    names: Sequence[str],
    items: Sequence[Sequence[Item]],
) -> list[str]:
    """One line per seat: the change, then its reasons."""
    lines = []
    for seat, seat_items in enumerate(items):
        delta = signed(table.delta[seat])
        why = SEPARATOR.join(
            said_html(lang, reason_text(lang, ui, table, seat, item)) for item in seat_items
        )
        lines.append(f"<b>{name(names[seat])}</b> {delta}" + (f": {why}" if why else ""))
    return lines


def trick_log(
    lang: str,
    ui: FamilyWords,
    steps: Sequence[tuple[Action | None, list[Event]]],
    names: Sequence[str],
) -> list[str]:
    """Every trick of the deal, compactly: its cards in the order played and who took it."""
    return [
        _trick(lang, ui, event, jokers, names)
        for event, jokers in _walk(steps)
        if isinstance(event, TrickWon)
    ]


def _walk(
    steps: Sequence[tuple[Action | None, list[Event]]],
) -> Iterator[tuple[Event, tuple[bool, ...]]]:
    """Each event in order; a trick comes with which of its cards were played as the joker (SK2:
    the events name cards only, the actions say how the 7♠ was played)."""
    jokers: list[bool] = []
    for action, events in steps:
        if action is not None and action.do is Do.PLAY:
            jokers.append(bool(action.joker))
        for event in events:
            if isinstance(event, TrickWon):
                yield event, tuple(jokers)
                jokers = []
            else:
                yield event, ()


def _trick(
    lang: str, ui: FamilyWords, won: TrickWon, jokers: Sequence[bool], names: Sequence[str]
) -> str:
    cards = " ".join(ui.play_label(lang, c, j) for c, j in zip(won.cards, jokers, strict=True))
    return t(lang, "trick.log", k=won.number, cards=cards, name=name(names[won.seat]))


def deal_account(lang: str, ui: FamilyWords, record: dict[str, Any], deal_no: int) -> str | None:
    """A finished deal told as text for /history N: the turn-up, every word, the buying, every
    trick, and each player's money with its reasons; None if the record cannot be replayed."""
    try:
        deal, steps = story(record)
    except ValueError:
        return None
    table = table_view(deal)
    names = list(deal.players)
    lines = [t(lang, "account.title", game=ui.title(lang), deal_no=deal_no)]
    lines.append(ui.text(lang, "account.dealer", name=name(names[deal.dealer]), pot=deal.start_pot))
    first = start(record).turnup  # F4: the first turn-up (N1: Napoleon turns none up)
    if first is not None:
        lines.append(t(lang, "account.turnup", card=card_label(first, lang)))
    for event, jokers in _walk(steps):
        if isinstance(event, TrickWon):
            lines.append(_trick(lang, ui, event, jokers, names))
            continue
        line = _event_line(lang, ui, event, names)
        if line:
            lines.append(line)
    lines.append("")
    items = reasons(steps, deal.n, deal.p0)
    lines += reason_lines(lang, ui, table, names, items)
    lines.append(ui.text(lang, "result.pot", pot=table.pot))
    return "\n".join(lines)


def _event_line(lang: str, ui: FamilyWords, event: Event, names: Sequence[str]) -> str | None:
    if isinstance(event, BidMade):
        return f"{name(names[event.seat])}: {ui.bid_word(lang, event.bid, event.level)}"
    if isinstance(event, AllPassed):
        if event.new_turnup is None:
            return ui.text(
                lang,
                "account.all_passed_last",
                round=event.round,
                card=card_label(event.dead_turnup, lang),
            )
        dead, new = card_label(event.dead_turnup, lang), card_label(event.new_turnup, lang)
        return ui.text(lang, "account.all_passed", round=event.round, card=dead, new=new)
    if isinstance(event, Looked):
        return t(lang, "account.looked", name=name(names[event.seat]))
    if isinstance(event, TurnupTaken):
        return t(
            lang,
            "account.turnup_taken",
            name=name(names[event.seat]),
            card=card_label(event.card, lang),
        )
    if isinstance(event, Exchanged):
        who = name(names[event.seat])
        if event.drawn and event.discarded != event.drawn:  # a cutter drops more or fewer (F10)
            return t(lang, "account.swapped", name=who, d=event.discarded, n=event.drawn)
        if event.drawn:
            return t(lang, "account.exchanged", name=who, n=event.drawn)
        if event.discarded:
            return t(lang, "account.discarded", name=who, n=event.discarded)
        return t(lang, "account.kept", name=who)
    if isinstance(event, CutDecided) and event.cut:
        return t(lang, "account.cut", name=name(names[event.seat]))
    return None
