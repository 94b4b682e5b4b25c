"""Views of the game as Telegram messages: HTML text and inline keyboards, through locales/."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.actions import Action, Do
from engine.cards import Card, suit_order
from engine.deal import TrickDeal
from engine.errors import ReplayError
from engine.events import Event
from engine.record import replay, story
from engine.tricks import Play
from engine.views import SeatView, TableView, table_view
from locales import t

from . import account, callbacks, computer, games
from .format import card_label, cards_text, name, signed, sorted_hand
from .storage import ChatRow, DealRow
from .view.message import Rendered, deep_link
from .view.message import fit as _fit

# re-exported: the handlers name players and links through render
__all__ = ["Rendered", "deep_link", "name", "signed"]

# ---- lobby ---------------------------------------------------------------------------------------


def lobby(
    lang: str,
    table_id: int,
    game: str,
    names: Sequence[str],
    creator: str,
    ante: int,
    bot_username: str,
    *,
    players_range: tuple[int, int],
    closed: str | None = None,
    rules: dict[str, Any] | None = None,
    computers: bool = False,
    private: bool = False,
) -> Rendered:
    """The lobby message: the game, who sits, what a deal costs (the chat's `rules` may set a
    game's own amounts), and Join / Leave / Start / game buttons; with `computers` (issue 17)
    one button per level that seats a computer player, and one that stands the last up; a
    `private` (practice) table has no seats for people but its player's."""
    ui = games.ui(game)
    title = ui.title(lang)
    lines = [t(lang, "lobby.title", game=title)]
    if not private:  # a practice table is its player's own
        lines.append(t(lang, "lobby.creator", name=name(creator)))
    lines.append(ui.money_line(lang, rules or {}, ante))
    lines.append(t(lang, "lobby.players_range", low=players_range[0], high=players_range[1]))
    if names:
        players = ", ".join(name(n) for n in names)
        lines.append(t(lang, "lobby.players", n=len(names), players=players))
    else:  # the creator has not opened the private chat yet: not "0 players: nobody"
        lines.append(t(lang, "lobby.empty"))
    if closed:
        lines.append("")
        lines.append(t(lang, closed))
        return Rendered(_fit("\n".join(lines)))
    lines.append("")
    lines.append(t(lang, "lobby.practice_hint" if private else "lobby.hint"))
    if computers:
        lines.append(t(lang, "lobby.computer_hint"))

    def button(label: str, kind: str, code: str = "") -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=callbacks.encode(kind, table_id, code=code)
        )

    rows = (
        [] if private else [[button(t(lang, "btn.join"), "j"), button(t(lang, "btn.leave"), "l")]]
    )
    if computers:
        rows.append(
            [
                button(
                    t(lang, "btn.add_computer", level=t(lang, f"computer.level.{level}")),
                    "m",
                    str(i),
                )
                for i, level in enumerate(computer.ORDER)
            ]
        )
        rows.append([button(t(lang, "btn.remove_computer"), "m", "-")])
    rows.append([button(t(lang, "btn.start"), "s"), button(t(lang, "btn.game", game=title), "g")])
    if not private:
        link = deep_link(bot_username, f"j{table_id}")
        rows.append([InlineKeyboardButton(t(lang, "btn.open_bot"), url=link)])
    return Rendered(_fit("\n".join(lines)), InlineKeyboardMarkup(rows))


# ---- the deal ------------------------------------------------------------------------------------


def _word(lang: str, table: TableView, seat: int) -> str:
    info = table.seats[seat]
    if info.bid is None:
        return t(lang, "word.thinking") if table.to_act == seat else ""
    return games.ui(table.game).bid_word(lang, info.bid, info.level)


PLAYING_ROLES = ("declarer", "whister", "cutter", "helper", "taker", "opponent")


def _trick_line(lang: str, ui: games.GameUI, plays: Sequence[Play], names: Sequence[str]) -> str:
    return " · ".join(
        f"{ui.play_label(lang, p.card, p.joker)} {name(names[p.seat])}" for p in plays
    )


def _trick_status(lang: str, table: TableView, names: Sequence[str]) -> str | None:
    """The trick on the table; before the next is led (and after the deciding one) the last
    trick with who took it; None before play."""
    if table.trick:
        cards = _trick_line(lang, games.ui(table.game), table.trick, names)
        return t(lang, "table.trick", k=table.tricks_played + 1, cards=cards)
    if table.last_trick and table.last_winner is not None:
        cards = _trick_line(lang, games.ui(table.game), table.last_trick, names)
        who = name(names[table.last_winner])
        return t(lang, "table.trick_taken", k=table.tricks_played, cards=cards, name=who)
    return None


def _game(lang: str, table: TableView) -> str:
    return games.ui(table.game).title(lang)


def _header(lang: str, table: TableView, deal_no: int, redeal: bool) -> list[str]:
    title = t(lang, "table.title", game=_game(lang, table), deal_no=deal_no)
    lines = [title + (t(lang, "table.redeal") if redeal else "")]
    lines.append(f"{_trump_and_pot(lang, table)} · {t(lang, 'table.stock', n=table.stock)}")
    if table.phase == "bidding" and table.max_rounds > 1:
        lines.append(t(lang, "table.round", round=table.round, rounds=table.max_rounds))
    stakes = games.ui(table.game).stakes(lang, table)
    if stakes:
        lines.append(stakes)
    return lines


def _trump_and_pot(lang: str, table: TableView) -> str:
    """The header's facts that stay put while a player waits: the trump and the pot."""
    if not table.trump_named:  # N4: the first lead will name it
        trump = t(lang, "table.trump_unnamed")
    elif table.turnup is not None:
        trump = t(
            lang, "table.trump_turnup", suit=table.trump.symbol, card=card_label(table.turnup, lang)
        )
    else:
        trump = t(lang, "table.trump", suit=table.trump.symbol)
    pot = games.ui(table.game).text(lang, "table.pot", pot=table.pot)  # N1: the treasure
    return f"{trump} · {pot}"


def _prompt(lang: str, table: TableView, names: Sequence[str]) -> str:
    if table.to_act is None:
        return t(lang, "table.over")
    return games.ui(table.game).phase_line(lang, table, name(names[table.to_act]))


def table_message(
    lang: str,
    table: TableView,
    names: Sequence[str],
    deal_no: int,
    redeal: bool,
    bot_username: str,
    *,
    note: str | None = None,
    closed: bool = False,
    private: bool = False,
) -> Rendered:
    """The group's table message: dealer, trump, pot, each seat, the trick, whose turn; at a
    `private` (practice) table the player's cards are just below, so no button leads there."""
    lines = _header(lang, table, deal_no, redeal)
    if table.phase == "bidding" and table.dead_turnups:
        lines += games.ui(table.game).all_passed(lang, table)  # F8: said in words
    lines.append("")
    for info in table.seats:
        marker = "▶️ " if table.to_act == info.seat else ""
        dealer = t(lang, "table.dealer_mark") if info.seat == table.dealer else ""
        word = _word(lang, table, info.seat)
        parts = [f"{marker}<b>{name(names[info.seat])}</b>{dealer}"]
        if word:
            parts.append(word)
        playing = table.phase == "play" or table.tricks_played
        if playing and info.role in PLAYING_ROLES:
            parts.append(t(lang, "table.tricks", n=info.tricks))
        lines.append(" — ".join(parts))
    trick = _trick_status(lang, table, names)
    if trick:
        lines += ["", trick]
    lines.append("")
    if note:
        lines.append(note)
    lines.append(t(lang, "table.stopped_short") if closed else _prompt(lang, table, names))
    markup = None
    if not table.finished and not closed and not private:
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(t(lang, "btn.my_cards"), url=deep_link(bot_username, "hand"))]]
        )
    return Rendered(_fit("\n".join(lines)), markup)


def _action_label(lang: str, action: Action, table: TableView) -> str:
    if action.card is not None and action.joker is None:
        return card_label(action.card, lang)
    return games.ui(table.game).action_label(lang, action, table.turnup)


def hand_message(
    lang: str,
    view: SeatView,
    names: Sequence[str],
    table_id: int,
    deal_no: int,
    step: int,
    chat_title: str,
    selection: Sequence[Card] = (),
    *,
    closed: bool = False,
    beside_table: bool = False,
) -> Rendered:
    """A player's private control message: the hand, trump and pot; when it is his move, also
    the trick, the question and the legal actions.

    While a player waits, his message shows only what changes with his own hand (issue 6: each
    move edits the mover's and the next mover's messages, not everyone's); the table message in
    the group follows every move. `beside_table`: the table message is in the same chat (a
    practice table, issue 17), so this one leaves the game, trump, pot and trick to it."""
    table = view.table
    turn = [a for a in view.legal if a.do is not Do.LOOK]
    acting = not closed and (bool(turn) or table.to_act == view.seat)
    lines = []
    if not beside_table:
        title = escape(chat_title)
        lines.append(t(lang, "hand.title", game=_game(lang, table), title=title, deal_no=deal_no))
        header = _header(lang, table, deal_no, False)[1:]
        lines += header if acting else [_trump_and_pot(lang, table)]
    if view.hand is None:
        closed_cards = table.seats[view.seat].cards
        if table.phase == "bidding":  # F7: the game's own dark bid is still open to him
            lines.append(games.ui(table.game).text(lang, "hand.closed", n=closed_cards))
        else:
            lines.append(t(lang, "hand.closed", n=closed_cards))
    elif view.hand:
        lines.append(t(lang, "hand.cards", cards=cards_text(view.hand, lang, selection)))
    else:
        lines.append(t(lang, "hand.empty"))
    info = table.seats[view.seat]
    if info.role in PLAYING_ROLES and (table.phase == "play" or table.finished):
        lines.append(t(lang, "hand.my_tricks", n=info.tricks))
    if table.finished:
        lines.append(t(lang, "hand.result", delta=signed(table.delta[view.seat])))
    trick = _trick_status(lang, table, names) if acting and not beside_table else None
    if trick:
        lines.append(trick)
    if beside_table:
        lines[0] = "🃏 " + lines[0]  # the mark of a control message, as its title has
    if closed:
        lines += ["", t(lang, "table.stopped_short")]
    elif table.to_act == view.seat and not turn:
        lines += ["", t(lang, "ask.look_first")]  # F7: the dark declarer opens to discard
    elif turn:
        lines += ["", games.ui(table.game).ask(lang, table)]
    elif not table.finished:  # a practice table is in this chat: no group to look at
        lines += ["", t(lang, "hand.wait_here" if beside_table else "hand.wait")]
    rows: list[list[InlineKeyboardButton]] = []

    def button(label: str, code: str, kind: str = "a", at: int = step) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=callbacks.encode(kind, table_id, deal_no, at, code)
        )

    if any(a.do is Do.LOOK for a in view.legal):
        # F7: looking does not depend on the position, so its button names no step and stays
        # the same (and valid) while others move
        rows.append([button(t(lang, "btn.look"), callbacks.LOOK, at=callbacks.ANY_STEP)])
    if any(a.do is Do.DISCARD for a in turn):
        rows += _buying_rows(lang, view, selection, button)
    else:
        plain = sorted(
            (a for a in turn if a.card is not None and a.joker is None), key=_action_order
        )
        card_buttons = [
            button(_action_label(lang, a, table), callbacks.action_code(a)) for a in plain
        ]
        jokers = [
            button(_action_label(lang, a, table), callbacks.action_code(a))
            for a in turn
            if a.joker is not None
        ]
        other = [
            button(_action_label(lang, a, table), callbacks.action_code(a))
            for a in turn
            if a.card is None
        ]
        rows += [card_buttons[i : i + 5] for i in range(0, len(card_buttons), 5)]
        rows += [jokers[i : i + 2] for i in range(0, len(jokers), 2)]
        rows += [other[i : i + 2] for i in range(0, len(other), 2)]
    return Rendered(_fit("\n".join(lines)), InlineKeyboardMarkup(rows) if rows else None)


def _action_order(action: Action) -> tuple[int, int]:
    assert action.card is not None
    return (suit_order(action.card.suit), action.card.rank)


def _buying_rows(
    lang: str,
    view: SeatView,
    selection: Sequence[Card],
    button: Callable[[str, str, str], InlineKeyboardButton],
) -> list[list[InlineKeyboardButton]]:
    """F9: toggle cards to discard, then confirm; the confirm button says how many are bought."""
    assert view.hand is not None
    most = max((len(a.cards or ()) for a in view.legal if a.do is Do.DISCARD), default=0)
    row = []
    for card in sorted_hand(view.hand):
        chosen = card in selection
        new = [c for c in selection if c != card] if chosen else [*selection, card]
        if len(new) > most:
            continue
        label = ("✖️ " if chosen else "") + card_label(card, lang)
        row.append(button(label, callbacks.cards_code(new), "t"))
    confirm_code = "b" + callbacks.cards_code(list(selection))
    confirm = (
        t(lang, "btn.keep_all") if not selection else t(lang, "btn.exchange", n=len(selection))
    )
    return [row, [button(confirm, confirm_code, "a")]]


# ---- results and chat commands -------------------------------------------------------------------


def result_message(
    lang: str,
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
    ui = games.ui(table.game)
    lines = [t(lang, "result.title", deal_no=deal_no)]
    headline = _headline(lang, ui, table, names)
    if headline:
        lines.append(headline)
    told = _story(record)
    items = None
    if told is not None:
        deal, steps = told
        log = account.trick_log(lang, table.game, steps, names)
        if log:
            lines += ["", t(lang, "result.tricks"), *log]
        items = account.reasons(steps, len(table.seats), deal.p0)
    lines.append("")
    for info in table.seats:
        seat = info.seat
        if items is not None:
            line = account.reason_lines(lang, table, names, items)[seat]
        else:
            line = f"<b>{name(names[seat])}</b> {signed(table.delta[seat])}"
        total = balances.get(seat)
        if total is not None:
            line += t(lang, "result.total", total=signed(total))
        lines.append(line)
    lines.append("")
    carried = t(lang, "result.penalty_carries") if pot_has_penalty else ""
    lines.append(ui.text(lang, "result.pot", pot=table.pot) + carried)
    markup = None
    if offer_next:
        markup = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        t(lang, "btn.next_deal"),
                        callback_data=callbacks.encode("n", table_id, deal_no),
                    )
                ]
            ]
        )
    return Rendered(_fit("\n".join(lines)), markup)


def _story(
    record: dict[str, Any] | None,
) -> tuple[TrickDeal, list[tuple[Action | None, list[Event]]]] | None:
    if record is None:
        return None
    try:
        return story(record)
    except ReplayError:
        return None


def _headline(lang: str, ui: games.GameUI, table: TableView, names: Sequence[str]) -> str | None:
    """How the deal went: a redeal, a declarer unopposed, a contract made or failed."""
    declarer = table.declarer
    if table.needs_redeal:
        return ui.redeal_line(lang, table)
    if declarer is None or table.contract is None:
        return ui.no_contract_line(lang, table)
    who = name(names[declarer])
    if not table.tricks_played:
        return ui.text(lang, "result.uncontested", name=who)
    made = table.seats[declarer].tricks >= table.declarer_needs
    contract = ui.bid_word(lang, table.contract, table.seats[declarer].level)
    return ui.text(
        lang,
        "result.made" if made else "result.failed",
        name=who,
        contract=contract,
        k=table.seats[declarer].tricks,
        n=table.declarer_needs,
    )


def pots(lang: str, chat: ChatRow) -> str:
    """/pot: every game's pot that holds chips, in the registry's order (Napoleon's treasure,
    Frap's pot…); the empty pot when none does."""
    lines = []
    for game in games.ORDER:
        pot = chat.pot_of(game)
        if pot:
            ui = games.ui(game)
            line = ui.text(lang, "pot.line", game=ui.title(lang), pot=pot)
            carried = t(lang, "result.penalty_carries") if chat.penalty_in(game) else ""
            lines.append(line + carried)
    if not lines:
        return t(lang, "pot", pot=0)
    return "\n".join([t(lang, "pot.title"), *lines])


def deal_account(
    lang: str, deal: DealRow, number: int | None = None, earlier: Sequence[DealRow] = ()
) -> str | None:
    """A finished deal as readable text for /history N (bids, buying, every trick, the money),
    titled with `number` (the chat's number for it; else the table's): the game's own account
    if it tells its deals itself (`GameUI.deal_account`; `earlier`: its match's deals before
    it, `match_deals`), else the shared one; None if its record cannot be replayed."""
    number = deal.deal_no if number is None else number
    own = own_ui(deal)
    records = [d.record for d in earlier]
    told = own.deal_account(lang, deal.record, number, records) if own is not None else None
    return told if told is not None else account.deal_account(lang, deal.record, number)


def own_ui(deal: DealRow) -> games.GameUI | None:
    """The UI of the game a deal's record names (None: a game the bot does not know)."""
    return games.REGISTRY.get(str(deal.record.get("game", "frap")))


def match_deals(deal: DealRow, table: Sequence[DealRow]) -> list[DealRow]:
    """Of a table's deals (`Storage.table_deals`), the finished ones played before `deal`: what a
    game whose table is a match reads a deal's entries against (`GameUI.match`)."""
    return [d for d in table if d.status == "finished" and d.deal_no < deal.deal_no]


def history_line(
    lang: str, deal: DealRow, number: int, date: str, earlier: Sequence[DealRow] = ()
) -> str:
    """One finished deal for /history: the chat's number for it, its date, the contract and each
    player's change (`earlier` as for `deal_account`)."""
    own = own_ui(deal)
    records = [d.record for d in earlier]
    told = own.history_line(lang, deal.record, number, date, records) if own is not None else None
    if told is not None:
        return told
    changes, what = "?", ""
    try:
        played = replay(deal.record)
    except ReplayError:
        played = None
    if played is not None:
        view = table_view(played)
        ui = games.ui(view.game)
        names = played.players
        if view.needs_redeal:
            what = ui.redeal_line(lang, view).rstrip(".")  # history.line puts its own colon after
        elif view.declarer is None or view.contract is None:
            what = ui.no_contract_line(lang, view) or ""
        else:
            word = ui.bid_word(lang, view.contract, view.seats[view.declarer].level)
            what = f"{name(names[view.declarer])}, {word}"
        pairs = zip(names, view.delta, strict=True)
        changes = ", ".join(f"{name(n)} {signed(d)}" for n, d in pairs)
    if not what:
        return t(lang, "history.line_plain", number=number, date=date, changes=changes)
    return t(lang, "history.line", number=number, date=date, what=what, changes=changes)
