"""How the bot shows Preferans (RULES P1–P18): bids with suit symbols, the table with the talon,
open hands and the last trick, each player's buttons, a deal's result lines and the settlement.

Pure presentation: engine views in, HTML and keyboards out; a table's pulya is played by
`preferans_service.py` (`PulyaTables`, the registry's kind of table for it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from html import escape
from typing import Any, ClassVar

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.cards import Card, suit_order
from engine.events import TrickWon
from engine.preferans import record as deal_record
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.bidding import trump_of
from engine.preferans.deal import PrefDeal
from engine.preferans.events import (
    AuctionWon,
    Called,
    ContractNamed,
    Discarded,
    HandsOpened,
    PlayChosen,
    PrefEvent,
    RaspasyStarted,
    TalonTaken,
    TalonTurned,
)
from engine.preferans.match import Match
from engine.preferans.outcome import CONTRACTS, MISERE, Entry, Outcome, PrefRules, level
from engine.preferans.play import winner
from engine.preferans.pulya import Line, Pulya
from engine.preferans.views import PrefSeatView, PrefTableView
from engine.tricks import Play
from locales import t

from .. import callbacks
from ..format import card_label, cards_text, in_a_sentence, signed, sorted_hand
from ..format import name as shown_name
from ..view.message import Rendered
from .base import GameUI, Option
from .pulya_sheet import SheetFigures, render_sheet

TARGETS = (10, 20, 30, 50)  # P14
WHIST_PRICES = (1, 2, 5, 10)  # chips per whist (P16 is in whists; the chat sets the price)
DEFAULT_WHIST_PRICE = 1
ROW = 5  # buttons per keyboard row: a level of the ladder is five bids

# Button codes (after "a:table:deal:step:"); a card is its two-letter code.
_WORDS = {
    PrefDo.MISERE: "m",
    PrefDo.HERE: "h",
    PrefDo.PASS: "P",
    PrefDo.WHIST: "W",
    PrefDo.HALF_WHIST: "w",
    PrefDo.LIGHT: "l",
    PrefDo.DARK: "d",
}
_WORDS_BACK = {code: do for do, code in _WORDS.items()}


class PreferansUI(GameUI):
    """Preferans: a pulya of deals; the words of the `pref` catalog section."""

    game: ClassVar[str] = "preferans"
    section: ClassVar[str] = "pref"
    aliases: ClassVar[tuple[str, ...]] = ("preferans", "преферанс", "пуля")
    match: ClassVar[bool] = True  # P14: a table writes a pulya of many deals
    uses_ante: ClassVar[bool] = False  # P16: the whist's price, not the chat's ante
    practice_players: ClassVar[int] = 3  # P1: three at the table is the usual game
    options: ClassVar[tuple[Option, ...]] = (
        Option("target", "tg", TARGETS),  # P14
        Option("whist_price", "wp", WHIST_PRICES),  # P16's whists in chips
        Option("here", "here", ("on", "off")),  # P4
        Option("stalingrad", "stg", (False, True)),  # P6
        Option("raspasy_progression", "rp", ("123", "124", "none")),  # P10
        Option("raspasy_amnesty", "ram", (False, True)),  # P10
        Option("raspasy_exit", "rx", (6, 7)),  # P10
        Option("whist", "wh", ("greedy", "gentleman")),  # P11
        Option("whist_liability", "wl", ("full", "capped")),  # P12
        Option("ten", "ten", ("checked", "whisted")),  # P13
        Option("overflow", "ov", ("help", "gora")),  # P15
        Option("dealer_consolation", "dc", (True, False)),  # P1
    )
    # (whist is Frap's word too; the talon, «прикуп», is also what a Frap player buys from)
    own_words = ("пуля", "мизер", "распасы", "pulya", "misère", "raspasy", "вист", "whist")

    @property
    def players(self) -> tuple[int, int]:
        """P1: three, or four with the dealer sitting out each deal."""
        return PrefDeal.MIN_PLAYERS, PrefDeal.MAX_PLAYERS

    def preset(self, chat_rules: dict[str, Any]) -> str:
        """P0: the Sochi convention."""
        return "sochi"

    def engine_rules(self, chat_rules: dict[str, Any]) -> dict[str, Any]:
        """The P options for the engine (the whist's price is the bot's, not a rule's)."""
        rules = super().engine_rules(chat_rules)
        rules.pop("whist_price", None)
        return rules

    def typed_rules(self, chat_rules: dict[str, Any]) -> PrefRules:
        """The engine's rules for this chat's settings."""
        return PrefRules.from_dict(self.engine_rules(chat_rules))

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value in force (the P-options of PrefRules; the whist's price)."""
        if option.key == "whist_price":
            return self.whist_price(chat_rules)
        return getattr(self.typed_rules(chat_rules), option.key)

    def money_line(self, lang: str, chat_rules: dict[str, Any], ante: int) -> str:
        """The lobby's line: no ante; the pulya's target and what a whist costs (P14, P16)."""
        price = self.whist_price(chat_rules)
        target = self.typed_rules(chat_rules).target
        return self.text(lang, "rules.money", target=target, n=price)

    def bankroll_need(self, ante: int, pot: int, players: int) -> int:
        """F15: a chip of the bankroll left (nothing is paid to be dealt in: the chips move
        once, when the pulya closes)."""
        return 1

    def history_line(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        date: str,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str:
        """A deal of a pulya: its contract (or raspasy) and what each player wrote and why, as
        the sheet got it (P15's overflow from the pulya's `earlier` deals); a record that does not
        replay: its number and date only."""
        deal = _finished(record)
        if deal is None or deal.outcome is None:
            return t(lang, "history.line_plain", number=number, date=date, changes="?")
        line = _written(deal, earlier)
        outcome = line.outcome
        if outcome.contract is None or outcome.declarer is None:
            what = self.text(lang, "history.raspasy")
        else:
            bid = self.bid_label(lang, outcome.contract)
            what = f"{shown_name(deal.players[outcome.declarer])} {bid}"
        items = result_lines(lang, line, deal.players, number)[1:]
        changes = "; ".join(items) or "—"
        return self.text(lang, "history.line", number=number, date=date, what=what, changes=changes)

    def deal_account(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """A deal of a pulya told in full: the dealer, every word of the auction, the talon where
        the table saw it (P5; never the discard), the contract, the whisting words (P6), light
        or open hands (P7, P9), raspasy's turned cards (P10), every trick and its taker, then
        what each player wrote and why, as the result did (P15 from the `earlier` deals); None
        if the record does not replay to a finished deal."""
        try:
            deal, steps = deal_record.story(record)
        except ValueError:
            return None
        if not deal.finished or deal.outcome is None:
            return None
        names = [shown_name(player) for player in deal.players]
        lines = [self.text(lang, "account.title", game=self.title(lang), deal_no=number)]
        dealer = "account.dealer_out" if deal.sitting_out is not None else "account.dealer"
        lines.append(self.text(lang, dealer, name=names[deal.dealer]))  # P1
        if deal.streak:
            lines.append(self.text(lang, "table.streak", n=deal.streak))
        lines += _story_lines(lang, [e for _, events in steps for e in events], names)
        if deal.tricks_played:  # (P6: a contract both defenders passed is not played)
            tricks = (
                self.text(lang, "account.tricks", name=names[seat], n=n)
                for seat, n in enumerate(deal.won)
                if seat != deal.sitting_out
            )
            lines.append(" · ".join(tricks))
        lines.append("")
        lines += result_lines(lang, _written(deal, earlier), deal.players, number)
        return "\n".join(lines)

    def declared(self, record: dict[str, Any]) -> tuple[int | None, bool, str | None]:
        """The declarer of a trick game or misère, whether he made it, and "misere" for a
        misère (P9: /stats counts them apart); nobody in raspasy."""
        deal = _finished(record)
        if deal is None or deal.outcome is None:
            return None, False, None
        outcome = deal.outcome
        made = bool(outcome.declarer is not None and outcome.made)
        return outcome.declarer, made, MISERE if outcome.contract == MISERE else None

    def move_words(self, lang: str, action: Any) -> str:
        """What the bot played for a player: his button's words."""
        return in_a_sentence(self.button_label(lang, action))

    def option_label(self, lang: str, option: Option, value: Any) -> str:
        """A settings button: numbers (P14's target, P10's exit) as they are, yes/no for the
        switches, the option's own word for the rest."""
        if isinstance(value, bool):
            shown = self.text(lang, "set.yes" if value else "set.no")
        elif isinstance(value, int):
            shown = str(value)
        else:
            shown = self.text(lang, f"set.{option.key}.{value}")
        return self.text(lang, f"set.{option.key}", value=shown)

    def whist_price(self, chat_rules: dict[str, Any]) -> int:
        """The chat's price of a whist in chips (its Preferans settings; 1 unless set)."""
        own = chat_rules.get(self.game)
        price = own.get("whist_price") if isinstance(own, dict) else None
        return price if isinstance(price, int) and price in WHIST_PRICES else DEFAULT_WHIST_PRICE

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """P1–P16 briefly, the pulya's target and the whist's price, then every P option in
        force (the same labels as the settings page)."""
        chosen = " · ".join(
            self.option_label(lang, option, self.option_value(chat_rules, option))
            for option in self.options
            if option.key not in ("target", "whist_price")  # the money line says them
        )
        return [
            self.text(lang, "rules.basics"),
            self.money_line(lang, chat_rules, 0),
            chosen,
        ]

    # ---- words ----------------------------------------------------------------------------------

    def bid_label(self, lang: str, bid: str) -> str:
        """A bid or contract for people: '7♥', '8БК' / '8NT', 'мизер'."""
        if bid == MISERE:
            return self.text(lang, "misere")
        trump = trump_of(bid)
        return f"{level(bid)}{trump.symbol if trump else self.text(lang, 'nt')}"

    def said_label(self, lang: str, said: str) -> str:
        """A seat's latest word on the table: a bid, or pass/here/whist/half-whist."""
        if said in ("pass", "here", "whist", "half_whist", MISERE):
            return self.text(lang, f"word.{said}")
        return self.bid_label(lang, said)

    def button_label(self, lang: str, action: PrefAction) -> str:
        """The button for a legal action."""
        if action.do is PrefDo.PLAY:
            assert action.card is not None
            return card_label(action.card, lang)
        if action.do in (PrefDo.BID, PrefDo.CONTRACT):
            assert action.bid is not None
            return self.bid_label(lang, action.bid)
        if action.do is PrefDo.DISCARD:
            return self.text(lang, "btn.discard", cards=_cards(lang, action.cards or ()))
        return self.text(lang, f"word.{action.do.value}")


UI: PreferansUI = PreferansUI()


def _finished(record: dict[str, Any]) -> PrefDeal | None:
    """A finished deal replayed from its record; None if it does not replay or is unfinished."""
    try:
        deal = deal_record.replay(record)
    except ValueError:
        return None
    return deal if deal.finished else None


def _written(deal: PrefDeal, earlier: Sequence[dict[str, Any]]) -> Line:
    """The line a finished deal wrote on its pulya's sheet, the pulya replayed from its
    `earlier` deals in order (P15's overflow depends on the sheet); where they do not make one
    pulya with it, the deal scored alone (no overflow)."""
    assert deal.outcome is not None
    sheet = _sheet_before(deal, earlier)
    if sheet is None:
        sheet = replace(Pulya.new(len(deal.players), deal.dealer, deal.rules), streak=deal.streak)
    return sheet.add(deal.outcome).lines[-1]


def _sheet_before(deal: PrefDeal, earlier: Sequence[dict[str, Any]]) -> Pulya | None:
    """The pulya's sheet just before `deal`, from its earlier deals' outcomes (each replayed
    once a process: /history shows ten deals of one pulya); None if they do not lead to it:
    the same players, each dealer in turn (P3), the raspasy streak it was dealt with (P10)."""
    if not earlier:
        return None
    try:
        sheet = Pulya.new(len(deal.players), earlier[0]["dealer"], deal.rules)
        for record in earlier:
            outcome = _outcome(json.dumps(record, sort_keys=True))
            if outcome is None or record["dealer"] != sheet.dealer:
                return None
            if record["players"] != list(deal.players):
                return None
            sheet = sheet.add(outcome)
    except (KeyError, TypeError, ValueError):  # IllegalAction included
        return None
    return sheet if (sheet.dealer, sheet.streak) == (deal.dealer, deal.streak) else None


@lru_cache(maxsize=2048)
def _outcome(record: str) -> Outcome | None:
    """The outcome of a finished deal's record (as JSON text), None if it does not replay."""
    deal = _finished(json.loads(record))
    return None if deal is None else deal.outcome


def _story_lines(lang: str, events: Sequence[PrefEvent], names: Sequence[str]) -> list[str]:
    """The deal's events as lines: the auction's and the whisting's words each on one line, the
    rest one line an event (a card played is told by its trick)."""
    ui = UI
    lines: list[str] = []
    words: list[str] = []  # the words said since the last other event
    said = "account.auction"  # P4; after it, the whisting (P6)
    for event in events:
        if isinstance(event, Called):
            word = ui.said_label(lang, event.word)
            words.append(ui.text(lang, "account.said", name=names[event.seat], word=word))
            continue
        if words:  # the auction ends as it is won; the whisting as play starts or the deal ends
            lines.append(ui.text(lang, said, words=" · ".join(words)))
            words, said = [], "account.whisting"
        line = _event_line(lang, event, names)
        if line is not None:
            lines.append(line)
    return lines


def _event_line(lang: str, event: PrefEvent, names: Sequence[str]) -> str | None:
    ui = UI
    if isinstance(event, AuctionWon):
        bid = ui.bid_label(lang, event.bid)
        return ui.text(lang, "account.won", name=names[event.seat], bid=bid)
    if isinstance(event, RaspasyStarted):
        return ui.text(lang, "account.raspasy")
    if isinstance(event, TalonTaken):  # P5: misère's talon is taken unseen
        if event.shown is None:
            return ui.text(lang, "account.talon_unseen", name=names[event.seat])
        return ui.text(
            lang, "account.talon", name=names[event.seat], cards=_cards(lang, event.shown)
        )
    if isinstance(event, Discarded):  # P5: face down, never named
        return ui.text(lang, "account.discarded", name=names[event.seat])
    if isinstance(event, ContractNamed):
        bid = ui.bid_label(lang, event.contract)
        return ui.text(lang, "account.contract", name=names[event.seat], bid=bid)
    if isinstance(event, PlayChosen):
        how = ui.text(lang, "word.light" if event.light else "word.dark")
        return ui.text(lang, "account.chosen", name=names[event.seat], how=how)
    if isinstance(event, HandsOpened):
        return ui.text(lang, "account.opened", names=", ".join(names[s] for s in event.seats))
    if isinstance(event, TalonTurned):  # P10
        return ui.text(lang, "account.turned", card=card_label(event.card, lang))
    if isinstance(event, TrickWon):
        cards = " ".join(card_label(card, lang) for card in event.cards)
        return ui.text(lang, "trick.log", k=event.number, cards=cards, name=names[event.seat])
    return None


# ---- callback codes -----------------------------------------------------------------------------


def action_code(action: PrefAction) -> str:
    """The short code of an action (its seat is implied by who presses and whose turn it is)."""
    if action.do is PrefDo.BID:
        return f"b{action.bid}"
    if action.do is PrefDo.CONTRACT:
        return f"c{action.bid}"
    if action.do is PrefDo.PLAY:
        return f"p{action.card}"
    if action.do is PrefDo.DISCARD:
        return "x" + callbacks.cards_code(action.cards or ())
    return _WORDS[action.do]


def parse_action(seat: int, code: str) -> PrefAction:
    """The action a code stands for, for `seat`; BadCallback if malformed. Whether it is legal
    is the engine's to say."""
    head, tail = code[:1], code[1:]
    if code in _WORDS_BACK:
        return PrefAction(seat, _WORDS_BACK[code])
    try:
        if head in ("b", "c") and tail in CONTRACTS and tail != MISERE:
            return PrefAction(seat, PrefDo.BID if head == "b" else PrefDo.CONTRACT, bid=tail)
        if head == "p" and len(tail) == 2:
            return PrefAction(seat, PrefDo.PLAY, card=Card.parse(tail))
        if head == "x" and len(tail) == 4:
            return PrefAction(seat, PrefDo.DISCARD, cards=callbacks.parse_cards_code(tail))
    except ValueError as exc:
        raise callbacks.BadCallback(code) from exc
    raise callbacks.BadCallback(code)


# ---- the table message --------------------------------------------------------------------------


def table_message(
    lang: str,
    table: PrefTableView,
    deal_no: int,
    target: int,
    *,
    note: str | None = None,
    voided: bool = False,
) -> Rendered:
    """The group's message of a deal: who deals, each seat's word or role and tricks, the talon
    (P5) or raspasy's turned cards (P10), open hands (P7, P9), the trick and the last one (P8);
    `voided`: the pulya was stopped in this deal (P14), nobody is to act."""
    ui = UI
    names = [shown_name(seat.name) for seat in table.seats]
    lines = [ui.text(lang, "table.header", target=target, deal_no=deal_no)]
    if table.streak and not table.finished:
        lines.append(ui.text(lang, "table.streak", n=table.streak))
    for seat in table.seats:
        lines.append(_seat_line(lang, table, seat.seat, names))
    bid = _bid_line(lang, table, names)
    if bid is not None:
        lines.append(bid)
    if table.raspasy:
        lines += _raspasy_lines(lang, table)
    elif table.talon:
        lines.append(ui.text(lang, "table.talon", cards=_cards(lang, table.talon)))
    for seat in table.seats:
        if seat.open_hand:  # (played out to the last card, it has nothing left to show)
            lines.append(
                ui.text(
                    lang, "table.open", name=names[seat.seat], cards=_cards(lang, seat.open_hand)
                )
            )
    if table.trick:
        lines.append(ui.text(lang, "table.trick", cards=_plays(lang, table.trick)))
    lines += _last_trick_line(lang, table, names)
    if note:
        lines.append(note)
    if voided:
        lines += ["", ui.text(lang, "table.voided_deal")]
    elif not table.finished and table.to_act is not None:
        lines += ["", phase_line(lang, table, names)]
    return Rendered("\n".join(lines))


def _raspasy_lines(lang: str, table: PrefTableView) -> list[str]:
    """Raspasy (P10) and the talon card turned for the trick in play, if any."""
    turned = [UI.text(lang, "table.turned", cards=_cards(lang, table.talon))] if table.talon else []
    return [UI.text(lang, "table.raspasy"), *turned]


def _last_trick_line(lang: str, table: PrefTableView, names: Sequence[str]) -> list[str]:
    """The last trick and who took it (P8: seen until the next is complete), if there is one."""
    if not table.last_trick:
        return []
    cards = _plays(lang, table.last_trick)
    return [UI.text(lang, "table.last", cards=cards, name=names[_taker(table)])]


def _bid_line(lang: str, table: PrefTableView, names: Sequence[str]) -> str | None:
    """The contract and who plays it; in the auction the bid to beat and who holds it (P4)."""
    if table.declarer is not None and table.contract is not None:
        bid = UI.bid_label(lang, table.contract)
        return UI.text(lang, "table.contract", name=names[table.declarer], bid=bid)
    if table.top_bid is not None and table.holder is not None:
        bid = UI.bid_label(lang, table.top_bid)
        return UI.text(lang, "table.top_bid", name=names[table.holder], bid=bid)
    return None


def phase_line(lang: str, table: PrefTableView, names: Sequence[str]) -> str:
    """Who is to act and what he decides (the lone whister for the passer in light play, P7)."""
    assert table.to_act is not None
    controller = table.controller if table.controller is not None else table.to_act
    if controller != table.to_act:
        return UI.text(lang, "phase.play_for", name=names[controller], other=names[table.to_act])
    return UI.text(lang, f"phase.{table.phase.value}", name=names[table.to_act])


def _seat_line(lang: str, table: PrefTableView, seat: int, names: Sequence[str]) -> str:
    info = table.seats[seat]
    parts = [f"<b>{names[seat]}</b>"]
    if info.role == "out":
        parts.append(UI.text(lang, "role.out"))
    elif info.role is not None:
        parts.append(UI.text(lang, f"role.{info.role}"))
    elif info.said is not None:
        parts.append(UI.said_label(lang, info.said))
    if (table.phase.value == "play" or table.finished) and info.role != "out":
        parts.append(UI.text(lang, "table.tricks", n=info.tricks))
    if seat == table.dealer and info.role != "out":
        parts.append(UI.text(lang, "table.dealer"))
    return " · ".join(parts)


def _taker(table: PrefTableView) -> int:
    """Who took the last complete trick (P8; raspasy's first two by the talon card's suit, P10)."""
    index = table.tricks_played - 1
    follow = None
    if table.raspasy and table.talon and index < min(2, len(table.talon)):
        follow = table.talon[index].suit
    return winner(table.last_trick, table.trump, follow)


# ---- a player's private message -----------------------------------------------------------------


def hand_message(
    lang: str,
    view: PrefSeatView,
    table_id: int,
    deal_no: int,
    step: int,
    chat_title: str,
    selection: Sequence[Card] = (),
    *,
    voided: bool = False,
    end: Match | None = None,
) -> Rendered:
    """A player's control message: his hand (and his discard, if declarer; the talon he took,
    P5), and when he decides, what the table shows that he decides on (`_situation`), the
    question and exactly the legal actions as buttons; in light play the whister's message
    shows the passer's hand and gets the buttons for it in its turn (P7). The dealer of four
    is told he sits out and what the table is doing (P1); `voided`: the pulya was stopped in
    this deal (P14); `end`: the pulya is over, and the message ends with his settlement (P16)."""
    ui = UI
    table = view.table
    names = [shown_name(seat.name) for seat in table.seats]
    lines = [ui.text(lang, "hand.title", title=escape(chat_title), deal_no=deal_no)]
    if view.hand:
        lines.append(ui.text(lang, "hand.cards", cards=cards_text(view.hand, lang, selection)))
    if view.discards:
        lines.append(ui.text(lang, "hand.discards", cards=_cards(lang, view.discards)))
    if table.phase.value in ("discard", "contract"):
        if view.taken:  # P5, P9: the declarer sees which cards came from the talon
            lines.append(ui.text(lang, "hand.from_talon", cards=_cards(lang, view.taken)))
        elif table.talon and not table.raspasy:
            lines.append(ui.text(lang, "table.talon", cards=_cards(lang, table.talon)))
    rows: list[list[InlineKeyboardButton]] = []
    playing = not voided and not table.finished
    if table.seats[view.seat].role == "out" and playing:  # P1: the dealer of four
        lines.append(ui.text(lang, "hand.out"))
        bid = _bid_line(lang, table, names)
        lines += [bid] if bid else []
        lines += [phase_line(lang, table, names)] if table.to_act is not None else []
    elif view.legal:
        lines += _situation(lang, view, names)
        if table.to_act != view.seat and table.to_act is not None:
            lines += ["", ui.text(lang, "ask.play_for", name=names[table.to_act])]
        elif table.phase.value == "whisting":
            assert table.declarer is not None and table.contract is not None
            bid = ui.bid_label(lang, table.contract)
            lines += ["", ui.text(lang, "ask.whisting", name=names[table.declarer], bid=bid)]
        else:
            lines += ["", ui.text(lang, f"ask.{table.phase.value}", n=len(selection))]
        rows = _keyboard(lang, view, table_id, deal_no, step, selection)
    elif playing:
        lines += ["", ui.text(lang, "hand.wait")]
    else:
        lines.append(ui.text(lang, "hand.voided" if voided else "hand.deal_over"))
    if end is not None:
        whists, chips = end.balances()[view.seat], end.chips()[view.seat]
        key = "hand.stopped" if end.stopped else "hand.closed"
        values = {"whists": signed(whists), "chips": signed(chips), "n": abs(whists)}
        lines += ["", ui.text(lang, key, **values)]
    return Rendered("\n".join(lines), InlineKeyboardMarkup(rows) if rows else None)


def _situation(lang: str, view: PrefSeatView, names: Sequence[str]) -> list[str]:
    """What the table shows that the player due decides on, for his own message (issue 22):
    the bid to beat (P4); the other defender's word (P6); the contract and the trump, raspasy's
    turned talon (P10), the open hands (P7, P9), the trick with who laid each card and the last
    trick with its taker (P8); whose cards he plays in light play (P7). All from the seat's view."""
    ui = UI
    table = view.table
    phase = table.phase.value
    if phase == "bidding":
        return [_bid_line(lang, table, names) or ui.text(lang, "hand.no_bid")]
    if phase == "whisting":  # the contract is in the question
        return [
            _seat_line(lang, table, seat.seat, names)
            for seat in table.seats
            if seat.seat != view.seat and seat.role in ("whister", "passer", "half_whister")
        ]
    lines = []
    if table.raspasy:
        lines += _raspasy_lines(lang, table)
    elif table.declarer is not None and table.contract is not None:
        bid = ui.bid_label(lang, table.contract)
        contract = ui.text(lang, "table.contract", name=names[table.declarer], bid=bid)
        if phase == "play":
            trump = table.trump
            suit = ui.text(lang, "hand.trump", suit=trump.symbol) if trump else None
            contract += " · " + (suit or ui.text(lang, "hand.no_trump"))
        lines.append(contract)
    for seat in table.seats:
        if not seat.open_hand or seat.seat == view.seat:  # played out: nothing to show
            continue
        playing_for = seat.seat == table.to_act != view.seat  # P7: the passer's, by the whister
        key = "hand.playing_for" if playing_for else "table.open"
        lines.append(ui.text(lang, key, name=names[seat.seat], cards=_cards(lang, seat.open_hand)))
    if table.trick:
        lines.append(ui.text(lang, "table.trick", cards=_laid(lang, table.trick, names)))
    lines += _last_trick_line(lang, table, names)
    return lines


def _keyboard(
    lang: str,
    view: PrefSeatView,
    table_id: int,
    deal_no: int,
    step: int,
    selection: Sequence[Card],
) -> list[list[InlineKeyboardButton]]:
    def button(label: str, code: str, kind: str = "a") -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=callbacks.encode(kind, table_id, deal_no, step, code)
        )

    legal = view.legal
    if legal[0].do is PrefDo.DISCARD:
        # 66 pairs are too many buttons: the cards are toggled, then the chosen pair confirmed.
        # A toggle's code is the selection it leads to (as the shared service's toggle expects);
        # a third card replaces the earlier of the two chosen.
        toggles = [
            button(
                ("✖️ " if c in selection else "") + card_label(c, lang),
                _toggled(selection, c),
                kind="t",
            )
            for c in sorted_hand(view.hand)
        ]
        rows = [toggles[i : i + 6] for i in range(0, len(toggles), 6)]
        if len(selection) == 2:
            pair = frozenset(selection)
            chosen = next(a for a in legal if frozenset(a.cards or ()) == pair)
            rows.append([button(UI.button_label(lang, chosen), action_code(chosen))])
        return rows
    plays = sorted(
        (a for a in legal if a.do is PrefDo.PLAY),
        key=lambda a: (suit_order(a.card.suit), a.card.rank) if a.card else (0, 0),
    )
    ladder = [a for a in legal if a.do in (PrefDo.BID, PrefDo.CONTRACT)]
    words = [a for a in legal if a not in plays and a not in ladder]
    rows = []
    for group in (plays, ladder):
        buttons = [button(UI.button_label(lang, a), action_code(a)) for a in group]
        rows += [buttons[i : i + ROW] for i in range(0, len(buttons), ROW)]
    if words:
        rows.append([button(UI.button_label(lang, a), action_code(a)) for a in words])
    return rows


# ---- results ------------------------------------------------------------------------------------


def result_lines(lang: str, line: Line, names: Sequence[str], deal_no: int) -> list[str]:
    """A deal's lines: what was played and how it ended, then what each player wrote and why,
    as the engine scored it ('Alice: pulya +4 (7♥ made)'), then each of P15's overflow moves
    in words."""
    ui = UI
    shown = [shown_name(name) for name in names]
    outcome = line.outcome
    if outcome.contract is None:
        head = ui.text(lang, "result.raspasy", deal_no=deal_no)
    else:
        assert outcome.declarer is not None
        declarer, bid = shown[outcome.declarer], ui.bid_label(lang, outcome.contract)
        took = (outcome.tricks or ())[outcome.declarer] if outcome.tricks else None
        if outcome.kind in ("uncontested", "half_whist"):
            head = ui.text(lang, f"result.{outcome.kind}", deal_no=deal_no, name=declarer, bid=bid)
        elif outcome.made:
            head = ui.text(lang, "result.made", deal_no=deal_no, name=declarer, bid=bid, n=took)
        else:
            head = ui.text(lang, "result.failed", deal_no=deal_no, name=declarer, bid=bid, n=took)
    out = [head]
    for seat, name in enumerate(shown):
        items = [
            _entry_text(lang, entry, outcome, shown) for entry in line.scored if entry.seat == seat
        ]
        if items:
            out.append(ui.text(lang, "result.line", name=name, items="; ".join(items)))
    for move in line.overflow:  # P15
        name = shown[move.seat]
        if move.to is None:
            out.append(ui.text(lang, "result.overflow_gora", name=name, n=move.points))
        else:
            out.append(
                ui.text(lang, "result.overflow", name=name, n=move.points,
                        other=shown[move.to], whists=move.whists)
            )  # fmt: skip
    return out


def _entry_text(lang: str, entry: Entry, outcome: Outcome, shown: Sequence[str]) -> str:
    """One entry as the sheet got it and why, as the engine scored it: 'pulya +4 (7♥ made)',
    'whists on Alice 8 (2 tricks, 4 a trick)', 'mountain +4 (1 trick short of the whister's
    share, 4 a trick)'."""
    ui = UI
    if entry.column == "whists":
        assert entry.on is not None
        written = ui.text(lang, "result.whists", value=entry.value, name=shown[entry.on])
    else:
        written = ui.text(lang, f"result.{entry.column}", value=signed(entry.value))
    reason: str = entry.reason
    if reason == "contract":
        assert outcome.contract is not None
        reason = "down" if entry.count else "made"
    elif reason == "misere" and entry.count:
        reason = "misere_tricks"
    elif reason == "raspasy" and entry.column == "pulya":
        reason = "raspasy_clean"
    bid = ui.bid_label(lang, outcome.contract) if outcome.contract else ""
    why = ui.text(lang, f"why.{reason}", n=entry.count, each=entry.each, bid=bid)
    return ui.text(lang, "result.item", entry=written, why=why)


def settlement_lines(
    lang: str, names: Sequence[str], whists: Sequence[int], price: int, *, stopped: bool
) -> list[str]:
    """The end of the pulya: each player's balance in whists and in chips (P16; P14's top-up
    when stopped early)."""
    head = UI.text(lang, "result.stopped" if stopped else "result.closed", price=price)
    return [head] + [
        UI.text(
            lang, "result.settle", name=shown_name(who), whists=signed(w), chips=signed(w * price)
        )
        for who, w in zip(names, whists, strict=True)
    ]


def standing_text(lang: str, match: Match) -> str:
    """A pulya in play for /balance and /top: chips move when it closes; each player's
    settlement in whists and chips were it closed now (P16, with P14's top-up)."""
    price = match.whist_price
    rows = settlement_lines(lang, match.names, match.balances(), price, stopped=True)[1:]
    return "\n".join([UI.text(lang, "standing", price=price), *rows])


def result_message(lang: str, line: Line | None, match: Match) -> Rendered:
    """The group's message after a deal: its result lines (None: none, the pulya was stopped
    mid-deal), once the pulya is over the settlement in whists and chips, then where the sheet
    is."""
    lines = [] if line is None else result_lines(lang, line, match.names, match.sheet.deals)
    if match.finished:
        lines += settlement_lines(
            lang, match.names, match.balances(), match.whist_price, stopped=match.stopped
        )
    lines.append(UI.text(lang, "result.sheet"))  # the sheet the result was written on
    return Rendered("\n".join(lines))


def sheet_photo(lang: str, match: Match) -> tuple[bytes, str]:
    """The pulya sheet as a PNG and its caption; settled once the pulya is over (P16)."""
    figures = SheetFigures.of(match.sheet, match.names, settled=match.finished)
    return render_sheet(figures, lang)


# ---- helpers ------------------------------------------------------------------------------------


def _toggled(selection: Sequence[Card], card: Card) -> str:
    """The discard selection after pressing `card`, as a toggle's callback code."""
    if card in selection:
        chosen = [c for c in selection if c != card]
    else:
        chosen = [*selection[-1:], card] if len(selection) >= 2 else [*selection, card]
    return callbacks.cards_code(chosen)


def toggle_selection(view: PrefSeatView, code: str) -> tuple[Card, ...]:
    """The discard selection a toggle press asks for; BadCallback unless it is at most two
    cards of the declarer's hand while he discards (P5)."""
    chosen = callbacks.parse_cards_code(code)
    discarding = any(a.do is PrefDo.DISCARD for a in view.legal)
    if not discarding or len(chosen) > 2 or any(c not in view.hand for c in chosen):
        raise callbacks.BadCallback(code)
    return chosen


def _cards(lang: str, cards: Sequence[Card]) -> str:
    return cards_text(cards, lang)


def _plays(lang: str, plays: Sequence[Play]) -> str:
    return " ".join(card_label(play.card, lang) for play in plays)


def _laid(lang: str, plays: Sequence[Play], names: Sequence[str]) -> str:
    """A trick in order with who laid each card: 'Anna A♠, Boris 10♠'."""
    return ", ".join(f"{names[play.seat]} {card_label(play.card, lang)}" for play in plays)
