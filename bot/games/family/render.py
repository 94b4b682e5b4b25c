"""The Frap family's messages (F1-F15, K, SK, N): the group's table, a player's control message
and a deal's result, as HTML text and inline keyboards, in the words of the table's game (`ui`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from engine.actions import Action, Do
from engine.cards import Card
from engine.deal import TrickDeal
from engine.errors import ReplayError
from engine.events import Event
from engine.record import story
from engine.views import SeatView, TableView
from locales import SEPARATOR, t

from ...format import name, short, signed
from ...view.message import Choice, Link, Rendered, deep_link, next_deal_choice
from ...view.message import fit as _fit
from ...view.screen import (
    Played,
    PotScreen,
    Said,
    act_button,
    card_button,
    in_rows,
    said,
    said_html,
)
from . import account
from .words import FamilyWords

# ---- the deal ------------------------------------------------------------------------------------


def _seen_trick(lang: str, ui: FamilyWords, seen: PotScreen) -> str | None:
    """The trick on the table; before the next is led (and after the deciding one) the last
    trick with who took it; None before play."""

    def line(plays: Sequence[Played]) -> str:
        return SEPARATOR.join(
            f"{ui.play_label(lang, Card.parse(p.code), bool(p.joker))} "
            f"{name(seen.seats[p.seat].name)}"
            for p in plays
        )

    if seen.trick is not None:
        return t(lang, "table.trick", k=seen.tricks_played + 1, cards=line(seen.trick.plays))
    last = seen.last_trick
    if last is not None and last.taker is not None:
        who = name(seen.seats[last.taker].name)
        return t(lang, "table.trick_taken", k=seen.tricks_played, cards=line(last.plays), name=who)
    return None


def _seen_trump_and_pot(lang: str, seen: PotScreen) -> str:
    """The header's facts that stay put while a player waits: the trump and the pot."""
    if seen.trump is None:  # N4: the first lead will name it
        trump = t(lang, "table.trump_unnamed")
    elif seen.turnup is not None:
        trump = t(lang, "table.trump_turnup", suit=seen.trump, card=seen.turnup.label)
    else:
        trump = t(lang, "table.trump", suit=seen.trump)
    return trump + SEPARATOR + (said_html(lang, seen.pot_text) if seen.pot_text else "")


def _stakes(lang: str, seen: PotScreen) -> list[str]:
    """The bidding's round when there are several (F8), and what is at stake."""
    lines = []
    if seen.rounds is not None:
        lines.append(t(lang, "table.round", round=seen.rounds[0], rounds=seen.rounds[1]))
    if seen.stakes:
        lines.append(said_html(lang, seen.stakes))
    return lines


def table_message(
    lang: str,
    ui: FamilyWords,
    seen: PotScreen,
    deal_no: int,
    redeal: bool,
    bot_username: str,
    *,
    note: str | None = None,
    closed: bool = False,
    private: bool = False,
) -> Rendered:
    """The group's table message, drawn from the public screen `seen` alone: dealer, trump,
    pot, each seat, the trick, whose turn; at a `private` (practice) table the player's cards
    are just below, so no button leads there."""
    title = t(lang, "table.title", game=ui.title(lang), deal_no=deal_no)
    lines = [title + (t(lang, "table.redeal") if redeal else "")]
    lines.append(_seen_trump_and_pot(lang, seen) + SEPARATOR + t(lang, "table.stock", n=seen.stock))
    lines += _stakes(lang, seen)
    lines += [said_html(lang, line) for line in seen.passed]  # F8: said in words
    lines.append("")
    for info in seen.seats:
        marker = "▶️ " if seen.mover == info.seat else ""
        dealer = t(lang, "table.dealer_mark") if info.dealer else ""
        word = info.word or (t(lang, "word.thinking") if seen.mover == info.seat else "")
        parts = [f"{marker}<b>{name(info.name)}</b>{dealer}"]
        if word:
            parts.append(word)
        if info.tricks is not None and (seen.phase == "play" or seen.tricks_played):
            parts.append(t(lang, "table.tricks", n=info.tricks))  # (none: a deal never played)
        lines.append(" — ".join(parts))
    trick = _seen_trick(lang, ui, seen)
    if trick:
        lines += ["", trick]
    lines.append("")
    if note:
        lines.append(note)
    if closed:
        lines.append(t(lang, "table.stopped_short"))
    elif seen.mover is None:
        lines.append(t(lang, "table.over"))
    else:
        lines.append(ui.phase_line(lang, seen.phase, name(seen.seats[seen.mover].name)))
    rows = []
    if not seen.finished and not closed and not private:
        rows.append([Link(t(lang, "btn.my_cards"), deep_link(bot_username, "hand"))])
    return Rendered(_fit("\n".join(lines)), rows)


def hand_message(
    lang: str,
    ui: FamilyWords,
    seen: PotScreen,
    seat: int,
    deal_no: int,
    chat_title: str,
    *,
    closed: bool = False,
    beside_table: bool = False,
) -> Rendered:
    """A player's private control message: the hand, trump and pot; when it is his move, also
    the trick, the question and the legal actions.

    While a player waits, his message shows only what changes with his own hand (each
    move edits the mover's and the next mover's messages, not everyone's); the table message in
    the group follows every move. `beside_table`: the table message is in the same chat (a
    practice table), so this one leaves the game, trump, pot and trick to it. It is drawn from
    `seen`, the screen of his seat (`seat`), alone."""
    # his move, or a choice that does not wait for it (F7: looking at his cards) other than look
    turn = any(h.press for h in seen.hand or ()) or any(a.verb != Do.LOOK for a in seen.choices)
    acting = not closed and (turn or seen.mover == seat)
    lines = []
    if not beside_table:
        title = escape(chat_title)
        lines.append(t(lang, "hand.title", game=ui.title(lang), title=title, deal_no=deal_no))
        lines.append(_seen_trump_and_pot(lang, seen))
        if acting:
            lines[-1] += SEPARATOR + t(lang, "table.stock", n=seen.stock)
            lines += _stakes(lang, seen)
    if seen.hidden:
        if seen.phase == "bidding":  # F7: the game's own dark bid is still open to him
            lines.append(ui.text(lang, "hand.closed", n=seen.hidden))
        else:
            lines.append(t(lang, "hand.closed", n=seen.hidden))
    elif seen.hand:
        cards = " ".join(f"<u>{h.label}</u>" if h.marked else h.label for h in seen.hand)
        lines.append(t(lang, "hand.cards", cards=cards))
    else:
        lines.append(t(lang, "hand.empty"))
    mine = seen.seats[seat]
    if mine.tricks is not None:
        lines.append(t(lang, "hand.my_tricks", n=mine.tricks))
    if seen.result is not None:
        lines.append(t(lang, "hand.result", delta=seen.result.seats[seat].delta))
    trick = _seen_trick(lang, ui, seen) if acting and not beside_table else None
    if trick:
        lines.append(trick)
    if beside_table:
        lines[0] = "🃏 " + lines[0]  # the mark of a control message, as its title has
    ask = seen.question
    if closed:
        lines += ["", t(lang, "table.stopped_short")]
    elif ask is not None:
        lines += ["", said_html(lang, ask)]
    elif not seen.finished:  # a practice table is in this chat: no group to look at
        lines += ["", t(lang, "hand.wait_here" if beside_table else "hand.wait")]
    return Rendered(_fit("\n".join(lines)), keyboard(seen))


def question(lang: str, ui: FamilyWords, view: SeatView) -> Said | None:
    """What the player is asked when the move is his, None otherwise."""
    turn = [a for a in view.legal if a.do is not Do.LOOK]
    if view.table.to_act == view.seat and not turn:
        return said(lang, "ask.look_first")  # F7: the dark declarer opens to discard
    return ui.ask(lang, view.table) if turn else None


def keyboard(seen: PotScreen) -> list[list[Choice]]:
    """The control message's keyboard, drawn from the player's screen: looking at his cards
    first (F7); while he marks cards for the discard (F9), the cards in one row (a marked one
    crossed out) and the confirm below; else the cards he may play five to a row, the 7♠'s two
    ways of play (SK2) and his other words two to a row."""
    cards = [card_button(h) for h in seen.hand or () if h.press is not None]
    look = [act_button(a) for a in seen.choices if a.verb == Do.LOOK]
    jokers = [act_button(a) for a in seen.choices if a.joker is not None]
    words = [act_button(a) for a in seen.choices if a.verb != Do.LOOK and a.joker is None]
    if any(a.verb == Do.DISCARD for a in seen.choices):
        rows = [look, cards, words]
    else:
        rows = [look, *in_rows(cards, 5), *in_rows(jokers, 2), *in_rows(words, 2)]
    return [row for row in rows if row]


# ---- results -------------------------------------------------------------------------------------


def result_message(
    lang: str,
    ui: FamilyWords,
    table: TableView,
    names: Sequence[str],
    deal_no: int,
    balances: Mapping[int, int],
    table_id: int,
    *,
    pot_has_penalty: bool,
    offer_next: bool,
    record: dict[str, Any] | None = None,
) -> Rendered:
    """The message at the end of a deal: what was played and how it went, the tricks, and one
    line per player with his change, its reasons (from the record's money events) and total."""
    lines = [t(lang, "result.title", deal_no=deal_no)]
    head = headline(lang, ui, table, names)
    if head:
        lines.append(said_html(lang, head))
    told = told_story(record)
    items = None
    odd = 0
    if told is not None:
        deal, steps = told
        log = account.trick_log(lang, ui, steps, names)
        if log:
            lines += ["", t(lang, "result.tricks"), *log]
        items = account.reasons(steps, len(table.seats), deal.p0)
        odd = account.odd_chips(steps, table, deal.p0)
    lines.append("")
    for info in table.seats:
        seat = info.seat
        if items is not None:
            line = account.reason_lines(lang, ui, table, names, items)[seat]
        else:
            line = f"<b>{name(names[seat])}</b> {signed(table.delta[seat])}"
        total = balances.get(seat)
        if total is not None:
            line += t(lang, "result.total", total=signed(total))
        lines.append(line)
    lines.append("")
    carried = t(lang, "result.penalty_carries") if pot_has_penalty else ""
    lines.append(ui.text(lang, "result.pot", pot=table.pot) + carried)
    if odd:
        lines.append(ui.text(lang, "result.odd_chips", n=odd))
    rows = [[next_deal_choice(lang, table_id, deal_no)]] if offer_next else []
    return Rendered(_fit("\n".join(lines)), rows)


def told_story(
    record: dict[str, Any] | None,
) -> tuple[TrickDeal, list[tuple[Action | None, list[Event]]]] | None:
    if record is None:
        return None
    try:
        return story(record)
    except ReplayError:
        return None


def headline(lang: str, ui: FamilyWords, table: TableView, names: Sequence[str]) -> Said | None:
    """How the deal went: a redeal, a declarer unopposed, a contract made or failed; `names`:
    the players' as they call themselves."""
    declarer = table.declarer
    if table.needs_redeal or declarer is None or table.contract is None:
        return ui.unplayed_line(lang, table)
    who = short(names[declarer])
    if not table.tricks_played:
        return ui.said(lang, "result.uncontested", name=who)
    made = table.seats[declarer].tricks >= table.declarer_needs
    contract = ui.bid_word(lang, table.contract, table.seats[declarer].level)
    return ui.said(
        lang,
        "result.made" if made else "result.failed",
        name=who,
        contract=contract,
        k=table.seats[declarer].tricks,
        n=table.declarer_needs,
    )
